import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import type { Executor } from './database.ts'
import { precompile } from './precompiled.ts'

test('placeholders become the arguments, in the positions the compiled query binds them', async () => {
  const lookup = precompile<[number, string], { id: number }>(2, (db, tenant, email) =>
    db
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', tenant)
      .where('email_address_key', '=', email)
      .where('tenant_id', '=', tenant),
  )
  const seen: Array<{ sql: string; parameters: readonly unknown[] }> = []
  const executor = {
    executeQuery: async (q: { sql: string; parameters: readonly unknown[] }) => {
      seen.push(q)
      return { rows: [{ id: 7 }] }
    },
  }
  assert.deepEqual(await lookup(executor as unknown as Executor, 42, 'a@b.example'), [{ id: 7 }])
  assert.deepEqual(seen[0]?.parameters, [42, 'a@b.example', 42])
  assert.match(seen[0]!.sql, /\$1.*\$2.*\$3/s)
  await lookup(executor as unknown as Executor, 43, 'c@d.example')
  assert.deepEqual(seen[1]?.parameters, [43, 'c@d.example', 43], 'each execution gets its own values')
})

test('a placeholder that is not bound, or is inlined, is refused at compile time', () => {
  assert.throws(
    () =>
      precompile<[number, number], unknown>(2, (db, tenant) =>
        db.selectFrom('app_user').select('id').where('tenant_id', '=', tenant),
      ),
    /does not bind argument 1/,
  )
  assert.throws(
    () =>
      precompile<[string], unknown>(1, (db, tenant) =>
        db.selectFrom('app_user').select('id').where(sql.lit(tenant), '=', 'x'),
      ),
    /inlined/,
  )
})
