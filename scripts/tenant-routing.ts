// Does a statement route to one shard when the tenant tables are distributed by `tenant_id` (Citus)?
// Issue 19 point 3; scripts/check-tenant-routing.ts runs this over every statement the test suite
// sent to PostgreSQL. Row-level security keeps tenants apart on a sharded cluster too, but it does
// not route: its condition reads a session setting the coordinator cannot plan with. Only a
// condition in the statement itself sends it to one shard.
//
// Statements are parsed by PostgreSQL's own parser (libpg-query, the WASM build of libpg_query),
// so what is checked is the statement's syntax tree, never its text. The rule, per statement:
//
// - Every reference to a tenant table (a table of the public schema with a `tenant_id` column) in
//   FROM, JOIN, a subquery at any depth, a CTE, or the target of UPDATE / DELETE must have its
//   `tenant_id` *pinned*: some conjunct at the top level of that reference's own WHERE (or of the ON
//   of a join it takes part in; USING (tenant_id) counts as ON) is `<tenant_id> = <x>` (or
//   `<tenant_id> IN (<x>)`) where <x> is a parameter, a non-null constant (casts allowed), or a column
//   already pinned: another table's tenant_id, an outer query's column (correlated subquery), any
//   column pinned in turn (`c.tenant_id = t.id and t.id = $1`), or a subquery's / CTE's output column
//   whose expression is pinned inside it. This is what Citus's router planner needs to prune every
//   distributed table of the statement to one shard.
//   A condition under OR or NOT, or an equality to anything else (a function such as
//   app_current_tenant(), `= any($1)`) does not pin. A condition in the ON of an outer join pins only
//   its nullable side (LEFT JOIN: the right-hand relations); a condition never pins a relation of an
//   enclosing query (an EXISTS that filters the outer rows by tenant is not trusted to route them).
// - INSERT: the column list names tenant_id (each row then routes by its own value); INSERT …
//   SELECT and subqueries in VALUES are checked as above. ON CONFLICT targets and DO UPDATE need
//   nothing more: they act on the row being inserted.
// - UPDATE … SET tenant_id is a violation: a distributed table cannot move a row between shards.
// - COPY into a tenant table must list tenant_id; COPY out of one (all tenants) is a violation.
//   MERGE on a tenant table is reported as not analysed.
// - A text that contains any DDL (CREATE / ALTER / DROP / GRANT / DO / …; migrations and test
//   fixtures) is not checked, only counted by kind. Transaction control, SET / SHOW, LISTEN /
//   NOTIFY and statements that use no tenant table (select 1, set_config, catalog queries, the
//   `tenant` registry, a reference table) pass.
//
// Limits: what a statement does inside functions it calls, triggers or policies is not visible;
// NATURAL joins and a join's own alias (`(a join b on …) as j`) are not resolved; a condition on a
// subquery's or CTE's output (`select … from (select … from contract) s where s.tenant_id = $1`) does
// not pin the tables inside it (Citus can push it down, this check does not follow it); an
// unqualified column is resolved without the schema, so `tenant_id` alone means the only tenant
// table of its query level (PostgreSQL refuses it as ambiguous otherwise), and other unqualified
// columns only resolve in a query level with one relation; tables pinned to different parameters
// (`c.tenant_id = $1 … h.tenant_id = $2`) are trusted to receive the same tenant, which the service
// binds from the request.
import {
  fingerprintSync,
  loadModule,
  parseSync,
  type A_Expr,
  type ColumnRef,
  type CommonTableExpr,
  type DeleteStmt,
  type InsertStmt,
  type JoinExpr,
  type Node,
  type RangeVar,
  type ResTarget,
  type SelectStmt,
  type UpdateStmt,
  type WithClause,
} from 'libpg-query'

/** Loads the parser (WASM); call once before analyzeSql. */
export async function loadParser(): Promise<void> {
  await loadModule()
}

/** Why one reference to a tenant table does not route. */
export type Finding = { table: string; ref: string; reason: string }

export type StatementReport = {
  sql: string
  /** libpg_query's fingerprint: equal for texts that differ only in constants and whitespace. */
  fingerprint: string
  /**
   * tenant: uses a tenant table, so it is checked; plain: uses none; ddl: holds DDL or other
   * utility statements (ignored); unparseable: the parser refused it (a violation: nothing is proven).
   */
  category: 'tenant' | 'plain' | 'ddl' | 'unparseable'
  /** The statement node kinds of the text (SelectStmt, CreateStmt, …). */
  kinds: string[]
  /** The tenant tables the text uses. */
  tables: string[]
  violations: Finding[]
  error?: string
}

const TENANT_COLUMN = 'tenant_id'

/** Utility statements that never touch a table's rows. */
const SESSION_KINDS = new Set([
  'TransactionStmt',
  'VariableSetStmt',
  'VariableShowStmt',
  'DiscardStmt',
  'ListenStmt',
  'UnlistenStmt',
  'NotifyStmt',
  'DeallocateStmt',
  'CheckPointStmt',
  'ClosePortalStmt',
  'FetchStmt',
])
/** Statements whose rows this module analyses. */
const DML_KINDS = new Set([
  'SelectStmt',
  'InsertStmt',
  'UpdateStmt',
  'DeleteStmt',
  'MergeStmt',
  'CopyStmt',
  'ExplainStmt',
  'DeclareCursorStmt',
  'PrepareStmt',
])

type Relation = {
  /** The name the statement refers to it by: its alias, else its name. */
  readonly ref: string
  /** The table's name when it is a table of the public schema, else undefined (subquery, CTE, function, catalog). */
  readonly table?: string
  readonly tenant: boolean
  /** For a subquery or CTE: the query levels whose rows it returns (several for UNION …). */
  readonly producers?: Scope[]
  /** Column names given by the alias (`as s(a, b)`) or the CTE (`with s(a, b) as …`). */
  readonly columnNames?: string[]
  /** For the target of an INSERT or COPY FROM: the columns listed (undefined: none listed). */
  readonly inserted?: { columns: string[] | undefined }
}

type Side = { node: Node } | { rel: Relation; column: string }
type Equality = {
  left: Side
  right: Side
  /** The relations this equality may pin; undefined: every relation of its query level. */
  pins?: ReadonlySet<Relation>
}

/** One query level: the relations of its FROM, and the equalities of its WHERE and ONs. */
type Scope = {
  parent?: Scope
  relations: Relation[]
  equalities: Equality[]
  ctes: Map<string, { producers: Scope[]; columns?: string[] }>
  /** The SELECT list, for the output columns of a subquery or CTE. */
  targets?: Node[]
  /** The column references of this level's WHERE and ONs, outside nested queries (to tell "not named" from "not pinned"). */
  conditionRefs: ColumnRef[]
}

type Context = {
  tenantTables: ReadonlySet<string>
  scopes: Scope[]
  findings: Finding[]
  tables: Set<string>
}

function newScope(ctx: Context, parent: Scope | undefined): Scope {
  const scope: Scope = { parent, relations: [], equalities: [], ctes: new Map(), conditionRefs: [] }
  ctx.scopes.push(scope)
  return scope
}

function kindOf(node: Node): string {
  return Object.keys(node)[0] ?? ''
}

function strings(list: Node[] | undefined): string[] {
  return (list ?? []).flatMap((n) => ('String' in n && n.String.sval !== undefined ? [n.String.sval] : []))
}

// ---------------------------------------------------------------------------------------------
// Building the query levels
// ---------------------------------------------------------------------------------------------

/** Analyses a statement node; returns the query levels whose rows it yields (for subqueries and CTEs). */
function statement(node: Node, parent: Scope | undefined, ctx: Context): Scope[] {
  if ('SelectStmt' in node) return select(node.SelectStmt, parent, ctx)
  if ('InsertStmt' in node) return insert(node.InsertStmt, parent, ctx)
  if ('UpdateStmt' in node) return update(node.UpdateStmt, parent, ctx)
  if ('DeleteStmt' in node) return remove(node.DeleteStmt, parent, ctx)
  if ('ExplainStmt' in node) return node.ExplainStmt.query ? statement(node.ExplainStmt.query, parent, ctx) : []
  if ('DeclareCursorStmt' in node) {
    return node.DeclareCursorStmt.query ? statement(node.DeclareCursorStmt.query, parent, ctx) : []
  }
  if ('PrepareStmt' in node) return node.PrepareStmt.query ? statement(node.PrepareStmt.query, parent, ctx) : []
  if ('CopyStmt' in node) {
    const copy = node.CopyStmt
    if (copy.query) return statement(copy.query, parent, ctx)
    if (copy.relation && copy.is_from) {
      const columns = copy.attlist ? strings(copy.attlist) : undefined
      tableRelation(copy.relation, newScope(ctx, parent), ctx, { target: true, inserted: { columns } })
    } else if (copy.relation && isTenantTable(copy.relation, ctx)) {
      const table = copy.relation.relname ?? ''
      ctx.tables.add(table)
      ctx.findings.push({ table, ref: table, reason: 'COPY … TO reads every tenant' })
    }
    return []
  }
  // MERGE, and anything else holding a tenant table: not analysed, so not proven.
  for (const rv of rangeVars(node)) {
    if (isTenantTable(rv, ctx)) {
      ctx.tables.add(rv.relname ?? '')
      ctx.findings.push({
        table: rv.relname ?? '',
        ref: rv.alias?.aliasname ?? rv.relname ?? '',
        reason: `${kindOf(node)} on a tenant table is not analysed`,
      })
    }
  }
  return []
}

/** A scope without relations holding the CTEs of a WITH; the statement's own level hangs below it. */
function withScope(clause: WithClause | undefined, parent: Scope | undefined, ctx: Context): Scope | undefined {
  if (!clause?.ctes?.length) return parent
  const holder = newScope(ctx, parent)
  for (const item of clause.ctes) {
    if (!('CommonTableExpr' in item)) continue
    const cte: CommonTableExpr = item.CommonTableExpr
    const name = cte.ctename ?? ''
    const entry: { producers: Scope[]; columns?: string[] } = { producers: [] }
    if (cte.aliascolnames?.length) entry.columns = strings(cte.aliascolnames)
    // Registered before its query is analysed: a recursive CTE refers to itself.
    holder.ctes.set(name, entry)
    if (cte.ctequery) entry.producers.push(...statement(cte.ctequery, holder, ctx))
  }
  return holder
}

function select(stmt: SelectStmt, parent: Scope | undefined, ctx: Context): Scope[] {
  const holder = withScope(stmt.withClause, parent, ctx)
  if (stmt.op !== undefined && stmt.op !== 'SETOP_NONE') {
    const sides = [stmt.larg, stmt.rarg].flatMap((s) => (s ? select(s, holder, ctx) : []))
    const outer = newScope(ctx, holder)
    expressions([stmt.sortClause, stmt.limitCount, stmt.limitOffset], outer, ctx)
    return sides
  }
  const scope = newScope(ctx, holder)
  for (const item of stmt.fromClause ?? []) fromItem(item, scope, ctx)
  if (stmt.whereClause) conditions(stmt.whereClause, scope, undefined)
  scope.targets = stmt.targetList
  expressions(
    [
      stmt.targetList,
      stmt.whereClause,
      stmt.havingClause,
      stmt.groupClause,
      stmt.sortClause,
      stmt.distinctClause,
      stmt.limitCount,
      stmt.limitOffset,
      stmt.valuesLists,
      stmt.windowClause,
    ],
    scope,
    ctx,
  )
  return [scope]
}

function insert(stmt: InsertStmt, parent: Scope | undefined, ctx: Context): Scope[] {
  const holder = withScope(stmt.withClause, parent, ctx)
  // The SELECT / VALUES does not see the target table: it is its own query level.
  if (stmt.selectStmt) statement(stmt.selectStmt, holder, ctx)
  const scope = newScope(ctx, holder)
  if (stmt.relation) {
    const columns = stmt.cols
      ? stmt.cols.flatMap((c) => ('ResTarget' in c && c.ResTarget.name ? [c.ResTarget.name] : []))
      : undefined
    tableRelation(stmt.relation, scope, ctx, { target: true, inserted: { columns } })
  }
  const conflict = stmt.onConflictClause
  if (conflict) {
    scope.relations.push({ ref: 'excluded', tenant: false })
    expressions([conflict.targetList, conflict.whereClause, conflict.infer?.whereClause], scope, ctx)
  }
  expressions([stmt.returningClause?.exprs], scope, ctx)
  return [scope]
}

function update(stmt: UpdateStmt, parent: Scope | undefined, ctx: Context): Scope[] {
  const holder = withScope(stmt.withClause, parent, ctx)
  const scope = newScope(ctx, holder)
  const target = stmt.relation ? tableRelation(stmt.relation, scope, ctx, { target: true }) : undefined
  for (const item of stmt.fromClause ?? []) fromItem(item, scope, ctx)
  if (stmt.whereClause) conditions(stmt.whereClause, scope, undefined)
  if (target?.tenant) {
    const sets = (stmt.targetList ?? []).some((t) => 'ResTarget' in t && t.ResTarget.name === TENANT_COLUMN)
    if (sets) {
      ctx.findings.push({
        table: target.table ?? target.ref,
        ref: target.ref,
        reason: 'sets tenant_id: a distributed table cannot move a row to another shard',
      })
    }
  }
  expressions([stmt.targetList, stmt.whereClause, stmt.returningClause?.exprs], scope, ctx)
  return [scope]
}

function remove(stmt: DeleteStmt, parent: Scope | undefined, ctx: Context): Scope[] {
  const holder = withScope(stmt.withClause, parent, ctx)
  const scope = newScope(ctx, holder)
  if (stmt.relation) tableRelation(stmt.relation, scope, ctx, { target: true })
  for (const item of stmt.usingClause ?? []) fromItem(item, scope, ctx)
  if (stmt.whereClause) conditions(stmt.whereClause, scope, undefined)
  expressions([stmt.whereClause, stmt.returningClause?.exprs], scope, ctx)
  return [scope]
}

function isTenantTable(rv: RangeVar, ctx: Context): boolean {
  const schema = rv.schemaname ?? 'public'
  return schema === 'public' && rv.relname !== undefined && ctx.tenantTables.has(rv.relname)
}

function findCte(scope: Scope | undefined, name: string) {
  for (let s = scope; s; s = s.parent) {
    const cte = s.ctes.get(name)
    if (cte) return cte
  }
  return undefined
}

/** Adds a table (or CTE) reference to `scope`. */
function tableRelation(
  rv: RangeVar,
  scope: Scope,
  ctx: Context,
  options: { target?: boolean; inserted?: Relation['inserted'] } = {},
): Relation {
  const name = rv.relname ?? ''
  const ref = rv.alias?.aliasname ?? name
  const aliasColumns = rv.alias?.colnames ? strings(rv.alias.colnames) : undefined
  const { target = false, inserted } = options
  // The target of INSERT / UPDATE / DELETE / COPY is always a table, never a CTE.
  const cte = rv.schemaname === undefined && !target ? findCte(scope, name) : undefined
  let rel: Relation
  if (cte) {
    rel = { ref, tenant: false, producers: cte.producers, columnNames: aliasColumns ?? cte.columns }
  } else {
    const tenant = isTenantTable(rv, ctx)
    if (tenant) ctx.tables.add(name)
    const table = (rv.schemaname ?? 'public') === 'public' ? name : undefined
    rel = { ref, table, tenant, inserted, columnNames: aliasColumns }
  }
  scope.relations.push(rel)
  return rel
}

/** Adds the relations of one FROM item to `scope`; returns them (a join's sides, for USING and outer joins). */
function fromItem(node: Node, scope: Scope, ctx: Context): Relation[] {
  if ('RangeVar' in node) return [tableRelation(node.RangeVar, scope, ctx)]
  if ('RangeSubselect' in node) {
    const sub = node.RangeSubselect
    // A LATERAL subquery sees the relations before it; any other only the enclosing queries.
    const producers = sub.subquery ? statement(sub.subquery, sub.lateral ? scope : scope.parent, ctx) : []
    const rel: Relation = {
      ref: sub.alias?.aliasname ?? '',
      tenant: false,
      producers,
      columnNames: sub.alias?.colnames ? strings(sub.alias.colnames) : undefined,
    }
    scope.relations.push(rel)
    return [rel]
  }
  if ('RangeFunction' in node) {
    const fn = node.RangeFunction
    expressions([fn.functions], scope, ctx)
    const rel: Relation = { ref: fn.alias?.aliasname ?? '', tenant: false }
    scope.relations.push(rel)
    return [rel]
  }
  if ('JoinExpr' in node) return join(node.JoinExpr, scope, ctx)
  // RangeTableSample, RangeTableFunc, …: their tables are still found.
  const found: Relation[] = []
  for (const rv of rangeVars(node)) found.push(tableRelation(rv, scope, ctx))
  return found
}

function join(expr: JoinExpr, scope: Scope, ctx: Context): Relation[] {
  const left = expr.larg ? fromItem(expr.larg, scope, ctx) : []
  const right = expr.rarg ? fromItem(expr.rarg, scope, ctx) : []
  // The ON of an outer join filters only its nullable side.
  let pins: ReadonlySet<Relation> | undefined
  switch (expr.jointype) {
    case 'JOIN_LEFT':
      pins = new Set(right)
      break
    case 'JOIN_RIGHT':
      pins = new Set(left)
      break
    case 'JOIN_FULL':
      pins = new Set()
      break
    default:
      pins = undefined
  }
  if (expr.quals) {
    conditions(expr.quals, scope, pins)
    expressions([expr.quals], scope, ctx)
  }
  for (const column of strings(expr.usingClause)) {
    // USING (c) equates the c of both sides; a side's candidates are the relations that may have c.
    const has = (r: Relation) => r.table === undefined || column !== TENANT_COLUMN || r.tenant
    for (const l of left.filter(has)) {
      for (const r of right.filter(has)) {
        scope.equalities.push({ left: { rel: l, column }, right: { rel: r, column }, pins })
      }
    }
  }
  return [...left, ...right]
}

/** Records the column references of a WHERE or ON, and the equalities among its top-level conjuncts. */
function conditions(node: Node, scope: Scope, pins: ReadonlySet<Relation> | undefined): void {
  scope.conditionRefs.push(...columnRefs(node))
  equalities(node, scope, pins)
}

function equalities(node: Node, scope: Scope, pins: ReadonlySet<Relation> | undefined): void {
  if ('BoolExpr' in node) {
    if (node.BoolExpr.boolop === 'AND_EXPR') for (const arg of node.BoolExpr.args ?? []) equalities(arg, scope, pins)
    return
  }
  if (!('A_Expr' in node)) return
  const e: A_Expr = node.A_Expr
  const op = strings(e.name).at(-1)
  if (!e.lexpr || !e.rexpr || op !== '=') return
  if (e.kind === 'AEXPR_OP') {
    scope.equalities.push({ left: { node: e.lexpr }, right: { node: e.rexpr }, pins })
  } else if (e.kind === 'AEXPR_IN' && 'List' in e.rexpr && e.rexpr.List.items?.length === 1) {
    const only = e.rexpr.List.items[0]
    if (only) scope.equalities.push({ left: { node: e.lexpr }, right: { node: only }, pins })
  }
}

const NESTED = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt'])

/** Walks expressions and analyses the queries nested in them, one level below `scope`. */
function expressions(parts: unknown[], scope: Scope, ctx: Context): void {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (value === null || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      if (NESTED.has(key) && child && typeof child === 'object') statement({ [key]: child } as Node, scope, ctx)
      else walk(child)
    }
  }
  walk(parts)
}

/** The column references of an expression, outside the queries nested in it. */
function columnRefs(node: Node): ColumnRef[] {
  const found: ColumnRef[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (value === null || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'ColumnRef' && child && typeof child === 'object') found.push(child as ColumnRef)
      else if (!NESTED.has(key)) walk(child)
    }
  }
  walk(node)
  return found
}

/** Every RangeVar below `node`, for statement kinds that are not analysed. */
function rangeVars(node: unknown): RangeVar[] {
  const found: RangeVar[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if ((key === 'RangeVar' || key === 'relation') && child && typeof child === 'object' && 'relname' in child) {
          found.push(child as RangeVar)
        }
        walk(child)
      }
    }
  }
  walk(node)
  return found
}

// ---------------------------------------------------------------------------------------------
// Pinning
// ---------------------------------------------------------------------------------------------

type Column = { rel: Relation; column: string }

/** The relation and column a column reference denotes, as far as the statement alone tells. */
function resolve(ref: ColumnRef, scope: Scope): Column | undefined {
  const fields = ref.fields ?? []
  if (fields.some((f) => !('String' in f))) return undefined // `*`, `x.*`
  const names = strings(fields)
  const column = names.at(-1)
  if (column === undefined) return undefined
  if (names.length === 1) {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      if (s.relations.length === 0) continue
      if (column === TENANT_COLUMN) {
        const tenant = s.relations.filter((r) => r.tenant)
        if (tenant.length === 1 && tenant[0]) return { rel: tenant[0], column }
        if (tenant.length > 1) return undefined
        // No tenant table here: a subquery, CTE or function may have it; known tables have not.
        const unknown = s.relations.filter((r) => r.table === undefined)
        if (unknown.length === 1 && unknown[0]) return { rel: unknown[0], column }
        if (unknown.length > 1) return undefined
        continue
      }
      return s.relations.length === 1 && s.relations[0] ? { rel: s.relations[0], column } : undefined
    }
    return undefined
  }
  const qualifier = names.at(-2)
  const schema = names.length > 2 ? names.at(-3) : undefined
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const rel = s.relations.find((r) =>
      schema === undefined ? r.ref === qualifier : r.table === qualifier && r.ref === qualifier,
    )
    if (rel) return { rel, column }
  }
  return undefined
}

class Pins {
  readonly #pinned = new Map<Relation, Set<string>>()

  has(c: Column): boolean {
    return this.#pinned.get(c.rel)?.has(c.column) ?? false
  }

  add(c: Column): void {
    const set = this.#pinned.get(c.rel) ?? new Set()
    set.add(c.column)
    this.#pinned.set(c.rel, set)
  }

  /** Whether `c` holds one value for the whole statement: pinned itself, or a subquery's output whose expression is. */
  column(c: Column, depth: number): boolean {
    if (this.has(c)) return true
    const producers = c.rel.producers
    if (!producers?.length || depth > 20) return false
    return producers.every((scope) => {
      const expr = outputExpression(scope, c.column, c.rel.columnNames)
      return expr !== undefined && this.expression(expr, scope, depth + 1)
    })
  }

  expression(node: Node, scope: Scope, depth = 0): boolean {
    if ('ParamRef' in node) return true
    if ('A_Const' in node) return node.A_Const.isnull !== true
    if ('TypeCast' in node) return node.TypeCast.arg !== undefined && this.expression(node.TypeCast.arg, scope, depth)
    if ('ColumnRef' in node) {
      const c = resolve(node.ColumnRef, scope)
      return c !== undefined && this.column(c, depth)
    }
    return false
  }

  side(side: Side, scope: Scope): boolean {
    return 'rel' in side ? this.column(side, 0) : this.expression(side.node, scope)
  }
}

/** The expression a query level returns as its output column `column` (renamed by `names`, if given). */
function outputExpression(scope: Scope, column: string, names: string[] | undefined): Node | undefined {
  const targets = (scope.targets ?? []).flatMap((t) => ('ResTarget' in t ? [t.ResTarget] : []))
  const isStar = (t: ResTarget) =>
    t.val !== undefined && 'ColumnRef' in t.val && (t.val.ColumnRef.fields ?? []).some((f) => 'A_Star' in f)
  const renamed = names?.indexOf(column) ?? -1
  if (renamed >= 0) {
    // Positional renaming is only followed when no `*` comes first.
    const before = targets.slice(0, renamed + 1)
    return before.some(isStar) ? undefined : targets[renamed]?.val
  }
  for (const t of targets) {
    if (t.name === column) return t.val
    if (!t.name && t.val && 'ColumnRef' in t.val && !isStar(t) && strings(t.val.ColumnRef.fields).at(-1) === column) {
      return t.val
    }
  }
  const star = targets.find(isStar)
  if (star?.val && 'ColumnRef' in star.val) {
    const qualifier = strings(star.val.ColumnRef.fields)
    return { ColumnRef: { fields: [...qualifier, column].map((sval) => ({ String: { sval } })) } }
  }
  return undefined
}

function pinAll(ctx: Context): Pins {
  const pins = new Pins()
  const target = (side: Side, scope: Scope): Column | undefined => {
    if ('rel' in side) return side
    return 'ColumnRef' in side.node ? resolve(side.node.ColumnRef, scope) : undefined
  }
  for (let changed = true; changed;) {
    changed = false
    for (const scope of ctx.scopes) {
      for (const eq of scope.equalities) {
        for (const [from, to] of [
          [eq.left, eq.right],
          [eq.right, eq.left],
        ] as const) {
          const c = target(to, scope)
          // A condition restricts the rows of its own query level only.
          if (!c || !scope.relations.includes(c.rel) || (eq.pins && !eq.pins.has(c.rel)) || pins.has(c)) continue
          if (pins.side(from, scope)) {
            pins.add(c)
            changed = true
          }
        }
      }
    }
  }
  return pins
}

function verdicts(ctx: Context): void {
  const pins = pinAll(ctx)
  const named = new Set<Relation>()
  for (const scope of ctx.scopes) {
    for (const ref of scope.conditionRefs) {
      const c = resolve(ref, scope)
      if (c?.column === TENANT_COLUMN) named.add(c.rel)
    }
    for (const eq of scope.equalities) {
      for (const side of [eq.left, eq.right]) if ('rel' in side && side.column === TENANT_COLUMN) named.add(side.rel)
    }
  }
  for (const scope of ctx.scopes) {
    for (const rel of scope.relations) {
      if (!rel.tenant) continue
      const table = rel.table ?? rel.ref
      if (rel.inserted) {
        // Each row goes to the shard of its own tenant_id.
        if (!rel.inserted.columns?.includes(TENANT_COLUMN)) {
          const reason = rel.inserted.columns ? 'the column list does not name tenant_id' : 'no column list'
          ctx.findings.push({ table, ref: rel.ref, reason })
        }
      } else if (!pins.has({ rel, column: TENANT_COLUMN })) {
        const reason = named.has(rel)
          ? `tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column`
          : `no condition on ${rel.ref}.tenant_id`
        ctx.findings.push({ table, ref: rel.ref, reason })
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Statements and reports
// ---------------------------------------------------------------------------------------------

/** Checks one statement text (possibly several statements) against the tenant tables. Call loadParser() first. */
export function analyzeSql(sql: string, tenantTables: ReadonlySet<string>): StatementReport {
  let stmts: Node[]
  let fingerprint: string
  try {
    stmts = (parseSync(sql).stmts ?? []).flatMap((s) => (s.stmt ? [s.stmt] : []))
    fingerprint = fingerprintSync(sql)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      sql,
      fingerprint: `text:${sql}`,
      category: 'unparseable',
      kinds: [],
      tables: [],
      violations: [],
      error: message,
    }
  }
  const kinds = stmts.map(kindOf)
  const base = { sql, fingerprint, kinds }
  // Migrations and test fixtures: DDL with whatever data statements travel in the same text.
  if (kinds.some((k) => !SESSION_KINDS.has(k) && !DML_KINDS.has(k))) {
    return { ...base, category: 'ddl', tables: [], violations: [] }
  }
  const ctx: Context = { tenantTables, scopes: [], findings: [], tables: new Set() }
  for (const stmt of stmts) if (DML_KINDS.has(kindOf(stmt))) statement(stmt, undefined, ctx)
  verdicts(ctx)
  return {
    ...base,
    category: ctx.tables.size > 0 ? 'tenant' : 'plain',
    tables: [...ctx.tables].toSorted(),
    violations: ctx.findings,
  }
}

/** An allowed cross-tenant statement: by fingerprint (exact) or by a regular expression on its text. */
export type RoutingException = { fingerprint?: string; pattern?: string; reason: string }

export function parseExceptions(json: unknown): RoutingException[] {
  if (!Array.isArray(json)) throw new Error('the exceptions file must hold a JSON array')
  return json.map((item: unknown, i) => {
    const e = (item ?? {}) as Record<string, unknown>
    const { fingerprint, pattern, reason } = e
    const ok =
      typeof reason === 'string' &&
      reason.trim() !== '' &&
      (typeof fingerprint === 'string') !== (typeof pattern === 'string') &&
      Object.keys(e).every((k) => ['fingerprint', 'pattern', 'reason'].includes(k))
    if (!ok) throw new Error(`exception ${i}: expected { "fingerprint" or "pattern", "reason" }`)
    if (typeof pattern === 'string') {
      try {
        RegExp(pattern)
      } catch (error) {
        throw new Error(`exception ${i}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
      }
    }
    return {
      fingerprint: fingerprint as string | undefined,
      pattern: pattern as string | undefined,
      reason: reason as string,
    }
  })
}

export type Summary = {
  texts: number
  /** Distinct statements: texts grouped by fingerprint. */
  statements: number
  plain: number
  tenant: number
  passing: number
  excepted: { report: StatementReport; exception: RoutingException }[]
  ddl: Map<string, number>
  violations: StatementReport[]
  unparseable: StatementReport[]
  unusedExceptions: RoutingException[]
}

export function summarize(reports: StatementReport[], exceptions: RoutingException[]): Summary {
  const byFingerprint = new Map<string, StatementReport>()
  for (const r of reports) {
    const seen = byFingerprint.get(r.fingerprint)
    // Texts with one fingerprint have one shape; keep a violating one if any differs (it should not).
    if (!seen || (seen.violations.length === 0 && r.violations.length > 0)) byFingerprint.set(r.fingerprint, r)
  }
  const patterns = exceptions.map((e) => (e.pattern === undefined ? undefined : new RegExp(e.pattern)))
  const used = new Set<RoutingException>()
  const summary: Summary = {
    texts: reports.length,
    statements: byFingerprint.size,
    plain: 0,
    tenant: 0,
    passing: 0,
    excepted: [],
    ddl: new Map(),
    violations: [],
    unparseable: [],
    unusedExceptions: [],
  }
  for (const report of byFingerprint.values()) {
    if (report.category === 'unparseable') summary.unparseable.push(report)
    else if (report.category === 'plain') summary.plain++
    else if (report.category === 'ddl') {
      for (const kind of new Set(report.kinds)) summary.ddl.set(kind, (summary.ddl.get(kind) ?? 0) + 1)
    } else {
      summary.tenant++
      if (report.violations.length === 0) {
        summary.passing++
        continue
      }
      const i = exceptions.findIndex(
        (e, j) => e.fingerprint === report.fingerprint || (patterns[j]?.test(report.sql) ?? false),
      )
      const exception = exceptions[i]
      if (exception) {
        used.add(exception)
        summary.excepted.push({ report, exception })
      } else summary.violations.push(report)
    }
  }
  summary.unusedExceptions = exceptions.filter((e) => !used.has(e))
  return summary
}

function oneLine(sql: string, max: number): string {
  const flat = sql.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

export function formatSummary(s: Summary, maxSql = 400): string {
  const lines = [
    `tenant routing: ${s.statements} distinct statements (${s.texts} texts)`,
    `  on tenant tables: ${s.tenant}, routed to one shard: ${s.passing}, allowed exceptions: ${s.excepted.length}, violations: ${s.violations.length}`,
    `  on no tenant table: ${s.plain}; unparseable: ${s.unparseable.length}`,
    `  texts with DDL or other utility statements, not checked, by kind: ${[...s.ddl].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
  ]
  for (const { report, exception } of s.excepted) {
    lines.push(`allowed (${exception.reason}): [${report.fingerprint}] ${oneLine(report.sql, 160)}`)
  }
  for (const e of s.unusedExceptions) {
    lines.push(`warning: exception matched no statement: ${e.fingerprint ?? `/${e.pattern}/`} (${e.reason})`)
  }
  s.violations.forEach((report, i) => {
    lines.push('', `violation ${i + 1} [fingerprint ${report.fingerprint}] tables: ${report.tables.join(', ')}`)
    for (const f of report.violations)
      lines.push(`  ${f.ref === f.table ? f.table : `${f.table} as ${f.ref}`}: ${f.reason}`)
    lines.push(`  sql: ${oneLine(report.sql, maxSql)}`)
  })
  for (const report of s.unparseable) {
    lines.push('', `unparseable (${report.error ?? 'parse error'}):`, `  sql: ${oneLine(report.sql, maxSql)}`)
  }
  return lines.join('\n')
}
