// Read-only queries of reinsurance statements, loss ratios and the reconciliation (docs/reporting.md):
// the figures summed in SQL over the reporting book the database keeps (migration 0046: a row per
// sold contract, its movements per day and code), per contract as statement.rules.ts reckons them;
// and the journal's own sums the reconciliation ties the reports to. Nothing here writes. Every statement
// names the tenant on every table it reads.
import { sql, type RawBuilder } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import { centsOf } from '../../platform/money.ts'
import type { EarningsTerms } from '../finance/index.ts'
import { PREMIUM_ENTRY_KINDS } from './bordereau.repository.ts'
import type { Figure } from './statement.rules.ts'

/** The account holder of a kind, by id; undefined when it is not one of the tenant. */
export function accountHolderOfKind(
  x: Executor,
  tenantId: number,
  id: number,
  kind: 'REINSURANCE_COMPANY' | 'INSURER',
) {
  return x
    .selectFrom('account_holder')
    .select(['id', 'business_key', 'display_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirst()
}

/** Every account holder of a kind of the tenant, by id. */
export function accountHoldersOfKind(x: Executor, tenantId: number, kind: 'REINSURANCE_COMPANY' | 'INSURER') {
  return x
    .selectFrom('account_holder')
    .select(['id', 'business_key', 'display_name'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .orderBy('id')
    .execute()
}

/** The dealer group of each of these dealers (as they stand now); dealers in none are left out. */
export async function dealerGroupsOf(x: Executor, tenantId: number, dealerIds: readonly number[]): Promise<number[]> {
  if (dealerIds.length === 0) return []
  const rows = await x
    .selectFrom('account_holder')
    .select('dealer_group_id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...dealerIds])
    .where('dealer_group_id', 'is not', null)
    .execute()
  return rows.map((g) => Number(g.dealer_group_id))
}

/**
 * The book a report reads: the contracts ceded to a company, every ceded contract (the month-end
 * sums' ceded figures), or the gross book (share 100 %, no fees).
 */
export type BookScope = { reinsuranceCompanyId: number } | { ceded: true } | { gross: true }

/** What a contract's earned fraction depends on (migration 0046's `shape`): one row per shape. */
export type ShapeRow = {
  shape: string
  effective_date: string
  expiration_date: string
  term_months: number
  reserve_lines: Array<{ code: string; cents: number | string; earnings: Partial<EarningsTerms> | null }>
}

/**
 * The earned fraction of each shape on each day of a query: shape → per day (t, the index into its
 * days) [numerator, denominator, 'small' when both are below 2^31], decimal strings, exact.
 */
export type ShapeFractions = Record<string, Array<[string, string, 'small' | 'large']>>

/**
 * A query of the book's figures: cumulative figures on `days`, period figures as the difference of
 * two of them (`from` null: since inception), with the fraction of every shape on every day.
 */
export type BookQuery = {
  scope: BookScope
  days: readonly string[]
  periods: ReadonlyArray<{ from: number | null; to: number }>
  fractions: ShapeFractions
}

const ceded = (scope: BookScope) => !('gross' in scope)

const scopeWhere = (scope: BookScope) =>
  'reinsuranceCompanyId' in scope
    ? sql`c.ceded_company_id = ${scope.reinsuranceCompanyId}`
    : 'ceded' in scope
      ? sql`c.ceded_company_id is not null`
      : sql`c.has_reserve`

/** The distinct shapes of a book's contracts, with what their fractions are reckoned from. */
export async function shapesOf(x: Executor, tenantId: number, scope: BookScope): Promise<ShapeRow[]> {
  const { rows } = await sql<ShapeRow>`
    select c.shape, c.effective_date, c.expiration_date, c.term_months, c.reserve_lines
      from (select c.shape, min(c.contract_id) as contract_id
              from reporting_contract c
             where c.tenant_id = ${tenantId} and ${scopeWhere(scope)}
             group by c.shape) s
      join reporting_contract c on c.tenant_id = ${tenantId} and c.contract_id = s.contract_id`.execute(x)
  return rows
}

/**
 * round(x / d), half up (toward +∞ on a tie), of integer expressions, d > 0: ⌊(2x + d) / 2d⌋ with
 * the integer division's truncation corrected to a floor (multiplyCentsByRatio). bigint arithmetic:
 * the callers keep 2x + d within 2^63 (a share: cents × basis points; an earned premium: below 2^31
 * cents × a fraction reduced below 2^31, else migration 0046's numeric reporting_round).
 */
function roundHalfUp(x: string, d: string): string {
  const n = `(2 * (${x}) + (${d}))`
  return `(${n} / (2 * (${d})) - case when ${n} % (2 * (${d})) < 0 then 1 else 0 end)`
}

/**
 * The common table expressions of a book query. `k`: the book's contracts, with the `carry` columns
 * (expressions over reporting_contract c and `joins`, named c0, c1 …). `raw`: one row per contract
 * with a movement that counts (its reserve codes', code '' its claims'), its cumulative movements on
 * each day of the query (…0, …1: filtered sums of one pass over those movements). `cum`: its cumulative figures on each day, reckoned as statement.rules.ts
 * does per contract: written and cancelled the share of the cumulative reserve movements, rounded
 * once each; earned round(net written × fraction) unless the contract stands cancelled; claims the
 * share of the cumulative claim movements; fees the basis points of net written. `pc` (when the
 * query has periods): one row per contract and period (`p`, the index into q.periods) with a movement
 * by the period's end, its figures the differences of two days. One group by contract and
 * projections: no plan depends on a row estimate of the book.
 */
function bookCtes(tenantId: number, q: BookQuery, carry: readonly string[] = [], joins: RawBuilder<unknown> = sql``) {
  const share = ceded(q.scope) ? sql`c.share_bps` : sql`10000`
  const ceding = ceded(q.scope) ? sql`c.ceding_fee_bps` : sql`0`
  const admin = ceded(q.scope) ? sql`c.administrator_fee_bps` : sql`0`
  const carried = carry.map((e, i) => `, ${e} as c${i}`).join('')
  const cols = (alias: string) => sql.raw(carry.map((_, i) => `, ${alias}.c${i}`).join(''))
  const days = q.days.map((_, t) => t)
  const list = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql`, `)
  const sums = list(
    days.map((t) => {
      const upTo = sql`m.on_date <= ${q.days[t]}::date`
      return sql`coalesce(sum(m.written) filter (where m.code <> '' and ${upTo}), 0)::bigint as ${sql.raw(`w${t}`)},
        coalesce(sum(m.cancelled) filter (where m.code <> '' and ${upTo}), 0)::bigint as ${sql.raw(`cn${t}`)},
        coalesce(sum(m.cancel_events) filter (where m.code <> '' and ${upTo}), 0)::bigint as ${sql.raw(`ev${t}`)},
        coalesce(sum(m.claims_paid) filter (where ${upTo}), 0)::bigint as ${sql.raw(`paid${t}`)},
        coalesce(sum(m.claims_incurred) filter (where ${upTo}), 0)::bigint as ${sql.raw(`inc${t}`)},
        count(*) filter (where ${upTo}) as ${sql.raw(`n${t}`)}`
    }),
  )
  const shares = list(
    days.map((t) =>
      sql.raw(`${roundHalfUp(`r.w${t} * r.share_bps`, '10000')} as ws${t},
               ${roundHalfUp(`r.cn${t} * r.share_bps`, '10000')} as cs${t}`),
    ),
  )
  // The fractions as a table of shapes (a hash join: it is small, the book is not), per day t its
  // numerator n<t>, denominator d<t> and whether both are below 2^31 (b<t>).
  const shapeKeys = Object.keys(q.fractions)
  const fractionColumns = sql.join([
    sql`${shapeKeys}::text[]`,
    ...days.flatMap((t) => [
      sql`${shapeKeys.map((k) => q.fractions[k]![t]![0])}::numeric[]`,
      sql`${shapeKeys.map((k) => q.fractions[k]![t]![1])}::numeric[]`,
      sql`${shapeKeys.map((k) => q.fractions[k]![t]![2] === 'small')}::boolean[]`,
    ]),
  ])
  const fractionNames = ['shape', ...days.flatMap((t) => [`n${t}`, `d${t}`, `b${t}`])].join(', ')
  // Carried columns of the joined tables are grouped by; reporting_contract's by its key.
  const foreign = carry
    .filter((e) => !e.startsWith('c.'))
    .map((e) => `, ${e}`)
    .join('')
  const figures = list(
    days.map((t) => {
      const nw = `(s.ws${t} - s.cs${t})`
      return sql.raw(`r.n${t}, s.ws${t}, s.cs${t}, ${nw} as nw${t},
        case when r.ev${t} > 0 or ${nw} = 0 then ${nw}
             when f.b${t} and abs(${nw}) < 2147483648
               then ${roundHalfUp(`${nw} * f.n${t}::bigint`, `f.d${t}::bigint`)}
             else reporting_round(${nw} * f.n${t}, f.d${t})::bigint
        end as earned${t},
        ${roundHalfUp(`r.paid${t} * r.share_bps`, '10000')} as paid${t},
        ${roundHalfUp(`r.inc${t} * r.share_bps`, '10000')} as inc${t},
        ${roundHalfUp(`${nw} * r.ceding_bps`, '10000')} as ced${t},
        ${roundHalfUp(`${nw} * r.admin_bps`, '10000')} as adm${t}`)
    }),
  )
  const at = (field: string, t: number | null) => (t === null ? '0' : `r.${field}${t}`)
  const periods = list(
    q.periods.map((p, i) => {
      const d = (field: string) => `${at(field, p.to)} - ${at(field, p.from)}`
      return sql.raw(`(${i}, r.n${p.to} > 0, ${d('ws')}, ${d('cs')}, ${d('nw')}, ${d('earned')},
        r.nw${p.to} - r.earned${p.to}, ${d('paid')}, r.inc${p.to} - r.paid${p.to}, ${d('inc')}, ${d('ced')}, ${d('adm')})`)
    }),
  )
  const pc =
    q.periods.length === 0
      ? sql``
      : sql`, pc as (
      select r.contract_id ${cols('r')}, v.p, v.written, v.cancelled, v.nw, v.earned, v.unearned, v.paid,
             v.outstanding, v.inc, v.ced, v.adm
        from cum r
        cross join lateral (values ${periods})
             as v(p, moved, written, cancelled, nw, earned, unearned, paid, outstanding, inc, ced, adm)
       where v.moved
    )`
  return sql`
    with k as (
      select c.contract_id, c.shape, c.reserve_codes, ${share} as share_bps, ${ceding} as ceding_bps,
             ${admin} as admin_bps ${sql.raw(carried)}
        from reporting_contract c ${joins}
       where c.tenant_id = ${tenantId} and ${scopeWhere(q.scope)}
    ), raw as (
      select c.contract_id, c.shape, ${share} as share_bps, ${ceding} as ceding_bps, ${admin} as admin_bps
             ${sql.raw(carried)}, ${sums}
        from reporting_contract c ${joins}
        join reporting_movement m on m.tenant_id = ${tenantId} and m.contract_id = c.contract_id
             and (m.code = '' or m.code = any(c.reserve_codes))
       where c.tenant_id = ${tenantId} and ${scopeWhere(q.scope)}
       group by c.tenant_id, c.contract_id ${sql.raw(foreign)}
    ), fr as (
      select * from unnest(${fractionColumns}) as f(${sql.raw(fractionNames)})
    ), cum as materialized (
      select r.contract_id ${cols('r')}, ${figures}
        from raw r
        join fr f on f.shape = r.shape
        cross join lateral (select ${shares}) s
    ) ${pc}`
}

/**
 * For the book queries of this transaction: no JIT (their plans cost enough to be compiled with
 * optimization, and compiling these expressions took seconds, more than running them: measured on
 * PostgreSQL 15 at 30,000 contracts, 4.3 s of 5.0), and room to sort and hash the book in memory.
 */
async function reportSettings(x: Executor): Promise<void> {
  await sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`.execute(x)
}

/**
 * The sums of a book's cumulative figures as of a day, by group (cents, counts as numbers or strings
 * as the driver returns them): `t` the index of the day, `g` the grouping() of the keys (a bit set for
 * each key summed over), `k0`, `k1` … the keys; `contracts` those with a movement of their reserve or claims by the day, `open`
 * those of them holding unearned premium or an outstanding claim at it, `first_id` the first of them.
 */
export type DaySumsRow = {
  t: number
  g: number
  contracts: string | number
  open: string | number
  first_id: string | number
  written: string | number
  cancelled: string | number
  earned: string | number
  paid: string | number
  inc: string | number
  ced: string | number
  adm: string | number
} & Record<`k${number}`, string | number | null>

/** The columns a grouping set names, k0 … (-1: none, the day alone). */
const groupingSets = (keys: readonly string[], sets: ReadonlyArray<readonly number[]>, day: string) =>
  sql.raw(`grouping sets (${sets.map((set) => `(${[day, ...set.map((i) => keys[i]!)].join(', ')})`).join(', ')})`)

const keyColumns = (keys: readonly string[]) => keys.map((e, i) => `${e} as k${i}`).join(', ')
const groupingOf = (keys: readonly string[]) => (keys.length === 0 ? '0' : `grouping(${keys.join(', ')})`)

/**
 * The day sums of q.days reckoned contract by contract (bookCtes), grouped by `keys` (expressions over
 * reporting_contract c and `joins`) in each of `sets` (indexes into keys) with the day.
 */
function daySumsSql(
  tenantId: number,
  q: BookQuery,
  keys: readonly string[],
  sets: ReadonlyArray<readonly number[]>,
  joins: RawBuilder<unknown> = sql``,
  dayIndex: readonly number[] = q.days.map((_, t) => t),
) {
  const carried = keys.map((_, i) => `r.c${i}`)
  const unpivot = q.days.map(
    (_, t) =>
      `(${dayIndex[t]}, r.n${t}, r.ws${t}, r.cs${t}, r.earned${t}, r.paid${t}, r.inc${t}, r.ced${t}, r.adm${t},
        r.nw${t} - r.earned${t} <> 0 or r.inc${t} - r.paid${t} <> 0)`,
  )
  return sql`
    ${bookCtes(tenantId, q, keys, joins)}
    select v.t, ${sql.raw(groupingOf(carried))} as g ${sql.raw(keys.length === 0 ? '' : `, ${keyColumns(carried)}`)},
           count(*) as contracts, count(*) filter (where v.open) as open, min(r.contract_id) as first_id,
           sum(v.w)::bigint as written, sum(v.cn)::bigint as cancelled, sum(v.earned)::bigint as earned,
           sum(v.paid)::bigint as paid, sum(v.inc)::bigint as inc, sum(v.ced)::bigint as ced, sum(v.adm)::bigint as adm
      from cum r
      cross join lateral (values ${sql.raw(unpivot.join(', '))}) as v(t, n, w, cn, earned, paid, inc, ced, adm, open)
     where v.n > 0
     group by ${groupingSets(carried, sets, 'v.t')}`
}

/** The day sums of q.days, reckoned contract by contract: see DaySumsRow. */
export async function daySums(
  x: Executor,
  tenantId: number,
  q: BookQuery,
  keys: readonly string[],
  sets: ReadonlyArray<readonly number[]>,
  joins: RawBuilder<unknown> = sql``,
): Promise<DaySumsRow[]> {
  if (q.days.length === 0) return []
  await reportSettings(x)
  const { rows } = await sql<DaySumsRow>`${daySumsSql(tenantId, q, keys, sets, joins)}`.execute(x)
  return rows
}

/**
 * The same day sums read from month-end sums (migration 0048): `t` the index into `days` of each
 * month end of `monthEnds` (READY); keys are expressions over reporting_month_cell c (the same column
 * names as reporting_contract for the cell's dimensions) and `joins`.
 */
function monthDaySumsSql(
  tenantId: number,
  scope: BookScope,
  days: readonly string[],
  monthEnds: readonly string[],
  keys: readonly string[],
  sets: ReadonlyArray<readonly number[]>,
  joins: RawBuilder<unknown> = sql``,
) {
  const g = ceded(scope) ? 'ceded_' : ''
  const fees = ceded(scope)
    ? 'sum(c.ceding_fee)::bigint as ced, sum(c.administrator_fee)::bigint as adm'
    : '0::bigint as ced, 0::bigint as adm'
  // Sums in bigint (cents, far below 2^63): what sums them again adds integers, not numerics.
  return sql`
    select array_position(${days}::date[], c.month_end) - 1 as t, ${sql.raw(groupingOf(keys))} as g
           ${sql.raw(keys.length === 0 ? '' : `, ${keyColumns(keys)}`)},
           sum(c.contracts)::bigint as contracts, sum(c.open_contracts)::bigint as open,
           min(c.first_contract_id) as first_id,
           ${sql.raw(`sum(c.${g}written)::bigint as written, sum(c.${g}cancelled)::bigint as cancelled,
           sum(c.${g}earned)::bigint as earned, sum(c.${g}claims_paid)::bigint as paid,
           sum(c.${g}claims_incurred)::bigint as inc, ${fees}`)}
      from reporting_month_cell c ${joins}
     where c.tenant_id = ${tenantId} and c.month_end = any(${monthEnds}::date[]) and ${scopeWhere(scope)}
     group by ${groupingSets(keys, sets, 'c.month_end')}`
}

/** The month ends among `monthEnds` whose sums are READY, as of the statement's snapshot. */
const readySql = (tenantId: number, monthEnds: readonly string[]) => sql`
  select coalesce(array_agg(to_char(m.month_end, 'YYYY-MM-DD')), '{}') from reporting_month m
   where m.tenant_id = ${tenantId} and m.status = 'READY' and m.month_end = any(${monthEnds}::date[])`

/**
 * The day sums of month ends read from their month-end sums (see monthDaySumsSql), with the month
 * ends READY in the same snapshot: one the caller believed READY but is not (a replica behind the
 * primary, sums dropped since) has no rows here, and the caller reckons it live instead.
 */
export async function monthDaySums(
  x: Executor,
  tenantId: number,
  scope: BookScope,
  monthEnds: readonly string[],
  keys: readonly string[],
  sets: ReadonlyArray<readonly number[]>,
  joins: RawBuilder<unknown> = sql``,
): Promise<{ ready: string[]; rows: DaySumsRow[] }> {
  if (monthEnds.length === 0) return { ready: [], rows: [] }
  const { rows } = await sql<{ ready: string[]; rows: DaySumsRow[] | null }>`
    select (${readySql(tenantId, monthEnds)}) as ready,
           (select json_agg(s) from (${monthDaySumsSql(tenantId, scope, monthEnds, monthEnds, keys, sets, joins)}) s) as rows`.execute(
    x,
  )
  const ready = rows[0]?.ready ?? []
  return { ready, rows: (rows[0]?.rows ?? []).filter((r) => ready.includes(monthEnds[Number(r.t)]!)) }
}

/** The dimensions of the loss ratios. */
export type LossRatioDimension = 'dealer' | 'dealerGroup' | 'product' | 'program' | 'plan' | 'term' | 'vintage'

/** The keys each dimension groups by: columns of the contract (or cell) c, and d its dealer now. */
const DIMENSION_KEYS: Record<LossRatioDimension, string[]> = {
  dealer: ['c.dealer_id'],
  dealerGroup: ['d.dealer_group_id'],
  product: ['c.product_id'],
  program: ['c.program_id'],
  plan: ['c.plan_id'],
  term: ['c.term_months', 'c.term_miles'],
  vintage: ['c.vintage'],
}

/**
 * The keys and joins of the book's sums grouped by loss-ratio dimensions (the same over contracts and
 * cells), and which key is the dealer's group (its id), when grouped by it.
 */
export function dimensionGrouping(tenantId: number, dims: readonly LossRatioDimension[]) {
  const keys = [...new Set(dims.flatMap((d) => DIMENSION_KEYS[d]))]
  const grouped = dims.includes('dealerGroup')
  return {
    keys,
    joins: grouped ? sql`join account_holder d on d.tenant_id = ${tenantId} and d.id = c.dealer_id` : undefined,
    dealerGroupKey: grouped ? keys.indexOf('d.dealer_group_id') : undefined,
  }
}

/** A loss-ratio group as the database pages it: its key values, labels, figures (cents) and the count. */
export type LossRatioPageRow = {
  keys: Array<string | number | null>
  contracts: number
  written: number
  cancelled: number
  earned: number
  paid: number
  inc: number
  dealer_id: number
  dealer_number: string | null
  dealer_name: string | null
  dealer_group_name: string | null
  product_id: number | null
  product_code: string | null
  product_name: string | null
  program_id: number | null
  program_code: string | null
  program_name: string | null
  plan_id: number | null
  plan_code: string | null
  plan_name: string | null
  term_months: number
  term_miles: number
  vintage: string
}

/** JavaScript's padStart in SQL (lpad also cuts a longer text). */
const padStart = (e: string, n: number, fill: string) =>
  `case when length(${e}) >= ${n} then ${e} else lpad(${e}, ${n}, '${fill}') end`

/** The order of each dimension's groups: by their labels, as text compared by code point. */
const DIMENSION_ORDER: Record<LossRatioDimension, string[]> = {
  dealer: [padStart("coalesce(r.dealer_number, '')", 20, ' '), 'r.dealer_id::text'],
  dealerGroup: ["coalesce(dg.display_name, '')", 'coalesce(dg.id, 0)::text'],
  product: ["coalesce(r.product_code, '')", 'coalesce(r.product_id, 0)::text'],
  program: ["coalesce(r.program_code, '')", 'coalesce(r.program_id, 0)::text'],
  plan: ["coalesce(r.plan_code, '')", 'coalesce(r.plan_id, 0)::text'],
  term: [padStart('r.term_months::text', 6, '0'), padStart('r.term_miles::text', 9, '0')],
  vintage: ['r.vintage'],
}

/**
 * A page of the loss ratios: the gross book's sums on the day before the period (t 0) and on its last
 * day (t 1), each read from month-end sums (`monthEnds`) or reckoned contract by contract (`live`,
 * over the other days), their differences per group of `dims`. The contracts in the period: those
 * first posted in it (moved by its end less those moved before it) and those holding unearned premium
 * or an outstanding claim when it began (a contract run off before it that moves again only by a late
 * claim is not counted). The groups with a contract in the period or a figure, labelled by their first contract by id with a movement by the period's end (the
 * dealer's group as it stands now), ordered by the dimensions' labels, with their count. The service
 * receives the page, never the book's groups.
 */
export async function lossRatioPage(
  x: Executor,
  tenantId: number,
  days: readonly [string, string],
  monthEnds: readonly string[],
  live: BookQuery | null,
  dims: readonly LossRatioDimension[],
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: LossRatioPageRow[] } | { stale: string[] }> {
  await reportSettings(x)
  const { keys, joins, dealerGroupKey } = dimensionGrouping(tenantId, dims)
  const sets = [keys.map((_, i) => i)]
  const parts: RawBuilder<unknown>[] = []
  if (monthEnds.length > 0)
    parts.push(monthDaySumsSql(tenantId, { gross: true }, days, monthEnds, keys, sets, joins ?? sql``))
  if (live !== null)
    parts.push(
      sql`(${daySumsSql(
        tenantId,
        live,
        keys,
        sets,
        joins ?? sql``,
        live.days.map((d) => days.indexOf(d)),
      )})`,
    )
  const k = keys.map((_, i) => `k${i}`)
  const at = (t: number, e: string) => `coalesce(sum(${e}) filter (where s.t = ${t}), 0)`
  const diff = (e: string) => `${at(1, e)} - ${at(0, e)}`
  const order = dims.flatMap((d) => DIMENSION_ORDER[d]).map((e) => `${e} collate "C"`)
  const { rows } = await sql<{ ready: string[]; total: string | number; items: LossRatioPageRow[] | null }>`
    with s as (${sql.join(parts, sql` union all `)}),
    g as (
      select ${sql.raw(k.length === 0 ? '' : `${k.join(', ')},`)}
             ${sql.raw(`${diff('s.contracts')} + ${at(0, 's.open')}`)} as contracts,
             ${sql.raw(diff('s.written'))} as written, ${sql.raw(diff('s.cancelled'))} as cancelled,
             ${sql.raw(diff('s.earned'))} as earned, ${sql.raw(diff('s.paid'))} as paid, ${sql.raw(diff('s.inc'))} as inc,
             ${sql.raw(at(1, 's.written - s.cancelled - s.earned'))} as unearned,
             ${sql.raw(at(1, 's.inc - s.paid'))} as outstanding,
             min(s.first_id) filter (where s.t = 1) as first_id
        from s
       ${sql.raw(k.length === 0 ? '' : `group by ${k.join(', ')}`)}
    ), f as materialized (
      select * from g
       where contracts > 0 or written <> 0 or cancelled <> 0 or earned <> 0 or paid <> 0 or inc <> 0
          or unearned <> 0 or outstanding <> 0
    )
    select (${readySql(tenantId, monthEnds)}) as ready, (select count(*) from f) as total,
           (select json_agg(p order by p.ord) from (
              select row_number() over (order by ${sql.raw(order.join(', '))}) as ord,
                     json_build_array(${sql.raw(k.length === 0 ? '' : k.map((c) => `f.${c}`).join(', '))}) as keys,
                     f.contracts, f.written, f.cancelled, f.earned, f.paid, f.inc,
                     r.dealer_id, r.dealer_number, r.dealer_name, dg.display_name as dealer_group_name,
                     r.product_id, r.product_code, r.product_name, r.program_id, r.program_code, r.program_name,
                     r.plan_id, r.plan_code, r.plan_name, r.term_months, r.term_miles, r.vintage
                from f
                join reporting_contract r on r.tenant_id = ${tenantId} and r.contract_id = f.first_id
                left join account_holder dg on dg.tenant_id = ${tenantId} and ${
                  dealerGroupKey === undefined ? sql`false` : sql`dg.id = ${sql.raw(`f.k${dealerGroupKey}`)}`
                }
               order by ord
               limit ${page.limit} offset ${page.offset}
           ) p) as items`.execute(x)
  // A month end not READY in this snapshot (a replica behind, sums dropped since) read as no sums:
  // the caller asks again with it reckoned live.
  const ready = rows[0]?.ready ?? []
  if (monthEnds.some((d) => !ready.includes(d))) return { stale: monthEnds.filter((d) => !ready.includes(d)) }
  return { total: Number(rows[0]?.total ?? 0), rows: rows[0]?.items ?? [] }
}

/** The dimensions of a month-end cell, in its columns' order. */
const CELL_KEYS = [
  'c.ceded_company_id',
  'c.has_reserve',
  'c.dealer_id',
  'c.product_id',
  'c.program_id',
  'c.plan_id',
  'c.term_months',
  'c.term_miles',
  'c.vintage',
] as const

/**
 * Writes the cells of month ends being built (reporting_month rows BUILDING): the gross book's day
 * sums (q gross) and every ceded contract's (q ceded), both over the same days, merged by cell.
 */
export async function insertMonthCells(x: Executor, tenantId: number, gross: BookQuery, cededBook: BookQuery) {
  await reportSettings(x)
  const all = [CELL_KEYS.map((_, i) => i)]
  const k = CELL_KEYS.map((_, i) => `k${i}`).join(', ')
  const zeros = '0, 0, 0, 0, 0'
  await sql`
    insert into reporting_month_cell (tenant_id, month_end, cell, ceded_company_id, has_reserve, dealer_id,
           product_id, program_id, plan_id, term_months, term_miles, vintage, contracts, open_contracts,
           first_contract_id, written, cancelled, earned, claims_paid, claims_incurred, ceded_written,
           ceded_cancelled, ceded_earned, ceded_claims_paid, ceded_claims_incurred, ceding_fee, administrator_fee)
    select ${tenantId}, (${gross.days}::date[])[x.t + 1],
           row_number() over (partition by x.t order by ${sql.raw(k)})::int, ${sql.raw(k)},
           max(x.contracts), max(x.open), min(x.first_id), sum(x.w), sum(x.cn), sum(x.earned), sum(x.paid),
           sum(x.inc), sum(x.cw), sum(x.ccn), sum(x.cearned), sum(x.cpaid), sum(x.cinc), sum(x.ced), sum(x.adm)
      from (select t, ${sql.raw(k)}, contracts, open, first_id, written as w, cancelled as cn, earned, paid, inc,
                   0 as cw, 0 as ccn, 0 as cearned, 0 as cpaid, 0 as cinc, 0 as ced, 0 as adm
              from (${daySumsSql(tenantId, gross, CELL_KEYS, all)}) g
            union all
            select t, ${sql.raw(k)}, contracts, 0, first_id, ${sql.raw(zeros)}, written, cancelled, earned, paid,
                   inc, ced, adm
              from (${daySumsSql(tenantId, cededBook, CELL_KEYS, all)}) c
           ) x
     group by x.t, ${sql.raw(k)}`.execute(x)
}

/** The month ends among `days` and their state. */
export async function monthStates(x: Executor, tenantId: number, days: readonly string[]) {
  const rows = await x
    .selectFrom('reporting_month')
    .select(['month_end', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('month_end', 'in', [...days])
    .execute()
  return rows.map((r) => ({ monthEnd: dateText(r.month_end), status: r.status }))
}

const dateText = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10))

/**
 * Claims the month ends to build: inserted BUILDING, or taken over from a builder that started more
 * than `staleSeconds` ago (it died); those another builder holds or that are READY are not returned.
 */
export async function claimMonths(x: Executor, tenantId: number, days: readonly string[], staleSeconds: number) {
  const { rows } = await sql<{ month_end: string | Date }>`
    insert into reporting_month as m (tenant_id, month_end, status)
    select ${tenantId}, d, 'BUILDING' from unnest(${days}::date[]) as d
    on conflict (tenant_id, month_end) do update set started_at = now()
     where m.status = 'BUILDING' and m.started_at < now() - make_interval(secs => ${staleSeconds})
    returning m.month_end`.execute(x)
  return rows.map((r) => dateText(r.month_end))
}

/**
 * The transactions in progress now other than the caller's (their ids, as text): a builder waits for
 * them so that its snapshot holds every change that was made before its claim was visible.
 */
export async function writersInProgress(x: Executor): Promise<string[]> {
  const { rows } = await sql<{ xid: string }>`
    select x::text as xid from pg_snapshot_xip(pg_current_snapshot()) as x
     where x is distinct from pg_current_xact_id_if_assigned()`.execute(x)
  return rows.map((r) => r.xid)
}

/** Which of these transactions are still in progress. */
export async function stillInProgress(x: Executor, xids: readonly string[]): Promise<string[]> {
  if (xids.length === 0) return []
  const { rows } = await sql<{ xid: string }>`
    select x::text as xid from unnest(${xids}::xid8[]) as x where pg_xact_status(x) = 'in progress'`.execute(x)
  return rows.map((r) => r.xid)
}

/**
 * Marks built month ends READY with their cell count; those whose row a change dropped meanwhile are
 * not returned (their cells went with it).
 */
export async function markMonthsReady(x: Executor, tenantId: number, days: readonly string[]) {
  const { rows } = await sql<{ month_end: string | Date }>`
    update reporting_month m
       set status = 'READY', built_at = clock_timestamp(),
           cells = (select count(*) from reporting_month_cell c
                     where c.tenant_id = ${tenantId} and c.month_end = m.month_end)
     where m.tenant_id = ${tenantId} and m.month_end = any(${days}::date[]) and m.status = 'BUILDING'
    returning m.month_end`.execute(x)
  return rows.map((r) => dateText(r.month_end))
}

/** Gives up month ends this builder claimed (a failed build). */
export async function releaseMonths(x: Executor, tenantId: number, days: readonly string[]) {
  await x
    .deleteFrom('reporting_month')
    .where('tenant_id', '=', tenantId)
    .where('month_end', 'in', [...days])
    .where('status', '=', 'BUILDING')
    .execute()
}

/**
 * The size of a book and its products and vintages (each product labelled as its first contract by
 * id says), so that a statement lists them all, those without a movement yet included. One pass.
 */
export async function bookGroups(x: Executor, tenantId: number, scope: BookScope) {
  const { rows } = await sql<{
    g: number
    n: string | number
    product_id: string | number | null
    product_code: string | null
    product_name: string | null
    vintage: string | null
  }>`
    select g.g, g.n, g.product_id, r.product_code, r.product_name, g.vintage
      from (select grouping(c.product_id, c.vintage) as g, count(*) as n, c.product_id, c.vintage,
                   min(c.contract_id) as first_id
              from reporting_contract c
             where c.tenant_id = ${tenantId} and ${scopeWhere(scope)}
             group by grouping sets ((c.product_id), (c.vintage), ())) g
      left join reporting_contract r on g.g = 1 and r.tenant_id = ${tenantId} and r.contract_id = g.first_id`.execute(x)
  return {
    contracts: Number(rows.find((r) => Number(r.g) === 3)?.n ?? 0),
    products: rows.filter((r) => Number(r.g) === 1),
    vintages: rows.filter((r) => Number(r.g) === 2).map((r) => r.vintage ?? ''),
  }
}

/** pc's column of each figure. */
const FIGURE_COLUMN: Record<Figure, string> = {
  writtenPremium: 'pc.written',
  cancellations: 'pc.cancelled',
  netWrittenPremium: 'pc.nw',
  earnedPremium: 'pc.earned',
  unearnedPremium: 'pc.unearned',
  claimsPaid: 'pc.paid',
  claimsOutstanding: 'pc.outstanding',
  claimsIncurred: 'pc.inc',
  cedingFee: 'pc.ced',
  administratorFee: 'pc.adm',
  underwritingResult: '(pc.earned - pc.inc - pc.ced - pc.adm)',
}

export type StatementLineRow = {
  contract_id: string | number
  contract_number: string
  dealer_id: string | number
  dealer_number: string | null
  dealer_name: string | null
  product_id: string | number | null
  product_code: string | null
  product_name: string | null
  program_id: string | number | null
  program_code: string | null
  program_name: string | null
  plan_id: string | number | null
  plan_code: string | null
  plan_name: string | null
  term_months: number
  term_miles: number
  sale_date: string
  vintage: string
  share_bps: number
  cents: string | number
}

/**
 * The contracts behind a figure of one period (q.periods[0]) whose amount is not zero, by id, a page
 * of them, with their count and total; filtered by product code (any case) and vintage.
 */
export async function statementLines(
  x: Executor,
  tenantId: number,
  q: BookQuery,
  figure: Figure,
  filter: { product?: string | undefined; vintage?: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ count: number; totalCents: number; rows: StatementLineRow[] }> {
  await reportSettings(x)
  const amount = sql.raw(FIGURE_COLUMN[figure])
  const { rows } = await sql<{ n: string | number; total: string | number; rows: StatementLineRow[] | null }>`
    ${bookCtes(tenantId, q, ['c.product_code', 'c.vintage'])}, lines as (
      select pc.contract_id, ${amount} as cents
        from pc
       where ${amount} <> 0
         ${filter.product === undefined ? sql`` : sql`and lower(pc.c0) = lower(${filter.product})`}
         ${filter.vintage === undefined ? sql`` : sql`and pc.c1 = upper(${filter.vintage})`}
    )
    select (select count(*) from lines) as n,
           (select coalesce(sum(cents), 0) from lines) as total,
           (select json_agg(t order by t.contract_id) from (
              select c.contract_id, c.contract_number, c.dealer_id, c.dealer_number, c.dealer_name,
                     c.product_id, c.product_code, c.product_name, c.program_id, c.program_code, c.program_name,
                     c.plan_id, c.plan_code, c.plan_name, c.term_months, c.term_miles, c.sale_date, c.vintage,
                     c.share_bps, l.cents
                from (select * from lines order by contract_id limit ${page.limit} offset ${page.offset}) l
                join reporting_contract c on c.tenant_id = ${tenantId} and c.contract_id = l.contract_id
           ) t) as rows`.execute(x)
  const r = rows[0]
  return { count: Number(r?.n ?? 0), totalCents: Number(r?.total ?? 0), rows: r?.rows ?? [] }
}

/**
 * The sha256 (hex) of what a company's statement as of `day` reads, per company of `companies`
 * (c.ceded_company_id conditions): each contract's cession and reserve lines and its movements
 * (reserve codes and claims) dated on or before the day, in order. No row for a company with none.
 */
const digestsSql = (tenantId: number, day: string, companies: RawBuilder<unknown>) => sql`
    select c.ceded_company_id as company_id,
           encode(sha256(convert_to(coalesce(string_agg(concat_ws('|', c.contract_id, c.share_bps, c.ceding_fee_bps,
             c.administrator_fee_bps, c.reserve_lines::text, m.on_date, m.code, m.written, m.cancelled, m.cancel_events,
             m.claims_paid, m.claims_incurred), E'\n' order by c.contract_id, m.on_date, m.code), ''), 'UTF8')), 'hex') as digest
      from reporting_contract c
      join reporting_movement m on m.tenant_id = ${tenantId} and m.contract_id = c.contract_id
     where c.tenant_id = ${tenantId} and ${companies} and m.on_date <= ${day}
       and (m.code = '' or m.code = any(c.reserve_codes))
     group by c.ceded_company_id`

/** The digest of a company's statement inputs as of `day` (the sha256 of nothing when it has none). */
export async function statementDigest(x: Executor, tenantId: number, companyId: number, day: string): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    select coalesce((select d.digest from (${digestsSql(tenantId, day, sql`c.ceded_company_id = ${companyId}`)}) d),
                    encode(sha256(''::bytea), 'hex')) as digest`.execute(x)
  return rows[0]!.digest
}

/** Writes the statement input digests of every company as of month ends being built. */
export async function insertMonthDigests(x: Executor, tenantId: number, days: readonly string[]) {
  for (const day of days)
    await sql`
      insert into reporting_month_digest (tenant_id, month_end, reinsurance_company_id, digest)
      select ${tenantId}, ${day}::date, d.company_id, d.digest
        from (${digestsSql(tenantId, day, sql`c.ceded_company_id is not null`)}) d`.execute(x)
}

/** A company's statement input digest kept with a READY month end's sums; undefined when none is. */
export async function monthDigest(x: Executor, tenantId: number, companyId: number, monthEnd: string) {
  const r = await x
    .selectFrom('reporting_month_digest')
    .select('digest')
    .where('tenant_id', '=', tenantId)
    .where('month_end', '=', monthEnd)
    .where('reinsurance_company_id', '=', companyId)
    .executeTakeFirst()
  return r?.digest
}

const SOLD = ['FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED'] as const

/**
 * The journal's own sums the reconciliation ties a statement to, for the contracts ceded to a
 * company, per contract as of two days: the RESERVE lines on the payees' accounts by premium entry
 * kind, the claim expense, and the CLAIM_PAYABLE debits of the claim payments' entries.
 */
export async function ledgerSumsByContract(
  x: Executor,
  tenantId: number,
  companyId: number,
  day: string,
): Promise<
  Array<{
    contractId: number
    shareBps: number
    written: number
    cancelled: number
    claimsIncurred: number
    claimsPaid: number
  }>
> {
  const rows = await x
    .selectFrom('contract as k')
    .select((eb) => [
      'k.id',
      sql<string>`k.terms -> 'cession' ->> 'shareBps'`.as('share_bps'),
      eb
        .selectFrom('journal_line as l')
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .innerJoin('ledger_account as a', (j) =>
          j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
        )
        .select(
          sql<string>`coalesce(sum(case when e.kind in ('CONTRACT_FINALIZED', 'CONTRACT_REFINALIZED', 'CONTRACT_RERATED') then l.credit - l.debit else 0 end), 0) || '/' ||
            coalesce(sum(case when e.kind in ('CONTRACT_CANCELLED', 'CANCEL_REVERSED') then l.debit - l.credit else 0 end), 0)`.as(
            's',
          ),
        )
        .where('l.tenant_id', '=', tenantId)
        .where('e.tenant_id', '=', tenantId)
        .where('a.tenant_id', '=', tenantId)
        .whereRef('l.contract_id', '=', 'k.id')
        .where('e.effective_date', '<=', day)
        .where('a.purpose', 'in', ['DISBURSEMENT_PAYABLE', 'UNEARNED_REVENUE'])
        .where(
          sql<boolean>`exists (select 1 from jsonb_array_elements(k.pricing -> 'lines') pl where pl ->> 'code' = l.disbursement_code and pl ->> 'group' = 'RESERVE')`,
        )
        .as('reserve'),
      eb
        .selectFrom('journal_line as l')
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .innerJoin('ledger_account as a', (j) =>
          j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
        )
        .select(sql<string>`coalesce(sum(l.debit - l.credit), 0)`.as('s'))
        .where('l.tenant_id', '=', tenantId)
        .where('e.tenant_id', '=', tenantId)
        .where('a.tenant_id', '=', tenantId)
        .whereRef('l.contract_id', '=', 'k.id')
        .where('e.effective_date', '<=', day)
        .where('a.purpose', '=', 'CLAIM_EXPENSE')
        .as('expense'),
      eb
        .selectFrom('journal_line as l')
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .innerJoin('ledger_account as a', (j) =>
          j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
        )
        .select(sql<string>`coalesce(sum(l.debit), 0)`.as('s'))
        .where('l.tenant_id', '=', tenantId)
        .where('e.tenant_id', '=', tenantId)
        .where('a.tenant_id', '=', tenantId)
        .whereRef('l.contract_id', '=', 'k.id')
        .where('e.effective_date', '<=', day)
        .where('a.purpose', '=', 'CLAIM_PAYABLE')
        .where('e.kind', 'in', ['CLAIM_PAID', 'CASH_DISBURSED'])
        .as('paid'),
    ])
    .where('k.tenant_id', '=', tenantId)
    .where('k.ceded_company_id', '=', companyId)
    .where('k.status', 'in', [...SOLD])
    .orderBy('k.id')
    .execute()
  return rows.map((r) => {
    const [w, c] = String(r.reserve ?? '0/0').split('/')
    return {
      contractId: Number(r.id),
      shareBps: Number(r.share_bps),
      written: centsOf(w ?? '0'),
      cancelled: centsOf(c ?? '0'),
      claimsIncurred: centsOf(r.expense ?? '0'),
      claimsPaid: centsOf(r.paid ?? '0'),
    }
  })
}

/** The tenant's journal lines with their entry (e) and account (a), every table bound to the tenant. */
function postedLines(x: Executor, tenantId: number) {
  return x
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
}

/** credit − debit of an insurer's DISBURSEMENT_PAYABLE over premium entry kinds, contract lines, in the period. */
export async function insurerPayableMovement(
  x: Executor,
  tenantId: number,
  insurerId: number,
  from: string,
  to: string,
) {
  const r = await postedLines(x, tenantId)
    .select(sql<string>`coalesce(sum(l.credit - l.debit), 0)`.as('s'))
    .where('a.account_holder_id', '=', insurerId)
    .where('a.purpose', '=', 'DISBURSEMENT_PAYABLE')
    .where('e.kind', 'in', [...PREMIUM_ENTRY_KINDS])
    .where('l.contract_id', 'is not', null)
    .where('e.effective_date', '>=', from)
    .where('e.effective_date', '<=', to)
    .executeTakeFirstOrThrow()
  return centsOf(r.s)
}

/** The CLAIM_PAYABLE debits of the entries paying the insurer's payment requests, posted in the period. */
export async function insurerClaimPaymentsPosted(
  x: Executor,
  tenantId: number,
  insurerId: number,
  from: string,
  to: string,
) {
  const r = await postedLines(x, tenantId)
    .select(sql<string>`coalesce(sum(l.debit), 0)`.as('s'))
    .where('a.purpose', '=', 'CLAIM_PAYABLE')
    .where('e.kind', 'in', ['CLAIM_PAID', 'CASH_DISBURSED'])
    .where('e.effective_date', '>=', from)
    .where('e.effective_date', '<=', to)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('claim_payment as p')
          .innerJoin('claim_payment_request as r', (j) =>
            j.onRef('r.tenant_id', '=', 'p.tenant_id').onRef('r.id', '=', 'p.payment_request_id'),
          )
          .select('p.id')
          .where('p.tenant_id', '=', tenantId)
          .where('r.tenant_id', '=', tenantId)
          .whereRef('p.journal_entry_id', '=', 'e.id')
          .whereRef('r.contract_id', '=', 'l.contract_id')
          .where('r.risk_bearer_id', '=', insurerId),
      ),
    )
    .executeTakeFirstOrThrow()
  return centsOf(r.s)
}
