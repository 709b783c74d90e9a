// The report formats over HTTP (docs/reporting.md "Formats"), on the demo tenant: a treaty, sales in
// August, a cancel and a claim paid and one unpaid in September. Every report's XLSX (format=xlsx or
// the Accept header) is parsed back with ExcelJS and its figures equal the JSON's to the cent, money
// cells are numbers formatted #,##0.00 and dates are date cells; the reinsurance statement's PDF has
// the letterhead, the four columns, the breakdowns, the footnotes and numbered pages; an unknown
// format is a 400 naming format.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import ExcelJS from 'exceljs'
import { PDFDocument } from 'pdf-lib'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from '../../../test/harness.ts'
import { extractPdfText, pdfInfo } from '../../../test/pdf-text.ts'
import { XLSX_MEDIA_TYPE } from './report-format.ts'
import { FIGURE_LABELS } from './statement.xlsx.ts'
import { amountText, ratioText } from './reinsurance-statement.pdf.ts'

type Cell = Record<string, number> & { lossRatio: string | null }
type Cells = { mtd: Cell; qtd: Cell; ytd: Cell; itd: Cell }
type Statement = {
  reinsuranceCompany: { id: number; name: string }
  month: string
  periods: Record<'mtd' | 'qtd' | 'ytd' | 'itd', { from: string | null; to: string }>
  totals: Cells
  byProduct: Array<{ product: { code: string } } & Cells>
  byVintage: Array<{ vintage: string } & Cells>
}

const FIGURES = Object.keys(FIGURE_LABELS)
const COLS = ['mtd', 'qtd', 'ytd', 'itd'] as const

let t: TestApp
let demo: DemoTestTenant
let companyId: number
let insurerId: number
const cents = (n: unknown) => Math.round(Number(n) * 100)

const call = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...demo.headers, ...headers } })
const post = (url: string, payload: unknown, headers: Record<string, string> = {}, method: 'POST' | 'PATCH' = 'POST') =>
  t.app.inject({ method, url, headers: { ...demo.headers, ...headers }, payload: payload as Record<string, unknown> })

async function workbook(url: string, headers: Record<string, string> = {}) {
  const res = await call(url, headers)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(String(res.headers['content-type']), XLSX_MEDIA_TYPE)
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="[A-Za-z0-9-]+\.xlsx"$/)
  assert.equal(res.rawPayload.subarray(0, 2).toString('latin1'), 'PK')
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer)
  return { wb, disposition: String(res.headers['content-disposition']) }
}

/** A sheet's rows as arrays of cell values (index 0 = column A), and the header's column lookup. */
function rowsOf(ws: ExcelJS.Worksheet) {
  const rows: ExcelJS.CellValue[][] = []
  ws.eachRow({ includeEmpty: false }, (r) => {
    const values: ExcelJS.CellValue[] = []
    for (let i = 1; i <= ws.columnCount; i++) values.push(r.getCell(i).value)
    rows.push(values)
  })
  const header = rows[0]!.map(String)
  const col = (name: string) => {
    const i = header.indexOf(name)
    assert.ok(i >= 0, `no column ${name} in ${header.join(', ')}`)
    return i
  }
  return { header, body: rows.slice(1), col }
}

/** The sheet's frozen pane and a money cell's format. */
function assertLayout(ws: ExcelJS.Worksheet, moneyColumn?: number) {
  assert.equal(ws.views[0]?.state, 'frozen', ws.name)
  assert.equal((ws.views[0] as { ySplit?: number }).ySplit, 1, ws.name)
  assert.equal(ws.getRow(1).font?.bold, true, ws.name)
  if (moneyColumn !== undefined && ws.rowCount > 1)
    assert.equal(ws.getRow(2).getCell(moneyColumn + 1).numFmt, '#,##0.00', ws.name)
}

const day = (iso: string | null) => (iso === null ? null : new Date(`${iso}T00:00:00.000Z`).getTime())
const asDay = (v: ExcelJS.CellValue) => (v instanceof Date ? v.getTime() : v)

before(async () => {
  t = await createTestApp({ now: new Date('2026-08-15T18:00:00Z') })
  demo = await seedDemo(t)
  const list = async (url: string) => json<Array<Record<string, unknown>>>(await call(url))
  companyId = Number((await list('/api/reinsurancecompanies')).find((c) => c.companyCode === 'LSRE')!.id)
  insurerId = Number((await list('/api/insurers')).find((c) => c.insurerCode === 'INS-FCI')!.id)
  const dealerId = Number((await list(`/api/dealers?dealerNumber=${DEMO.dealerNumber}`))[0]!.id)
  const productId = Number((await list('/api/Rates/Products')).find((p) => p.code === 'VSC')!.id)
  const treaty = await post('/api/reinsurance/treaties', {
    reinsuranceCompanyId: companyId,
    name: 'Lone Star Re quota share',
    dealerIds: [dealerId],
    productIds: [productId],
    effectiveFrom: '2026-08-01',
    shareBps: 7500,
    cedingFeeBps: 250,
    administratorFeeBps: 100,
  })
  assert.equal(treaty.statusCode, 201, treaty.body)
  const sell = (saleDate: string) =>
    sellDemoContract<{ id: number }>(t, demo, {
      saleDate,
      finalize: true,
      quoteQuery: 'vehiclePurchasePrice=21500',
      deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
    })
  const sold = [await sell('2026-08-02'), await sell('2026-08-03'), await sell('2026-08-04')]
  t.clock.set(new Date('2026-09-20T18:00:00Z'))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  const cancel = await post(`/api/contracts/${sold[2]!.id}/cancels`, {
    cancelDate: '2026-09-10',
    cancelOdometer: 43000,
    cancelReasonCode: 'CUSTOMER_REQUEST',
  })
  assert.equal(cancel.statusCode, 201, cancel.body)
  // Two claims of 300.00: one paid, one authorized and unpaid.
  const first = async (url: string) => json<Array<{ id: number }>>(await call(`${url}?limit=1`))[0]!.id
  const facilities = json<Array<{ id: number; facilityCode: string }>>(await call('/api/repairfacilities'))
  const lookups = {
    complaintId: await first('/api/claims/complaints'),
    causeId: await first('/api/claims/causes'),
    correctionId: await first('/api/claims/corrections'),
  }
  for (const [i, contract] of [sold[0]!, sold[1]!].entries()) {
    const res = await post('/api/claims', {
      contractId: contract.id,
      lossDate: '2026-09-05',
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
      invoiceDate: '2026-09-09',
      invoicedTotal: 300,
    })
    assert.equal(requested.statusCode, 201, requested.body)
    if (i === 0) {
      const payment = await post(
        `/api/claims/${claim.id}/paymentrequests/${json<{ id: number }>(requested).id}/payments`,
        { method: 'CHECK', amount: 300, paidAt: '2026-09-10', reference: `CHK ${claim.id}` },
      )
      assert.equal(payment.statusCode, 201, payment.body)
    }
  }
})
after(() => t.close())

const statementUrl = () => `/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-09`

describe('XLSX', () => {
  test('the reinsurance statement: the four columns, by product, by vintage, equal to the JSON to the cent', async () => {
    const s = json<Statement>(await call(statementUrl()))
    assert.ok(cents(s.totals.mtd.claimsIncurred) > 0 && cents(s.totals.mtd.cancellations) > 0)
    const asks: Array<{ query: string; accept: Record<string, string> }> = [
      { query: '&format=xlsx', accept: {} },
      { query: '', accept: { accept: XLSX_MEDIA_TYPE } },
    ]
    for (const ask of asks) {
      const { wb, disposition } = await workbook(`${statementUrl()}${ask.query}`, ask.accept)
      assert.ok(disposition.includes(`reinsurance-statement-${companyId}-2026-09.xlsx`))
      assert.deepEqual(
        wb.worksheets.map((w) => w.name),
        ['Report', 'Statement', 'By product', 'By vintage'],
      )
      const report = rowsOf(wb.getWorksheet('Report')!)
      assert.ok(report.body.some((r) => r[0] === 'Reinsurance company' && r[1] === s.reinsuranceCompany.name))

      const ws = wb.getWorksheet('Statement')!
      assertLayout(ws)
      const st = rowsOf(ws)
      assert.deepEqual(st.header, ['Figure', 'MTD', 'QTD', 'YTD', 'ITD'])
      const byLabel = new Map(st.body.map((r) => [String(r[0]), r.slice(1)]))
      assert.deepEqual(
        byLabel.get('To')!.map(asDay),
        COLS.map((c) => day(s.periods[c].to)),
      )
      assert.deepEqual(
        byLabel.get('From')!.slice(0, 3).map(asDay),
        ['mtd', 'qtd', 'ytd'].map((c) => day(s.periods[c as 'mtd'].from)),
      )
      for (const f of FIGURES) {
        const values = byLabel.get(FIGURE_LABELS[f as keyof typeof FIGURE_LABELS])!
        // The number itself equals the JSON's amount (cents ÷ 100), so it is exact to the cent.
        assert.deepEqual(
          values,
          COLS.map((c) => s.totals[c][f]),
          f,
        )
      }
      assert.deepEqual(
        byLabel.get('Loss ratio'),
        COLS.map((c) => (s.totals[c].lossRatio === null ? null : Number(s.totals[c].lossRatio))),
      )
      const moneyRow = st.body.findIndex((r) => r[0] === FIGURE_LABELS.earnedPremium) + 2
      assert.equal(ws.getRow(moneyRow).getCell(2).numFmt, '#,##0.00')
      assert.equal(ws.getRow(3).getCell(2).numFmt, 'yyyy-mm-dd')

      for (const [sheet, key, parts] of [
        ['By product', 'Product', s.byProduct.map((p) => ({ ...p, key: p.product.code }))],
        ['By vintage', 'Vintage', s.byVintage.map((v) => ({ ...v, key: v.vintage }))],
      ] as const) {
        const w = wb.getWorksheet(sheet)!
        const { body, col } = rowsOf(w)
        assertLayout(w, col(FIGURE_LABELS.writtenPremium))
        for (const p of [...parts, { ...s.totals, key: 'TOTAL' }])
          for (const c of COLS) {
            const r = body.find((row) => row[col(key)] === p.key && row[col('Column')] === c.toUpperCase())
            assert.ok(r, `${sheet} ${p.key} ${c}`)
            for (const f of FIGURES)
              assert.equal(r[col(FIGURE_LABELS[f as 'writtenPremium'])], p[c][f], `${p.key} ${c} ${f}`)
          }
        // The parts add up to the totals rows, to the cent.
        const sum = body
          .filter((r) => r[col(key)] !== 'TOTAL' && r[col('Column')] === 'ITD')
          .reduce((n, r) => n + cents(r[col(FIGURE_LABELS.earnedPremium)]), 0)
        assert.equal(sum, cents(s.totals.itd.earnedPremium))
      }
    }
  })

  test('the premium and claims bordereaux: lines and totals equal the JSON', async () => {
    const base = `/api/reports/insurers/${insurerId}/bordereaux`
    const premium = json<{
      lines: Array<{ contractNumber: string; transaction: string; total: number; premium: number; postedOn: string }>
      totals: Record<string, { count: number; premium: number; reserve: number; other: number; total: number }>
    }>(await call(`${base}/premium?month=2026-09`))
    assert.ok(premium.lines.some((l) => l.transaction === 'CANCELLED'))
    const { wb } = await workbook(`${base}/premium?month=2026-09&format=xlsx`)
    assert.deepEqual(
      wb.worksheets.map((w) => w.name),
      ['Report', 'Lines'],
    )
    const ws = wb.getWorksheet('Lines')!
    const { body, col } = rowsOf(ws)
    assertLayout(ws, col('Total'))
    const lines = body.filter((r) => !String(r[0]).startsWith('TOTAL'))
    assert.deepEqual(
      lines.map((r) => [r[col('Transaction')], r[col('Contract')], r[col('Total')], asDay(r[col('Posted on')])]),
      premium.lines.map((l) => [l.transaction, l.contractNumber, l.total, day(l.postedOn)]),
    )
    for (const [name, tot] of Object.entries(premium.totals)) {
      const r = body.find((row) => row[0] === `TOTAL ${name.toUpperCase()}`)!
      assert.deepEqual(
        [r[col('Journal entry')], r[col('Premium')], r[col('Reserve')], r[col('Other')], r[col('Total')]],
        [tot.count, tot.premium, tot.reserve, tot.other, tot.total],
        name,
      )
    }
    assert.equal(
      lines.reduce((n, r) => n + cents(r[col('Total')]), 0),
      cents(premium.totals.net!.total),
    )

    const claims = json<{
      paid: Array<{ claimNumber: string; amount: number }>
      outstanding: Array<{ claimNumber: string; outstanding: number }>
      totals: { paid: { count: number; amount: number }; outstanding: { count: number; amount: number } }
    }>(await call(`${base}/claims?month=2026-09`))
    assert.equal(claims.paid.length, 1)
    assert.ok(claims.outstanding.length >= 1)
    const c = (await workbook(`${base}/claims?month=2026-09`, { accept: XLSX_MEDIA_TYPE })).wb
    const paid = rowsOf(c.getWorksheet('Paid')!)
    assert.deepEqual(
      paid.body.slice(0, -1).map((r) => [r[paid.col('Claim')], r[paid.col('Amount')]]),
      claims.paid.map((p) => [p.claimNumber, p.amount]),
    )
    assert.deepEqual(paid.body.at(-1)!.slice(0, 1), [`TOTAL PAID (${claims.totals.paid.count})`])
    assert.equal(paid.body.at(-1)![paid.col('Amount')], claims.totals.paid.amount)
    const out = rowsOf(c.getWorksheet('Outstanding')!)
    assert.deepEqual(
      out.body.slice(0, -1).map((r) => [r[out.col('Claim')], r[out.col('Outstanding')]]),
      claims.outstanding.map((o) => [o.claimNumber, o.outstanding]),
    )
    assert.equal(out.body.at(-1)![out.col('Outstanding')], claims.totals.outstanding.amount)
  })

  test('statement lines, loss ratios and the reconciliation', async () => {
    const linesUrl = `/api/reports/reinsurancecompanies/${companyId}/statement/lines?month=2026-09&figure=earnedPremium&column=itd`
    const l = json<{ total: number; totalCount: number; items: Array<{ contractNumber: string; amount: number }> }>(
      await call(linesUrl),
    )
    assert.ok(l.items.length > 0)
    const lw = rowsOf((await workbook(`${linesUrl}&format=xlsx`)).wb.getWorksheet('Lines')!)
    assert.deepEqual(
      lw.body.slice(0, -1).map((r) => [r[lw.col('Contract')], r[lw.col('Amount')]]),
      l.items.map((i) => [i.contractNumber, i.amount]),
    )
    assert.deepEqual(
      [lw.body.at(-1)![0], lw.body.at(-1)![lw.col('Amount')]],
      [`TOTAL (${l.totalCount} lines)`, l.total],
    )

    const lrUrl = '/api/reports/lossratios?groupBy=dealer,vintage&from=2026-01-01&to=2026-09-20'
    const r = json<{
      items: Array<{
        group: { dealer: { dealerNumber: string }; vintage: string }
        contracts: number
        earnedPremium: number
        claimsIncurred: number
        lossRatio: string | null
      }>
    }>(await call(lrUrl))
    assert.ok(r.items.length > 0)
    const lr = rowsOf((await workbook(`${lrUrl}&format=xlsx`)).wb.getWorksheet('Loss ratios')!)
    assert.deepEqual(lr.header.slice(0, 4), ['Dealer number', 'Dealer', 'Vintage', 'Contracts'])
    assert.deepEqual(
      lr.body
        .slice(0, -1)
        .map((row) => [
          row[0],
          row[lr.col('Vintage')],
          row[lr.col('Contracts')],
          row[lr.col('Earned premium')],
          row[lr.col('Claims incurred')],
          row[lr.col('Loss ratio')],
        ]),
      r.items.map((i) => [
        i.group.dealer.dealerNumber,
        i.group.vintage,
        i.contracts,
        i.earnedPremium,
        i.claimsIncurred,
        i.lossRatio === null ? null : Number(i.lossRatio),
      ]),
    )
    const total = lr.body.at(-1)!
    assert.equal(total[0], 'TOTAL')
    assert.equal(
      cents(total[lr.col('Earned premium')]),
      r.items.reduce((n, i) => n + cents(i.earnedPremium), 0),
    )

    const recUrl = '/api/reports/reconciliation?month=2026-09'
    const rec = json<{ checks: Array<{ reported: number; ledger: number }>; differences: unknown[] }>(
      await call(recUrl),
    )
    assert.ok(rec.checks.length > 0)
    assert.deepEqual(rec.differences, [])
    const rw = (await workbook(`${recUrl}&format=xlsx`)).wb
    const checks = rowsOf(rw.getWorksheet('Checks')!)
    assert.deepEqual(
      checks.body.slice(0, -1).map((row) => [row[checks.col('Reported')], row[checks.col('Ledger')]]),
      rec.checks.map((c) => [c.reported, c.ledger]),
    )
    assert.deepEqual(rowsOf(rw.getWorksheet('Differences')!).body, [
      ['TOTAL (0)', null, null, null, null, null, null, null, 0],
    ])
    const csv = await call(`${recUrl}&format=csv`)
    assert.equal(csv.statusCode, 200, csv.body)
    assert.match(String(csv.headers['content-type']), /^text\/csv/)
    assert.equal(csv.body.split('\r\n').filter((x) => x.startsWith('CHECK,')).length, rec.checks.length)
  })
})

describe('PDF', () => {
  test('the reinsurance statement: letterhead, the four columns, breakdowns, footnotes, numbered pages', async () => {
    const s = json<Statement>(await call(statementUrl()))
    const asks: Array<{ query: string; accept: Record<string, string> }> = [
      { query: '&format=pdf', accept: {} },
      { query: '', accept: { accept: 'application/pdf' } },
    ]
    for (const ask of asks) {
      const res = await call(`${statementUrl()}${ask.query}`, ask.accept)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(String(res.headers['content-type']), 'application/pdf')
      assert.equal(
        String(res.headers['content-disposition']),
        `inline; filename="reinsurance-statement-${companyId}-2026-09.pdf"`,
      )
      const bytes = res.rawPayload
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-')
      const pages = (await PDFDocument.load(bytes)).getPageCount()
      const text = await extractPdfText(new Uint8Array(bytes))
      assert.equal(text.length, pages)
      const all = text.join('\n')
      text.forEach((p, i) => assert.ok(p.includes(`Page ${i + 1} of ${pages}`), `page ${i + 1}`))
      for (const expected of [
        'REINSURANCE STATEMENT',
        s.reinsuranceCompany.name,
        'Statement month: September 2026',
        'Month to date',
        'Inception to date',
        'By product',
        'By vintage (quarter of sale)',
        'Loss ratio = claims incurred / earned premium',
        'Earned premium: net written premium times',
        FIGURE_LABELS.unearnedPremium,
      ])
        assert.ok(all.includes(expected), expected)
      // The four columns of each figure, in the JSON's amounts.
      for (const f of FIGURES)
        assert.ok(
          all.includes(
            `${FIGURE_LABELS[f as 'writtenPremium']} ${COLS.map((c) => amountText(s.totals[c][f]!)).join(' ')}`,
          ),
          f,
        )
      assert.ok(all.includes(`Loss ratio ${COLS.map((c) => ratioText(s.totals[c].lossRatio)).join(' ')}`))
      for (const v of s.byVintage) assert.ok(all.includes(v.vintage))
      const info = await pdfInfo(new Uint8Array(bytes))
      assert.match(String(info.Title), /^Reinsurance statement: .+, September 2026$/)
    }
  })

  test('the administrator letterhead; the same 404 and 422 as the JSON', async () => {
    const text = (await extractPdfText(new Uint8Array((await call(`${statementUrl()}&format=pdf`)).rawPayload))).join(
      '\n',
    )
    // The letterhead: the tenant's administrator company (made with the tenant).
    const admin = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('account_holder')
        .select('display_name')
        .where('tenant_id', '=', demo.tenantId)
        .where('kind', '=', 'ADMIN_COMPANY')
        .orderBy('id')
        .executeTakeFirstOrThrow(),
    )
    assert.ok(text.startsWith(`${admin.display_name} REINSURANCE STATEMENT`), text.slice(0, 120))
    let res = await call(`/api/reports/reinsurancecompanies/${insurerId}/statement?month=2026-09&format=pdf`)
    assert.equal(res.statusCode, 404, res.body)
    assert.equal(json<{ code: string }>(res).code, 'risk_bearer_not_found')
    res = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-12&format=pdf`)
    assert.equal(res.statusCode, 422, res.body)
  })
})

describe('format negotiation', () => {
  test('an unknown format value is 400 validation_failed naming format; PDF only for the statement', async () => {
    for (const url of [
      `${statementUrl()}&format=docx`,
      `/api/reports/insurers/${insurerId}/bordereaux/premium?month=2026-09&format=pdf`,
      '/api/reports/lossratios?format=pdf',
      '/api/reports/reconciliation?month=2026-09&format=ods',
    ]) {
      const res = await call(url)
      assert.equal(res.statusCode, 400, `${url} ${res.body}`)
      const p = json<{ code: string; errors: Array<{ field: string }> }>(res)
      assert.equal(p.code, 'validation_failed')
      assert.ok(
        p.errors.some((e) => /format/.test(e.field)),
        res.body,
      )
    }
  })

  test('Accept: the offered type named first wins; JSON when none is offered', async () => {
    let res = await call(statementUrl(), { accept: `application/json, ${XLSX_MEDIA_TYPE}` })
    assert.match(String(res.headers['content-type']), /^application\/json/)
    res = await call(`${statementUrl()}&format=json`, { accept: XLSX_MEDIA_TYPE })
    assert.match(String(res.headers['content-type']), /^application\/json/)
    res = await call(statementUrl(), { accept: `text/csv, application/pdf` })
    assert.match(String(res.headers['content-type']), /^text\/csv/)
    res = await call(`/api/reports/insurers/${insurerId}/bordereaux/premium?month=2026-09`, {
      accept: 'application/pdf',
    })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^application\/json/)
  })
})
