// Properties of the rate quote over random sales on the demo book, through the quote service with
// in-memory ports (no database): the reply matches the published schema; explain=true (every entry
// priced on its own) offers the same products at the same prices as the plain quote (whole plans
// from the cache); every rate the quote offers is accepted by quotedRate, at the same price, with
// its options, and a rate index it did not offer is refused; a replay shows the same products.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import fc from 'fast-check'
import { systemContext } from '../../../platform/http/context.ts'
import { compileSchemaValidator } from '../../../platform/http/validation.ts'
import type { DealerProfile } from '../../parties/index.ts'
import type { AppliedDisbursementRule } from '../disbursements/index.ts'
import {
  catalogueItemsOf,
  catalogueKey,
  checkRateBook,
  compileRateBook,
  demoRateBook,
  parseRateId,
  type CompiledRateBook,
} from '../ratebook/index.ts'
import { createVinDecoder } from '../vin/index.ts'
import type { VisibilityEntry } from '../visibility/index.ts'
import { readQuoteQuery } from './quote.rules.ts'
import { RateQuoteSchema, type RateQuote } from './quote.schemas.ts'
import { createQuoteService, type QuoteService } from './quote.service.ts'

type Quote = RateQuote

const NOW = new Date('2026-11-22T12:00:00Z')
const TODAY = '2026-11-22'
const TENANT = 1
const ctx = systemContext(TENANT, 'properties')
const validateReply = compileSchemaValidator(RateQuoteSchema)

const checked = checkRateBook(demoRateBook('2025-01-01'), { file: 'demo' })
if (!checked.ok) throw new Error('the demo book does not check')
const ids = new Map(catalogueItemsOf(checked.book).map((it, i) => [catalogueKey(it.kind, it.code), i + 1]))
const idOf = (kind: Parameters<typeof catalogueKey>[0], code: string) => ids.get(catalogueKey(kind, code))!
const book: CompiledRateBook = compileRateBook(7, 1, checked.book, ids)

/** Dealers that see the book differently: markup limits, plan-level entries, disbursements, states. */
const DEALERS: Array<{ profile: DealerProfile; visibility: VisibilityEntry[]; rules: AppliedDisbursementRule[] }> = [
  {
    profile: dealerProfile(11, '10001', 'TX', 5, [21]),
    visibility: book.products.map((p) => entry(p.id, null, null, p.code === 'VSC' ? '1500.00' : null, null)),
    rules: [
      rule(1, 11, 'DEALER', 'PCK', 'AMOUNT', '100.00', null, { productId: idOf('PRODUCT', 'VSC') }),
      rule(2, 21, 'AGENT', 'OVR', 'AMOUNT', '25.00', null, {}),
      rule(3, 5, 'DEALER_GROUP', 'PCK', 'AMOUNT', '40.00', null, { planId: idOf('PLAN', 'GOLD-USED') }),
    ],
  },
  {
    profile: dealerProfile(12, '10002', 'FL', null, []),
    visibility: [
      entry(idOf('PRODUCT', 'VSC'), idOf('PROGRAM', 'GOLD'), null, null, '25.0000'),
      entry(idOf('PRODUCT', 'VSC'), idOf('PROGRAM', 'PLAT'), idOf('PLAN', 'PLAT-USED'), '900.00', null),
      entry(idOf('PRODUCT', 'GAP'), null, null, null, null),
      entry(idOf('PRODUCT', 'TW'), null, null, null, '10.0000'),
    ],
    rules: [rule(4, 12, 'DEALER', 'PRT', 'PERCENT', null, '10', { productId: idOf('PRODUCT', 'VSC') })],
  },
  {
    profile: dealerProfile(13, '10003', 'NY', null, [22]),
    visibility: book.products.map((p) => entry(p.id, null, null, null, null)),
    rules: [rule(5, 22, 'AGENT', 'OVR', 'PERCENT', null, '5', { termId: idOf('TERM', 'GOLD-USED/48-60000') })],
  },
  {
    // As 10003 but with markup limits and no disbursements: what differs is the limits alone.
    profile: dealerProfile(14, '10004', 'CA', null, []),
    visibility: book.products.map((p) => entry(p.id, null, null, p.code === 'VSC' ? '700.00' : null, '15.0000')),
    rules: [],
  },
]

function dealerProfile(
  id: number,
  dealerNumber: string,
  state: string,
  group: number | null,
  agents: number[],
): DealerProfile {
  return {
    id,
    dealerNumber,
    name: `Dealer ${dealerNumber}`,
    state,
    status: 'ACTIVE',
    expiredDate: null,
    dealerGroupId: group,
    agentIds: agents,
  }
}
function entry(
  productId: number,
  programId: number | null,
  planId: number | null,
  maxMarkupAmount: string | null,
  maxMarkupPercent: string | null,
): VisibilityEntry {
  return { productId, programId, planId, maxMarkupAmount, maxMarkupPercent }
}
function rule(
  id: number,
  accountHolderId: number,
  accountHolderKind: AppliedDisbursementRule['accountHolderKind'],
  code: string,
  basis: 'AMOUNT' | 'PERCENT',
  amount: string | null,
  percent: string | null,
  target: { productId?: number; planId?: number; termId?: number },
): AppliedDisbursementRule {
  return {
    id,
    accountHolderId,
    accountHolderKind,
    code,
    label: code,
    group: code === 'OVR' ? 'COMMISSION' : 'DEALER_PACK',
    basis,
    amount,
    percent,
    productId: target.productId ?? null,
    programId: null,
    planId: target.planId ?? null,
    termId: target.termId ?? null,
    effectiveFrom: '2025-01-01',
    effectiveTo: null,
  }
}

function createService(): QuoteService {
  const byNumber = new Map(DEALERS.map((d) => [d.profile.dealerNumber, d]))
  const byId = new Map(DEALERS.map((d) => [d.profile.id, d]))
  const secret = Buffer.alloc(32, 7)
  return createQuoteService({
    clock: { now: () => NOW },
    store: {
      inForce: async () => book,
      byId: async (_tenantId, bookId) => (bookId === book.bookId ? book : undefined),
    },
    directory: { dealerByNumber: async (_tenantId, n) => byNumber.get(n)?.profile },
    settings: {
      get: (async (_tenantId: number, key: string) =>
        key === 'quoteLifetime' ? { milliseconds: 86_400_000 } : 90) as never,
    },
    vin: createVinDecoder(),
    disbursements: {
      forQuote: async (_tenantId, holders) => ({
        fingerprint: `fp${holders.dealerId}`,
        rules: byId.get(holders.dealerId)!.rules,
      }),
    },
    visibility: { forQuote: async (_tenantId, dealerId) => byId.get(dealerId)!.visibility },
    today: async () => TODAY,
    quoteKey: async () => secret,
  })
}

// ---- random sales ----------------------------------------------------------------------------------

const VINS = [
  '1HGCV1F37LA012345', // 2020 Honda Accord
  '1FTFW1E57MFA12345', // 2021 Ford F-150
  '4T1B11HK8KU123456', // 2019 Toyota Camry
  '3C6UR5DL9LG123456', // 2020 Ram 2500 diesel
  '9ZZABCDE1RA012345', // no manufacturer has this WMI
]
const NAMED = [
  ['2023', 'Honda', 'Civic'],
  ['2016', 'Ford', 'F-150'],
  ['2025', 'Toyota', 'Tacoma'],
  ['2024', 'Ferrari', 'Roma'],
  ['2012', 'Chevrolet', 'Silverado 1500'],
] as const
/** A rate-quote query as a client sends it (text values), and the dealer it is for. */
const sale = fc
  .record(
    {
      dealer: fc.constantFrom(...DEALERS.map((d) => d.profile.dealerNumber)),
      vehicle: fc.oneof(
        fc.constantFrom(...VINS).map((vin) => ({ vin })),
        fc
          .constantFrom(...NAMED)
          .map(([vehicleYear, vehicleMake, vehicleModel]) => ({ vehicleYear, vehicleMake, vehicleModel })),
        fc.constant({}),
      ),
      vehicleCondition: fc.constantFrom('NEW', 'USED', 'CERTIFIED', 'used'),
      odometer: fc.oneof(fc.integer({ min: 0, max: 180_000 }), fc.integer({ min: 0, max: 6000 })).map(String),
      saleDaysAgo: fc.integer({ min: 0, max: 30 }),
      inServiceYearsAgo: fc.integer({ min: 0, max: 14 }),
      finance: fc.record({
        financeTermMonths: fc.integer({ min: 12, max: 96 }).map(String),
        amountFinanced: fc.integer({ min: 5_000, max: 60_000 }).map((n) => `${n}.00`),
        msrp: fc.integer({ min: 20_000, max: 70_000 }).map((n) => `${n}.00`),
      }),
      customerState: fc.constantFrom('TX', 'FL', 'NY', 'CA'),
      surcharges: fc.subarray(
        ['COMMERCIAL_USE', 'DIESEL', 'LIFT_KIT', 'ROADSIDE', 'RENTAL', 'FOUR_WD', 'NOT_AN_OPTION'],
        {
          minLength: 1,
        },
      ),
      productTypes: fc.subarray(['VSC', 'GAP', 'TIRE_WHEEL', 'PPM'], { minLength: 1 }),
    },
    { requiredKeys: ['dealer', 'vehicle', 'saleDaysAgo'] },
  )
  .map((s) => {
    const saleDate = new Date(Date.UTC(2026, 10, 22) - s.saleDaysAgo * 86_400_000).toISOString().slice(0, 10)
    const query: Record<string, string> = { ...s.vehicle, saleDate }
    if (s.vehicleCondition) query.vehicleCondition = s.vehicleCondition
    if (s.odometer) query.odometer = s.odometer
    if (s.inServiceYearsAgo !== undefined)
      query.inServiceDate = `${Number(saleDate.slice(0, 4)) - s.inServiceYearsAgo}${saleDate.slice(4)}`.replace(
        '-02-29',
        '-02-28',
      )
    if (s.finance)
      Object.assign(query, s.finance, {
        vehiclePurchasePrice: s.finance.msrp,
        financeType: 'RETAIL',
        apr: '6.99',
      })
    if (s.customerState) query.customerState = s.customerState
    if (s.surcharges) query.surcharges = s.surcharges.join(',')
    if (s.productTypes) query.productTypes = s.productTypes.join(',')
    return { dealer: s.dealer, query }
  })

// ---- helpers ---------------------------------------------------------------------------------------

const parse = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Quote

async function quoteOf(service: QuoteService, dealerNumber: string, query: Record<string, string>, explain: boolean) {
  const read = readQuoteQuery(dealerNumber, query, TODAY)
  assert.ok(read.ok, JSON.stringify(read))
  const reply = await service.quote(ctx, read.inputs, explain)
  try {
    return parse(reply.bytes)
  } finally {
    reply.release()
  }
}

/** Every priced rate of a reply, with its place. */
function offered(q: Quote) {
  return q.products.flatMap((product) =>
    product.programs.flatMap((program) =>
      program.plans.flatMap((plan) =>
        plan.terms.flatMap((term) =>
          term.deductibles.map((deductible) => ({ product, program, plan, term, deductible })),
        ),
      ),
    ),
  )
}
const cents = (amount: number) => Math.round(amount * 100)

// ---- properties ------------------------------------------------------------------------------------

describe('rate quote properties on the demo book', () => {
  let service: QuoteService
  before(() => {
    service = createService()
  })
  const runs = { numRuns: 60 }

  test('the reply validates against RateQuoteSchema, with and without explain', async () => {
    await fc.assert(
      fc.asyncProperty(sale, fc.boolean(), async ({ dealer, query }, explain) => {
        const q = await quoteOf(service, dealer, query, explain)
        assert.deepEqual(validateReply(q), [])
        assert.equal(q.exclusions !== undefined, explain)
      }),
      runs,
    )
  })

  test('explain=true offers the same products at the same prices as the plain quote', async () => {
    let priced = 0
    await fc.assert(
      fc.asyncProperty(sale, async ({ query }) => {
        // The sale for every dealer and customer state: what may differ between them (markup limits,
        // disbursements, state factors and rates) must never be taken from another's cached piece.
        for (const dealer of DEALERS.map((d) => d.profile.dealerNumber))
          for (const customerState of ['TX', 'FL', 'NY', 'CA']) {
            const sold = { ...query, customerState }
            // Plain twice, so that the second is served from whole cached plans, then explained.
            await quoteOf(service, dealer, sold, false)
            const plain = await quoteOf(service, dealer, sold, false)
            const { exclusions, ...explained } = await quoteOf(service, dealer, sold, true)
            assert.ok(Array.isArray(exclusions))
            assert.deepEqual(explained, plain)
            priced += offered(plain).length
          }
      }),
      { numRuns: 30 },
    )
    assert.ok(priced > 0, 'some sales were priced')
  })

  test('every rate a quote offers is accepted by quotedRate, at the same price, with its options', async () => {
    let checkedRates = 0
    await fc.assert(
      fc.asyncProperty(sale, async ({ dealer, query }) => {
        const q = await quoteOf(service, dealer, query, false)
        for (const { product, program, plan, term, deductible } of offered(q)) {
          const optional = deductible.options.filter((o) => !o.required).map((o) => o.optionId)
          const rate = await service.quotedRate(ctx, {
            quoteId: q.quoteId,
            rateId: deductible.rate.rateId,
            optionIds: optional,
          })
          assert.deepEqual(
            [rate.product.id, rate.program.id, rate.plan.id, rate.term.id, rate.deductible.id],
            [product.productId, program.programId, plan.planId, term.termId, deductible.deductibleId],
          )
          assert.deepEqual(
            [
              rate.price.dealerCostCents,
              rate.price.suggestedRetailCents,
              rate.price.minRetailCents,
              rate.price.maxRetailCents,
              rate.price.retailLocked,
            ],
            [
              cents(deductible.rate.dealerCost),
              cents(deductible.rate.suggestedRetail),
              cents(deductible.rate.minRetail),
              cents(deductible.rate.maxRetail),
              deductible.rate.retailLocked,
            ],
          )
          assert.deepEqual(
            rate.price.lines.map((l) => [l.code, l.cents, l.source]),
            deductible.rate.disbursements.map((d) => [d.code, cents(d.amount), d.source]),
          )
          assert.deepEqual(
            [rate.expirationDate, rate.expirationOdometer],
            [term.expirationDate, term.expirationOdometer],
          )
          // Every option the quote offered with the rate: the required ones and those chosen.
          assert.deepEqual(
            rate.options.map((o) => [o.id, o.required, o.dealerCostCents, o.retailCents]),
            deductible.options.map((o) => [o.optionId, o.required, cents(o.dealerCost), cents(o.suggestedRetail)]),
          )
          // Another rate index for the same plan, term and deductible is not what the quote offered.
          const ref = parseRateId(deductible.rate.rateId)!
          await assert.rejects(
            service.quotedRate(ctx, {
              quoteId: q.quoteId,
              rateId: `r.${ref.planId}.${ref.termId}.${ref.deductibleId}.${ref.rateIndex + 1}`,
              optionIds: [],
            }),
            (err: { code?: string }) => err.code === 'rate_not_in_quote',
          )
          checkedRates++
        }
      }),
      runs,
    )
    assert.ok(checkedRates > 0, 'some rates were checked')
  })

  test('a replay shows the same products and messages', async () => {
    await fc.assert(
      fc.asyncProperty(sale, async ({ dealer, query }) => {
        const q = await quoteOf(service, dealer, query, false)
        const reply = await service.replay(ctx, q.quoteId, false)
        const { expired, ...again } = parse(reply.bytes)
        reply.release()
        assert.equal(expired, false)
        assert.deepEqual(again, q)
      }),
      { numRuns: 20 },
    )
  })
})
