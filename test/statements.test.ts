// Account-holder statements over HTTP (docs/statements.md), on PGlite and PostgreSQL: a dealer's
// statement after two sales and a cancel reconciles with the ledger's balances; the CSV's content;
// the PDF is a PDF; the background path (a small threshold) reaches COMPLETED; visibility, another
// tenant and bad dates.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { PDFDocument } from 'pdf-lib'
import { systemContext } from '../src/platform/http/context.ts'
import { AppError } from '../src/platform/http/errors.ts'
import { createTenant, createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { extractPdfText } from './pdf-text.ts'

type Request = {
  id: number
  status: string
  accountHolderId: number
  purpose: string | null
  from: string
  to: string
  format: string
  openingBalance: number | null
  closingBalance: number | null
  lineCount: number | null
  documentId: number | null
  fileId: number | null
  downloadUrl: string | null
  failureReason: string | null
}

let t: TestApp
let demo: DemoTestTenant
let dealerId: number
let otherHolderId: number
const DAY1 = '2026-11-20'
const DAY2 = '2026-11-21'

const statements = () => t.modules.finance.statements

async function post(accountHolderId: number, body: unknown, headers = demo.headers) {
  return t.app.inject({
    method: 'POST',
    url: `/api/accountholders/${accountHolderId}/statementrequests`,
    headers,
    payload: body as Record<string, unknown>,
  })
}

async function download(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url })
  assert.equal(res.statusCode, 200, res.body)
  return res.rawPayload
}

/** Σ(debit − credit) in cents of the dealer's DEALER_RECEIVABLE account, from the ledger's balances. */
async function receivableCents(): Promise<number> {
  const balances = await t.modules.finance.ledger.balances(demo.tenantId, dealerId)
  const r = balances.find((b) => b.purpose === 'DEALER_RECEIVABLE')
  assert.ok(r, 'the dealer has a receivable account')
  return Math.round(r.debit * 100) - Math.round(r.credit * 100)
}

const cents = (n: number | null) => Math.round((n ?? NaN) * 100)

/** RFC 4180 rows (no quoted line breaks in what the test posts). */
function csvRows(text: string): string[][] {
  assert.ok(text.endsWith('\r\n'), 'CRLF line ends')
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => {
      const out: string[] = []
      let field = ''
      let quoted = false
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') {
            field += '"'
            i++
          } else if (ch === '"') quoted = false
          else field += ch
        } else if (ch === '"') quoted = true
        else if (ch === ',') {
          out.push(field)
          field = ''
        } else field += ch
      }
      out.push(field)
      return out
    })
}

before(async () => {
  t = await createTestApp({ now: new Date(`${DAY1}T18:00:00Z`) })
  demo = await seedDemo(t)
  const first = await sellDemoContract(t, demo, { saleDate: DAY1, finalize: true })
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: first.id })
  const line = entries.flatMap((e) => e.lines).find((l) => l.purpose === 'DEALER_RECEIVABLE')
  assert.ok(line, 'the sale posted a dealer receivable')
  dealerId = line.accountHolderId
  otherHolderId = entries.flatMap((e) => e.lines).find((l) => l.accountHolderId !== dealerId)!.accountHolderId
  // Day 2: another sale, and a cancel of it (its entry posts on day 2 too).
  t.clock.set(new Date(`${DAY2}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  const second = await sellDemoContract(t, demo, { saleDate: DAY2, finalize: true })
  const cancel = await t.app.inject({
    method: 'POST',
    url: `/api/contracts/${second.id}/cancels`,
    headers: demo.headers,
    payload: { cancelDate: DAY2, cancelOdometer: 42150, cancelReasonCode: 'CUSTOMER_REQUEST' },
  })
  assert.equal(cancel.statusCode, 201, cancel.body)
})
after(async () => {
  await statements().idle()
  await t.close()
})

describe('a small statement is made in the request', () => {
  test('CSV of the receivable: opening + lines = closing = the ledger balance; rows as RFC 4180', async () => {
    const res = await post(dealerId, { from: DAY2, to: DAY2, format: 'CSV', purpose: 'DEALER_RECEIVABLE' })
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Request>(res)
    assert.equal(r.status, 'COMPLETED')
    assert.equal(res.headers.location, `/api/accountholders/${dealerId}/statementrequests/${r.id}`)
    assert.equal(r.accountHolderId, dealerId)
    assert.equal(r.format, 'CSV')
    assert.equal(r.purpose, 'DEALER_RECEIVABLE')
    assert.ok(r.documentId && r.fileId && r.downloadUrl)
    // Day 1's sale is the opening balance; day 2's sale and cancel are the lines.
    const day1 = await t.modules.finance.statements.request(systemContext(demo.tenantId), dealerId, {
      from: DAY1,
      to: DAY1,
      format: 'CSV',
      purpose: 'DEALER_RECEIVABLE',
    })
    assert.equal(day1.request.openingBalance, 0)
    assert.equal(cents(r.openingBalance), cents(day1.request.closingBalance))
    assert.ok(cents(r.openingBalance) > 0, 'the first sale is owed')
    assert.ok((r.lineCount ?? 0) >= 2, `a sale and a cancel: ${r.lineCount}`)
    assert.equal(cents(r.closingBalance), await receivableCents())

    const rows = csvRows((await download(r.downloadUrl!)).toString('utf8'))
    assert.deepEqual(rows[0], [
      'date',
      'kind',
      'source',
      'sourceId',
      'entryId',
      'lineNo',
      'purpose',
      'contractNumber',
      'disbursementCode',
      'memo',
      'debit',
      'credit',
      'balance',
    ])
    const opening = rows[1]!
    const closing = rows[rows.length - 1]!
    assert.deepEqual([opening[0], opening[1], opening[12]], [DAY2, 'OPENING_BALANCE', r.openingBalance!.toFixed(2)])
    assert.deepEqual([closing[0], closing[1], closing[12]], [DAY2, 'CLOSING_BALANCE', r.closingBalance!.toFixed(2)])
    const lines = rows.slice(2, -1)
    assert.equal(lines.length, r.lineCount)
    let balance = cents(r.openingBalance)
    for (const l of lines) {
      assert.equal(l[0], DAY2)
      assert.match(l[10]!, /^\d+\.\d{2}$/)
      assert.match(l[11]!, /^\d+\.\d{2}$/)
      balance += Math.round(Number(l[10]) * 100) - Math.round(Number(l[11]) * 100)
      assert.equal(Math.round(Number(l[12]) * 100), balance, 'the running balance')
      assert.equal(l[6], 'DEALER_RECEIVABLE')
      assert.ok(l[7]!.length > 0, 'the contract number')
    }
    assert.equal(balance, cents(r.closingBalance))
    assert.deepEqual(
      lines.map((l) => l[1]),
      ['CONTRACT_FINALIZED', ...lines.slice(1).map((l) => l[1])],
    )
    // GET shows the same request with a fresh link.
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/accountholders/${dealerId}/statementrequests/${r.id}`,
      headers: demo.headers,
    })
    assert.equal(got.statusCode, 200, got.body)
    assert.equal(json<Request>(got).documentId, r.documentId)
  })

  test('PDF (the default) over every account of the holder is a PDF that pdf-lib parses', async () => {
    const res = await post(dealerId, { from: DAY1, to: DAY2 })
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Request>(res)
    assert.equal(r.format, 'PDF')
    assert.equal(r.purpose, null)
    assert.equal(r.openingBalance, 0)
    const bytes = await download(r.downloadUrl!)
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-')
    const pdf = await PDFDocument.load(bytes)
    assert.ok(pdf.getPageCount() >= 1)
    assert.match(pdf.getTitle() ?? '', /Statement of/)
    const text = (await extractPdfText(bytes)).join('\n')
    assert.match(text, /Opening balance \(11\/20\/2026\) 0\.00/)
    assert.match(text, /CONTRACT_FINALIZED/)
    const closing = r.closingBalance!.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    assert.ok(text.includes(`Closing balance (11/21/2026) ${closing}`), text.slice(-300))
  })

  test('an account holder with no lines: zero balances, no lines', async () => {
    const res = await post(dealerId, { from: '2020-01-01', to: '2020-12-31', format: 'CSV' })
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Request>(res)
    assert.deepEqual([r.openingBalance, r.closingBalance, r.lineCount], [0, 0, 0])
    assert.equal(csvRows((await download(r.downloadUrl!)).toString('utf8')).length, 3)
  })
})

describe('a large statement is made in the background', () => {
  test('202 with a Location; the request reaches COMPLETED with the same figures', async () => {
    const options = statements().options
    const saved = { ...options }
    options.syncLineLimit = 1
    options.pageSize = 2
    try {
      const res = await post(dealerId, { from: DAY2, to: DAY2, format: 'CSV', purpose: 'DEALER_RECEIVABLE' })
      assert.equal(res.statusCode, 202, res.body)
      const queued = json<Request>(res)
      assert.equal(queued.status, 'QUEUED')
      assert.equal(queued.documentId, null)
      const location = String(res.headers.location)
      assert.equal(location, `/api/accountholders/${dealerId}/statementrequests/${queued.id}`)
      await statements().idle()
      const got = await t.app.inject({ method: 'GET', url: location, headers: demo.headers })
      assert.equal(got.statusCode, 200, got.body)
      const done = json<Request>(got)
      assert.equal(done.status, 'COMPLETED', done.failureReason ?? '')
      assert.equal(cents(done.closingBalance), await receivableCents())
      const rows = csvRows((await download(done.downloadUrl!)).toString('utf8'))
      assert.equal(rows.length - 3, done.lineCount)

      const pdfRes = await post(dealerId, { from: DAY1, to: DAY2, format: 'PDF' })
      assert.equal(pdfRes.statusCode, 202, pdfRes.body)
      await statements().idle()
      const pdf = json<Request>(
        await t.app.inject({ method: 'GET', url: String(pdfRes.headers.location), headers: demo.headers }),
      )
      assert.equal(pdf.status, 'COMPLETED', pdf.failureReason ?? '')
      assert.equal((await download(pdf.downloadUrl!)).subarray(0, 5).toString('latin1'), '%PDF-')
    } finally {
      Object.assign(options, saved)
    }
  })

  test('a request left QUEUED by a stopped process reads as FAILED once its heartbeat is stale', async () => {
    const id = await t.db.transaction(demo.tenantId, async (tx) => {
      const row = await tx
        .insertInto('statement_request')
        .values({
          tenant_id: demo.tenantId,
          account_holder_id: dealerId,
          purpose: null,
          from_date: DAY1,
          to_date: DAY2,
          format: 'CSV',
          status: 'RUNNING',
          requested_by: 'test',
          created_at: new Date(`${DAY2}T17:00:00Z`),
          heartbeat_at: new Date(`${DAY2}T17:00:00Z`),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return Number(row.id)
    })
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/accountholders/${dealerId}/statementrequests/${id}`,
      headers: demo.headers,
    })
    assert.equal(got.statusCode, 200, got.body)
    assert.equal(json<Request>(got).status, 'FAILED')
    assert.match(json<Request>(got).failureReason ?? '', /stopped/)
  })
})

describe('refusals', () => {
  test('bad dates are 422 naming the field', async () => {
    for (const [body, fields] of [
      [{ from: '2026-13-01', to: DAY2 }, ['from']],
      [{ from: DAY2, to: DAY1 }, ['to']],
      [{ from: 'yesterday', to: '11/21/2026' }, ['from', 'to']],
    ] as const) {
      const res = await post(dealerId, body)
      assert.equal(res.statusCode, 422, res.body)
      const problem = json<{ code: string; errors: Array<{ field: string }> }>(res)
      assert.equal(problem.code, 'statement_request_invalid')
      assert.deepEqual(
        problem.errors.map((e) => e.field),
        fields,
      )
    }
    assert.equal((await post(dealerId, { from: DAY1, to: DAY2, format: 'XLS' })).statusCode, 400)
  })

  test('another tenant, an unknown holder, an unknown request: 404', async () => {
    const other = await createTenant(t)
    const res = await post(dealerId, { from: DAY1, to: DAY2 }, other.headers)
    assert.equal(res.statusCode, 404, res.body)
    assert.equal(json<{ code: string }>(res).code, 'account_holder_not_found')
    assert.equal((await post(999_999_999, { from: DAY1, to: DAY2 })).statusCode, 404)
    const mine = json<Request>(await post(dealerId, { from: DAY1, to: DAY2, format: 'CSV' }))
    for (const [holder, id, headers] of [
      [dealerId, mine.id, other.headers],
      [otherHolderId, mine.id, demo.headers],
      [dealerId, 999_999_999, demo.headers],
    ] as const) {
      const got = await t.app.inject({
        method: 'GET',
        url: `/api/accountholders/${holder}/statementrequests/${id}`,
        headers,
      })
      assert.equal(got.statusCode, 404, got.body)
    }
    // Its document, by id, is another tenant's: 404.
    const doc = await t.app.inject({ method: 'GET', url: `/api/documents/${mine.documentId}`, headers: other.headers })
    assert.equal(doc.statusCode, 404)
  })

  test("a dealer-side user sees only its account holders' statements", async () => {
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const dealerSide = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([otherHolderId]) } }
    await assert.rejects(
      statements().request(dealerSide, dealerId, { from: DAY1, to: DAY2 }),
      (err: unknown) => err instanceof AppError && err.status === 404 && err.code === 'account_holder_not_found',
    )
    const own = await statements().request(dealerSide, otherHolderId, { from: DAY1, to: DAY2, format: 'CSV' })
    assert.equal(own.request.status, 'COMPLETED')
    const mine = json<Request>(await post(dealerId, { from: DAY1, to: DAY2, format: 'CSV' }))
    await assert.rejects(statements().get(dealerSide, dealerId, mine.id), (err: unknown) => {
      return err instanceof AppError && err.status === 404
    })
  })

  test('audit and event', async () => {
    const r = json<Request>(await post(dealerId, { from: DAY1, to: DAY2, format: 'CSV' }))
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action'])
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'statement_request')
        .where('entity_id', '=', String(r.id))
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.action),
      ['statement.requested'],
    )
    const events = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('event_outbox')
        .select(['payload'])
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'statement.completed')
        .execute(),
    )
    const mine = events
      .map((e) => e.payload as { statementRequestId: number })
      .find((p) => p.statementRequestId === r.id)
    assert.ok(mine, 'statement.completed was appended')
  })
})
