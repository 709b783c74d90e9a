// The demo tenant (src/demo.ts) as tests use it, read one way: seeded through the module graph that
// serves the test app, signed in as its administrator like any TestTenant, and the facts of its data
// that tests name (dealers, vehicles the demo book rates, the book itself) in one place, and the one
// way tests sell a contract of that book (sellDemoContract).
import assert from 'node:assert/strict'
import { seedDemoTenant, type DemoTenant } from '../src/demo.ts'
import { demoRateBook, type RateQuote } from '../src/modules/rating/index.ts'
import { json, loginHeaders, type TestApp, type TestTenant } from './harness.ts'

/** What the demo data holds that tests rely on (src/modules/parties/demo.ts, the demo rate book). */
export const DEMO = {
  /** Lone Star Honda of Austin: a franchise dealer that sells from the demo book. */
  dealerNumber: '10001',
  /** Lone Star Toyota of Dallas: another dealer of the same group. */
  otherDealerNumber: '10002',
  vins: {
    /** A 2020 Honda Accord: the README's example quote. */
    accord: '1HGCV1F37LA012345',
    /** A 2019 Toyota Camry. */
    camry: '4T1B11HK8KU123456',
    /** A 2025 Honda Accord: young enough for the demo PPM plan (PPM-NEW: 3 years, 36,000 miles at most). */
    newAccord: '1HGCV1F35SA000001',
  },
  /** The README's example vehicle as rate-quote query parameters: a used 2020 Accord, 42,150 miles. */
  accordQuery: 'vin=1HGCV1F37LA012345&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01',
  /** The new 2025 Accord as rate-quote query parameters (12 miles): what a PPM sale quotes. */
  newAccordQuery: 'vin=1HGCV1F35SA000001&vehicleCondition=NEW&odometer=12',
  /** The demo rate book, in force from `effectiveDate`. */
  rateBook: demoRateBook,
} as const

export type DemoTestTenant = TestTenant & {
  /** The credentials seeding returned, as `npm start` prints them. */
  demo: DemoTenant
}

/** Seeds the demo tenant in `t`'s database (a new one per call) and signs its administrator in. */
export async function seedDemo(t: TestApp): Promise<DemoTestTenant> {
  const demo = await seedDemoTenant(t.modules, t.db)
  const admin = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('email_address_key', '=', demo.adminEmail.toLowerCase())
      .executeTakeFirstOrThrow(),
  )
  return {
    tenantId: demo.tenantId,
    apiKey: demo.apiKey,
    adminUserId: admin.id,
    adminEmail: demo.adminEmail,
    adminPassword: demo.adminPassword,
    headers: await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword),
    demo,
  }
}

/** What a demo sale may vary; each field's default is what most tests want. */
export type DemoSale = {
  /**
   * The day of sale (YYYY-MM-DD), which the quote is priced for. A second sale of the same dealer, VIN,
   * plan and day within ten minutes is refused as a duplicate (409): give each sale its own day.
   */
  saleDate: string
  /** The selling dealer; default DEMO.dealerNumber. */
  dealerNumber?: string
  /** The product quoted; default VSC. PPM sells the new 2025 Accord at 12 miles (the used Accord is too old for it). */
  productType?: 'VSC' | 'GAP' | 'TIRE_WHEEL' | 'PPM'
  /** The plan sold, on its first term and first deductible; default PLAT-USED, the demo VSC plan for a used Accord (PPM-NEW for PPM). */
  planCode?: string
  /** Codes of options of that deductible to add (such as ROADSIDE); none by default. */
  optionCodes?: readonly string[]
  /** More rate-quote query parameters, such as `customerState=NY`. */
  quoteQuery?: string
  /** When coverage starts (at most 60 days after the sale); by default the sale date. */
  effectiveDate?: string
  /** The buyer; default Sam Buyer. */
  customer?: { firstName: string; lastName: string; emailAddress?: string }
  /** Other fields of the POST /api/contracts body (such as lienHolder), laid over all the above. */
  deal?: Record<string, unknown>
  /** Finalize the new contract too; default false (left PENDING). */
  finalize?: boolean
}

/**
 * Sells a contract of the demo book through the API as `tenant` (the demo tenant's administrator,
 * with the headers it holds at the call): a rate quote for the README's used 2020 Accord (42,150 miles)
 * at the dealer, then POST /api/contracts of the plan's first rate at its suggested retail price, with
 * the custom field the demo VSC plans require. Replies the created contract, or with `finalize` the
 * finalized one (FINALIZED, or ACTIVE once in effect). Every step is asserted to succeed.
 */
export async function sellDemoContract<
  C extends { id: number } = { id: number; contractNumber: string; status: string },
>(t: TestApp, tenant: TestTenant, sale: DemoSale): Promise<C> {
  const productType = sale.productType ?? 'VSC'
  const planCode = sale.planCode ?? (productType === 'PPM' ? 'PPM-NEW' : 'PLAT-USED')
  const vehicle =
    productType === 'PPM'
      ? { query: DEMO.newAccordQuery, vin: DEMO.vins.newAccord, odometer: 12 }
      : { query: DEMO.accordQuery, vin: DEMO.vins.accord, odometer: 42150 }
  const q = await t.app.inject({
    method: 'GET',
    url: `/api/Rates/rateQuote/${sale.dealerNumber ?? DEMO.dealerNumber}?${vehicle.query}&saleDate=${sale.saleDate}&productTypes=${productType}${sale.quoteQuery ? `&${sale.quoteQuery}` : ''}`,
    headers: tenant.headers,
  })
  assert.equal(q.statusCode, 200, q.body)
  const quote = json<RateQuote>(q)
  const plan = quote.products.flatMap((p) => p.programs.flatMap((g) => g.plans)).find((p) => p.planCode === planCode)
  assert.ok(plan, `the quote offers ${planCode}`)
  const deductible = plan.terms[0]!.deductibles[0]!
  const options = (sale.optionCodes ?? []).map((code) => {
    const option = deductible.options.find((o) => o.code === code)
    assert.ok(option, `the demo plan offers ${code}`)
    return option.optionId
  })
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/contracts',
    headers: tenant.headers,
    payload: {
      quoteId: quote.quoteId,
      rateId: deductible.rate.rateId,
      ...(options.length > 0 ? { selectedOptionIds: options } : {}),
      retailPrice: deductible.rate.suggestedRetail,
      saleDate: sale.saleDate,
      ...(sale.effectiveDate === undefined ? {} : { effectiveDate: sale.effectiveDate }),
      saleOdometer: vehicle.odometer,
      vehicle: { vin: vehicle.vin },
      customer: sale.customer ?? { firstName: 'Sam', lastName: 'Buyer', emailAddress: 'sam@example.com' },
      customFields: productType === 'VSC' ? { financeManagerCode: 'FM7' } : {},
      ...sale.deal,
    },
  })
  assert.equal(res.statusCode, 201, res.body)
  const created = json<C>(res)
  return sale.finalize ? finalizeContract<C>(t, tenant, created.id) : created
}

/** Finalizes pending contract `id` as `tenant`, asserting it succeeds; replies the contract as finalized. */
export async function finalizeContract<C = { id: number; contractNumber: string; status: string }>(
  t: TestApp,
  tenant: TestTenant,
  id: number,
): Promise<C> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/contracts/${id}/finalize`,
    headers: tenant.headers,
    payload: {},
  })
  assert.equal(res.statusCode, 200, res.body)
  return json<{ contract: C }>(res).contract
}
