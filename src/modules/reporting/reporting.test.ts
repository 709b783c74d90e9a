// Risk-bearer reporting over HTTP (docs/reporting.md), on the demo tenant: treaty validation (share,
// unknown company, overlap), the cession fixed at sale and kept through a treaty edit, and the insurer
// bordereaux of a month: a sale, a cancel in the month and a cancel of a prior month's sale, whose
// totals equal sums taken independently from the contracts' journal entries; a claim paid and one
// authorized and unpaid; the CSV parsed back to the same figures.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from '../../../test/harness.ts'

type Sold = {
  id: number
  contractNumber: string
  pricing: { lines: Array<{ code: string; group: string; amount: number; payeeAccountHolderId?: number }> }
  terms: { cession: Cession | null }
}
type Cession = {
  treatyId: number
  reinsuranceCompanyId: number
  shareBps: number
  reserve: number
  cededReserve: number
  cedingFeeBps: number
  cedingFee: number
  administratorFeeBps: number
  administratorFee: number
}
type Problem = { code: string; errors?: Array<{ field: string; code: string; message: string }> }
type Entry = {
  entryId: number
  kind: string
  effectiveDate: string
  lines: Array<{
    accountHolderId: number
    purpose: string
    side: 'DEBIT' | 'CREDIT'
    amount: number
    contractId: number | null
    disbursementCode: string | null
  }>
}
/** A journal line in cents, credits positive. */
const credited = (l: Entry['lines'][number]) => (l.side === 'CREDIT' ? 1 : -1) * Math.round(l.amount * 100)
type Amounts = { premium: number; reserve: number; other: number; total: number }
type PremiumBordereau = {
  month: string
  lines: Array<
    Amounts & { transaction: string; contractNumber: string; journalEntryId: number; cancelDate: string | null }
  >
  totals: Record<'written' | 'cancelled' | 'reinstated' | 'adjusted' | 'net', Amounts & { count: number }>
}
type ClaimsBordereau = {
  paid: Array<{ claimNumber: string; amount: number; journalEntryId: number }>
  outstanding: Array<{
    claimNumber: string
    basis: string
    authorized: number
    paidToDate: number
    outstanding: number
  }>
  totals: { paid: { count: number; amount: number }; outstanding: { count: number; amount: number } }
}

let t: TestApp
let demo: DemoTestTenant
let reinsurerId: number
let insurerId: number
let dealerId: number
let dealerGroupId: number
let vscProductId: number
const cents = (n: number) => Math.round(n * 100)

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = {}) =>
  t.app.inject({
    method,
    url,
    headers: { ...demo.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })

async function idOf(url: string, key: string, value: string): Promise<number> {
  const res = await call('GET', url)
  assert.equal(res.statusCode, 200, res.body)
  const found = json<Array<Record<string, unknown>>>(res).find((r) => r[key] === value)
  assert.ok(found, `${url} has ${key} ${value}`)
  return Number(found.id)
}

async function moveTo(day: string) {
  t.clock.set(new Date(`${day}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}

const sell = (saleDate: string, dealerNumber: string = DEMO.dealerNumber) =>
  sellDemoContract<Sold>(t, demo, {
    saleDate,
    dealerNumber,
    finalize: true,
    // PLAT-USED's limit of liability is the vehicle's purchase price (claims need it).
    quoteQuery: 'vehiclePurchasePrice=21500',
    deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
  })

async function cancel(contractId: number, cancelDate: string): Promise<number> {
  const res = await call('POST', `/api/contracts/${contractId}/cancels`, {
    cancelDate,
    cancelOdometer: 43000,
    cancelReasonCode: 'CUSTOMER_REQUEST',
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

const entriesOf = async (contractId: number) => {
  const res = await call('GET', `/api/contracts/${contractId}/journalentries?limit=1000`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Entry[]>(res)
}

/** A minimal RFC 4180 reader: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let field = ''
  let row: string[] = []
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += ch
  }
  assert.equal(field + row.join(''), '', 'the file ends with CRLF')
  return rows
}

before(async () => {
  t = await createTestApp({ now: new Date('2026-08-15T18:00:00Z') })
  demo = await seedDemo(t)
  reinsurerId = await idOf('/api/reinsurancecompanies', 'companyCode', 'LSRE')
  insurerId = await idOf('/api/insurers', 'insurerCode', 'INS-FCI')
  const dealers = json<Array<{ id: number; dealerNumber: string; dealerGroupId: number }>>(
    await call('GET', `/api/dealers?dealerNumber=${DEMO.dealerNumber}`),
  )
  dealerId = dealers[0]!.id
  dealerGroupId = dealers[0]!.dealerGroupId
  vscProductId = await idOf('/api/Rates/Products', 'code', 'VSC')
})
after(() => t.close())

// Claims need contracts sold a while ago (the plan's waiting period): two August sales, before any treaty.
const early: Sold[] = []
describe('August: two sales for the claims', () => {
  test('sold and finalized without a treaty: no cession', async () => {
    early.push(await sell('2026-08-01'), await sell('2026-08-02'), await sell('2026-08-03'))
    assert.deepEqual(
      early.map((c) => c.terms.cession),
      [null, null, null],
    )
  })
})

describe('treaties', () => {
  let treatyId: number
  const body = () => ({
    reinsuranceCompanyId: reinsurerId,
    name: 'Lone Star Re quota share',
    dealerIds: [dealerId],
    productIds: [vscProductId],
    effectiveFrom: '2026-09-01',
    shareBps: 7500,
    cedingFeeBps: 250,
  })

  test('a share outside 0–100 %, an unknown company, unknown dealers and products: 422 naming each', async () => {
    await moveTo('2026-10-15')
    let res = await call('POST', '/api/reinsurance/treaties', { ...body(), shareBps: 10001 })
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(json<Problem>(res).code, 'reinsurance_treaty_invalid')
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => `${e.field} ${e.code}`),
      ['shareBps out_of_range'],
    )
    res = await call('POST', '/api/reinsurance/treaties', {
      ...body(),
      reinsuranceCompanyId: insurerId,
      dealerIds: [dealerId, insurerId],
      productIds: [999999],
      administratorFeeBps: -1,
    })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => `${e.field} ${e.code}`),
      [
        'administratorFeeBps out_of_range',
        'reinsuranceCompanyId unknown_reference',
        'dealerIds[1] unknown_reference',
        'productIds[0] unknown_reference',
      ],
    )
    const list = json<unknown[]>(await call('GET', '/api/reinsurance/treaties'))
    assert.deepEqual(list, [], 'nothing written')
  })

  test('created (201, ETag, Location, audited); shown; listed by filter', async () => {
    const res = await call('POST', '/api/reinsurance/treaties', body())
    assert.equal(res.statusCode, 201, res.body)
    const created = json<{ id: number; shareBps: number; administratorFeeBps: number; effectiveTo: null }>(res)
    treatyId = created.id
    assert.equal(res.headers.location, `/api/reinsurance/treaties/${treatyId}`)
    assert.equal(res.headers.etag, '"1"')
    assert.deepEqual([created.shareBps, created.administratorFeeBps, created.effectiveTo], [7500, 0, null])
    const got = await call('GET', `/api/reinsurance/treaties/${treatyId}`)
    assert.equal(got.statusCode, 200, got.body)
    const listed = await call('GET', `/api/reinsurance/treaties?dealerId=${dealerId}&asOf=2026-10-01`)
    assert.equal(listed.headers['x-total-count'], '1')
    assert.equal(json<unknown[]>(await call('GET', '/api/reinsurance/treaties?asOf=2026-08-31')).length, 0)
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'reinsurance_treaty')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.action),
      ['reinsurance_treaty.created'],
    )
  })

  test('overlapping the same dealer and product in time: 422 naming the treaty; a group carve-out is allowed', async () => {
    const res = await call('POST', '/api/reinsurance/treaties', {
      ...body(),
      dealerIds: [dealerId],
      effectiveFrom: '2027-01-01',
      shareBps: 5000,
    })
    assert.equal(res.statusCode, 422, res.body)
    const p = json<Problem & { conflictingTreaties: Array<{ treatyId: number }> }>(res)
    assert.equal(p.code, 'reinsurance_treaty_overlap')
    assert.deepEqual(
      p.conflictingTreaties.map((c) => c.treatyId),
      [treatyId],
    )
    assert.match(p.errors![0]!.message, new RegExp(`treaty ${treatyId} `))
    // The dealer's group, for the same product: the dealer's own treaty stays more specific.
    const group = await call('POST', '/api/reinsurance/treaties', {
      ...body(),
      name: 'Group quota share',
      dealerIds: [],
      dealerGroupIds: [dealerGroupId],
      shareBps: 10000,
    })
    assert.equal(group.statusCode, 201, group.body)
    // Ending before the other starts is no overlap.
    const earlier = await call('POST', '/api/reinsurance/treaties', {
      ...body(),
      effectiveFrom: '2026-01-01',
      effectiveTo: '2026-08-31',
    })
    assert.equal(earlier.statusCode, 201, earlier.body)
    // …and moving it onto the first is refused.
    const moved = await call(
      'PATCH',
      `/api/reinsurance/treaties/${json<{ id: number }>(earlier).id}`,
      { effectiveTo: '2026-09-01' },
      { 'content-type': 'application/merge-patch+json' },
    )
    assert.equal(moved.statusCode, 422, moved.body)
    assert.equal(json<Problem>(moved).code, 'reinsurance_treaty_overlap')
  })

  test('a dealer-side user gets 403', async () => {
    const group = await call('POST', '/api/portalvisibilitygroups', {
      code: 'PORTAL-RE',
      name: 'Dealer portal',
      dealerIds: [dealerId],
    })
    assert.equal(group.statusCode, 201, group.body)
    const user = await createUserWithRoles(t, demo, ['READ_ONLY'], { groups: [{ id: json<{ id: number }>(group).id }] })
    const res = await t.app.inject({ method: 'GET', url: '/api/reinsurance/treaties', headers: user.headers })
    assert.equal(res.statusCode, 403, res.body)
  })

  describe('the cession at sale', () => {
    let sold: Sold
    test("a sale at the dealer keeps the treaty's share of its RESERVE lines, rounded once", async () => {
      sold = await sell('2026-10-01')
      const reserve = sold.pricing.lines.filter((l) => l.group === 'RESERVE').reduce((n, l) => n + cents(l.amount), 0)
      assert.ok(reserve > 0)
      const ceded = Math.floor((reserve * 7500 + 5000) / 10000)
      assert.deepEqual(sold.terms.cession, {
        treatyId,
        reinsuranceCompanyId: reinsurerId,
        shareBps: 7500,
        reserve: reserve / 100,
        cededReserve: ceded / 100,
        cedingFeeBps: 250,
        cedingFee: Math.floor((ceded * 250 + 5000) / 10000) / 100,
        administratorFeeBps: 0,
        administratorFee: 0,
      })
    })

    test('another dealer of the group is ceded by the group treaty', async () => {
      const other = await sell('2026-10-02', DEMO.otherDealerNumber)
      assert.equal(other.terms.cession?.shareBps, 10000)
      assert.notEqual(other.terms.cession?.treatyId, treatyId)
    })

    test('a later treaty edit never rewrites it; a treaty that ceded contracts cannot be deleted (409)', async () => {
      const got = await call('GET', `/api/reinsurance/treaties/${treatyId}`)
      const res = await call(
        'PATCH',
        `/api/reinsurance/treaties/${treatyId}`,
        { shareBps: 5000, administratorFeeBps: 100 },
        { 'content-type': 'application/merge-patch+json', 'if-match': got.headers.etag as string },
      )
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(json<{ shareBps: number }>(res).shareBps, 5000)
      const again = json<Sold>(await call('GET', `/api/contracts/${sold.id}`))
      assert.deepEqual(again.terms.cession, sold.terms.cession)
      const del = await call('DELETE', `/api/reinsurance/treaties/${treatyId}`)
      assert.equal(del.statusCode, 409, del.body)
      assert.equal(json<Problem>(del).code, 'reinsurance_treaty_in_use')
    })
  })
})

describe('insurer bordereaux', () => {
  const premium = async (month: string, query = '') => {
    const res = await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/premium?month=${month}${query}`)
    assert.equal(res.statusCode, 200, res.body)
    return json<PremiumBordereau>(res)
  }

  let priorSale: Sold
  let soldInMonth: Sold
  let cancelledInMonth: Sold
  const claimNumbers = { paid: '', unpaid: '', uninvoiced: '', uninvoicedPayable: 0 }

  test('November: a sale, a cancel of it, a cancel of an October sale and its reversal; two claims', async () => {
    priorSale = await sell('2026-10-03')
    await moveTo('2026-11-10')
    soldInMonth = await sell('2026-11-02')
    cancelledInMonth = await sell('2026-11-03')
    const priorCancel = await cancel(priorSale.id, '2026-11-08')
    await cancel(cancelledInMonth.id, '2026-11-09')
    // The prior month's sale is reinstated: its cancel reversed.
    const reversed = await call('POST', `/api/cancels/${priorCancel}`, {
      action: 'REVERSE',
      reason: 'Customer kept it',
    })
    assert.equal(reversed.statusCode, 200, reversed.body)

    // Two claims on the August contracts: one paid in full, one with its payment requested and unpaid.
    const facilityId = await idOf('/api/repairfacilities', 'facilityCode', 'RF-ATX')
    const first = async (url: string) => json<Array<{ id: number }>>(await call('GET', `${url}?limit=1`))[0]!.id
    const lookups = {
      complaintId: await first('/api/claims/complaints'),
      causeId: await first('/api/claims/causes'),
      correctionId: await first('/api/claims/corrections'),
    }
    const claimOf = async (contract: Sold, invoice = true) => {
      const res = await call('POST', '/api/claims', {
        contractId: contract.id,
        lossDate: '2026-11-05',
        odometer: 46000,
        repairFacilityId: facilityId,
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
      const claim = json<{ id: number; claimNumber: string }>(res)
      const authorized = await call(
        'PATCH',
        `/api/claims/${claim.id}`,
        [
          { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
          { op: 'replace', path: '/status', value: 'AUTHORIZED' },
        ],
        { 'content-type': 'application/json-patch+json' },
      )
      assert.equal(authorized.statusCode, 200, authorized.body)
      const payable = json<{ totals: { payable: number } }>(authorized).totals.payable
      if (!invoice) return { ...claim, requestId: 0, payable }
      const requested = await call('POST', `/api/claims/${claim.id}/paymentrequests`, {
        invoiceNumber: `INV-${claim.id}`,
        invoiceDate: '2026-11-09',
        invoicedTotal: 300,
      })
      assert.equal(requested.statusCode, 201, requested.body)
      return { ...claim, requestId: json<{ id: number; amount: number }>(requested).id, payable }
    }
    const paid = await claimOf(early[0]!)
    const unpaid = await claimOf(early[1]!)
    // Authorized, not yet invoiced.
    const uninvoiced = await claimOf(early[2]!, false)
    const payment = await call('POST', `/api/claims/${paid.id}/paymentrequests/${paid.requestId}/payments`, {
      method: 'CHECK',
      amount: 300,
      paidAt: '2026-11-10',
      reference: 'CHK 77',
    })
    assert.equal(payment.statusCode, 201, payment.body)
    claimNumbers.paid = paid.claimNumber
    claimNumbers.unpaid = unpaid.claimNumber
    claimNumbers.uninvoiced = uninvoiced.claimNumber
    claimNumbers.uninvoicedPayable = uninvoiced.payable
  })

  test('premium: one line per entry; totals equal the journal’s own sums for the month', async () => {
    const b = await premium('2026-11')
    assert.deepEqual(
      b.lines.map((l) => `${l.transaction} ${l.contractNumber}`),
      [
        `WRITTEN ${soldInMonth.contractNumber}`,
        `WRITTEN ${cancelledInMonth.contractNumber}`,
        `CANCELLED ${priorSale.contractNumber}`,
        `CANCELLED ${cancelledInMonth.contractNumber}`,
        `REINSTATED ${priorSale.contractNumber}`,
      ],
    )
    assert.deepEqual(
      b.lines.filter((l) => l.transaction === 'CANCELLED').map((l) => l.cancelDate),
      ['2026-11-08', '2026-11-09'],
    )
    // Independently: every entry of the contracts, the insurer's payable lines posted in November.
    const sums = { premium: 0, reserve: 0, other: 0, written: 0, cancelled: 0, reinstated: 0 }
    const groupOf = new Map<string, string>()
    for (const c of [soldInMonth, cancelledInMonth, priorSale])
      for (const l of c.pricing.lines) groupOf.set(l.code, l.group)
    for (const c of [soldInMonth, cancelledInMonth, priorSale, ...early]) {
      for (const e of await entriesOf(c.id)) {
        if (!e.effectiveDate.startsWith('2026-11')) continue
        for (const l of e.lines) {
          if (l.accountHolderId !== insurerId || l.purpose !== 'DISBURSEMENT_PAYABLE') continue
          const v = credited(l)
          const g = groupOf.get(l.disbursementCode ?? '')
          if (g === 'RESERVE') sums.reserve += v
          else if (g === 'PREMIUM' || g === 'CLIP_PREMIUM') sums.premium += v
          else sums.other += v
          if (e.kind === 'CONTRACT_FINALIZED') sums.written += v
          if (e.kind === 'CONTRACT_CANCELLED') sums.cancelled += v
          if (e.kind === 'CANCEL_REVERSED') sums.reinstated += v
        }
      }
    }
    assert.ok(sums.written > 0 && sums.cancelled < 0, 'written to the insurer, and refunded by the cancels')
    assert.deepEqual(
      [cents(b.totals.net.premium), cents(b.totals.net.reserve), cents(b.totals.net.other)],
      [sums.premium, sums.reserve, sums.other],
    )
    assert.equal(cents(b.totals.written.total), sums.written)
    assert.equal(cents(b.totals.cancelled.total), sums.cancelled)
    assert.equal(cents(b.totals.reinstated.total), sums.reinstated)
    // A reinstatement returns exactly what its cancel took back.
    const priorCancelled = b.lines.find(
      (l) => l.transaction === 'CANCELLED' && l.contractNumber === priorSale.contractNumber,
    )!
    assert.equal(cents(b.totals.reinstated.total), -cents(priorCancelled.total))
    assert.ok(b.totals.cancelled.total < 0, 'refunded shares are negative')
    assert.deepEqual(
      [b.totals.written.count, b.totals.cancelled.count, b.totals.reinstated.count, b.totals.net.count],
      [2, 2, 1, 5],
    )
    // Each line is its entry's own figures.
    const line = b.lines[0]!
    assert.equal(cents(line.premium) + cents(line.reserve) + cents(line.other), cents(line.total))
  })

  test('October holds the October sales only', async () => {
    const b = await premium('2026-10')
    assert.ok(b.lines.every((l) => l.transaction === 'WRITTEN'))
    assert.ok(b.lines.some((l) => l.contractNumber === priorSale.contractNumber))
  })

  test('CSV (format=csv or Accept: text/csv) parses back to the same figures', async () => {
    const b = await premium('2026-11')
    for (const ask of [{ query: '&format=csv' }, { accept: 'text/csv' }]) {
      const res = await call(
        'GET',
        `/api/reports/insurers/${insurerId}/bordereaux/premium?month=2026-11${'query' in ask ? ask.query : ''}`,
        undefined,
        'accept' in ask ? { accept: ask.accept } : {},
      )
      assert.equal(res.statusCode, 200, res.body)
      assert.match(String(res.headers['content-type']), /^text\/csv/)
      const [header, ...rows] = parseCsv(res.body)
      const col = (name: string) => header!.indexOf(name)
      const lines = rows.filter((r) => r[col('recordType')] === 'LINE')
      assert.deepEqual(
        lines.map((r) => [r[col('transaction')], r[col('contractNumber')], cents(Number(r[col('total')]))]),
        b.lines.map((l) => [l.transaction, l.contractNumber, cents(l.total)]),
      )
      for (const name of ['premium', 'reserve', 'other', 'total'] as const) {
        const sum = lines.reduce((n, r) => n + cents(Number(r[col(name)])), 0)
        assert.equal(sum, cents(b.totals.net[name]), name)
        const net = rows.find((r) => r[col('recordType')] === 'TOTAL' && r[col('transaction')] === 'NET')!
        assert.equal(cents(Number(net[col(name)])), cents(b.totals.net[name]))
      }
    }
  })

  test('claims: the paid one (its CLAIM_PAID entry), the authorized-unpaid ones (a CLAIM_APPROVED entry; an authorization)', async () => {
    const res = await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/claims?month=2026-11`)
    assert.equal(res.statusCode, 200, res.body)
    const b = json<ClaimsBordereau>(res)
    assert.deepEqual(
      b.paid.map((p) => [p.claimNumber, p.amount]),
      [[claimNumbers.paid, 300]],
    )
    assert.deepEqual(
      b.outstanding.map((o) => [o.claimNumber, o.basis, o.authorized, o.paidToDate, o.outstanding]),
      [
        [claimNumbers.unpaid, 'PAYMENT_REQUEST', 300, 0, 300],
        [claimNumbers.uninvoiced, 'AUTHORIZATION', claimNumbers.uninvoicedPayable, 0, claimNumbers.uninvoicedPayable],
      ],
    )
    assert.ok(claimNumbers.uninvoicedPayable > 0)
    // From the journal: what CLAIM_PAID took off the payable, what CLAIM_APPROVED charged the insurer.
    const paidEntry = await t.modules.finance.ledger.entry(demo.tenantId, b.paid[0]!.journalEntryId)
    assert.equal(paidEntry?.kind, 'CLAIM_PAID')
    assert.equal(cents(paidEntry!.totalDebit), cents(b.totals.paid.amount))
    const approved = (await entriesOf(early[1]!.id)).filter((e) => e.kind === 'CLAIM_APPROVED')
    const charged = approved
      .flatMap((e) => e.lines)
      .filter((l) => l.purpose === 'CLAIM_EXPENSE' && l.accountHolderId === insurerId)
      .reduce((n, l) => n - credited(l), 0)
    // The request committed is the journal's; the authorized one is not posted yet: its payable.
    assert.equal(charged + cents(claimNumbers.uninvoicedPayable), cents(b.totals.outstanding.amount))
    assert.deepEqual([b.totals.paid.count, b.totals.outstanding.count], [1, 2])
    // CSV: the same figures.
    const csv = await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/claims?month=2026-11&format=csv`)
    const [header, ...rows] = parseCsv(csv.body)
    const col = (name: string) => header!.indexOf(name)
    const total = (type: string, name: string) => Number(rows.find((r) => r[col('recordType')] === type)![col(name)])
    assert.equal(total('TOTAL_PAID', 'amount'), b.totals.paid.amount)
    assert.equal(total('TOTAL_OUTSTANDING', 'outstanding'), b.totals.outstanding.amount)
    // At the end of October neither was authorized.
    const october = json<ClaimsBordereau>(
      await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/claims?month=2026-10`),
    )
    assert.deepEqual([october.paid.length, october.outstanding.length], [0, 0])
  })

  test('a month not begun: 422 naming month; not an insurer: 404', async () => {
    let res = await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/premium?month=2026-12`)
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => `${e.field} ${e.code}`),
      ['month out_of_range'],
    )
    res = await call('GET', `/api/reports/insurers/${insurerId}/bordereaux/claims?month=11-2026`)
    assert.equal(res.statusCode, 422, res.body)
    res = await call('GET', `/api/reports/insurers/${reinsurerId}/bordereaux/premium?month=2026-11`)
    assert.equal(res.statusCode, 404, res.body)
    assert.equal(json<Problem>(res).code, 'risk_bearer_not_found')
  })
})
