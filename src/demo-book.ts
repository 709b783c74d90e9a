// The demo tenant's year of business (docs/reporting.md "The demo book"): a quota-share treaty of Lone
// Star Re over the Lone Star group's VSC sales, and about a year of sales, cancels and claims made
// through the real routes, so every journal entry, earning and cession is genuine. Its own module
// graph and app run on a manual clock walked day by day from the book's first day to the day before
// the seed day, so each entry is posted on its day and the reports show a real year, month by month.
// What happens each day is drawn from a fixed-seed generator: the same seed day gives the same book.
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDeps } from './app.ts'
import type { Database } from './platform/db/database.ts'
import { createModules, type ModulesConfig } from './modules.ts'
import type { InvalidationBus } from './platform/cache.ts'
import { createManualClock } from './platform/clock.ts'
import type { SecretBox } from './platform/secrets.ts'

/** What the book's own module graph is built from (the server's). */
export type DemoBookDeps = {
  config: ModulesConfig & AppDeps['config']
  db: Database
  bus: InvalidationBus
  secrets: SecretBox
}

export type DemoBookSummary = { from: string; to: string; sales: number; cancels: number; claims: number; paid: number }

/** The generator's seed: the same seed and the same first day give the same book. */
const SEED = 0x5eed2026
/** The dealers that sell in the book: the Lone Star group's three (ceded) and two others. */
const DEALERS = ['10001', '10002', '10003', '10004', '10007'] as const
const CEDED_DEALERS = ['10001', '10002', '10003'] as const
const VINS = { accord: '1HGCV1F37LA012345', camry: '4T1B11HK8KU123456', newAccord: '1HGCV1F35SA000001' } as const
const BUYERS = [
  ['Ana', 'Garza'],
  ['Ben', 'Nguyen'],
  ['Carla', 'Reyes'],
  ['Dan', 'Okafor'],
  ['Eva', 'Schmidt'],
  ['Femi', 'Adeyemi'],
  ['Gina', 'Rossi'],
  ['Hal', 'Brooks'],
] as const

/** mulberry32: a small deterministic generator of floats in [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** The book's first day: the first of the month twelve months before `today`'s. */
export function demoBookStart(today: string): string {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`)
  d.setUTCMonth(d.getUTCMonth() - 12)
  return d.toISOString().slice(0, 10)
}

type Planned =
  | {
      kind: 'sale'
      day: string
      dealerNumber: string
      ppm: boolean
      price: number
      planCode: string
      term: number
      buyer: number
      next?: Planned
    }
  | { kind: 'cancel'; day: string; contractId: number }
  | { kind: 'claim'; day: string; contractId: number; amount: number; payOn: string | null }
  | { kind: 'pay'; day: string; claimId: number; requestId: number; amount: number }

/**
 * Seeds the book of the demo tenant whose administrator `credentials` sign in as (the demo data
 * seeded already): from the first of the month twelve months before `today` (YYYY-MM-DD) through the
 * day before it. Returns what it made.
 */
export async function seedDemoBook(
  deps: DemoBookDeps,
  credentials: { apiKey: string; adminEmail: string; adminPassword: string },
  today: string,
): Promise<DemoBookSummary> {
  const from = demoBookStart(today)
  const clock = createManualClock(new Date(`${from}T15:00:00Z`))
  const config = { ...deps.config, accessTokenTtlSeconds: 86_400, rateLimitPerMinute: 100_000_000 }
  const modules = createModules({ config, db: deps.db, clock, bus: deps.bus, secrets: deps.secrets })
  const app = await buildApp({ config, db: deps.db, clock, bus: deps.bus, modules, logger: false })
  try {
    return await walkTheYear(app, clock, credentials, from, today)
  } finally {
    await app.close()
  }
}

async function walkTheYear(
  app: FastifyInstance,
  clock: ReturnType<typeof createManualClock>,
  credentials: { apiKey: string; adminEmail: string; adminPassword: string },
  from: string,
  today: string,
): Promise<DemoBookSummary> {
  // Access tokens live a day at most: signed in again on each day the book does something.
  const headers: Record<string, string> = { 'x-api-key': credentials.apiKey }
  let signedInOn = ''
  const signIn = async (day: string) => {
    if (signedInOn === day) return
    const token = await app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': credentials.apiKey },
      payload: { grant_type: 'password', username: credentials.adminEmail, password: credentials.adminPassword },
    })
    if (token.statusCode !== 200) throw new Error(`demo book: sign-in answered ${token.statusCode}`)
    headers.authorization = `Bearer ${(token.json() as { access_token: string }).access_token}`
    signedInOn = day
  }
  await signIn(from)
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, contentType?: string) => {
    const res = await app.inject({
      method,
      url,
      headers: contentType ? { ...headers, 'content-type': contentType } : headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
    if (res.statusCode >= 300) throw new Error(`demo book: ${method} ${url} answered ${res.statusCode}: ${res.body}`)
    return res.json() as T
  }
  const list = (url: string) => call<Array<Record<string, unknown>>>('GET', url)

  const dealerIds = new Map<string, number>()
  for (const n of DEALERS) dealerIds.set(n, Number((await list(`/api/dealers?dealerNumber=${n}`))[0]!.id))
  const companyId = Number((await list('/api/reinsurancecompanies')).find((c) => c.companyCode === 'LSRE')!.id)
  const vscId = Number((await list('/api/Rates/Products')).find((p) => p.code === 'VSC')!.id)
  const facilityId = Number((await list('/api/repairfacilities')).find((f) => f.facilityCode === 'RF-ATX')!.id)
  const firstOf = async (url: string) => Number((await list(`${url}?limit=1`))[0]!.id)
  const lookups = {
    complaintId: await firstOf('/api/claims/complaints'),
    causeId: await firstOf('/api/claims/causes'),
    correctionId: await firstOf('/api/claims/corrections'),
  }
  await call('POST', '/api/reinsurance/treaties', {
    reinsuranceCompanyId: companyId,
    name: 'Lone Star Re quota share',
    dealerIds: CEDED_DEALERS.map((n) => dealerIds.get(n)!),
    productIds: [vscId],
    effectiveFrom: from,
    shareBps: 7500,
    cedingFeeBps: 250,
    administratorFeeBps: 100,
  })

  const random = generator(SEED)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
  const queue: Planned[] = []
  const summary: DemoBookSummary = { from, to: addDays(today, -1), sales: 0, cancels: 0, claims: 0, paid: 0 }
  const last = addDays(today, -1)

  let visit = ''
  let minute = 0
  /** The clock at the visit day, a quarter of an hour after the last step (a sale of the same dealer, VIN and plan within ten minutes is a duplicate). */
  const step = () => {
    clock.set(new Date(Date.parse(`${visit}T15:00:00Z`) + minute * 60_000))
    minute += 15
    return signIn(visit)
  }

  const sell = async (day: string, p: Extract<Planned, { kind: 'sale' }>) => {
    const vehicle = p.ppm
      ? { query: `vin=${VINS.newAccord}&vehicleCondition=NEW&odometer=12`, vin: VINS.newAccord, odometer: 12 }
      : p.dealerNumber === '10002'
        ? { query: `vin=${VINS.camry}&vehicleCondition=USED&odometer=38500`, vin: VINS.camry, odometer: 38500 }
        : {
            query: `vin=${VINS.accord}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01`,
            vin: VINS.accord,
            odometer: 42150,
          }
    await step()
    const quote = await call<{
      quoteId: string
      products: Array<{
        programs: Array<{
          plans: Array<{
            planCode: string
            terms: Array<{ deductibles: Array<{ rate: { rateId: number; suggestedRetail: number } }> }>
          }>
        }>
      }>
    }>(
      'GET',
      `/api/Rates/rateQuote/${p.dealerNumber}?${vehicle.query}&saleDate=${day}` +
        `&productTypes=${p.ppm ? 'PPM' : 'VSC'}&vehiclePurchasePrice=${p.price}`,
    )
    const plans = quote.products.flatMap((x) => x.programs.flatMap((g) => g.plans))
    const plan = plans.find((x) => x.planCode === p.planCode) ?? plans[0]
    if (plan === undefined) return
    const rate = plan.terms[p.term % plan.terms.length]!.deductibles[0]!.rate
    const [firstName, lastName] = BUYERS[p.buyer % BUYERS.length]!
    const created = await call<{ id: number }>('POST', '/api/contracts', {
      quoteId: quote.quoteId,
      rateId: rate.rateId,
      retailPrice: rate.suggestedRetail,
      saleDate: day,
      saleOdometer: vehicle.odometer,
      vehicle: { vin: vehicle.vin, purchasePrice: p.price },
      customer: { firstName, lastName },
      customFields: p.ppm ? {} : { financeManagerCode: 'FM7' },
    })
    await step()
    await call('POST', `/api/contracts/${created.id}/finalize`, {})
    summary.sales++
    if (p.next?.kind === 'cancel') queue.push({ ...p.next, contractId: created.id })
    if (p.next?.kind === 'claim') queue.push({ ...p.next, contractId: created.id })
  }

  const claim = async (day: string, p: Extract<Planned, { kind: 'claim' }>) => {
    await step()
    const made = await call<{ id: number }>('POST', '/api/claims', {
      contractId: p.contractId,
      lossDate: day,
      odometer: 52000,
      repairFacilityId: facilityId,
      taxRate: 0,
      jobs: [
        {
          ...lookups,
          coverageComponentCode: 'BLOCK',
          parts: [
            { partNumber: 'P-1', description: 'Water pump', quantity: 1, unitPrice: p.amount - 100, taxable: false },
          ],
          labor: [{ operationCode: 'WP', hours: 1, rate: 100 }],
          sublet: [],
        },
      ],
    })
    await call(
      'PATCH',
      `/api/claims/${made.id}`,
      [
        { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
        { op: 'replace', path: '/status', value: 'AUTHORIZED' },
      ],
      'application/json-patch+json',
    )
    const request = await call<{ id: number }>('POST', `/api/claims/${made.id}/paymentrequests`, {
      invoiceNumber: `INV-${made.id}`,
      invoiceDate: day,
      invoicedTotal: p.amount,
    })
    summary.claims++
    if (p.payOn !== null)
      queue.push({ kind: 'pay', day: p.payOn, claimId: made.id, requestId: request.id, amount: p.amount })
  }

  for (let day = from; day <= last; day = addDays(day, 1)) {
    // What happens on the day, drawn now (so the book depends on the seed and the first day only).
    const sales = random() < 0.21 ? (random() < 0.2 ? 2 : 1) : 0
    for (let i = 0; i < sales; i++) {
      const ppm = random() < 0.2
      const r = random()
      const claimDay = addDays(day, between(45, 200))
      const next: Planned | undefined =
        r < 0.1
          ? { kind: 'cancel', day: addDays(day, between(3, 200)), contractId: 0 }
          : !ppm && r < 0.36
            ? {
                kind: 'claim',
                day: claimDay,
                contractId: 0,
                amount: 100 * between(2, 18),
                payOn: random() < 0.75 ? addDays(claimDay, between(2, 20)) : null,
              }
            : undefined
      queue.push({
        kind: 'sale',
        day,
        dealerNumber: pick(DEALERS),
        ppm,
        price: ppm ? 31_900 : 1000 * between(14, 29),
        planCode: ppm ? 'PPM-NEW' : pick(['PLAT-USED', 'PLAT-USED', 'GOLD-USED']),
        term: between(0, 3),
        buyer: between(0, BUYERS.length - 1),
        ...(next === undefined ? {} : { next }),
      })
    }
    // The administrator posts the dealers' remittances twice a month (on the 15th, on a month's last
    // day, and on the book's last day): each in the order of its own day, dated that day.
    if (day.slice(8) !== '15' && addDays(day, 1).slice(8) !== '01' && day !== last) continue
    visit = day
    minute = 0
    for (;;) {
      let next = -1
      for (const [i, p] of queue.entries()) if (p.day <= day && (next < 0 || p.day < queue[next]!.day)) next = i
      if (next < 0) break
      const [p] = queue.splice(next, 1)
      if (p!.kind === 'sale') await sell(p!.day, p!)
      else if (p!.kind === 'claim') await claim(p!.day, p!)
      else if (p!.kind === 'cancel') {
        await step()
        await call('POST', `/api/contracts/${p!.contractId}/cancels`, {
          cancelDate: p!.day,
          cancelOdometer: 52000,
          cancelReasonCode: 'CUSTOMER_REQUEST',
        })
        summary.cancels++
      } else {
        await step()
        await call('POST', `/api/claims/${p!.claimId}/paymentrequests/${p!.requestId}/payments`, {
          method: 'CHECK',
          amount: p!.amount,
          paidAt: p!.day,
          reference: `CHK ${p!.claimId}`,
        })
        summary.paid++
      }
    }
  }
  return summary
}
