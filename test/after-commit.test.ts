// Database.afterCommit: work announced by a service runs only once the outermost transaction
// around it has committed (the Idempotency-Key path joins services into the request's transaction),
// never after a rollback, and at once outside any transaction.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { createTenant, createTestApp, type TestApp, type TestTenant } from './harness.ts'

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t, 'After commit')
})
after(() => t.close())

/** Whether another connection sees the tenant's name as `name` (i.e. the change is committed). */
const committedName = async (name: string) => {
  const row = await t.db.read(null, (x) =>
    x.selectFrom('tenant').select('name').where('id', '=', tenant.tenantId).executeTakeFirst(),
  )
  return row?.name === name
}

test('runs at once outside a transaction', async () => {
  let ran = false
  await t.db.afterCommit(() => {
    ran = true
  })
  assert.equal(ran, true)
})

test('runs after the commit of the outermost transaction, nested ones included', async () => {
  const seen: boolean[] = []
  await t.db.transaction(tenant.tenantId, async (tx) => {
    await sql`update tenant set name = 'After commit 2' where id = ${tenant.tenantId}`.execute(tx)
    // A service's own transaction joined into the outer one, as under Idempotency-Key.
    await t.db.transaction(tenant.tenantId, async () => {
      await t.db.afterCommit(async () => {
        seen.push(await committedName('After commit 2'))
      })
    })
    await t.db.withAmbient(tenant.tenantId, tx, () =>
      t.db.afterCommit(async () => {
        seen.push(await committedName('After commit 2'))
      }),
    )
    assert.deepEqual(seen, [], 'nothing runs before the commit')
  })
  assert.deepEqual(seen, [true, true])
})

test('does not run when the transaction rolls back', async () => {
  let ran = false
  await assert.rejects(
    t.db.transaction(tenant.tenantId, async () => {
      await t.db.afterCommit(() => {
        ran = true
      })
      throw new Error('roll back')
    }),
    /roll back/,
  )
  assert.equal(ran, false)
})
