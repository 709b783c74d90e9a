// Two instances of the service on one PostgreSQL database, each with a cache-invalidation bus of its
// own (its own LISTEN connection, to DATABASE_LISTEN_URL as src/server.ts opens it): a change made
// through one instance reaches the other's cache through PostgreSQL NOTIFY, not through memory they
// share (the module tests' "second instance" shares its bus in-process). Behind PgBouncer
// (scripts/with-pgbouncer.sh) the requests go through the pooler and the buses past it.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createInvalidationBus } from '../src/platform/cache.ts'
import { closeAtEnd, createTenant, createTestApp, type TestApp } from './harness.ts'

const LISTEN_URL = process.env.DATABASE_LISTEN_URL || process.env.DATABASE_URL
const quiet = { info() {}, warn() {}, error() {} }

/** Waits until `check` holds, polling; fails naming `what` after `seconds`. */
async function eventually(what: string, check: () => Promise<boolean>, seconds = 10): Promise<void> {
  const deadline = Date.now() + seconds * 1000
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`still not true after ${seconds} s: ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function postgresBus() {
  const bus = await createInvalidationBus(LISTEN_URL, { log: quiet })
  closeAtEnd(() => bus.close())
  return bus
}

test(
  'a setting changed through one instance is seen by the other, which had it cached',
  {
    skip: LISTEN_URL ? false : 'needs DATABASE_URL: the embedded database has one owner process and an in-process bus',
  },
  async () => {
    const a = await createTestApp({ bus: await postgresBus() })
    const b = await createTestApp({ bus: await postgresBus(), clock: a.clock })
    // The control: an instance whose bus hears nobody keeps what it cached (for the TTL, 5 minutes).
    const deaf = await createTestApp({ clock: a.clock })
    assert.equal(a.bus.status().mode, 'postgres')
    assert.notEqual(a.bus.status().backendPid, b.bus.status().backendPid, 'each bus has a connection of its own')

    const tenant = await createTenant(a)
    const lookBack = (t: TestApp) => t.modules.settings.service.get(tenant.tenantId, 'saleDateLookBackDays')
    const setting = (t: TestApp, method: 'PUT' | 'DELETE') =>
      t.app.inject({
        method,
        url: '/api/generalsettings/saleDateLookBackDays',
        headers: tenant.headers,
        ...(method === 'PUT' ? { payload: { value: 85 } } : {}),
      })
    for (const t of [a, b, deaf]) assert.equal(await lookBack(t), 60, 'the default, now cached')

    assert.equal((await setting(a, 'PUT')).statusCode, 200)
    await eventually('B sees the value A wrote', async () => (await lookBack(b)) === 85)
    assert.equal(await lookBack(deaf), 60, 'without the bus the cached value stays')

    assert.equal((await setting(b, 'DELETE')).statusCode, 200)
    await eventually('A sees the reset B made', async () => (await lookBack(a)) === 60)
  },
)
