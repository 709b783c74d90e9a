// The tenant is bound per transaction, never per session (docs/decisions/0011): behind a
// transaction-pooling proxy the next transaction on a server connection may be another client's,
// so a binding must neither outlive its transaction nor be missing from any statement inside it.
// These run on one connection (the embedded database has one; on PostgreSQL a pool of one), so a
// binding that leaked from one unit of work would be seen by the next.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { beginBoundStatement, openPostgres, type Database, type Executor } from '../src/platform/db/database.ts'
import { createTenant, createTestApp, type TestApp, type TestTenant } from './harness.ts'

let t: TestApp
let a: TestTenant
let b: TestTenant
/** One connection: every unit of work below shares it, as consecutive transactions share a pooled server connection. */
let single: Database

before(async () => {
  t = await createTestApp()
  a = await createTenant(t, 'Binding A')
  b = await createTenant(t, 'Binding B')
  single = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL, 1) : t.db
})
after(async () => {
  if (single !== t.db) await single.close()
  await t.close()
})

const boundTenant = async (x: Executor) =>
  (await sql<{ tenant: string | null }>`select current_setting('app.tenant_id', true) as tenant`.execute(x)).rows[0]
    ?.tenant ?? null
const visibleTenants = async (x: Executor) =>
  (await x.selectFrom('app_user').select('tenant_id').distinct().execute()).map((r) => r.tenant_id)
/** Outside any unit of work: what a statement sees on the connection a finished transaction left. */
const bareBinding = async () =>
  (await sql<{ tenant: string | null }>`select current_setting('app.tenant_id', true) as tenant`.execute(single.kysely))
    .rows[0]?.tenant ?? null

test('every statement of a unit of work runs bound to its tenant, and the binding ends with it', async () => {
  for (const tenant of [a, b, a]) {
    const seen = await single.read(tenant.tenantId, async (x) => [
      await boundTenant(x),
      await visibleTenants(x),
      await boundTenant(x),
    ])
    assert.deepEqual(seen, [String(tenant.tenantId), [tenant.tenantId], String(tenant.tenantId)])
    // A statement after the unit of work, on the same connection, is bound to no tenant.
    assert.ok(['', null].includes(await bareBinding()), 'the binding outlived its transaction')
    assert.deepEqual(await visibleTenants(single.kysely), [])
  }
})

test('a write that rolls back leaves no binding either', async () => {
  await assert.rejects(
    single.transaction(b.tenantId, async (x) => {
      assert.equal(await boundTenant(x), String(b.tenantId))
      throw new Error('roll back')
    }),
    /roll back/,
  )
  assert.ok(['', null].includes(await bareBinding()))
  assert.deepEqual(await single.read(a.tenantId, visibleTenants), [a.tenantId])
})

test('a session binding another client left on a pooled connection is overridden inside a unit of work', async () => {
  // What a transaction pooler can hand over: a server connection on which some other client set a
  // session-level tenant. Our units of work bind their own tenant for their own transaction.
  await single.kysely.connection().execute(async (conn) => {
    await sql`select set_config('app.tenant_id', ${String(b.tenantId)}, false)`.execute(conn)
    try {
      await sql.raw(beginBoundStatement(a.tenantId)).execute(conn)
      assert.deepEqual(await visibleTenants(conn), [a.tenantId])
      await sql`commit`.execute(conn)
    } finally {
      await sql`select set_config('app.tenant_id', '', false)`.execute(conn)
    }
  })
})

test('the bound tenant is an integer id or none, never text spliced into SQL', () => {
  assert.equal(beginBoundStatement(7), "begin; set local app.tenant_id = '7'")
  assert.equal(beginBoundStatement(null), "begin; set local app.tenant_id = ''")
  assert.equal(
    beginBoundStatement(3, { isolationLevel: 'serializable' }),
    "start transaction isolation level serializable; set local app.tenant_id = '3'",
  )
  for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60, "1'; drop table tenant; --" as unknown as number]) {
    assert.throws(() => beginBoundStatement(bad), /not a tenant id/)
  }
})

test('inside a unit of work another tenant is refused, not silently served', async () => {
  await assert.rejects(
    single.read(a.tenantId, () => single.read(b.tenantId, visibleTenants)),
    /another tenant inside a unit of work/,
  )
})
