// Distribution by tenant (Citus): the rules a schema must follow so that every tenant table can be
// hash-distributed by `tenant_id` into one co-location group, checked against the catalog of the
// migrated database, and the statements an operator runs on a Citus coordinator to do it
// (`npm run admin -- db distribute --print`, docs/cli.md).
//
// Tables of schema public fall in three kinds:
// - tenant tables: they have a `tenant_id` column; distributed by it;
// - coordinator-local tables: the migrator's own bookkeeping (Kysely's migration and lock tables).
//   Only the migrator reads them, and it runs against the coordinator, so they stay ordinary tables
//   there (Citus' "local tables": no distribution key, not joined to other tables);
// - reference tables: every other table without `tenant_id` (the tenant registry, global lookups),
//   replicated to every worker so that tenant tables can keep their foreign keys to them.
//
// What Citus requires, and so what is checked: every primary key, unique constraint, unique index
// and exclusion constraint of a distributed table contains the distribution column; a foreign key
// between distributed tables pairs the distribution columns of both sides (and they are co-located,
// hence one column type); a foreign key from a reference table to a distributed table is not
// supported; a local table takes no part in foreign keys with distributed or reference tables; and a
// referenced table is distributed before the tables referencing it, which a foreign-key cycle makes
// impossible. A nullable `tenant_id` would leave rows that belong to no shard.
import { sql } from 'kysely'
import type { Executor } from './database.ts'

/** The distribution column; a table with a column of this name is a tenant table. */
export const DISTRIBUTION_COLUMN = 'tenant_id'

/** Tables that stay ordinary tables on the coordinator: the migrator's bookkeeping (Kysely's default names). */
export const COORDINATOR_LOCAL_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock']

export type CatalogTable = {
  name: string
  /** The type of `tenant_id` (format_type), or null when the table has no such column. */
  tenantIdType: string | null
  tenantIdNotNull: boolean
}

/** A primary key, unique constraint, exclusion constraint or unique index (constraints are named by the constraint). */
export type CatalogUniqueIndex = {
  table: string
  name: string
  kind: 'primary key' | 'unique constraint' | 'exclusion constraint' | 'unique index'
  /** Key columns in order: a column name, or an expression's text. INCLUDE columns are not keys. */
  keys: string[]
  /** The WHERE clause of a partial index, or null. */
  predicate: string | null
}

export type CatalogForeignKey = {
  table: string
  name: string
  columns: string[]
  referencedTable: string
  referencedColumns: string[]
}

export type Catalog = {
  tables: CatalogTable[]
  uniqueIndexes: CatalogUniqueIndex[]
  foreignKeys: CatalogForeignKey[]
}

export type Violation = {
  table: string
  /** The constraint or index at fault; null when the fault is the table's (a column, a missing key). */
  constraint: string | null
  problem: string
}

export type DistributionPlan = {
  /** Replicated to every worker; in dependency order. */
  referenceTables: string[]
  /** Distributed by tenant_id, co-located with the first; in dependency order. */
  distributedTables: string[]
  /** Left as they are on the coordinator. */
  localTables: string[]
  /** The `select create_…` statements, in the order to run them. */
  statements: string[]
  /** The whole script to run on the coordinator: header comment, transaction, statements. */
  script: string
}

/** The schema breaks the distribution rules; `violations` lists every fault found. */
export class DistributionRuleError extends Error {
  readonly violations: readonly Violation[]
  constructor(violations: readonly Violation[]) {
    super(
      [
        `the schema cannot be distributed by ${DISTRIBUTION_COLUMN}: ${violations.length} problem${violations.length === 1 ? '' : 's'}`,
        ...violations.map((v) => `  - ${describeViolation(v)}`),
      ].join('\n'),
    )
    this.name = 'DistributionRuleError'
    this.violations = violations
  }
}

export function describeViolation(v: Violation): string {
  return `${v.constraint === null ? v.table : `${v.table}.${v.constraint}`}: ${v.problem}`
}

// Partitions are left out: Citus distributes a partitioned table with its partitions.
const PUBLIC_TABLE = sql`n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`

/** Reads the tables, unique indexes and foreign keys of schema public (pg_catalog: visible to any role). */
export async function readCatalog(db: Executor): Promise<Catalog> {
  const tables = await sql<{ name: string; tenant_id_type: string | null; tenant_id_not_null: boolean | null }>`
    select c.relname as name, format_type(a.atttypid, a.atttypmod) as tenant_id_type, a.attnotnull as tenant_id_not_null
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a
        on a.attrelid = c.oid and a.attname = ${DISTRIBUTION_COLUMN} and a.attnum > 0 and not a.attisdropped
     where ${PUBLIC_TABLE}
     order by c.relname`.execute(db)

  const indexes = await sql<{
    table: string
    index: string
    constraint: string | null
    contype: string | null
    primary: boolean
    keys: string[]
    predicate: string | null
  }>`
    select c.relname as table, ic.relname as index, con.conname as constraint, con.contype::text as contype,
           i.indisprimary as primary,
           array(select pg_get_indexdef(i.indexrelid, k, true) from generate_series(1, i.indnkeyatts) k order by k)::text[] as keys,
           pg_get_expr(i.indpred, i.indrelid, true) as predicate
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_class ic on ic.oid = i.indexrelid
      left join pg_constraint con on con.conindid = i.indexrelid and con.conrelid = i.indrelid and con.contype in ('p', 'u', 'x')
     where ${PUBLIC_TABLE} and (i.indisunique or con.contype = 'x')
     order by c.relname, ic.relname`.execute(db)

  // Constraints inherited by partitions (conparentid <> 0) are the parent's, reported once.
  const foreignKeys = await sql<{
    table: string
    name: string
    columns: string[]
    referenced_table: string
    referenced_columns: string[]
  }>`
    select c.relname as table, con.conname as name,
           array(select a.attname from unnest(con.conkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord)::text[] as columns,
           r.relname as referenced_table,
           array(select a.attname from unnest(con.confkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord)::text[] as referenced_columns
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_class r on r.oid = con.confrelid
      join pg_namespace rn on rn.oid = r.relnamespace
     where con.contype = 'f' and con.conparentid = 0 and ${PUBLIC_TABLE} and rn.nspname = 'public'
     order by c.relname, con.conname`.execute(db)

  return {
    tables: tables.rows.map((t) => ({
      name: t.name,
      tenantIdType: t.tenant_id_type,
      tenantIdNotNull: t.tenant_id_not_null === true,
    })),
    uniqueIndexes: indexes.rows.map((i) => ({
      table: i.table,
      name: i.constraint ?? i.index,
      kind:
        i.contype === 'p' || i.primary
          ? 'primary key'
          : i.contype === 'u'
            ? 'unique constraint'
            : i.contype === 'x'
              ? 'exclusion constraint'
              : 'unique index',
      keys: i.keys,
      predicate: i.predicate,
    })),
    foreignKeys: foreignKeys.rows.map((f) => ({
      table: f.table,
      name: f.name,
      columns: f.columns,
      referencedTable: f.referenced_table,
      referencedColumns: f.referenced_columns,
    })),
  }
}

type Kind = 'tenant' | 'reference' | 'local'

function kinds(catalog: Catalog): Map<string, Kind> {
  const local = new Set(COORDINATOR_LOCAL_TABLES)
  return new Map(
    catalog.tables.map((t) => [t.name, t.tenantIdType !== null ? 'tenant' : local.has(t.name) ? 'local' : 'reference']),
  )
}

const list = (columns: readonly string[]) => `(${columns.join(', ')})`

/**
 * Orders `tables` so that each comes after every table of the set it references by foreign key
 * (self-references ignored), ties by name. `cyclic` holds the tables on foreign-key cycles, which
 * no order can place.
 */
function dependencyOrder(
  tables: readonly string[],
  foreignKeys: readonly CatalogForeignKey[],
): { ordered: string[]; cyclic: string[] } {
  const members = new Set(tables)
  const waitsFor = new Map(tables.map((t) => [t, new Set<string>()]))
  for (const fk of foreignKeys) {
    if (fk.table !== fk.referencedTable && members.has(fk.table) && members.has(fk.referencedTable))
      waitsFor.get(fk.table)?.add(fk.referencedTable)
  }
  const ordered: string[] = []
  const placed = new Set<string>()
  for (;;) {
    const next = [...waitsFor.keys()]
      .filter((t) => !placed.has(t) && [...(waitsFor.get(t) ?? [])].every((r) => placed.has(r)))
      .toSorted()[0]
    if (next === undefined) break
    ordered.push(next)
    placed.add(next)
  }
  // What is left waits on a cycle; drop, until none is left, the tables no other left table waits for
  // (they only depend on a cycle), so that `cyclic` names the tables on cycles.
  const left = new Set(tables.filter((t) => !placed.has(t)))
  for (;;) {
    const awaited = new Set([...left].flatMap((t) => [...(waitsFor.get(t) ?? [])].filter((r) => left.has(r))))
    const loose = [...left].filter((t) => !awaited.has(t))
    if (loose.length === 0) break
    for (const t of loose) left.delete(t)
  }
  return { ordered, cyclic: [...left].toSorted() }
}

/** Every way the catalog breaks the distribution rules (empty when it can be distributed). */
export function catalogViolations(catalog: Catalog): Violation[] {
  const kindOf = kinds(catalog)
  const violations: Violation[] = []
  const tenantTables = catalog.tables.filter((t) => t.tenantIdType !== null)

  // One co-location group needs one distribution column type: report the tables that differ from the most common.
  const typeCounts = new Map<string, number>()
  for (const t of tenantTables) typeCounts.set(t.tenantIdType ?? '', (typeCounts.get(t.tenantIdType ?? '') ?? 0) + 1)
  const commonType = [...typeCounts.entries()].toSorted((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0]

  for (const t of tenantTables) {
    if (!t.tenantIdNotNull)
      violations.push({ table: t.name, constraint: null, problem: `column ${DISTRIBUTION_COLUMN} is nullable` })
    if (t.tenantIdType !== commonType)
      violations.push({
        table: t.name,
        constraint: null,
        problem: `column ${DISTRIBUTION_COLUMN} is ${t.tenantIdType}, the other tenant tables' is ${commonType}: co-located tables need one type`,
      })
    if (!catalog.uniqueIndexes.some((i) => i.table === t.name && i.kind === 'primary key'))
      violations.push({ table: t.name, constraint: null, problem: `has no primary key` })
  }

  for (const i of catalog.uniqueIndexes) {
    if (kindOf.get(i.table) !== 'tenant' || i.keys.includes(DISTRIBUTION_COLUMN)) continue
    const where = i.predicate === null ? '' : ` where ${i.predicate}`
    violations.push({
      table: i.table,
      constraint: i.name,
      problem: `${i.kind} ${list(i.keys)}${where} does not contain ${DISTRIBUTION_COLUMN}`,
    })
  }

  for (const fk of catalog.foreignKeys) {
    const from = kindOf.get(fk.table)
    const to = kindOf.get(fk.referencedTable)
    const shape = `${list(fk.columns)} references ${fk.referencedTable} ${list(fk.referencedColumns)}`
    if (from === 'tenant' && to === 'tenant') {
      const paired = fk.columns.some(
        (c, k) => c === DISTRIBUTION_COLUMN && fk.referencedColumns[k] === DISTRIBUTION_COLUMN,
      )
      if (!paired)
        violations.push({
          table: fk.table,
          constraint: fk.name,
          problem: `foreign key ${shape} does not pair ${DISTRIBUTION_COLUMN} with ${DISTRIBUTION_COLUMN}`,
        })
    } else if (from === 'reference' && to === 'tenant') {
      violations.push({
        table: fk.table,
        constraint: fk.name,
        problem: `foreign key ${shape}: a table without ${DISTRIBUTION_COLUMN} (a reference table) points at a tenant table`,
      })
    } else if ((from === 'local') !== (to === 'local')) {
      violations.push({
        table: fk.table,
        constraint: fk.name,
        problem: `foreign key ${shape} joins a table left local to the coordinator (${COORDINATOR_LOCAL_TABLES.join(', ')}) to one that is not`,
      })
    }
  }

  // A referenced table must be distributed (or made a reference table) before the tables referencing it.
  for (const kind of ['reference', 'tenant'] as const) {
    const tables = catalog.tables.filter((t) => kindOf.get(t.name) === kind).map((t) => t.name)
    const cyclic = new Set(dependencyOrder(tables, catalog.foreignKeys).cyclic)
    for (const fk of catalog.foreignKeys) {
      if (fk.table !== fk.referencedTable && cyclic.has(fk.table) && cyclic.has(fk.referencedTable))
        violations.push({
          table: fk.table,
          constraint: fk.name,
          problem: `foreign key to ${fk.referencedTable} closes a cycle among ${[...cyclic].join(', ')}: no table can be distributed before the others`,
        })
    }
  }

  return violations.toSorted(
    (a, b) =>
      a.table.localeCompare(b.table) ||
      (a.constraint ?? '').localeCompare(b.constraint ?? '') ||
      a.problem.localeCompare(b.problem),
  )
}

/** The violations of the database's current schema. */
export async function distributionViolations(db: Executor): Promise<Violation[]> {
  return catalogViolations(await readCatalog(db))
}

/** A table name as a SQL string literal that Citus reads as a regclass. */
function tableLiteral(name: string): string {
  const identifier = /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`
  return `'${identifier.replaceAll("'", "''")}'`
}

/** The plan for a catalog; throws DistributionRuleError when it breaks the rules. */
export function planDistribution(catalog: Catalog): DistributionPlan {
  const violations = catalogViolations(catalog)
  if (violations.length > 0) throw new DistributionRuleError(violations)
  const kindOf = kinds(catalog)
  const of = (kind: Kind) => catalog.tables.filter((t) => kindOf.get(t.name) === kind).map((t) => t.name)
  const referenceTables = dependencyOrder(of('reference'), catalog.foreignKeys).ordered
  const distributedTables = dependencyOrder(of('tenant'), catalog.foreignKeys).ordered
  const localTables = of('local')
  const [group] = distributedTables
  const statements = [
    ...referenceTables.map((t) => `select create_reference_table(${tableLiteral(t)});`),
    ...distributedTables.map(
      (t) =>
        `select create_distributed_table(${tableLiteral(t)}, '${DISTRIBUTION_COLUMN}', colocate_with => ${
          t === group ? "'none'" : tableLiteral(group ?? t)
        });`,
    ),
  ]
  const script = [
    `-- Citus: distribute this schema by ${DISTRIBUTION_COLUMN}. Printed by \`npm run admin -- db distribute --print\``,
    '-- from the catalog of the migrated database; print it again after every upgrade that migrates.',
    '--',
    '-- Run it once on the Citus coordinator (the database of DATABASE_URL), after `npm run admin -- db migrate`',
    '-- and once the workers are added, e.g. `psql -v ON_ERROR_STOP=1 -f distribute.sql`.',
    '-- One transaction: if a statement fails, no table changes. Sequential mode: inside a transaction, Citus',
    '-- distributes a table with a foreign key to a reference table only over one connection per worker.',
    `-- Reference tables (no ${DISTRIBUTION_COLUMN}; a copy on every worker) come first, then every tenant table,`,
    `-- hash-distributed by ${DISTRIBUTION_COLUMN} in one co-location group (that of ${group ?? 'the first'}),`,
    '-- each after the tables its foreign keys reference.',
    `-- Left as ordinary tables on the coordinator: ${localTables.length > 0 ? localTables.join(', ') : 'none'}`,
    '-- (migration bookkeeping, read by the migrator only).',
    '-- Existing rows are copied to the shards; once the service runs on the cluster, remove the coordinator',
    "-- copies with select truncate_local_data_after_distributing_table('<table>') for each table.",
    '-- After a later migration adds tables, run only their lines: the others fail (already distributed).',
    '-- Tables with triggers (append-only audit and ledger, immutable rate books and documents, the',
    '-- ledger balance check) distribute only with unsafe triggers allowed; each of those triggers reads',
    '-- only rows of its own tenant, which live on the same shard, so they stay correct there.',
    'begin;',
    "set local citus.multi_shard_modify_mode to 'sequential';",
    'set local citus.enable_unsafe_triggers to on;',
    ...statements,
    'commit;',
    '-- The service binds its tenant per transaction with SET LOCAL app.tenant_id; Citus forwards it to',
    '-- the workers a transaction reaches only with this setting, for the role the service connects as',
    '-- (run as that role, or name it instead of current_user):',
    "alter role current_user set citus.propagate_set_commands = 'local';",
    '',
  ].join('\n')
  return { referenceTables, distributedTables, localTables, statements, script }
}

/**
 * Reads the catalog and returns the plan; throws DistributionRuleError, listing every violation,
 * when the schema cannot be distributed (the CLI prints nothing then).
 */
export async function distributionPlan(db: Executor): Promise<DistributionPlan> {
  return planDistribution(await readCatalog(db))
}
