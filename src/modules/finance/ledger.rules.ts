// The ledger's pure rules (docs/ledger.md): the accounts' purposes and their normal sides, the
// entry kinds and sources, what makes an entry postable (every line a positive amount of whole
// cents on a known account, at least two lines, debits equal to credits), reversal, and balances.
import type { FieldError } from '../../platform/http/errors.ts'
import { isStorableId } from '../../platform/ids.ts'
import { Decimal, ZERO, parseMoney, sumMoney } from '../../platform/money.ts'

export type Side = 'DEBIT' | 'CREDIT'

/**
 * What an account holder's account is for. An account is the pair (account holder, purpose), so a
 * dealer has one receivable however many contracts it sells; lines carry the contract and the
 * disbursement code for the sub-ledger views. The normal side is the side that increases it.
 */
export const ACCOUNT_PURPOSES = {
  /** What the dealer owes for its contracts (the dealer cost); settled by the dealer's cash. */
  DEALER_RECEIVABLE: { normalSide: 'DEBIT', description: 'owed by the dealer: the dealer cost of its contracts' },
  /** What is owed to a disbursement's payee (insurer reserve, agent commission, dealer participation...). */
  DISBURSEMENT_PAYABLE: { normalSide: 'CREDIT', description: 'owed to the payee of a disbursement' },
  /** The administrator's own fee, posted to the administrator company. */
  ADMINISTRATOR_REVENUE: { normalSide: 'CREDIT', description: "the administrator's fee" },
  /** The part of a price not yet earned over the term; earnings move it to revenue. */
  UNEARNED_REVENUE: { normalSide: 'CREDIT', description: 'price not yet earned over the term' },
  /** Money in the administrator's bank, posted to the administrator company. */
  CASH: { normalSide: 'DEBIT', description: "money in the administrator's bank" },
  /** Cash received from an account holder and not yet applied to its ledger items (in-process cash). */
  UNAPPLIED_CASH: { normalSide: 'CREDIT', description: 'cash received and not yet applied' },
  /** Claim payments owed to a repair facility or claim payee. */
  CLAIM_PAYABLE: { normalSide: 'CREDIT', description: 'claim payments owed to the payee' },
  /** The cost of claims, posted to whoever bears the risk (administrator company or insurer). */
  CLAIM_EXPENSE: { normalSide: 'DEBIT', description: 'cost of paid claims' },
  /** Cancellation refunds owed to the customer or the lien holder. */
  REFUND_PAYABLE: { normalSide: 'CREDIT', description: 'cancellation refunds owed' },
  /**
   * Sales tax collected on a contract's price and owed to the taxing state, on whoever remits it
   * (the administrator company unless the dealer remits it itself). Nothing posts it yet: the terms
   * snapshot carries a slot for the tax, and the sale posts it once a tax is computed.
   */
  SALES_TAX_PAYABLE: { normalSide: 'CREDIT', description: 'sales tax collected and owed to the state' },
} as const satisfies Record<string, { normalSide: Side; description: string }>

export type AccountPurpose = keyof typeof ACCOUNT_PURPOSES

/**
 * What an entry records: the id is the source's own (a contract, cancellation, claim, cash
 * transaction, process run or transfer id). The ledger keeps no foreign key to them.
 */
export const SOURCE_TYPES = ['CONTRACT', 'CANCELLATION', 'CLAIM', 'CASH', 'PROCESS', 'TRANSFER'] as const
export type SourceType = (typeof SOURCE_TYPES)[number]

/**
 * Every kind of entry, with the sources it may record and what it posts (money.md "Postings",
 * docs/decisions/0012-money-after-the-sale.md). Declared here, in one place, for the issues that post
 * them (cancellations, earnings, claims, cash, servicing); checkEntry refuses a kind with a source it
 * does not record. Every line of a money event carries its contract where there is one.
 */
export const ENTRY_KIND_RULES = {
  /** Posted by finalize (contracts). */
  CONTRACT_FINALIZED: {
    sources: ['CONTRACT'],
    posting:
      "Dr DEALER_RECEIVABLE (dealer) the dealer cost; Cr DISBURSEMENT_PAYABLE each other payee's line; Cr UNEARNED_REVENUE (administrator company) each of the administrator's own lines",
  },
  /** Posted by refinalize (contracts): what the lines call for now minus what the contract's entries hold. */
  CONTRACT_REFINALIZED: {
    sources: ['CONTRACT'],
    posting: 'the difference, per account holder, purpose and disbursement code, of the finalization lines',
  },
  /** A price corrected after the sale (servicing): posted like refinalize, as its own kind. */
  CONTRACT_RERATED: {
    sources: ['CONTRACT'],
    posting: 'the difference, per account holder, purpose and disbursement code, of the finalization lines',
  },
  /** A cancel processed (cancellations). */
  CONTRACT_CANCELLED: {
    sources: ['CANCELLATION'],
    posting:
      "Dr DISBURSEMENT_PAYABLE each other payee's refunded share; Dr UNEARNED_REVENUE the administrator lines' unearned balance and Dr/Cr ADMINISTRATOR_REVENUE their earned-at-cancel difference; Dr DEALER_RECEIVABLE the markup share; Cr REFUND_PAYABLE (lien holder or customer) the net; Cr the fee to whoever keeps it; Cr the risk bearer's DISBURSEMENT_PAYABLE the claims deducted",
  },
  /** A processed cancel undone (reinstatement): a business event, unlike REVERSAL, which corrects an error. */
  CANCEL_REVERSED: {
    sources: ['CANCELLATION'],
    posting: "the cancel entry's lines on the other side",
  },
  /** The earnings process: the administrator's lines earned over the term, cumulative rounding. */
  EARNINGS_RECOGNIZED: {
    sources: ['PROCESS'],
    posting:
      'Dr UNEARNED_REVENUE, Cr ADMINISTRATOR_REVENUE (administrator company) per contract and code: earned to date at the period end minus earned to date at its start',
  },
  /** A claim approved for payment (claims). */
  CLAIM_APPROVED: {
    sources: ['CLAIM'],
    posting:
      "Dr CLAIM_EXPENSE of the risk bearer (the payee of the contract's reserve line); Cr CLAIM_PAYABLE of the claim payee",
  },
  /** The unpaid rest of a claim's payment request released when the claim is closed partly paid (claims). */
  CLAIM_RELEASED: {
    sources: ['CLAIM'],
    posting: 'Dr CLAIM_PAYABLE (claim payee) the unpaid rest; Cr CLAIM_EXPENSE of the risk bearer',
  },
  /** A claim paid out (claims). */
  CLAIM_PAID: { sources: ['CLAIM'], posting: 'Dr CLAIM_PAYABLE (claim payee); Cr CASH (administrator company)' },
  /** Money received (cash). */
  CASH_RECEIVED: { sources: ['CASH'], posting: 'Dr CASH (administrator company); Cr UNAPPLIED_CASH (payer)' },
  /** Received money applied to ledger items (cash). */
  CASH_APPLIED: {
    sources: ['CASH'],
    posting: 'Dr UNAPPLIED_CASH (payer); Cr DEALER_RECEIVABLE (dealer), one line per contract item',
  },
  /** Money paid out: refunds, commissions, other disbursements (cash). */
  CASH_DISBURSED: {
    sources: ['CASH'],
    posting:
      'Dr REFUND_PAYABLE or DISBURSEMENT_PAYABLE (payee), a line per contract paid; Cr the payables netted (payee: what it owes back); Cr CASH (administrator company) the net',
  },
  /** The fee of a contract's transfer to a new owner (servicing), earned at once. */
  TRANSFER_FEE: {
    sources: ['TRANSFER'],
    posting:
      'Dr DEALER_RECEIVABLE (the dealer who collects it) or CASH (administrator company); Cr ADMINISTRATOR_REVENUE (administrator company)',
  },
  /** Made by reverse() only, never posted directly: the same lines on the other side, for the same source. */
  REVERSAL: { sources: SOURCE_TYPES, posting: "the reversed entry's lines on the other side" },
} as const satisfies Record<string, { sources: readonly SourceType[]; posting: string }>

export type EntryKind = keyof typeof ENTRY_KIND_RULES
export const ENTRY_KINDS = Object.keys(ENTRY_KIND_RULES) as EntryKind[]

/** Whether an entry of `kind` may record a source of `type`. */
export function kindRecords(kind: EntryKind, type: SourceType): boolean {
  return (ENTRY_KIND_RULES[kind].sources as readonly SourceType[]).includes(type)
}

export type EntrySource = { type: SourceType; id: number }

export type LedgerLineInput = {
  accountHolderId: number
  purpose: AccountPurpose
  side: Side
  /** Positive, whole cents; a zero amount drops the line. */
  amount: Decimal | string
  memo?: string
  contractId?: number
  disbursementCode?: string
}

export type PostEntryInput = {
  kind: EntryKind
  source: EntrySource
  /** The accounting date, YYYY-MM-DD. */
  effectiveDate: string
  memo?: string
  lines: LedgerLineInput[]
}

/** A line as stored: numbered from 1 in the order given, zero lines left out. */
export type CheckedLine = {
  /** Position in the input's lines, for naming the line in errors. */
  index: number
  lineNo: number
  accountHolderId: number
  purpose: AccountPurpose
  side: Side
  amount: Decimal
  memo: string | null
  contractId: number | null
  disbursementCode: string | null
}

export type EntryCheck =
  | { ok: true; lines: CheckedLine[]; total: Decimal }
  | { ok: false; reason: 'invalid' | 'unbalanced'; detail: string; errors: FieldError[] }

export const MAX_MEMO_LENGTH = 1000
export const MAX_DISBURSEMENT_CODE_LENGTH = 100
/** numeric(14, 2): twelve digits before the point. */
const MAX_AMOUNT = new Decimal('999999999999.99')

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const m = DATE.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

export function isAccountPurpose(value: unknown): value is AccountPurpose {
  return typeof value === 'string' && Object.hasOwn(ACCOUNT_PURPOSES, value)
}

/** The amount as a Decimal of our money clone, or the reason it is not an amount of whole cents in range. */
function readAmount(value: unknown): { amount: Decimal } | { problem: Omit<FieldError, 'field'> } {
  let d: Decimal | null
  if (typeof value === 'string') d = parseMoney(value, { signed: true })
  // Ours as it is (a Decimal is immutable); one of another decimal.js clone (which would compute with
  // its own precision and rounding) copied into ours.
  else if (Decimal.isDecimal(value) && (value as Decimal).constructor === Decimal)
    d = (value as Decimal).isFinite() ? (value as Decimal) : null
  else if (Decimal.isDecimal(value)) d = (value as Decimal).isFinite() ? new Decimal(value as Decimal) : null
  else return { problem: { code: 'invalid_type', message: 'must be a Decimal or a decimal string' } }
  if (!d) return { problem: { code: 'invalid_format', message: 'must be a plain decimal with at most 2 decimals' } }
  if (d.decimalPlaces() > 2) return { problem: { code: 'too_precise', message: 'must be whole cents' } }
  if (d.isNegative() && !d.isZero())
    return { problem: { code: 'out_of_range', message: 'must not be negative: post it on the other side' } }
  if (d.greaterThan(MAX_AMOUNT))
    return { problem: { code: 'out_of_range', message: `must be at most ${MAX_AMOUNT.toFixed(2)}` } }
  return { amount: d.isZero() ? ZERO : d }
}

function text(value: unknown, max: number, field: string, errors: FieldError[]): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') errors.push({ field, code: 'invalid_type', message: 'must be a string' })
  else if (value.length > max) errors.push({ field, code: 'too_long', message: `must be at most ${max} characters` })
  else return value
  return null
}

/**
 * Checks an entry before anything is written: every problem is listed (invalid), else the sums are
 * compared (unbalanced). Zero lines are dropped, since they move nothing; what remains must have at
 * least two lines. `allowReversal` is for reverse() alone.
 */
export function checkEntry(input: PostEntryInput, options: { allowReversal?: boolean } = {}): EntryCheck {
  const errors: FieldError[] = []
  const kinds: readonly string[] = options.allowReversal ? ENTRY_KINDS : ENTRY_KINDS.filter((k) => k !== 'REVERSAL')
  if (!kinds.includes(input.kind)) {
    errors.push({
      field: 'kind',
      code: input.kind === 'REVERSAL' ? 'not_allowed' : 'invalid_value',
      message: input.kind === 'REVERSAL' ? 'reversals are made by reverse()' : `must be one of ${kinds.join(', ')}`,
    })
  }
  if (!input.source || !(SOURCE_TYPES as readonly string[]).includes(input.source.type)) {
    errors.push({ field: 'source.type', code: 'invalid_value', message: `must be one of ${SOURCE_TYPES.join(', ')}` })
  } else if (kinds.includes(input.kind) && !kindRecords(input.kind, input.source.type)) {
    errors.push({
      field: 'source.type',
      code: 'not_allowed',
      message: `a ${input.kind} entry records ${ENTRY_KIND_RULES[input.kind].sources.join(' or ')}, not ${input.source.type}`,
    })
  }
  if (!input.source || !isStorableId(input.source.id))
    errors.push({ field: 'source.id', code: 'invalid_value', message: 'must be a positive integer id' })
  if (!isCalendarDate(input.effectiveDate))
    errors.push({ field: 'effectiveDate', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
  text(input.memo, MAX_MEMO_LENGTH, 'memo', errors)

  const lines: CheckedLine[] = []
  const given = Array.isArray(input.lines) ? input.lines : []
  if (!Array.isArray(input.lines)) errors.push({ field: 'lines', code: 'invalid_type', message: 'must be an array' })
  given.forEach((line, i) => {
    const at = `lines[${i}]`
    const before = errors.length
    if (!isStorableId(line.accountHolderId))
      errors.push({ field: `${at}.accountHolderId`, code: 'invalid_value', message: 'must be a positive integer id' })
    if (!isAccountPurpose(line.purpose))
      errors.push({
        field: `${at}.purpose`,
        code: 'invalid_value',
        message: `must be one of ${Object.keys(ACCOUNT_PURPOSES).join(', ')}`,
      })
    if (line.side !== 'DEBIT' && line.side !== 'CREDIT')
      errors.push({ field: `${at}.side`, code: 'invalid_value', message: 'must be DEBIT or CREDIT' })
    const read = readAmount(line.amount)
    if ('problem' in read) errors.push({ field: `${at}.amount`, ...read.problem })
    if (line.contractId !== undefined && !isStorableId(line.contractId))
      errors.push({ field: `${at}.contractId`, code: 'invalid_value', message: 'must be a positive integer id' })
    if (line.disbursementCode === '')
      errors.push({ field: `${at}.disbursementCode`, code: 'too_short', message: 'must not be empty' })
    const disbursementCode = text(line.disbursementCode, MAX_DISBURSEMENT_CODE_LENGTH, `${at}.disbursementCode`, errors)
    const memo = text(line.memo, MAX_MEMO_LENGTH, `${at}.memo`, errors)
    if (errors.length > before || !('amount' in read) || read.amount.isZero()) return
    lines.push({
      index: i,
      lineNo: lines.length + 1,
      accountHolderId: line.accountHolderId,
      purpose: line.purpose,
      side: line.side,
      amount: read.amount,
      memo,
      contractId: line.contractId ?? null,
      disbursementCode,
    })
  })
  if (errors.length === 0 && lines.length < 2) {
    errors.push({ field: 'lines', code: 'too_short', message: 'must have at least two lines with an amount' })
  }
  if (errors.length > 0) {
    return {
      ok: false,
      reason: 'invalid',
      detail: `Invalid ledger entry: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      errors,
    }
  }
  const { debit, credit } = totals(lines)
  if (!debit.equals(credit)) {
    return {
      ok: false,
      reason: 'unbalanced',
      detail: `Ledger entry does not balance: debits ${debit.toFixed(2)}, credits ${credit.toFixed(2)}`,
      errors: [
        {
          field: 'lines',
          code: 'mismatch',
          message: `debits ${debit.toFixed(2)} must equal credits ${credit.toFixed(2)}`,
        },
      ],
    }
  }
  return { ok: true, lines, total: debit }
}

export function totals(lines: ReadonlyArray<{ side: Side; amount: Decimal }>): { debit: Decimal; credit: Decimal } {
  return {
    debit: sumMoney(lines.filter((l) => l.side === 'DEBIT').map((l) => l.amount)),
    credit: sumMoney(lines.filter((l) => l.side === 'CREDIT').map((l) => l.amount)),
  }
}

export function oppositeSide(side: Side): Side {
  return side === 'DEBIT' ? 'CREDIT' : 'DEBIT'
}

/** The lines of the entry that undoes `lines`: the same accounts, amounts and references, on the other side. */
export function reversalLines<L extends { side: Side }>(lines: readonly L[]): L[] {
  return lines.map((l) => ({ ...l, side: oppositeSide(l.side) }))
}

/**
 * A line for a signed change of an account (refinalize posts differences): a positive change goes
 * on `side`, a negative one on the other side, and no change gives no line.
 */
export function deltaLine(line: Omit<LedgerLineInput, 'amount'>, change: Decimal): LedgerLineInput | undefined {
  if (change.isZero()) return undefined
  return change.isNegative()
    ? { ...line, side: oppositeSide(line.side), amount: change.negated() }
    : { ...line, amount: change }
}

/** The balance of an account on its normal side: positive when the account holds what its purpose says (a receivable owed, a payable due). */
export function balanceOf(purpose: AccountPurpose, debit: Decimal, credit: Decimal): Decimal {
  return ACCOUNT_PURPOSES[purpose].normalSide === 'DEBIT' ? debit.minus(credit) : credit.minus(debit)
}
