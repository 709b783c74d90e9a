// Read-only views over the journal (docs/ledgers.md): plain Kysely functions, the executor and the
// tenant first; every statement names tenant_id. Every figure is derived from journal_line alone,
// dated by journal_entry.effective_date (the accounting date), or from the sums the database keeps of
// those lines (ledger items, migration 0035; account totals, 0045), never from a store the service writes.
import { sql, type SelectQueryBuilder } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { Decimal, toCents } from '../../platform/money.ts'

/** Dealer-side callers: only these account holders; null for staff. */
export type Visible = ReadonlySet<number> | null

const cents = (v: string | number | null | undefined) => (v === null || v === undefined ? 0 : toCents(new Decimal(v)))

/** The journal lines of a tenant with their account and entry; the tenant named on every table. */
function lines(db: Executor, tenantId: number) {
  return db
    .selectFrom('journal_line as l')
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .where('l.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
}

type LineQuery<O> = SelectQueryBuilder<
  DB & { l: DB['journal_line']; a: DB['ledger_account']; e: DB['journal_entry'] },
  'l' | 'a' | 'e',
  O
>

export async function holderExists(db: Executor, tenantId: number, id: number): Promise<{ kind: string } | undefined> {
  return db
    .selectFrom('account_holder')
    .select('kind')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export type LineFilter = {
  accountHolderId: number
  purpose?: string | undefined
  from?: string | undefined
  to?: string | undefined
  contractId?: number | undefined
}

export type LedgerLineRow = {
  entryId: number
  lineNo: number
  effectiveDate: string
  kind: string
  sourceType: string
  sourceId: number
  purpose: string
  contractId: number | null
  contractNumber: string | null
  disbursementCode: string | null
  debitCents: number
  creditCents: number
  memo: string | null
}

function lineFilter<O>(q: LineQuery<O>, f: LineFilter): LineQuery<O> {
  q = q.where('a.account_holder_id', '=', f.accountHolderId)
  if (f.purpose !== undefined) q = q.where('a.purpose', '=', f.purpose)
  if (f.contractId !== undefined) q = q.where('l.contract_id', '=', f.contractId)
  return q
}

/** An account holder's lines in accounting-date order (then entry, line), one window of them. */
export async function ledgerLines(
  db: Executor,
  tenantId: number,
  f: LineFilter,
  window: Window,
): Promise<{ rows: LedgerLineRow[]; totalCount: number }> {
  let q = lineFilter(lines(db, tenantId), f)
  if (f.from !== undefined) q = q.where('e.effective_date', '>=', f.from)
  if (f.to !== undefined) q = q.where('e.effective_date', '<=', f.to)
  const count = await q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()
  const rows = await windowed(
    q
      .leftJoin('contract as c', (j) => j.onRef('c.tenant_id', '=', 'l.tenant_id').onRef('c.id', '=', 'l.contract_id'))
      .select([
        'l.entry_id',
        'l.line_no',
        sql<string>`e.effective_date::text`.as('effective_date'),
        'e.kind',
        'e.source_type',
        'e.source_id',
        'a.purpose',
        'l.contract_id',
        'c.contract_number',
        'l.disbursement_code',
        'l.debit',
        'l.credit',
        'l.memo',
      ])
      .orderBy('e.effective_date')
      .orderBy('l.entry_id')
      .orderBy('l.line_no'),
    window,
  ).execute()
  return {
    totalCount: Number(count.n),
    rows: rows.map((r) => ({
      entryId: Number(r.entry_id),
      lineNo: Number(r.line_no),
      effectiveDate: String(r.effective_date).slice(0, 10),
      kind: r.kind,
      sourceType: r.source_type,
      sourceId: Number(r.source_id),
      purpose: r.purpose,
      contractId: r.contract_id === null ? null : Number(r.contract_id),
      contractNumber: r.contract_number ?? null,
      disbursementCode: r.disbursement_code,
      debitCents: cents(r.debit),
      creditCents: cents(r.credit),
      memo: r.memo,
    })),
  }
}

/** Debits and credits of the filter's lines dated before `before` (the opening of a window). */
export async function totalsBefore(
  db: Executor,
  tenantId: number,
  f: LineFilter,
  before: string,
): Promise<{ debitCents: number; creditCents: number }> {
  const r = await lineFilter(lines(db, tenantId), f)
    .where('e.effective_date', '<', before)
    .select([sql<string | null>`sum(l.debit)`.as('d'), sql<string | null>`sum(l.credit)`.as('c')])
    .executeTakeFirstOrThrow()
  return { debitCents: cents(r.d), creditCents: cents(r.c) }
}

/**
 * Whether the ledger items (migration 0035: running totals per account and contract) answer for
 * asOf: none has a line dated after it, so every item's totals are its totals as of asOf. Otherwise
 * the views read the lines. One probe of ledger_item (tenant_id, last_date) when nothing is
 * future-dated, the usual case of a view as of today.
 */
export async function itemsCover(db: Executor, tenantId: number, asOf: string): Promise<boolean> {
  const after = await db
    .selectFrom('ledger_item')
    .select('account_id')
    .where('tenant_id', '=', tenantId)
    .where('last_date', '>', asOf)
    .limit(1)
    .executeTakeFirst()
  return after === undefined
}

/**
 * The amounts of the ledger as of asOf, with their account: from the account totals (fromItems:
 * itemsCover said every item, so every line, is on or before asOf; migration 0045: the folded total
 * of each account and its unfolded deltas, which sum to the account's items) or one row per journal
 * line dated on or before asOf. Either way each row has the account, the contract (0: none, and
 * always 0 for the totals), debit, credit and its first accounting date (null for the totals), so
 * the views that group per account (balances, pay/receive) get the same figures. A plain subquery
 * (a UNION ALL of two index ranges for the totals): PostgreSQL pulls it up into the view's join.
 */
function amounts(db: Executor, tenantId: number, asOf: string, fromItems: boolean) {
  return fromItems
    ? db
        .selectFrom('ledger_total as t')
        .where('t.tenant_id', '=', tenantId)
        .select([
          't.tenant_id',
          't.account_id',
          sql<number>`0::bigint`.as('contract_id'),
          sql<string>`t.debit`.as('debit'),
          sql<string>`t.credit`.as('credit'),
          sql<string>`null::date`.as('first_date'),
        ])
        .unionAll(
          db
            .selectFrom('ledger_total_delta as d')
            .where('d.tenant_id', '=', tenantId)
            .select([
              'd.tenant_id',
              'd.account_id',
              sql<number>`0::bigint`.as('contract_id'),
              sql<string>`d.debit`.as('debit'),
              sql<string>`d.credit`.as('credit'),
              sql<string>`null::date`.as('first_date'),
            ]),
        )
    : db
        .selectFrom('journal_line as l')
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .where('l.tenant_id', '=', tenantId)
        .where('e.tenant_id', '=', tenantId)
        .where('e.effective_date', '<=', asOf)
        .select([
          'l.tenant_id',
          'l.account_id',
          sql<number>`coalesce(l.contract_id, 0)`.as('contract_id'),
          sql<string>`l.debit`.as('debit'),
          sql<string>`l.credit`.as('credit'),
          sql<string>`e.effective_date`.as('first_date'),
        ])
}

/** The amounts as of asOf with their account, filtered to a holder and what the caller sees. */
function amountsByAccount(
  db: Executor,
  tenantId: number,
  f: { asOf: string; fromItems: boolean; holderId?: number | undefined; visible: Visible },
) {
  let q = db
    .selectFrom(amounts(db, tenantId, f.asOf, f.fromItems).as('l'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .where('a.tenant_id', '=', tenantId)
  if (f.holderId !== undefined) q = q.where('a.account_holder_id', '=', f.holderId)
  if (f.visible) q = q.where('a.account_holder_id', 'in', f.visible.size ? [...f.visible] : [0])
  return q
}

export type BalanceRow = { accountHolderId: number; purpose: string; debitCents: number; creditCents: number }

/** Debits and credits per account holder and purpose of the lines dated on or before asOf. */
export async function balances(
  db: Executor,
  tenantId: number,
  f: {
    asOf: string
    fromItems: boolean
    accountHolderId?: number | undefined
    purpose?: string | undefined
    visible: Visible
  },
): Promise<BalanceRow[]> {
  let q = amountsByAccount(db, tenantId, { ...f, holderId: f.accountHolderId })
  if (f.purpose !== undefined) q = q.where('a.purpose', '=', f.purpose)
  const rows = await q
    .select(['a.account_holder_id', 'a.purpose', sql<string>`sum(l.debit)`.as('d'), sql<string>`sum(l.credit)`.as('c')])
    .groupBy(['a.account_holder_id', 'a.purpose'])
    .orderBy('a.account_holder_id')
    .orderBy('a.purpose')
    .execute()
  return rows.map((r) => ({
    accountHolderId: Number(r.account_holder_id),
    purpose: r.purpose,
    debitCents: cents(r.d),
    creditCents: cents(r.c),
  }))
}

export type PayReceiveRow = {
  accountHolderId: number
  kind: string
  displayName: string
  receivableCents: number
  disbursementPayableCents: number
  refundPayableCents: number
  claimPayableCents: number
  unappliedCashCents: number
}

// Normal-side nets of one purpose, in SQL: receivable debit-normal, the payables and unapplied cash credit-normal.
const net = (purpose: string, side: 'DEBIT' | 'CREDIT') =>
  side === 'DEBIT'
    ? sql<string | null>`sum(l.debit - l.credit) filter (where a.purpose = ${purpose})`
    : sql<string | null>`sum(l.credit - l.debit) filter (where a.purpose = ${purpose})`

/** Per account holder with any line on or before asOf: what it owes and is owed, one window of holders. */
export async function payReceive(
  db: Executor,
  tenantId: number,
  f: {
    asOf: string
    fromItems: boolean
    accountHolderId?: number | undefined
    kind?: string | undefined
    visible: Visible
  },
  window: Window,
): Promise<{ rows: PayReceiveRow[]; totalCount: number }> {
  let q = amountsByAccount(db, tenantId, { ...f, holderId: f.accountHolderId })
    .innerJoin('account_holder as h', (j) =>
      j.onRef('h.tenant_id', '=', 'a.tenant_id').onRef('h.id', '=', 'a.account_holder_id'),
    )
    .where('h.tenant_id', '=', tenantId)
  if (f.kind !== undefined) q = q.where('h.kind', '=', f.kind as never)
  const count = await q.select(sql<string>`count(distinct a.account_holder_id)`.as('n')).executeTakeFirstOrThrow()
  const rows = await windowed(
    q
      .select([
        'a.account_holder_id',
        'h.kind',
        'h.display_name',
        net('DEALER_RECEIVABLE', 'DEBIT').as('receivable'),
        net('DISBURSEMENT_PAYABLE', 'CREDIT').as('disbursement'),
        net('REFUND_PAYABLE', 'CREDIT').as('refund'),
        net('CLAIM_PAYABLE', 'CREDIT').as('claim'),
        net('UNAPPLIED_CASH', 'CREDIT').as('unapplied'),
      ])
      .groupBy(['a.account_holder_id', 'h.kind', 'h.display_name'])
      .orderBy('a.account_holder_id'),
    window,
  ).execute()
  return {
    totalCount: Number(count.n),
    rows: rows.map((r) => ({
      accountHolderId: Number(r.account_holder_id),
      kind: String(r.kind),
      displayName: r.display_name,
      receivableCents: cents(r.receivable),
      disbursementPayableCents: cents(r.disbursement),
      refundPayableCents: cents(r.refund),
      claimPayableCents: cents(r.claim),
      unappliedCashCents: cents(r.unapplied),
    })),
  }
}

export type OpenItemRow = {
  dealerId: number
  contractId: number
  contractNumber: string
  productId: number
  firstPostedDate: string
  openCents: number
}

type OpenItemFilter = {
  asOf: string
  fromItems: boolean
  dealerId?: number | undefined
  visible: Visible
  postedOnOrBefore?: string | undefined
}

/**
 * Open receivable items as of asOf: per holder and contract, the DEALER_RECEIVABLE amounts dated on
 * or before asOf that net to a positive balance; first posted = the earliest of their dates.
 * `postedOnOrBefore` keeps items at least minAge days old. From the ledger items each row is already
 * one contract of one holder (one receivable account per holder), so nothing is grouped and the open
 * ones are a range of the index ledger_item_open_idx, oldest first; from the lines they are grouped.
 */
function openItemsQuery(db: Executor, tenantId: number, f: OpenItemFilter) {
  if (f.fromItems && f.dealerId !== undefined) {
    // One dealer: its receivable account's id first, so the index range is read in order and a page
    // stops after its rows (a join would read and sort every item of the dealer).
    let account = db
      .selectFrom('ledger_account as a')
      .select('a.id')
      .where('a.tenant_id', '=', tenantId)
      .where('a.account_holder_id', '=', f.dealerId)
      .where('a.purpose', '=', 'DEALER_RECEIVABLE')
    if (f.visible) account = account.where('a.account_holder_id', 'in', f.visible.size ? [...f.visible] : [0])
    let q = db
      .selectFrom('ledger_item as i')
      .where('i.tenant_id', '=', tenantId)
      .where('i.account_id', '=', account)
      .where('i.contract_id', '<>', 0)
      .where(sql<boolean>`i.debit > i.credit`)
    if (f.postedOnOrBefore !== undefined) q = q.where('i.first_date', '<=', f.postedOnOrBefore as never)
    return q.select([
      'i.tenant_id',
      sql<number>`${f.dealerId}::bigint`.as('account_holder_id'),
      'i.contract_id',
      sql<string>`i.first_date`.as('first_date'),
      sql<string>`i.debit - i.credit`.as('open'),
    ])
  }
  if (f.fromItems) {
    let q = db
      .selectFrom('ledger_item as i')
      .innerJoin('ledger_account as a', (j) =>
        j.onRef('a.tenant_id', '=', 'i.tenant_id').onRef('a.id', '=', 'i.account_id'),
      )
      .where('i.tenant_id', '=', tenantId)
      .where('a.tenant_id', '=', tenantId)
      .where('a.purpose', '=', 'DEALER_RECEIVABLE')
      .where('i.contract_id', '<>', 0)
      .where(sql<boolean>`i.debit > i.credit`)
    if (f.dealerId !== undefined) q = q.where('a.account_holder_id', '=', f.dealerId)
    if (f.visible) q = q.where('a.account_holder_id', 'in', f.visible.size ? [...f.visible] : [0])
    if (f.postedOnOrBefore !== undefined) q = q.where('i.first_date', '<=', f.postedOnOrBefore as never)
    return q.select([
      'i.tenant_id',
      'a.account_holder_id',
      'i.contract_id',
      sql<string>`i.first_date`.as('first_date'),
      sql<string>`i.debit - i.credit`.as('open'),
    ])
  }
  let q = amountsByAccount(db, tenantId, { ...f, holderId: f.dealerId })
    .where('a.purpose', '=', 'DEALER_RECEIVABLE')
    .where('l.contract_id', '<>', 0)
    .groupBy(['l.tenant_id', 'a.account_holder_id', 'l.contract_id'])
    .having(sql<boolean>`sum(l.debit) - sum(l.credit) > 0`)
  if (f.postedOnOrBefore !== undefined) q = q.having(sql<boolean>`min(l.first_date) <= ${f.postedOnOrBefore}`)
  return q.select([
    'l.tenant_id',
    'a.account_holder_id',
    'l.contract_id',
    sql<string>`min(l.first_date)`.as('first_date'),
    sql<string>`sum(l.debit) - sum(l.credit)`.as('open'),
  ])
}

/**
 * The open receivable items as of asOf per holder and first posted date, from the totals of
 * migration 0045 (only when fromItems): the folded rows of ledger_open_total and the unfolded deltas,
 * amount and count, both netted item by item by the trigger as the items change. One account per
 * holder, one index range each; `postedOnOrBefore` cuts the range.
 */
function openTotals(db: Executor, tenantId: number, f: OpenItemFilter) {
  const part = (table: 'ledger_open_total' | 'ledger_open_delta') => {
    let q = db
      .selectFrom(`${table} as o` as 'ledger_open_total as o')
      .where('o.tenant_id', '=', tenantId)
      .select(['o.tenant_id', 'o.account_id', 'o.first_date', 'o.open_amount', 'o.open_count'])
    if (f.postedOnOrBefore !== undefined) q = q.where('o.first_date', '<=', f.postedOnOrBefore as never)
    return q
  }
  let q = db
    .selectFrom(part('ledger_open_total').unionAll(part('ledger_open_delta')).as('o'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'o.tenant_id').onRef('a.id', '=', 'o.account_id'),
    )
    .where('a.tenant_id', '=', tenantId)
    .where('a.purpose', '=', 'DEALER_RECEIVABLE')
  if (f.dealerId !== undefined) q = q.where('a.account_holder_id', '=', f.dealerId)
  if (f.visible) q = q.where('a.account_holder_id', 'in', f.visible.size ? [...f.visible] : [0])
  return q
}

/**
 * Open receivable items (openItemsQuery) oldest first, one window of them: the window is cut before
 * the contracts are joined, so only its rows read their contract.
 */
export async function openItems(
  db: Executor,
  tenantId: number,
  f: OpenItemFilter,
  window: Window,
): Promise<{ rows: OpenItemRow[]; totalCount: number }> {
  const items = openItemsQuery(db, tenantId, f)
  const page = windowed(
    db.selectFrom(items.as('o')).selectAll('o').orderBy('o.first_date').orderBy('o.contract_id'),
    window,
  )
  const rows = await db
    .selectFrom(page.as('i'))
    .innerJoin('contract as c', (j) => j.onRef('c.tenant_id', '=', 'i.tenant_id').onRef('c.id', '=', 'i.contract_id'))
    .where('c.tenant_id', '=', tenantId)
    .select([
      'i.account_holder_id',
      'i.contract_id',
      sql<string>`i.first_date::text`.as('first_date'),
      'i.open',
      'c.contract_number',
      'c.product_id',
    ])
    .orderBy('i.first_date')
    .orderBy('i.contract_id')
    .execute()
  // From the items, the count is the open-item counts of the totals (migration 0045), not a walk of
  // every open item.
  const count = f.fromItems
    ? await openTotals(db, tenantId, f)
        .select(sql<string>`coalesce(sum(o.open_count), 0)`.as('n'))
        .executeTakeFirstOrThrow()
    : await db
        .selectFrom(items.as('i'))
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
  return {
    totalCount: Number(count.n),
    rows: rows.map((r) => ({
      dealerId: Number(r.account_holder_id),
      contractId: Number(r.contract_id),
      contractNumber: r.contract_number,
      productId: Number(r.product_id),
      firstPostedDate: String(r.first_date).slice(0, 10),
      openCents: cents(r.open),
    })),
  }
}

/**
 * The open receivable items summed per first posted date (the aging's input: an item's age is the
 * days from that date to asOf). Items are netted one by one before they are summed, so only open
 * ones count, as in openItems; from the items, the totals of migration 0045 hold those sums.
 */
export async function openByFirstDate(
  db: Executor,
  tenantId: number,
  f: OpenItemFilter,
): Promise<Array<{ firstPostedDate: string; openCents: number }>> {
  const rows = f.fromItems
    ? await openTotals(db, tenantId, f)
        .select([sql<string>`o.first_date::text`.as('first_date'), sql<string>`sum(o.open_amount)`.as('open')])
        .groupBy('o.first_date')
        .having(sql<boolean>`sum(o.open_count) > 0`)
        .orderBy('o.first_date')
        .execute()
    : await db
        .selectFrom(openItemsQuery(db, tenantId, f).as('i'))
        .select([sql<string>`i.first_date::text`.as('first_date'), sql<string>`sum(i.open)`.as('open')])
        .groupBy('i.first_date')
        .orderBy('i.first_date')
        .execute()
  return rows.map((r) => ({ firstPostedDate: String(r.first_date).slice(0, 10), openCents: cents(r.open) }))
}
