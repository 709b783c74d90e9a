// Read-only queries of reinsurance statements, loss ratios and the reconciliation (docs/reporting.md):
// the contracts of a book with their facts, their reserve and claim movements from the journal, and
// the journal's own sums the reconciliation ties the reports to. Nothing here writes. Every statement
// names the tenant on every table it reads.
import { sql } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import { centsOf } from '../../platform/money.ts'
import type { EarningsTerms } from '../finance/index.ts'
import { PREMIUM_ENTRY_KINDS } from './bordereau.repository.ts'
import type { BookContract, Movement } from './statement.rules.ts'

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

/** What a statement line and a loss-ratio group say of a contract. */
export type BookFacts = {
  contractNumber: string
  dealer: { id: number; dealerNumber: string; name: string }
  dealerGroup: { id: number; name: string } | null
  product: { id: number; code: string; name: string }
  program: { id: number; code: string; name: string }
  plan: { id: number; code: string; name: string }
  term: { months: number; miles: number }
}

export type BookEntry = BookContract & BookFacts

type Earnings = Record<string, Partial<EarningsTerms> | undefined>
type CessionJson = { reinsuranceCompanyId: number; shareBps: number; cedingFeeBps: number; administratorFeeBps: number }

const SOLD = ['FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED'] as const

/**
 * The contracts of a book with their facts and journal movements: those ceded to a reinsurance
 * company (`reinsuranceCompanyId`, at their cession's share and fees), or every sold contract with a
 * RESERVE line (the gross book: share 100 %, no fees). Read 1,000 contracts at a time by id.
 */
export async function book(
  x: Executor,
  tenantId: number,
  filter: { reinsuranceCompanyId: number } | { gross: true },
): Promise<BookEntry[]> {
  const out: BookEntry[] = []
  let after = 0
  for (;;) {
    let q = x
      .selectFrom('contract as k')
      .innerJoin('account_holder as d', (j) =>
        j.onRef('d.tenant_id', '=', 'k.tenant_id').onRef('d.id', '=', 'k.dealer_id'),
      )
      .leftJoin('account_holder as g', (j) =>
        j.onRef('g.tenant_id', '=', 'd.tenant_id').onRef('g.id', '=', 'd.dealer_group_id'),
      )
      .select([
        'k.id',
        'k.contract_number',
        'k.dealer_id',
        'k.deal_data',
        'k.coverage',
        'k.pricing',
        'k.sale_date',
        'k.effective_date',
        'k.expiration_date',
        'd.dealer_group_id',
        'g.display_name as group_name',
        sql<Earnings | null>`k.terms -> 'earnings'`.as('earnings'),
        sql<CessionJson | null>`k.terms -> 'cession'`.as('cession'),
      ])
      .where('k.tenant_id', '=', tenantId)
      .where('d.tenant_id', '=', tenantId)
      .where((eb) => eb.or([eb('g.tenant_id', '=', tenantId), eb('g.tenant_id', 'is', null)]))
      .where('k.id', '>', after)
      .where('k.status', 'in', [...SOLD])
      .orderBy('k.id')
      .limit(1000)
    q =
      'reinsuranceCompanyId' in filter
        ? // The generated column of terms.cession (migration 0044): indexed, where the JSON path cannot be.
          q.where('k.ceded_company_id', '=', filter.reinsuranceCompanyId)
        : q.where(sql<boolean>`k.pricing -> 'lines' @> '[{"group":"RESERVE"}]'::jsonb`)
    const rows = await q.execute()
    if (rows.length === 0) break
    after = Number(rows[rows.length - 1]!.id)
    const entries = new Map<number, BookEntry>()
    const reserveCodes = new Map<number, Set<string>>()
    for (const r of rows) {
      const id = Number(r.id)
      const byCode = new Map<string, number>()
      for (const l of r.pricing.lines)
        if (l.group === 'RESERVE') byCode.set(l.code, (byCode.get(l.code) ?? 0) + l.cents)
      reserveCodes.set(id, new Set(byCode.keys()))
      const c = 'reinsuranceCompanyId' in filter ? r.cession : null
      entries.set(id, {
        id,
        saleDate: r.sale_date,
        effectiveDate: r.effective_date,
        expirationDate: r.expiration_date,
        termMonths: r.coverage.term.months,
        shareBps: c ? Number(c.shareBps) : 10000,
        cedingFeeBps: c ? Number(c.cedingFeeBps) : 0,
        administratorFeeBps: c ? Number(c.administratorFeeBps) : 0,
        reserveLines: [...byCode].map(([code, amountCents]) => {
          const e = r.earnings?.[code]
          return {
            code,
            amountCents,
            terms: {
              method: e?.method ?? 'PRO_RATA_DAYS',
              curve: e?.curve ?? null,
              monthCounting: e?.monthCounting ?? null,
            } as EarningsTerms,
          }
        }),
        written: [],
        cancelled: [],
        cancelEvents: [],
        claimsPaid: [],
        claimsIncurred: [],
        contractNumber: r.contract_number,
        dealer: {
          id: Number(r.dealer_id),
          dealerNumber: r.deal_data.dealer.dealerNumber,
          name: r.deal_data.dealer.name,
        },
        dealerGroup: r.dealer_group_id === null ? null : { id: Number(r.dealer_group_id), name: r.group_name ?? '' },
        product: { id: r.coverage.product.id, code: r.coverage.product.code, name: r.coverage.product.name },
        program: { id: r.coverage.program.id, code: r.coverage.program.code, name: r.coverage.program.name },
        plan: { id: r.coverage.plan.id, code: r.coverage.plan.code, name: r.coverage.plan.name },
        term: { months: r.coverage.term.months, miles: r.coverage.term.miles },
      })
    }
    await movements(x, tenantId, entries, reserveCodes)
    out.push(...entries.values())
  }
  return out
}

type Mutable = {
  -readonly [K in keyof BookContract]: BookContract[K] extends readonly Movement[] ? Movement[] : BookContract[K]
}

/** Fills the contracts' journal movements: reserve (premium entry kinds), claim expense, claim payments. */
async function movements(
  x: Executor,
  tenantId: number,
  entries: Map<number, BookEntry>,
  reserveCodes: Map<number, Set<string>>,
): Promise<void> {
  const ids = [...entries.keys()]
  const lines = await x
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .select([
      'l.contract_id',
      'e.id as entry_id',
      'e.kind',
      'e.effective_date',
      'a.purpose',
      'l.disbursement_code',
      'l.debit',
      'l.credit',
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('l.contract_id', 'in', ids)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('e.kind', 'in', [...PREMIUM_ENTRY_KINDS]),
          eb('a.purpose', 'in', ['DISBURSEMENT_PAYABLE', 'UNEARNED_REVENUE']),
        ]),
        eb('a.purpose', '=', 'CLAIM_EXPENSE'),
      ]),
    )
    .orderBy('e.effective_date')
    .orderBy('e.id')
    .orderBy('l.line_no')
    .execute()
  const cancelEntries = new Set<string>()
  for (const l of lines) {
    const id = Number(l.contract_id)
    const c = entries.get(id) as Mutable | undefined
    if (c === undefined) continue
    const credit = centsOf(l.credit) - centsOf(l.debit)
    const on = l.effective_date
    if (l.purpose === 'CLAIM_EXPENSE') {
      c.claimsIncurred.push({ on, cents: -credit })
      continue
    }
    if (l.disbursement_code === null || !reserveCodes.get(id)?.has(l.disbursement_code)) continue
    if (l.kind === 'CONTRACT_CANCELLED' || l.kind === 'CANCEL_REVERSED') {
      c.cancelled.push({ on, cents: -credit })
      const key = `${l.entry_id}/${id}`
      if (!cancelEntries.has(key)) {
        cancelEntries.add(key)
        c.cancelEvents.push({ on, cents: l.kind === 'CONTRACT_CANCELLED' ? 1 : -1 })
      }
    } else c.written.push({ on, cents: credit })
  }
  const payments = await x
    .selectFrom('claim_payment as p')
    .innerJoin('claim_payment_request as r', (j) =>
      j.onRef('r.tenant_id', '=', 'p.tenant_id').onRef('r.id', '=', 'p.payment_request_id'),
    )
    .innerJoin('journal_entry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'p.tenant_id').onRef('e.id', '=', 'p.journal_entry_id'),
    )
    .select(['r.contract_id', 'e.effective_date', 'p.amount'])
    .where('p.tenant_id', '=', tenantId)
    .where('r.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('r.contract_id', 'in', ids)
    .execute()
  for (const p of payments) {
    const c = entries.get(Number(p.contract_id)) as Mutable | undefined
    c?.claimsPaid.push({ on: p.effective_date, cents: centsOf(p.amount) })
  }
}

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

/** credit − debit of an insurer's DISBURSEMENT_PAYABLE over premium entry kinds, contract lines, in the period. */
export async function insurerPayableMovement(
  x: Executor,
  tenantId: number,
  insurerId: number,
  from: string,
  to: string,
) {
  const r = await x
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .select(sql<string>`coalesce(sum(l.credit - l.debit), 0)`.as('s'))
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
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
  const r = await x
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .select(sql<string>`coalesce(sum(l.debit), 0)`.as('s'))
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
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
