// Reinsurance statements, loss ratios and the reconciliation over HTTP (docs/reporting.md), on the
// demo tenant: a treaty starting mid-month (a sale the day before is not ceded), a cancel in the
// month, a cancel of a prior month's sale and its reversal (a reinstatement), a claim paid and one
// authorized-unpaid. Each figure is checked against sums taken independently from the contracts'
// journal entries and earning details; the lines of a figure add up to it; the CSV carries the same
// figures; the reconciliation is empty; a dealer-side user sees only its dealers' companies.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from '../../../test/harness.ts'

type Sold = {
  id: number
  contractNumber: string
  saleDate: string
  pricing: { lines: Array<{ code: string; group: string; amount: number }> }
  terms: { cession: { treatyId: number; shareBps: number; cededReserve: number } | null }
}
type Entry = {
  kind: string
  effectiveDate: string
  lines: Array<{
    purpose: string
    side: 'DEBIT' | 'CREDIT'
    amount: number
    contractId: number | null
    disbursementCode: string | null
  }>
}
type Cell = Record<string, number> & { lossRatio: string | null }
type Cells = { mtd: Cell; qtd: Cell; ytd: Cell; itd: Cell }
type Statement = {
  reinsuranceCompany: { id: number; companyCode: string }
  contracts: number
  totals: Cells
  byProduct: Array<{ product: { code: string } } & Cells>
  byVintage: Array<{ vintage: string } & Cells>
}
type Lines = { total: number; totalCount: number; items: Array<{ contractNumber: string; amount: number }> }
type Problem = { code: string; errors?: Array<{ field: string }> }

let t: TestApp
let demo: DemoTestTenant
let companyId: number
let dealerId: number
let otherDealerId: number
const cents = (n: number) => Math.round(n * 100)
const share = (c: number, bps: number) => Math.floor((c * bps + 5000) / 10000)

const call = (url: string, headers = demo.headers) => t.app.inject({ method: 'GET', url, headers })
const post = (url: string, payload: unknown, headers: Record<string, string> = {}, method: 'POST' | 'PATCH' = 'POST') =>
  t.app.inject({ method, url, headers: { ...demo.headers, ...headers }, payload: payload as Record<string, unknown> })

async function moveTo(day: string) {
  t.clock.set(new Date(`${day}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}

const sell = (saleDate: string) =>
  sellDemoContract<Sold>(t, demo, {
    saleDate,
    finalize: true,
    quoteQuery: 'vehiclePurchasePrice=21500',
    deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
  })

async function cancel(contractId: number, cancelDate: string): Promise<number> {
  const res = await post(`/api/contracts/${contractId}/cancels`, {
    cancelDate,
    cancelOdometer: 43000,
    cancelReasonCode: 'CUSTOMER_REQUEST',
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

async function statement(month: string, query = ''): Promise<Statement> {
  const res = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=${month}${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Statement>(res)
}

const sold: Sold[] = []
let notCeded: Sold

before(async () => {
  t = await createTestApp({ now: new Date('2026-08-15T18:00:00Z') })
  demo = await seedDemo(t)
  const list = async (url: string) => json<Array<Record<string, unknown>>>(await call(url))
  companyId = Number((await list('/api/reinsurancecompanies')).find((c) => c.companyCode === 'LSRE')!.id)
  dealerId = Number((await list(`/api/dealers?dealerNumber=${DEMO.dealerNumber}`))[0]!.id)
  otherDealerId = Number((await list(`/api/dealers?dealerNumber=${DEMO.otherDealerNumber}`))[0]!.id)
  const productId = Number((await list('/api/Rates/Products')).find((p) => p.code === 'VSC')!.id)
  // A treaty starting mid-month: the sale of August 1 stays with the insurer.
  const treaty = await post('/api/reinsurance/treaties', {
    reinsuranceCompanyId: companyId,
    name: 'Lone Star Re quota share',
    dealerIds: [dealerId],
    productIds: [productId],
    effectiveFrom: '2026-08-02',
    shareBps: 7500,
    cedingFeeBps: 250,
    administratorFeeBps: 100,
  })
  assert.equal(treaty.statusCode, 201, treaty.body)
})
after(() => t.close())

/** The reserve codes of a contract. */
const reserveCodes = (c: Sold) => new Set(c.pricing.lines.filter((l) => l.group === 'RESERVE').map((l) => l.code))

/**
 * Independent sums from the contracts' journal entries, as of a day: the ceded share (rounded once on
 * each contract's sum) of the reserve credited by sales, returned by cancels (net of reversals), and
 * of the claim expense.
 */
async function journalSums(contracts: Sold[], day: string) {
  const out = { written: 0, cancelled: 0, incurred: 0 }
  for (const c of contracts) {
    const s = c.terms.cession!.shareBps
    const res = await call(`/api/contracts/${c.id}/journalentries?limit=1000`)
    assert.equal(res.statusCode, 200, res.body)
    const codes = reserveCodes(c)
    let written = 0
    let cancelled = 0
    let incurred = 0
    for (const e of json<Entry[]>(res)) {
      if (e.effectiveDate > day) continue
      for (const l of e.lines) {
        if (l.contractId !== c.id) continue
        const credit = (l.side === 'CREDIT' ? 1 : -1) * cents(l.amount)
        if (l.purpose === 'CLAIM_EXPENSE') incurred -= credit
        else if (
          ['DISBURSEMENT_PAYABLE', 'UNEARNED_REVENUE'].includes(l.purpose) &&
          l.disbursementCode !== null &&
          codes.has(l.disbursementCode)
        ) {
          if (e.kind === 'CONTRACT_FINALIZED') written += credit
          if (e.kind === 'CONTRACT_CANCELLED' || e.kind === 'CANCEL_REVERSED') cancelled -= credit
        }
      }
    }
    out.written += share(written, s)
    out.cancelled += share(cancelled, s)
    out.incurred += share(incurred, s)
  }
  return out
}

const claimsOf = async (contracts: Sold[], { pay }: { pay: boolean[] }) => {
  const first = async (url: string) => json<Array<{ id: number }>>(await call(`${url}?limit=1`))[0]!.id
  const facilities = json<Array<{ id: number; facilityCode: string }>>(await call('/api/repairfacilities'))
  const lookups = {
    complaintId: await first('/api/claims/complaints'),
    causeId: await first('/api/claims/causes'),
    correctionId: await first('/api/claims/corrections'),
  }
  for (const [i, contract] of contracts.entries()) {
    const res = await post('/api/claims', {
      contractId: contract.id,
      lossDate: '2026-11-05',
      odometer: 46000,
      repairFacilityId: facilities.find((f) => f.facilityCode === 'RF-ATX')!.id,
      taxRate: 0,
      jobs: [
        {
          ...lookups,
          coverageComponentCode: 'BLOCK',
          parts: [{ partNumber: 'P-1', description: 'Water pump', quantity: 1, unitPrice: 250, taxable: false }],
          labor: [{ operationCode: 'WP', hours: 1, rate: 100 }],
          sublet: [],
        },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const claim = json<{ id: number }>(res)
    const authorized = await post(
      `/api/claims/${claim.id}`,
      [
        { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
        { op: 'replace', path: '/status', value: 'AUTHORIZED' },
      ],
      { 'content-type': 'application/json-patch+json' },
      'PATCH',
    )
    assert.equal(authorized.statusCode, 200, authorized.body)
    const requested = await post(`/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: `INV-${claim.id}`,
      invoiceDate: '2026-11-09',
      invoicedTotal: 300,
    })
    assert.equal(requested.statusCode, 201, requested.body)
    if (pay[i]) {
      const payment = await post(
        `/api/claims/${claim.id}/paymentrequests/${json<{ id: number }>(requested).id}/payments`,
        { method: 'CHECK', amount: 300, paidAt: '2026-11-10', reference: `CHK ${claim.id}` },
      )
      assert.equal(payment.statusCode, 201, payment.body)
    }
  }
}

describe('a book over four months', () => {
  test('August: a treaty from the 2nd; the sale of the 1st is not ceded', async () => {
    notCeded = await sell('2026-08-01')
    sold.push(await sell('2026-08-02'), await sell('2026-08-03'))
    assert.equal(notCeded.terms.cession, null)
    assert.deepEqual(
      sold.map((c) => c.terms.cession?.shareBps),
      [7500, 7500],
    )
    const s = await statement('2026-08')
    assert.equal(s.contracts, 2)
    const ceded = sold.reduce((n, c) => n + cents(c.terms.cession!.cededReserve), 0)
    assert.equal(cents(s.totals.mtd.writtenPremium!), ceded)
    assert.equal(
      cents(s.totals.mtd.cedingFee!),
      sold.reduce((n, c) => n + share(cents(c.terms.cession!.cededReserve), 250), 0),
    )
    assert.equal(
      cents(s.totals.mtd.administratorFee!),
      sold.reduce((n, c) => n + share(cents(c.terms.cession!.cededReserve), 100), 0),
    )
    assert.deepEqual(
      s.byVintage.map((v) => v.vintage),
      ['2026Q3'],
    )
  })

  test('October: a sale cancelled in the month, and a sale kept', async () => {
    await moveTo('2026-10-25')
    const cancelledInMonth = await sell('2026-10-05')
    sold.push(cancelledInMonth, await sell('2026-10-06'))
    await cancel(cancelledInMonth.id, '2026-10-20')
  })

  test("November: the October sale cancelled (a prior month's sale) and reinstated; a claim paid, one unpaid", async () => {
    await moveTo('2026-11-12')
    const priorCancel = await cancel(sold[3]!.id, '2026-11-08')
    const reversed = await post(`/api/cancels/${priorCancel}`, { action: 'REVERSE', reason: 'Customer kept it' })
    assert.equal(reversed.statusCode, 200, reversed.body)
    await claimsOf([sold[0]!, sold[1]!], { pay: [true, false] })
  })

  for (const [month, from, to] of [
    ['2026-08', '2026-08-01', '2026-08-31'],
    ['2026-10', '2026-10-01', '2026-10-31'],
    ['2026-11', '2026-11-01', '2026-11-30'],
  ] as const)
    test(`${month}: each figure equals the journal's own sums; earned + unearned = net written`, async () => {
      const s = await statement(month)
      const [end, start] = [await journalSums(sold, to), await journalSums(sold, from.replace(/-01$/, '-00'))]
      const m = s.totals.mtd
      assert.equal(cents(m.writtenPremium!), end.written - start.written, 'written')
      assert.equal(cents(m.cancellations!), end.cancelled - start.cancelled, 'cancellations')
      assert.equal(cents(m.netWrittenPremium!), cents(m.writtenPremium!) - cents(m.cancellations!))
      assert.equal(cents(m.claimsIncurred!), end.incurred - start.incurred, 'incurred')
      const i = s.totals.itd
      assert.equal(cents(i.earnedPremium!) + cents(i.unearnedPremium!), end.written - end.cancelled)
      assert.equal(cents(i.claimsIncurred!), cents(i.claimsPaid!) + cents(i.claimsOutstanding!))
      assert.equal(
        cents(m.underwritingResult!),
        cents(m.earnedPremium!) - cents(m.claimsIncurred!) - cents(m.cedingFee!) - cents(m.administratorFee!),
      )
      // By product and by vintage: the parts add up to the totals.
      for (const parts of [s.byProduct, s.byVintage])
        assert.equal(
          parts.reduce((n, p) => n + cents(p.mtd.earnedPremium!), 0),
          cents(m.earnedPremium!),
        )
    })

  test('November figures: the cancel and reinstatement net to nothing; claims 75 % of 300.00 paid and 300.00 unpaid', async () => {
    const m = (await statement('2026-11')).totals.mtd
    assert.equal(m.writtenPremium, 0)
    assert.equal(m.cancellations, 0)
    assert.equal(m.claimsPaid, 225)
    assert.equal(m.claimsOutstanding, 225)
    assert.equal(m.claimsIncurred, 450)
    assert.equal(m.lossRatio, (Math.round((45000 / cents(m.earnedPremium!)) * 10000) / 10000).toFixed(4))
  })

  test('earned premium is the ceded share of the reserve earned by the earning details (within rounding)', async () => {
    const s = await statement('2026-11')
    let expected = 0
    for (const c of [sold[0]!, sold[1]!, sold[3]!]) {
      const d = json<{ lines: Array<{ code: string; group?: string; earnedToDate: number }> }>(
        await call(`/api/contracts/${c.id}/earningdetails?asOf=2026-11-12&schedule=false`),
      )
      const codes = reserveCodes(c)
      const reserve = d.lines.filter((l) => codes.has(l.code)).reduce((n, l) => n + cents(l.earnedToDate), 0)
      expected += share(reserve, 7500)
    }
    // The cancelled October sale: its ceded reserve not refunded, all earned.
    const e = await journalSums([sold[2]!], '2026-11-30')
    expected += e.written - e.cancelled
    assert.ok(
      Math.abs(cents(s.totals.itd.earnedPremium!) - expected) <= 3,
      `${s.totals.itd.earnedPremium} vs ${expected / 100}`,
    )
  })

  test('the months of a quarter add up to the quarter', async () => {
    const [oct, nov] = [await statement('2026-10'), await statement('2026-11')]
    for (const f of [
      'writtenPremium',
      'cancellations',
      'earnedPremium',
      'claimsIncurred',
      'cedingFee',
      'underwritingResult',
    ])
      assert.equal(cents(oct.totals.mtd[f]!) + cents(nov.totals.mtd[f]!), cents(nov.totals.qtd[f]!), f)
  })

  test('the lines of a figure add up to it; filters by product and vintage; paged', async () => {
    const s = await statement('2026-10')
    for (const figure of ['writtenPremium', 'cancellations', 'earnedPremium', 'unearnedPremium']) {
      const res = await call(
        `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-10&figure=${figure}&column=qtd`,
      )
      assert.equal(res.statusCode, 200, res.body)
      const l = json<Lines>(res)
      assert.equal(cents(l.total), cents(s.totals.qtd[figure]!), figure)
      assert.equal(
        l.items.reduce((n, i) => n + cents(i.amount), 0),
        cents(l.total),
      )
    }
    const written = json<Lines>(
      await call(
        `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-10&figure=writtenPremium&product=VSC&vintage=2026Q4`,
      ),
    )
    assert.deepEqual(
      written.items.map((i) => i.contractNumber).toSorted(),
      [sold[2]!.contractNumber, sold[3]!.contractNumber].toSorted(),
    )
    const paged = json<Lines>(
      await call(
        `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-10&figure=writtenPremium&pageSize=1&pageNumber=2`,
      ),
    )
    assert.equal(paged.totalCount, 2)
    assert.equal(paged.items.length, 1)
    const none = json<Lines>(
      await call(
        `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-10&figure=writtenPremium&vintage=2026Q3`,
      ),
    )
    assert.equal(none.totalCount, 0)
  })

  test('CSV: a record per cell with the same figures', async () => {
    const s = await statement('2026-11')
    const res = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-11&format=csv`)
    assert.equal(res.statusCode, 200, res.body)
    assert.match(String(res.headers['content-type']), /^text\/csv/)
    const rows = res.body.split('\r\n').filter((r) => r !== '')
    const header = rows[0]!.split(',')
    const total = rows.find((r) => r.startsWith('TOTAL,,MTD,'))!.split(',')
    assert.equal(total[header.indexOf('earnedPremium')], s.totals.mtd.earnedPremium!.toFixed(2))
    assert.equal(total[header.indexOf('lossRatio')], s.totals.mtd.lossRatio)
    assert.equal(rows.length, 1 + 4 * (1 + s.byProduct.length + s.byVintage.length))
    const viaAccept = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-11`, {
      ...demo.headers,
      accept: 'text/csv',
    })
    assert.equal(viaAccept.body, res.body)
  })

  test('loss ratios by dealer and vintage: the gross book, earned as the denominator; CSV', async () => {
    const res = await call('/api/reports/lossratios?groupBy=dealer,vintage&from=2026-01-01&to=2026-11-12')
    assert.equal(res.statusCode, 200, res.body)
    const r = json<{
      items: Array<{
        group: { dealer: { id: number }; vintage: string }
        contracts: number
        earnedPremium: number
        claimsIncurred: number
        lossRatio: string | null
      }>
    }>(res)
    assert.deepEqual(
      r.items.map((i) => [i.group.dealer.id, i.group.vintage, i.contracts]),
      [
        [dealerId, '2026Q3', 3],
        [dealerId, '2026Q4', 2],
      ],
    )
    const q3 = r.items[0]!
    assert.equal(q3.claimsIncurred, 600)
    assert.equal(q3.lossRatio, (Math.round((60000 / cents(q3.earnedPremium)) * 10000) / 10000).toFixed(4))
    const csv = await call('/api/reports/lossratios?groupBy=product&from=2026-01-01&format=csv')
    assert.equal(csv.statusCode, 200, csv.body)
    assert.equal(csv.body.split('\r\n').length, 3)
    const bad = await call('/api/reports/lossratios?groupBy=dealer,colour&to=2099-01-01')
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual(
      json<Problem>(bad).errors!.map((e) => e.field),
      ['groupBy', 'to'],
    )
  })

  test('the reconciliation is empty for every month; one risk bearer; unknown: 404', async () => {
    for (const month of ['2026-08', '2026-09', '2026-10', '2026-11']) {
      const res = await call(`/api/reports/reconciliation?month=${month}`)
      assert.equal(res.statusCode, 200, res.body)
      const r = json<{ checks: unknown[]; differences: unknown[] }>(res)
      assert.ok(r.checks.length >= 5)
      assert.deepEqual(r.differences, [], month)
    }
    const one = json<{ checks: Array<{ riskBearer: { id: number } }> }>(
      await call(`/api/reports/reconciliation?month=2026-11&riskBearerId=${companyId}`),
    )
    assert.ok(one.checks.every((c) => c.riskBearer.id === companyId))
    assert.equal((await call(`/api/reports/reconciliation?month=2026-11&riskBearerId=${dealerId}`)).statusCode, 404)
  })

  test('an unknown company, an insurer, a dealer: 404; a month not begun or malformed: 422 naming month', async () => {
    for (const id of [999999, dealerId]) {
      const res = await call(`/api/reports/reinsurancecompanies/${id}/statement?month=2026-11`)
      assert.equal(res.statusCode, 404, res.body)
      assert.equal(json<Problem>(res).code, 'risk_bearer_not_found')
    }
    for (const month of ['2026-12', '2026-13', 'nov']) {
      const res = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=${month}`)
      assert.equal(res.statusCode, 422, res.body)
      assert.deepEqual(
        json<Problem>(res).errors!.map((e) => e.field),
        ['month'],
      )
    }
  })

  test("a dealer-side user sees the statements of its dealers' companies only; loss ratios and the reconciliation are staff only", async () => {
    const portal = async (code: string, dealerIds: number[]) => {
      const g = await post('/api/portalvisibilitygroups', { code, name: code, dealerIds })
      assert.equal(g.statusCode, 201, g.body)
      return (await createUserWithRoles(t, demo, ['READ_ONLY'], { groups: [{ id: json<{ id: number }>(g).id }] }))
        .headers
    }
    const covered = await portal('PORTAL-RE-1', [dealerId])
    const ok = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-11`, covered)
    assert.equal(ok.statusCode, 200, ok.body)
    const lines = await call(
      `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-11&figure=claimsPaid`,
      covered,
    )
    assert.equal(lines.statusCode, 200, lines.body)
    const other = await portal('PORTAL-RE-2', [otherDealerId])
    assert.equal(
      (await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-11`, other)).statusCode,
      404,
    )
    assert.equal((await call('/api/reports/lossratios', covered)).statusCode, 403)
    assert.equal((await call('/api/reports/reconciliation?month=2026-11', covered)).statusCode, 403)
  })
})
