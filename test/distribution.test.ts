// The schema stays distributable by tenant (Citus, docs/scale-out.md): read from the catalog of the
// migrated database, on whichever database the suite runs (embedded, or PostgreSQL in CI). A table
// that breaks a rule is named with its constraint; the statements of `db distribute --print` cover
// every table in an order Citus accepts.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import {
  catalogViolations,
  describeViolation,
  distributionPlan,
  distributionViolations,
  DistributionRuleError,
  planDistribution,
  readCatalog,
  type Catalog,
  type Violation,
} from '../src/platform/db/distribution.ts'
import { testDatabase } from './harness.ts'

test('the migrated schema follows every distribution rule', async () => {
  const db = await testDatabase()
  const violations = await db.read(null, distributionViolations)
  assert.deepEqual(violations.map(describeViolation), [])
})

test('tables that break a rule are reported, naming the table and the constraint; the transaction that made them rolls back', async () => {
  const db = await testDatabase()
  const rollback = new Error('rollback')
  let found: Violation[] = []
  let refused: unknown
  // The bad tables exist only inside this transaction, which always rolls back (by throwing), so a
  // failure cannot leave them behind for the other test files sharing the database.
  await db
    .transaction(null, async (tx) => {
      await sql`
        create table zz_dist_nullable (tenant_id bigint references tenant (id), id bigint not null)
      `.execute(tx)
      await sql`
        create table zz_dist_unique (
          tenant_id bigint not null references tenant (id),
          id bigint not null,
          code text not null,
          primary key (tenant_id, id),
          constraint zz_dist_unique_code_key unique (code)
        )
      `.execute(tx)
      await sql`create unique index zz_dist_unique_lower_code on zz_dist_unique (lower(code))`.execute(tx)
      await sql`create unique index zz_dist_unique_partial on zz_dist_unique (id) where code <> ''`.execute(tx)
      // An INCLUDE column is stored, not part of the key: uniqueness is still across tenants.
      await sql`create unique index zz_dist_unique_include on zz_dist_unique (code) include (tenant_id)`.execute(tx)
      await sql`
        create table zz_dist_fk (
          tenant_id bigint not null references tenant (id),
          id bigint not null,
          parent_id bigint,
          parent_code text,
          primary key (tenant_id, id),
          constraint zz_dist_fk_crossed foreign key (tenant_id, parent_id) references zz_dist_unique (id, tenant_id),
          constraint zz_dist_fk_code foreign key (parent_code) references zz_dist_unique (code)
        )
      `.execute(tx)
      await sql`
        create table zz_dist_reference (
          id bigint primary key,
          owner_tenant_id bigint,
          owner_id bigint,
          constraint zz_dist_reference_owner foreign key (owner_tenant_id, owner_id) references zz_dist_unique (tenant_id, id)
        )
      `.execute(tx)
      found = (await distributionViolations(tx)).filter((v) => v.table.startsWith('zz_dist_'))
      refused = await distributionPlan(tx).catch((err: unknown) => err)
      throw rollback
    })
    .catch((err: unknown) => {
      if (err !== rollback) throw err
    })

  assert.deepEqual(found.map(describeViolation), [
    'zz_dist_fk.zz_dist_fk_code: foreign key (parent_code) references zz_dist_unique (code) does not pair tenant_id with tenant_id',
    'zz_dist_fk.zz_dist_fk_crossed: foreign key (tenant_id, parent_id) references zz_dist_unique (id, tenant_id) does not pair tenant_id with tenant_id',
    'zz_dist_nullable: column tenant_id is nullable',
    'zz_dist_nullable: has no primary key',
    'zz_dist_reference.zz_dist_reference_owner: foreign key (owner_tenant_id, owner_id) references zz_dist_unique (tenant_id, id): a table without tenant_id (a reference table) points at a tenant table',
    'zz_dist_unique.zz_dist_unique_code_key: unique constraint (code) does not contain tenant_id',
    'zz_dist_unique.zz_dist_unique_include: unique index (code) does not contain tenant_id',
    'zz_dist_unique.zz_dist_unique_lower_code: unique index (lower(code)) does not contain tenant_id',
    "zz_dist_unique.zz_dist_unique_partial: unique index (id) where code <> ''::text does not contain tenant_id",
  ])
  // The CLI's entry point refuses, listing every problem.
  assert.ok(refused instanceof DistributionRuleError)
  assert.equal(refused.violations.length, found.length)
  for (const v of found) assert.ok(refused.message.includes(describeViolation(v)), describeViolation(v))

  const left = await db.read(
    null,
    async (ex) => (await sql<{ t: string | null }>`select to_regclass('zz_dist_unique')::text as t`.execute(ex)).rows,
  )
  assert.deepEqual(left, [{ t: null }], 'rolled back')
})

test('the statements make the reference tables first, then every tenant table once, after the tables it references', async () => {
  const db = await testDatabase()
  const [catalog, plan] = await db.read(
    null,
    async (ex) => [await readCatalog(ex), await distributionPlan(ex)] as const,
  )
  const tenantTables = catalog.tables.filter((t) => t.tenantIdType !== null).map((t) => t.name)
  assert.ok(tenantTables.includes('contract'))

  assert.deepEqual(plan.referenceTables, ['tenant'])
  assert.deepEqual(plan.localTables, ['kysely_migration', 'kysely_migration_lock'])
  assert.deepEqual(plan.distributedTables.toSorted(), tenantTables.toSorted())
  assert.equal(new Set(plan.distributedTables).size, plan.distributedTables.length)

  const position = new Map(plan.distributedTables.map((t, i) => [t, i]))
  for (const fk of catalog.foreignKeys) {
    const from = position.get(fk.table)
    const to = position.get(fk.referencedTable)
    if (from !== undefined && to !== undefined && fk.table !== fk.referencedTable)
      assert.ok(to < from, `${fk.referencedTable} is distributed before ${fk.table} (${fk.name})`)
  }

  const [first] = plan.distributedTables
  assert.deepEqual(plan.statements, [
    "select create_reference_table('tenant');",
    ...plan.distributedTables.map(
      (t) =>
        `select create_distributed_table('${t}', 'tenant_id', colocate_with => '${t === first ? 'none' : first}');`,
    ),
  ])
  // The script runs them in one transaction, in that order, after its header comment.
  const lines = plan.script.trimEnd().split('\n')
  const body = lines.filter((l) => !l.startsWith('--'))
  assert.deepEqual(body, [
    'begin;',
    "set local citus.multi_shard_modify_mode to 'sequential';",
    'set local citus.enable_unsafe_triggers to on;',
    ...plan.statements,
    'commit;',
    // The tenant binding (SET LOCAL) reaches the workers only with this.
    "alter role current_user set citus.propagate_set_commands = 'local';",
  ])
  assert.ok(lines[0]?.startsWith('-- '))
})

/** A catalog of tenant tables with primary keys (tenant_id, id) and the given foreign keys (columns (tenant_id, x_id) → (tenant_id, id)). */
function syntheticCatalog(tables: string[], references: Array<[string, string]>): Catalog {
  return {
    tables: [
      { name: 'tenant', tenantIdType: null, tenantIdNotNull: false },
      { name: 'kysely_migration', tenantIdType: null, tenantIdNotNull: false },
      ...tables.map((name) => ({ name, tenantIdType: 'bigint', tenantIdNotNull: true })),
    ],
    uniqueIndexes: [
      { table: 'tenant', name: 'tenant_pkey', kind: 'primary key', keys: ['id'], predicate: null },
      ...tables.map((name) => ({
        table: name,
        name: `${name}_pkey`,
        kind: 'primary key' as const,
        keys: ['tenant_id', 'id'],
        predicate: null,
      })),
    ],
    foreignKeys: [
      ...tables.map((name) => ({
        table: name,
        name: `${name}_tenant_id_fkey`,
        columns: ['tenant_id'],
        referencedTable: 'tenant',
        referencedColumns: ['id'],
      })),
      ...references.map(([from, to]) => ({
        table: from,
        name: `${from}_${to}_fkey`,
        columns: ['tenant_id', `${to}_id`],
        referencedTable: to,
        referencedColumns: ['tenant_id', 'id'],
      })),
    ],
  }
}

test('dependency order: referenced tables first, ties by name, self-references ignored; a cycle is a violation', () => {
  const plan = planDistribution(
    syntheticCatalog(
      ['a', 'b', 'c', 'd'],
      [
        ['a', 'c'],
        ['c', 'd'],
        ['b', 'd'],
        ['d', 'd'],
      ],
    ),
  )
  assert.deepEqual(plan.distributedTables, ['d', 'b', 'c', 'a'])
  assert.deepEqual(plan.localTables, ['kysely_migration'])

  const cyclic = syntheticCatalog(
    ['a', 'b', 'c'],
    [
      ['a', 'b'],
      ['b', 'a'],
      ['c', 'a'],
    ],
  )
  assert.deepEqual(catalogViolations(cyclic).map(describeViolation), [
    'a.a_b_fkey: foreign key to b closes a cycle among a, b: no table can be distributed before the others',
    'b.b_a_fkey: foreign key to a closes a cycle among a, b: no table can be distributed before the others',
  ])
  assert.throws(() => planDistribution(cyclic), DistributionRuleError)
})

test('a tenant_id of another type, a foreign key to a coordinator-local table and a unique index without tenant_id are violations', () => {
  const catalog = syntheticCatalog(['a', 'b'], [])
  catalog.tables = catalog.tables.map((t) => (t.name === 'b' ? { ...t, tenantIdType: 'integer' } : t))
  catalog.uniqueIndexes.push({ table: 'a', name: 'a_code_uq', kind: 'unique index', keys: ['code'], predicate: null })
  catalog.foreignKeys.push({
    table: 'a',
    name: 'a_migration_fkey',
    columns: ['migration'],
    referencedTable: 'kysely_migration',
    referencedColumns: ['name'],
  })
  assert.deepEqual(catalogViolations(catalog).map(describeViolation), [
    'a.a_code_uq: unique index (code) does not contain tenant_id',
    'a.a_migration_fkey: foreign key (migration) references kysely_migration (name) joins a table left local to the coordinator (kysely_migration, kysely_migration_lock) to one that is not',
    "b: column tenant_id is integer, the other tenant tables' is bigint: co-located tables need one type",
  ])
})
