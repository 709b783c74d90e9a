// Row-level security binds the application role itself: without a tenant nothing is visible, and
// no tenant can write another tenant's rows, whatever the SQL says.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { createTenant, createTestApp, type TestApp, type TestTenant } from './harness.ts'

let t: TestApp
let a: TestTenant
let b: TestTenant

before(async () => {
  t = await createTestApp()
  a = await createTenant(t, 'A')
  b = await createTenant(t, 'B')
})
after(() => t.close())

test('the application role is neither superuser nor BYPASSRLS, and tenant tables force RLS', async () => {
  const role = await t.db.read(null, (x) =>
    sql<{
      rolsuper: boolean
      rolbypassrls: boolean
    }>`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`.execute(x),
  )
  assert.deepEqual(role.rows[0], { rolsuper: false, rolbypassrls: false })
  const tables = await t.db.read(null, (x) =>
    sql<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>`
    select c.relname, c.relrowsecurity, c.relforcerowsecurity from pg_class c join pg_attribute a on a.attrelid = c.oid
    where a.attname = 'tenant_id' and c.relkind = 'r' and c.relnamespace = 'public'::regnamespace`.execute(x),
  )
  assert.ok(tables.rows.length >= 10)
  for (const r of tables.rows) assert.ok(r.relrowsecurity && r.relforcerowsecurity, r.relname)
})

test('without a tenant no tenant-owned row is visible', async () => {
  const rows = await t.db.read(null, (x) => x.selectFrom('app_user').select('id').execute())
  assert.equal(rows.length, 0)
})

test('a query that forgets its tenant filter still sees only its own tenant', async () => {
  const rows = await t.db.read(a.tenantId, (x) => x.selectFrom('app_user').select('tenant_id').execute())
  assert.ok(rows.length > 0)
  assert.ok(rows.every((r) => r.tenant_id === a.tenantId))
})

test("writing another tenant's rows is refused by the database", async () => {
  await assert.rejects(
    t.db.transaction(a.tenantId, (tx) =>
      tx
        .insertInto('app_user')
        .values({
          tenant_id: b.tenantId,
          email_address: 'intruder@x.example',
          external_identity: null,
          first_name: null,
          last_name: null,
          phone_number: null,
          password_hash: null,
          expired_date: null,
          account_holder_id: null,
        })
        .execute(),
    ),
    /row-level security/,
  )
  const updated = await t.db.transaction(a.tenantId, (tx) =>
    tx.updateTable('app_user').set({ first_name: 'hacked' }).where('tenant_id', '=', b.tenantId).executeTakeFirst(),
  )
  assert.equal(Number(updated.numUpdatedRows), 0)
})

test('the audit trail is append-only', async () => {
  await assert.rejects(
    t.db.transaction(a.tenantId, (tx) =>
      tx.updateTable('audit_log').set({ action: 'x' }).where('tenant_id', '=', a.tenantId).execute(),
    ),
    /append-only/,
  )
  await assert.rejects(
    t.db.transaction(a.tenantId, (tx) => tx.deleteFrom('audit_log').where('tenant_id', '=', a.tenantId).execute()),
    /append-only/,
  )
})
