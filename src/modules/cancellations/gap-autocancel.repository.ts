// The GAP contracts due for cancellation (docs/cancellations.md "GAP"): plain Kysely functions taking
// the executor and the tenant id first. A GAP contract in force (FINALIZED or ACTIVE) is due when
// - a cancel request reporting what ends it (ends_gap: payoff, refinance, sale, repossession, total
//   loss) waits for a decision (REQUESTED: its documents complete), dated on or before the as-of date;
// - or its loan matured before the GAP term ends: the maturity, from the deal's finance terms, is on or
//   before the as-of date and before the expiration date.
// The loan's maturity is the last payment's date: the first payment date plus (term − 1) months, else
// the sale date plus the term's months (the first payment a month after the sale). PostgreSQL adds
// months as the calendar module does: from the origin, clamped to the month's end.
import { sql, type Expression, type SqlBool } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { GapEndingColumn } from '../../platform/db/schema.cancellations.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type GapDueSelection = {
  asOf: string
  dealerId: number | null
  /** A dealer-side user's dealers; null: every dealer. */
  visible: ReadonlySet<number> | null
  /** One contract only (the POST route's check). */
  contractId: number | null
  /** Only contracts after this id (the GAP_AUTO_CANCEL process's cursor, docs/processes.md). */
  afterId?: number
}

export type GapDueRow = {
  id: number
  contract_number: string
  dealer_id: number
  status: ContractStatus
  sale_date: string
  effective_date: string
  expiration_date: string
  loan_term_months: number | null
  first_payment_date: string | null
  maturity_date: string | null
  request_id: number | null
  request_number: string | null
  request_date: string | null
  ends_gap: GapEndingColumn | null
  reason_id: number | null
  reason_code: string | null
  /** The contract's terms snapshot; null for a contract sold before snapshots (resolved on read). */
  terms: unknown
}

const IN_FORCE: ContractStatus[] = ['FINALIZED', 'ACTIVE']
const DATE_TEXT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
const WHOLE_NUMBER = '^[0-9]{1,4}$'

/** The loan's maturity of contract alias `c` (null without a loan term). */
const maturity = sql<string | null>`(case
  when (c.finance ->> 'termMonths') ~ ${WHOLE_NUMBER} and (c.finance ->> 'termMonths')::int > 0 then
    case when (c.finance ->> 'firstPaymentDate') ~ ${DATE_TEXT}
      then ((c.finance ->> 'firstPaymentDate')::date + make_interval(months => (c.finance ->> 'termMonths')::int - 1))::date
      else (c.sale_date + make_interval(months => (c.finance ->> 'termMonths')::int))::date
    end
end)`

function dueQuery(db: Executor, tenantId: number, s: GapDueSelection) {
  let q = db
    .selectFrom('contract as c')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('cancel_request as r')
          .select([
            'r.id as request_id',
            'r.request_number',
            'r.cancel_date as request_date',
            'r.ends_gap',
            'r.reason_id',
            'r.reason_code',
          ])
          .where('r.tenant_id', '=', tenantId)
          .whereRef('r.contract_id', '=', 'c.id')
          .where('r.ends_gap', 'is not', null)
          .where('r.status', '=', 'REQUESTED')
          .where('r.cancel_date', '<=', s.asOf)
          .orderBy('r.cancel_date')
          .orderBy('r.id')
          .limit(1)
          .as('r'),
      (join) => join.onTrue(),
    )
    .where('c.tenant_id', '=', tenantId)
    .where('c.product_type', '=', 'GAP')
    .where('c.status', 'in', IN_FORCE)
    .where((eb) =>
      eb.or([
        eb('r.request_id', 'is not', null),
        sql<SqlBool>`(${maturity} <= ${s.asOf}::date and ${maturity} < c.expiration_date)` as Expression<SqlBool>,
      ]),
    )
  if (s.dealerId !== null) q = q.where('c.dealer_id', '=', s.dealerId)
  if (s.visible) q = q.where('c.dealer_id', 'in', s.visible.size > 0 ? [...s.visible] : [0])
  if (s.contractId !== null) q = q.where('c.id', '=', s.contractId)
  if (s.afterId !== undefined) q = q.where('c.id', '>', s.afterId)
  return q
}

/** The due GAP contracts in contract id order, each with its earliest open ending and its loan's maturity. */
export async function listGapDue(
  db: Executor,
  tenantId: number,
  selection: GapDueSelection,
  window: Window,
): Promise<GapDueRow[]> {
  const rows = await windowed(
    dueQuery(db, tenantId, selection)
      .select([
        'c.id',
        'c.contract_number',
        'c.dealer_id',
        'c.status',
        'c.sale_date',
        'c.effective_date',
        'c.expiration_date',
        sql<string | null>`c.finance ->> 'termMonths'`.as('loan_term_months'),
        sql<string | null>`c.finance ->> 'firstPaymentDate'`.as('first_payment_date'),
        maturity.as('maturity_date'),
        'r.request_id',
        'r.request_number',
        'r.request_date',
        'r.ends_gap',
        'r.reason_id',
        'r.reason_code',
        'c.terms',
      ])
      .orderBy('c.id'),
    window,
  ).execute()
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    dealer_id: Number(r.dealer_id),
    loan_term_months: r.loan_term_months === null ? null : Number(r.loan_term_months),
    request_id: r.request_id === null ? null : Number(r.request_id),
    reason_id: r.reason_id === null ? null : Number(r.reason_id),
  }))
}

export async function countGapDue(db: Executor, tenantId: number, selection: GapDueSelection): Promise<number> {
  const row = await dueQuery(db, tenantId, selection)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
