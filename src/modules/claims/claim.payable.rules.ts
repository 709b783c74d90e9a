// What a claim pays, as pure rules (issue 14; docs/claims.md "Rules"; payloads.md §7: 285.40 + 9.77 −
// 100.00 = 195.17). The caller gives the claim's jobs and benefits, the repair facility's rates, the
// contract's deductible and claim terms (`contract.terms.claims`, a ClaimTerms of rating) and what the
// contract's other claims have used of its limit of liability; it gets every figure back, each line's
// and the claim's, and which cap bound. Bad input a user can send (a negative quantity or price, hours
// with more than two places, a benefit the plan does not cover) is a refusal value `{ ok: false,
// errors }`; a throw is a caller's mistake (a negative limit, a deductible that is not whole cents).
//
// Arithmetic (money.md "Arithmetic", decision 0012): money is integer cents. A quantity or hours (at
// most two places) and the tax rate (a fraction, "0.0825", at most six places) are exact ratios of
// BigInts; a product is rounded ONCE, half up, by `multiplyCentsByRatio`: each line's amount (quantity
// × unit price, hours × rate), and the tax once per claim.
//
// The rules, in order:
// 1. Lines. A part: quantity × unit price, requested and authorized (`authorizedUnitCents` null: as
//    requested). Labor: the amount requested (null: hours × rate), authorized (null: hours × the
//    capped rate), never above hours × min(rate, cap), the cap being the facility's labor rate unless
//    the caller gives another (`laborRateCapCents`; null: none). Sublet: requested, authorized (null:
//    as requested). Reduce a line by authorizing less; deny it by authorizing 0. Then per line the
//    lesser of authorized and invoiced, when the invoice's line amount is known (`invoicedCents`).
// 2. Jobs. Only AUTHORIZED jobs count (PENDING and DENIED ones pay nothing); `requested` sums every job.
// 3. Benefits (RENTAL, TOWING, TRIP_INTERRUPTION, ROADSIDE), each line one occurrence, only AUTHORIZED
//    ones counting: per day, `min(days, maxDays) × min(dailyRate, perDay)`; else the amount asked;
//    either at most `perOccurrence`. The authorization is held to those caps too; then the lesser of
//    authorized and invoiced; then every line of a type together at most its `maxAmount` (in line
//    order, per claim). A type the plan does not list is refused (`benefits[i].type` `not_covered`).
// 4. Subtotal = jobs + benefits. Tax = round(taxable × the facility's tax rate), once per claim, the
//    taxable being the amounts counted of taxable parts (sublet, labor and benefits are not taxed).
// 5. The deductible: once a visit when at least one job is authorized (PER_VISIT), or once per
//    authorized job (PER_REPAIR), as the plan says; a claim of benefits only takes none. None when the
//    contract's deductible is DISAPPEARING and the repair facility is linked to the selling dealer.
// 6. payable = max(0, subtotal + tax − deductible), then at most the limit of liability left (limit −
//    paid on the contract's other claims − authorized and unpaid on them) and the per-claim limit (a
//    tire & wheel plan's per-occurrence cap is this per-claim limit). `cappedBy` names the caps that
//    bound (both when they tie).
import type { FieldError } from '../../platform/http/errors.ts'
import { Decimal, multiplyCentsByRatio, toCents } from '../../platform/money.ts'
import type { BenefitTerms, ClaimTerms } from '../rating/index.ts'
import type { JobStatus } from './claim.rules.ts'

export type BenefitType = BenefitTerms['type']
export type DeductibleApplies = ClaimTerms['deductibleApplies']

// ---- input --------------------------------------------------------------------------------------

/** A decimal given as a JSON number or a decimal string ("1.5"). */
export type DecimalInput = number | string

export type PartLine = {
  partNumber?: string | undefined
  /** More than 0, at most two places. */
  quantity: DecimalInput
  requestedUnitCents: number
  /** null: authorized as requested. */
  authorizedUnitCents: number | null
  /** The line's amount on the invoice; null or absent: not known yet. */
  invoicedCents?: number | null | undefined
  taxable: boolean
}

export type LaborLine = {
  operationCode?: string | undefined
  /** More than 0, at most two places. */
  hours: DecimalInput
  /** The rate per hour asked. */
  rateCents: number
  /** The amount asked; null or absent: hours × rate. */
  requestedCents?: number | null | undefined
  /** null: hours × the capped rate. */
  authorizedCents: number | null
  invoicedCents?: number | null | undefined
}

export type SubletLine = {
  description?: string | undefined
  requestedCents: number
  /** null: authorized as requested. */
  authorizedCents: number | null
  invoicedCents?: number | null | undefined
}

export type ClaimJob = {
  lineNumber?: number | undefined
  status: JobStatus
  parts: readonly PartLine[]
  labor: readonly LaborLine[]
  sublet: readonly SubletLine[]
}

export type BenefitLine = {
  type: BenefitType
  status: JobStatus
  /** A per-day benefit (rental, trip interruption): whole days and the rate charged a day. */
  days?: number | null | undefined
  dailyRateCents?: number | null | undefined
  /** A per-occurrence benefit (a tow): the amount asked. Ignored when days and a daily rate are given. */
  requestedCents?: number | null | undefined
  /** null: as the plan's caps allow. */
  authorizedCents: number | null
  invoicedCents?: number | null | undefined
}

export type PayableInput = {
  jobs: readonly ClaimJob[]
  benefits: readonly BenefitLine[]
  facility: {
    /** Its labor rate per hour; null: none on file (then no default cap). */
    laborRateCents: number | null
    /** Its tax rate on parts as a fraction ("0.0825"), at most six places, below 1. */
    taxRate: DecimalInput
  }
  /** The cap on labor rates: absent, the facility's labor rate; null, none. */
  laborRateCapCents?: number | null | undefined
  /** The contract's deductible: its amount and type (STANDARD, DISAPPEARING, REDUCED). */
  deductible: { amountCents: number; type: string }
  /** The facility is linked to the dealer that sold the contract (a disappearing deductible disappears there). */
  facilityLinkedToSellingDealer: boolean
  /** The plan's claim terms, as `contract.terms.claims` carries them. */
  terms: Pick<ClaimTerms, 'deductibleApplies' | 'perClaimLimit' | 'benefits'>
  liability: {
    /** limitOfLiabilityCents() of the terms; null: no limit. */
    limitCents: number | null
    paidOnOtherClaimsCents: number
    authorizedUnpaidOnOtherClaimsCents: number
  }
}

// ---- output -------------------------------------------------------------------------------------

/** Which figure a line's amount came from. */
export type LineBasis = 'AUTHORIZED' | 'INVOICED'

export type LineFigures = {
  requestedCents: number
  /** Authorized, after the caps that bind an authorization (the labor rate cap, a benefit's plan caps). */
  authorizedCents: number
  invoicedCents: number | null
  /** What the line counts for: the lesser of authorized and invoiced (0 in a job not AUTHORIZED). */
  countedCents: number
  basis: LineBasis
}

export type LaborFigures = LineFigures & {
  /** The rate the cap allowed: min(rate, cap). */
  allowedRateCents: number
  /** The authorization was above hours × the capped rate. */
  rateCapped: boolean
}

export type PartFigures = LineFigures & { taxable: boolean }

export type JobFigures = {
  lineNumber: number | null
  status: JobStatus
  parts: PartFigures[]
  labor: LaborFigures[]
  sublet: LineFigures[]
  requestedCents: number
  /** Σ authorized of its lines when AUTHORIZED, else 0 (payloads.md's `authorizedTotal`). */
  authorizedCents: number
  countedCents: number
  /** Its taxable parts, counted. */
  taxableCents: number
  /** PER_REPAIR: the deductible it takes; PER_VISIT: 0 (the claim takes it once). */
  deductibleCents: number
}

export type BenefitCap = 'PER_DAY' | 'MAX_DAYS' | 'PER_OCCURRENCE' | 'MAX_AMOUNT'

export type BenefitFigures = LineFigures & {
  type: BenefitType
  status: JobStatus
  /** The plan's caps that reduced the line. */
  cappedBy: BenefitCap[]
}

export type PayableCap = 'LIMIT_OF_LIABILITY' | 'PER_CLAIM_LIMIT'

export type ClaimPayable = {
  ok: true
  jobs: JobFigures[]
  benefits: BenefitFigures[]
  /** Every job and benefit line as asked. */
  requestedCents: number
  /** AUTHORIZED jobs and benefits as authorized (payloads.md's `totals.authorized`). */
  authorizedCents: number
  /** Counted: per line the lesser of authorized and invoiced. */
  subtotalCents: number
  taxableCents: number
  /** The facility's tax rate, as given. */
  taxRate: string
  taxCents: number
  deductibleApplies: DeductibleApplies
  /** The deductible taken: once a visit, or per authorized job; 0 when waived. */
  deductibleCents: number
  /** Why no deductible was taken although the contract has one: DISAPPEARING at a facility linked to the selling dealer. */
  deductibleWaived: 'DISAPPEARING' | null
  /** The deductible took it all (subtotal + tax ≤ deductible). */
  deductibleAboveAmount: boolean
  /** max(0, subtotal + tax − deductible). */
  beforeLimitsCents: number
  liability: {
    limitCents: number | null
    paidOnOtherClaimsCents: number
    authorizedUnpaidOnOtherClaimsCents: number
    /** max(0, limit − paid − authorized unpaid); null: no limit. */
    leftCents: number | null
  }
  perClaimLimitCents: number | null
  payableCents: number
  /** The caps that bound the payable, empty when none did. */
  cappedBy: PayableCap[]
}

export type ClaimPayableResult = ClaimPayable | { ok: false; errors: FieldError[] }

// ---- exact decimals -----------------------------------------------------------------------------

type Exact = { num: bigint; den: bigint }

/** A plain decimal (a number or text, no sign, no exponent) of at most `places` places, exact; null otherwise. */
function exactDecimal(value: DecimalInput, places: number): Exact | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text)
  if (!m) return null
  const fraction = m[2] ?? ''
  if (fraction.length > places) return null
  return { num: BigInt(`${m[1]}${fraction}`), den: 10n ** BigInt(fraction.length) }
}

const times = (cents: number, x: Exact) => multiplyCentsByRatio(cents, x.num, x.den)

const moneyCents = (text: string | null): number | null => (text === null ? null : toCents(new Decimal(text)))

// ---- the limit of liability ----------------------------------------------------------------------

export type LimitOfLiability = { ok: true; cents: number | null } | { ok: false; errors: FieldError[] }

/**
 * What all claims of a contract may add up to, from the plan's `limitOfLiability`: its amount, the
 * contract price, the vehicle's purchase price, or no limit (null). A basis on the vehicle's purchase
 * price when it is not known is refused rather than read as no limit.
 */
export function limitOfLiabilityCents(
  limit: ClaimTerms['limitOfLiability'],
  prices: { contractPriceCents: number; vehiclePurchasePriceCents: number | null },
): LimitOfLiability {
  switch (limit.basis) {
    case 'NONE':
      return { ok: true, cents: null }
    case 'AMOUNT': {
      const cents = moneyCents(limit.amount)
      if (cents === null) throw new RangeError('a limit of liability on AMOUNT needs its amount')
      return { ok: true, cents }
    }
    case 'CONTRACT_PRICE':
      return { ok: true, cents: prices.contractPriceCents }
    case 'VEHICLE_PURCHASE_PRICE':
      return prices.vehiclePurchasePriceCents === null
        ? {
            ok: false,
            errors: [
              {
                field: 'vehiclePurchasePrice',
                code: 'required',
                message:
                  "the plan's limit of liability is the vehicle's purchase price, which the contract does not have",
              },
            ],
          }
        : { ok: true, cents: prices.vehiclePurchasePriceCents }
  }
}

// ---- bad input ----------------------------------------------------------------------------------

const isCents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** Every problem of the claim's lines a user can cause, each naming its field. */
export function payableInputProblems(input: PayableInput): FieldError[] {
  const errors: FieldError[] = []
  const cents = (field: string, v: number | null | undefined, required: boolean) => {
    if (v === null || v === undefined) {
      if (required) errors.push({ field, code: 'required', message: 'is required' })
    } else if (!isCents(v)) {
      errors.push({
        field,
        code: 'out_of_range',
        message: 'must be an amount of 0.00 or more with at most two decimals',
      })
    }
  }
  const positive = (field: string, v: DecimalInput) => {
    const x = exactDecimal(v, 2)
    if (x === null && /^-\d/.test(String(v)))
      errors.push({ field, code: 'out_of_range', message: 'must be more than 0' })
    else if (x === null)
      errors.push({ field, code: 'invalid_format', message: 'must be a number with at most two decimals' })
    else if (x.num === 0n) errors.push({ field, code: 'out_of_range', message: 'must be more than 0' })
  }
  input.jobs.forEach((job, j) => {
    job.parts.forEach((p, i) => {
      const at = `jobs[${j}].parts[${i}]`
      positive(`${at}.quantity`, p.quantity)
      cents(`${at}.requestedUnitPrice`, p.requestedUnitCents, true)
      cents(`${at}.authorizedUnitPrice`, p.authorizedUnitCents, false)
      cents(`${at}.invoicedAmount`, p.invoicedCents, false)
    })
    job.labor.forEach((l, i) => {
      const at = `jobs[${j}].labor[${i}]`
      positive(`${at}.hours`, l.hours)
      cents(`${at}.rate`, l.rateCents, true)
      cents(`${at}.requestedAmount`, l.requestedCents, false)
      cents(`${at}.authorizedAmount`, l.authorizedCents, false)
      cents(`${at}.invoicedAmount`, l.invoicedCents, false)
    })
    job.sublet.forEach((s, i) => {
      const at = `jobs[${j}].sublet[${i}]`
      cents(`${at}.requestedAmount`, s.requestedCents, true)
      cents(`${at}.authorizedAmount`, s.authorizedCents, false)
      cents(`${at}.invoicedAmount`, s.invoicedCents, false)
    })
  })
  input.benefits.forEach((b, i) => {
    const at = `benefits[${i}]`
    if (!input.terms.benefits.some((t) => t.type === b.type))
      errors.push({ field: `${at}.type`, code: 'not_covered', message: `the plan has no ${b.type} benefit` })
    if (b.days !== null && b.days !== undefined && (!Number.isSafeInteger(b.days) || b.days < 0))
      errors.push({ field: `${at}.days`, code: 'out_of_range', message: 'must be a whole number of days, 0 or more' })
    cents(`${at}.dailyRate`, b.dailyRateCents, false)
    cents(`${at}.requestedAmount`, b.requestedCents, false)
    cents(`${at}.authorizedAmount`, b.authorizedCents, false)
    cents(`${at}.invoicedAmount`, b.invoicedCents, false)
  })
  const rate = exactDecimal(input.facility.taxRate, 6)
  if (rate === null || rate.num >= rate.den)
    errors.push({
      field: 'repairFacility.taxRate',
      code: 'invalid_format',
      message: 'must be a fraction from 0 to below 1 with at most six decimals (0.0825)',
    })
  cents('repairFacility.laborRate', input.facility.laborRateCents, false)
  return errors
}

function assertCallerCents(input: PayableInput) {
  const check = (what: string, v: number | null | undefined) => {
    if (v !== null && v !== undefined && !isCents(v)) throw new RangeError(`${what} must be whole cents, 0 or more`)
  }
  check('deductible.amountCents', input.deductible.amountCents)
  check('laborRateCapCents', input.laborRateCapCents)
  check('liability.limitCents', input.liability.limitCents)
  check('liability.paidOnOtherClaimsCents', input.liability.paidOnOtherClaimsCents)
  check('liability.authorizedUnpaidOnOtherClaimsCents', input.liability.authorizedUnpaidOnOtherClaimsCents)
}

// ---- the computation ----------------------------------------------------------------------------

/** The lesser of authorized and invoiced; counted only when `counts` (an AUTHORIZED job or benefit). */
function line(
  requested: number,
  authorized: number,
  invoiced: number | null | undefined,
  counts: boolean,
): LineFigures {
  const inv = invoiced ?? null
  const byInvoice = inv !== null && inv < authorized
  return {
    requestedCents: requested,
    authorizedCents: authorized,
    invoicedCents: inv,
    countedCents: counts ? (byInvoice ? inv : authorized) : 0,
    basis: byInvoice ? 'INVOICED' : 'AUTHORIZED',
  }
}

const sum = (values: Iterable<number>) => {
  let n = 0
  for (const v of values) n += v
  return n
}

function jobFigures(job: ClaimJob, rateCap: number | null): Omit<JobFigures, 'deductibleCents'> {
  const counts = job.status === 'AUTHORIZED'
  const parts = job.parts.map((p): PartFigures => {
    const q = exactDecimal(p.quantity, 2)!
    const requested = times(p.requestedUnitCents, q)
    const authorized = times(p.authorizedUnitCents ?? p.requestedUnitCents, q)
    return { ...line(requested, authorized, p.invoicedCents, counts), taxable: p.taxable }
  })
  const labor = job.labor.map((l): LaborFigures => {
    const h = exactDecimal(l.hours, 2)!
    const allowedRate = rateCap === null ? l.rateCents : Math.min(l.rateCents, rateCap)
    const ceiling = times(allowedRate, h)
    const given = l.authorizedCents ?? ceiling
    const requested = l.requestedCents ?? times(l.rateCents, h)
    return {
      ...line(requested, Math.min(given, ceiling), l.invoicedCents, counts),
      allowedRateCents: allowedRate,
      rateCapped: given > ceiling,
    }
  })
  const sublet = job.sublet.map((s) =>
    line(s.requestedCents, s.authorizedCents ?? s.requestedCents, s.invoicedCents, counts),
  )
  const all: LineFigures[] = [...parts, ...labor, ...sublet]
  return {
    lineNumber: job.lineNumber ?? null,
    status: job.status,
    parts,
    labor,
    sublet,
    requestedCents: sum(all.map((l) => l.requestedCents)),
    authorizedCents: counts ? sum(all.map((l) => l.authorizedCents)) : 0,
    countedCents: sum(all.map((l) => l.countedCents)),
    taxableCents: sum(parts.filter((p) => p.taxable).map((p) => p.countedCents)),
  }
}

/** Each benefit line with the plan's caps; `maxAmount` binds every line of a type together, in order. */
function benefitFigures(benefits: readonly BenefitLine[], terms: readonly BenefitTerms[]): BenefitFigures[] {
  const usedAuthorized = new Map<BenefitType, number>()
  const usedCounted = new Map<BenefitType, number>()
  return benefits.map((b): BenefitFigures => {
    const plan = terms.find((t) => t.type === b.type)!
    const counts = b.status === 'AUTHORIZED'
    const cappedBy = new Set<BenefitCap>()
    const perDay = moneyCents(plan.perDay)
    const perOccurrence = moneyCents(plan.perOccurrence)
    const maxAmount = moneyCents(plan.maxAmount)
    const byDay = b.days !== null && b.days !== undefined && b.dailyRateCents !== null && b.dailyRateCents !== undefined
    let requested: number
    let ceiling: number
    if (byDay) {
      const days = b.days as number
      const rate = b.dailyRateCents as number
      requested = days * rate
      const allowedRate = perDay === null ? rate : Math.min(rate, perDay)
      const allowedDays = plan.maxDays === null ? days : Math.min(days, plan.maxDays)
      if (allowedRate < rate) cappedBy.add('PER_DAY')
      if (allowedDays < days) cappedBy.add('MAX_DAYS')
      ceiling = allowedRate * allowedDays
    } else {
      requested = b.requestedCents ?? 0
      ceiling = requested
    }
    if (perOccurrence !== null && ceiling > perOccurrence) {
      ceiling = perOccurrence
      cappedBy.add('PER_OCCURRENCE')
    }
    // An authorization with no amount takes what the caps allow; one above them is held to them.
    const given = b.authorizedCents ?? ceiling
    let authorized = Math.min(given, ceiling)
    const fig = line(requested, authorized, b.invoicedCents, counts)
    if (maxAmount !== null) {
      const leftAuthorized = Math.max(0, maxAmount - (usedAuthorized.get(b.type) ?? 0))
      const leftCounted = Math.max(0, maxAmount - (usedCounted.get(b.type) ?? 0))
      if (authorized > leftAuthorized) {
        authorized = leftAuthorized
        cappedBy.add('MAX_AMOUNT')
      }
      if (fig.countedCents > leftCounted) {
        fig.countedCents = leftCounted
        cappedBy.add('MAX_AMOUNT')
      }
    }
    if (counts) {
      usedAuthorized.set(b.type, (usedAuthorized.get(b.type) ?? 0) + authorized)
      usedCounted.set(b.type, (usedCounted.get(b.type) ?? 0) + fig.countedCents)
    }
    return { ...fig, authorizedCents: authorized, type: b.type, status: b.status, cappedBy: [...cappedBy] }
  })
}

/** Every figure of what the claim pays (the rules are in this file's header). */
export function claimPayable(input: PayableInput): ClaimPayableResult {
  assertCallerCents(input)
  const errors = payableInputProblems(input)
  if (errors.length > 0) return { ok: false, errors }

  const rateCap = input.laborRateCapCents === undefined ? input.facility.laborRateCents : input.laborRateCapCents
  const jobsNoDeductible = input.jobs.map((j) => jobFigures(j, rateCap))
  const benefits = benefitFigures(input.benefits, input.terms.benefits)

  const authorizedJobs = jobsNoDeductible.filter((j) => j.status === 'AUTHORIZED').length
  const applies = input.terms.deductibleApplies
  const waived = input.deductible.type === 'DISAPPEARING' && input.facilityLinkedToSellingDealer
  const each = waived ? 0 : input.deductible.amountCents
  const deductible = applies === 'PER_REPAIR' ? each * authorizedJobs : authorizedJobs > 0 ? each : 0
  const jobs = jobsNoDeductible.map((j): JobFigures => ({
    ...j,
    deductibleCents: applies === 'PER_REPAIR' && j.status === 'AUTHORIZED' ? each : 0,
  }))

  const countedBenefits = benefits.filter((b) => b.status === 'AUTHORIZED')
  const requested = sum(jobs.map((j) => j.requestedCents)) + sum(benefits.map((b) => b.requestedCents))
  const authorized = sum(jobs.map((j) => j.authorizedCents)) + sum(countedBenefits.map((b) => b.authorizedCents))
  const subtotal = sum(jobs.map((j) => j.countedCents)) + sum(benefits.map((b) => b.countedCents))
  const taxable = sum(jobs.map((j) => j.taxableCents))
  const rate = exactDecimal(input.facility.taxRate, 6)!
  const tax = times(taxable, rate)

  const beforeLimits = Math.max(0, subtotal + tax - deductible)
  const { limitCents, paidOnOtherClaimsCents: paid, authorizedUnpaidOnOtherClaimsCents: unpaid } = input.liability
  const left = limitCents === null ? null : Math.max(0, limitCents - paid - unpaid)
  const perClaim = moneyCents(input.terms.perClaimLimit)
  const payable = Math.min(beforeLimits, left ?? Infinity, perClaim ?? Infinity)
  const cappedBy: PayableCap[] = []
  if (payable < beforeLimits) {
    if (left === payable) cappedBy.push('LIMIT_OF_LIABILITY')
    if (perClaim === payable) cappedBy.push('PER_CLAIM_LIMIT')
  }

  return {
    ok: true,
    jobs,
    benefits,
    requestedCents: requested,
    authorizedCents: authorized,
    subtotalCents: subtotal,
    taxableCents: taxable,
    taxRate: String(input.facility.taxRate),
    taxCents: tax,
    deductibleApplies: applies,
    deductibleCents: deductible,
    deductibleWaived: waived && input.deductible.amountCents > 0 && authorizedJobs > 0 ? 'DISAPPEARING' : null,
    deductibleAboveAmount: deductible > 0 && subtotal + tax <= deductible,
    beforeLimitsCents: beforeLimits,
    liability: {
      limitCents,
      paidOnOtherClaimsCents: paid,
      authorizedUnpaidOnOtherClaimsCents: unpaid,
      leftCents: left,
    },
    perClaimLimitCents: perClaim,
    payableCents: payable,
    cappedBy,
  }
}
