// Read-only queries of insurer bordereaux (docs/reporting.md) over other modules' tables: the
// journal (the figures), contracts (what each line describes), cancels (their dates), claims and
// their payment requests and payments. Nothing here writes. Every statement names the tenant on
// every table it reads.
import { sql } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import { centsOf } from '../../platform/money.ts'

/** The insurer's code and name; undefined when `id` is not an insurer of the tenant. */
export function insurer(x: Executor, tenantId: number, id: number) {
  return x
    .selectFrom('account_holder')
    .select(['id', 'business_key', 'display_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', 'INSURER')
    .executeTakeFirst()
}

/** The entry kinds that move an insurer's DISBURSEMENT_PAYABLE for a contract's premium and reserve. */
export const PREMIUM_ENTRY_KINDS = [
  'CONTRACT_FINALIZED',
  'CONTRACT_REFINALIZED',
  'CONTRACT_RERATED',
  'CONTRACT_CANCELLED',
  'CANCEL_REVERSED',
] as const

export type PremiumJournalLine = {
  entryId: number
  kind: string
  postedOn: string
  sourceType: string
  sourceId: number
  contractId: number
  disbursementCode: string | null
  /** credit − debit on the insurer's payable: positive when owed to it, negative when returned. */
  cents: number
  cancelNumber: string | null
  cancelDate: string | null
}

/**
 * The lines of entries posted from `from` through `to` (accounting dates) on the insurer's
 * DISBURSEMENT_PAYABLE, for a contract, of the premium entry kinds; in date, entry and line order.
 */
export async function premiumLines(
  x: Executor,
  tenantId: number,
  insurerId: number,
  from: string,
  to: string,
): Promise<PremiumJournalLine[]> {
  const rows = await x
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .leftJoin('cancel as c', (j) =>
      j.on('c.tenant_id', '=', tenantId).onRef('c.id', '=', 'e.source_id').on('e.source_type', '=', 'CANCELLATION'),
    )
    .select([
      'e.id as entry_id',
      'e.kind',
      'e.effective_date',
      'e.source_type',
      'e.source_id',
      'l.contract_id',
      'l.disbursement_code',
      'l.debit',
      'l.credit',
      'c.cancel_number',
      'c.cancel_date',
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('a.account_holder_id', '=', insurerId)
    .where('a.purpose', '=', 'DISBURSEMENT_PAYABLE')
    .where('e.effective_date', '>=', from)
    .where('e.effective_date', '<=', to)
    .where('e.kind', 'in', [...PREMIUM_ENTRY_KINDS])
    .where('l.contract_id', 'is not', null)
    .orderBy('e.effective_date')
    .orderBy('e.id')
    .orderBy('l.line_no')
    .execute()
  return rows.map((r) => ({
    entryId: Number(r.entry_id),
    kind: r.kind,
    postedOn: r.effective_date,
    sourceType: r.source_type,
    sourceId: Number(r.source_id),
    contractId: Number(r.contract_id),
    disbursementCode: r.disbursement_code,
    cents: centsOf(r.credit) - centsOf(r.debit),
    cancelNumber: r.cancel_number ?? null,
    cancelDate: r.cancel_date ?? null,
  }))
}

/** What a bordereau line says of its contract. */
export type ContractFacts = {
  id: number
  contractNumber: string
  status: string
  dealerId: number
  dealerNumber: string
  dealerName: string
  product: { id: number; code: string; name: string; type: string }
  program: { id: number; code: string; name: string }
  plan: { id: number; code: string; name: string }
  term: { months: number; miles: number }
  saleDate: string
  effectiveDate: string
  expirationDate: string
  /** Disbursement code → group, from the contract's priced lines. */
  groups: Map<string, string>
  cession: { treatyId: number; reinsuranceCompanyId: number; shareBps: number; cededReserveCents: number } | null
}

type Cession = ContractFacts['cession']

/** The facts of these contracts, by id (1,000 at a time). */
export async function contractFacts(
  x: Executor,
  tenantId: number,
  ids: readonly number[],
): Promise<Map<number, ContractFacts>> {
  const out = new Map<number, ContractFacts>()
  const unique = [...new Set(ids)]
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await x
      .selectFrom('contract')
      .select([
        'id',
        'contract_number',
        'status',
        'dealer_id',
        'deal_data',
        'coverage',
        'pricing',
        'sale_date',
        'effective_date',
        'expiration_date',
        sql<Cession | null>`terms -> 'cession'`.as('cession'),
      ])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', unique.slice(i, i + 1000))
      .execute()
    for (const r of rows) {
      const c = r.cession
      out.set(Number(r.id), {
        id: Number(r.id),
        contractNumber: r.contract_number,
        status: r.status,
        dealerId: Number(r.dealer_id),
        dealerNumber: r.deal_data.dealer.dealerNumber,
        dealerName: r.deal_data.dealer.name,
        product: r.coverage.product,
        program: r.coverage.program,
        plan: { id: r.coverage.plan.id, code: r.coverage.plan.code, name: r.coverage.plan.name },
        term: { months: r.coverage.term.months, miles: r.coverage.term.miles },
        saleDate: r.sale_date,
        effectiveDate: r.effective_date,
        expirationDate: r.expiration_date,
        groups: new Map(r.pricing.lines.map((l) => [l.code, l.group])),
        cession:
          c && typeof c === 'object'
            ? {
                treatyId: Number(c.treatyId),
                reinsuranceCompanyId: Number(c.reinsuranceCompanyId),
                shareBps: Number(c.shareBps),
                cededReserveCents: Number(c.cededReserveCents),
              }
            : null,
      })
    }
  }
  return out
}

export type ClaimPaymentRow = {
  paymentId: number
  claimId: number
  claimNumber: string
  contractId: number
  paymentRequestId: number
  entryId: number
  postedOn: string
  paidOn: string
  method: string
  reference: string | null
  lossDate: string
  cents: number
}

/** Payments of the insurer's claims (requests it bears) posted from `from` through `to`, in date and entry order. */
export async function claimPayments(
  x: Executor,
  tenantId: number,
  insurerId: number,
  from: string,
  to: string,
): Promise<ClaimPaymentRow[]> {
  const rows = await x
    .selectFrom('claim_payment as p')
    .innerJoin('claim_payment_request as r', (j) =>
      j.onRef('r.tenant_id', '=', 'p.tenant_id').onRef('r.id', '=', 'p.payment_request_id'),
    )
    .innerJoin('journal_entry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'p.tenant_id').onRef('e.id', '=', 'p.journal_entry_id'),
    )
    .innerJoin('claim as c', (j) => j.onRef('c.tenant_id', '=', 'p.tenant_id').onRef('c.id', '=', 'p.claim_id'))
    .select([
      'p.id',
      'p.claim_id',
      'c.claim_number',
      'r.contract_id',
      'p.payment_request_id',
      'e.id as entry_id',
      'e.effective_date',
      'p.paid_on',
      'p.method',
      'p.reference',
      'c.loss_date',
      'p.amount',
    ])
    .where('p.tenant_id', '=', tenantId)
    .where('r.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('c.tenant_id', '=', tenantId)
    .where('r.risk_bearer_id', '=', insurerId)
    .where('e.effective_date', '>=', from)
    .where('e.effective_date', '<=', to)
    .orderBy('e.effective_date')
    .orderBy('e.id')
    .orderBy('p.id')
    .execute()
  return rows.map((r) => ({
    paymentId: Number(r.id),
    claimId: Number(r.claim_id),
    claimNumber: r.claim_number,
    contractId: Number(r.contract_id),
    paymentRequestId: Number(r.payment_request_id),
    entryId: Number(r.entry_id),
    postedOn: r.effective_date,
    paidOn: r.paid_on,
    method: r.method,
    reference: r.reference,
    lossDate: r.loss_date,
    cents: centsOf(r.amount),
  }))
}

export type OutstandingRequestRow = {
  claimId: number
  claimNumber: string
  contractId: number
  paymentRequestId: number
  lossDate: string
  requestedOn: string
  amountCents: number
  paidCents: number
  releasedCents: number
}

/**
 * The insurer's payment requests committed (CLAIM_APPROVED posted) on or before `end`, with what was
 * paid on them and released from them (a close's CLAIM_RELEASED, a withdrawal's reversal) on or before `end`.
 */
export async function requestsCommittedBy(
  x: Executor,
  tenantId: number,
  insurerId: number,
  end: string,
): Promise<OutstandingRequestRow[]> {
  const rows = await x
    .selectFrom('claim_payment_request as r')
    .innerJoin('journal_entry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'r.tenant_id').onRef('e.id', '=', 'r.journal_entry_id'),
    )
    .innerJoin('claim as c', (j) => j.onRef('c.tenant_id', '=', 'r.tenant_id').onRef('c.id', '=', 'r.claim_id'))
    .leftJoin('journal_entry as re', (j) =>
      j.onRef('re.tenant_id', '=', 'r.tenant_id').onRef('re.id', '=', 'r.release_entry_id'),
    )
    .select((eb) => [
      'r.id',
      'r.claim_id',
      'c.claim_number',
      'r.contract_id',
      'c.loss_date',
      'e.effective_date',
      'r.amount',
      eb
        .selectFrom('claim_payment as p')
        .innerJoin('journal_entry as pe', (j) =>
          j.onRef('pe.tenant_id', '=', 'p.tenant_id').onRef('pe.id', '=', 'p.journal_entry_id'),
        )
        .select(sql<string>`coalesce(sum(p.amount), 0)`.as('paid'))
        .where('p.tenant_id', '=', tenantId)
        .where('pe.tenant_id', '=', tenantId)
        .whereRef('p.payment_request_id', '=', 'r.id')
        .where('pe.effective_date', '<=', end)
        .as('paid'),
      eb
        .selectFrom('journal_line as rl')
        .select(sql<string>`coalesce(sum(rl.debit), 0)`.as('released'))
        .where('rl.tenant_id', '=', tenantId)
        .whereRef('rl.entry_id', '=', 're.id')
        .where('re.effective_date', '<=', end)
        .as('released'),
    ])
    .where('r.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('c.tenant_id', '=', tenantId)
    .where('r.risk_bearer_id', '=', insurerId)
    .where('e.effective_date', '<=', end)
    .orderBy('r.id')
    .execute()
  return rows.map((r) => ({
    claimId: Number(r.claim_id),
    claimNumber: r.claim_number,
    contractId: Number(r.contract_id),
    paymentRequestId: Number(r.id),
    lossDate: r.loss_date,
    requestedOn: r.effective_date,
    amountCents: centsOf(r.amount),
    paidCents: centsOf(r.paid ?? '0'),
    releasedCents: centsOf(r.released ?? '0'),
  }))
}

export type AuthorizedClaimRow = {
  claimId: number
  claimNumber: string
  contractId: number
  lossDate: string
  status: string
  authorizedOn: string
  payableCents: number
}

/**
 * Claims of contracts whose RESERVE line the insurer is paid, authorized on or before `end` (in the
 * tenant's time zone), with no payment request committed by `end`, and not since denied, voided or
 * reopened: authorized and not yet invoiced at month end, at their authorized payable as it stands.
 */
export async function authorizedUninvoiced(
  x: Executor,
  tenantId: number,
  insurerId: number,
  end: string,
  timeZone: string,
): Promise<AuthorizedClaimRow[]> {
  const reserveOfInsurer = JSON.stringify([{ group: 'RESERVE', payeeAccountHolderId: insurerId }])
  const rows = await x
    .selectFrom('claim as c')
    .innerJoin('contract as k', (j) => j.onRef('k.tenant_id', '=', 'c.tenant_id').onRef('k.id', '=', 'c.contract_id'))
    .select([
      'c.id',
      'c.claim_number',
      'c.contract_id',
      'c.loss_date',
      'c.status',
      'c.payable_total',
      sql<string>`to_char((c.authorized_at at time zone ${timeZone})::date, 'YYYY-MM-DD')`.as('authorized_on'),
    ])
    .where('c.tenant_id', '=', tenantId)
    .where('k.tenant_id', '=', tenantId)
    .where('c.status', 'in', ['AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID', 'PAID'])
    .where('c.authorized_at', 'is not', null)
    .where(sql<boolean>`(c.authorized_at at time zone ${timeZone})::date <= ${end}::date`)
    .where(sql<boolean>`k.pricing -> 'lines' @> ${reserveOfInsurer}::jsonb`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('claim_payment_request as r')
            .innerJoin('journal_entry as e', (j) =>
              j.onRef('e.tenant_id', '=', 'r.tenant_id').onRef('e.id', '=', 'r.journal_entry_id'),
            )
            .select('r.id')
            .where('r.tenant_id', '=', tenantId)
            .where('e.tenant_id', '=', tenantId)
            .whereRef('r.claim_id', '=', 'c.id')
            .where('e.effective_date', '<=', end),
        ),
      ),
    )
    .orderBy('c.id')
    .execute()
  return rows.map((r) => ({
    claimId: Number(r.id),
    claimNumber: r.claim_number,
    contractId: Number(r.contract_id),
    lossDate: r.loss_date,
    status: r.status,
    authorizedOn: r.authorized_on,
    payableCents: centsOf(r.payable_total),
  }))
}
