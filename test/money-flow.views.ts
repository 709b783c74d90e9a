// The ledger views and statements (docs/ledgers.md, docs/statements.md) checked through the HTTP API
// against a model's postings, for the model-based money-flow test (test/money-flow.properties.test.ts;
// issue 15 "Done when": statement opening + lines = closing, views as of a date agree with balances).
// The model hands over every posting it made with the accounting date it made it on, so the balance
// of any account as of any day is the sum of its postings up to that day, independently of the journal.
import assert from 'node:assert/strict'
import { json, type TestApp } from './harness.ts'

/** One posting of the model: debit − credit in cents on (holder, purpose, contract; 0 for pooled accounts). */
export type Posting = { date: string; holder: number; purpose: string; contract: number; cents: number }

export type ViewsWorld = {
  t: TestApp
  /** The tenant administrator's headers, current (the clock may have moved since the last sign-in). */
  headers: Record<string, string>
  dealerId: number
  adminId: number
  postings: readonly Posting[]
  /** Today's accounting date (the model's: nothing posts later). */
  today: string
}

const DAY_MS = 86_400_000
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
/** Exact cents of an amount of at most 2 decimals (never -0). */
const cents = (n: number) => Math.round(n * 100) + 0
const sorted = <V>(m: Map<string, V>) => new Map([...m].toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** Adds v to m[k], keeping only non-zero entries. */
function add(m: Map<string, number>, k: string, v: number) {
  const n = (m.get(k) ?? 0) + v
  if (n === 0) m.delete(k)
  else m.set(k, n)
}

/** The model's balances as of `asOf` (postings dated on or before it), keyed by `by`; zeros dropped. */
function balancesAsOf(w: ViewsWorld, asOf: string, by: (p: Posting) => string | null): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of w.postings) {
    if (p.date > asOf) continue
    const k = by(p)
    if (k !== null) add(out, k, p.cents)
  }
  return out
}

const holderTotal = (w: ViewsWorld, holder: number, asOf: string) =>
  balancesAsOf(w, asOf, (p) => (p.holder === holder ? 'all' : null)).get('all') ?? 0

/** The dealer's open items as of asOf: contract → open cents (> 0) and the first posting's date. */
function openItems(w: ViewsWorld, asOf: string) {
  const open = balancesAsOf(w, asOf, (p) =>
    p.holder === w.dealerId && p.purpose === 'DEALER_RECEIVABLE' ? String(p.contract) : null,
  )
  const first = new Map<number, string>()
  for (const p of w.postings)
    if (p.holder === w.dealerId && p.purpose === 'DEALER_RECEIVABLE' && p.date <= asOf && p.cents !== 0) {
      const was = first.get(p.contract)
      if (was === undefined || p.date < was) first.set(p.contract, p.date)
    }
  return [...open]
    .filter(([, v]) => v > 0)
    .map(([contract, openCents]) => ({
      contractId: Number(contract),
      openCents,
      firstPostedDate: first.get(Number(contract))!,
    }))
    .toSorted((a, b) => a.contractId - b.contractId)
}

const bucketOf = (ageDays: number) =>
  ageDays <= 30 ? '0-30' : ageDays <= 60 ? '31-60' : ageDays <= 90 ? '61-90' : '90+'

async function get<T>(w: ViewsWorld, url: string): Promise<T> {
  const res = await w.t.app.inject({ method: 'GET', url, headers: w.headers })
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return json<T>(res)
}

type Summary = {
  asOf: string
  balances: { accountHolderId: number; purpose: string; debit: number; credit: number; balance: number }[]
  totals: { purpose: string; normalSide: 'DEBIT' | 'CREDIT'; debit: number; credit: number; balance: number }[]
  receivableAging: { bucket: string; amount: number }[]
}
type PayReceive = {
  accountHolderId: number
  asOf: string
  receivable: number
  disbursementPayable: number
  refundPayable: number
  claimPayable: number
  unappliedCash: number
  net: number
}
type Unpaid = {
  dealerId: number
  contractId: number
  firstPostedDate: string
  openAmount: number
  ageDays: number
  agingBucket: string
}
type Page<T> = { items: T[]; totalCount: number; totalPages: number }
type LedgerLine = { effectiveDate: string; purpose: string; contractId: number | null; debit: number; credit: number }
const POOLED = new Set(['CASH', 'UNAPPLIED_CASH'])

/** Every item of a paged view (pages of 1,000). */
async function all<T>(w: ViewsWorld, url: string): Promise<Page<T> & { pages: Page<T>[] }> {
  const pages: Page<T>[] = []
  for (let n = 1; ; n++) {
    const p = await get<Page<T>>(w, `${url}&pageSize=1000&pageNumber=${n}`)
    pages.push(p)
    if (n >= p.totalPages) break
  }
  const items = pages.flatMap((p) => p.items)
  assert.equal(items.length, pages[0]!.totalCount, `${url}: totalCount`)
  return { ...pages[0]!, items, pages }
}

/**
 * The ledger summary as of `asOf` (of every holder, or of `holder` alone) against the model: debit −
 * credit per holder and purpose, each balance on its purpose's normal side, the totals per purpose,
 * the receivable aging of the dealer's open items.
 */
async function checkSummary(w: ViewsWorld, asOf: string, holder: number | null): Promise<void> {
  const what = (view: string) => `${view}${holder === null ? '' : ` of ${holder}`} as of ${asOf}`
  // The summary: debit − credit per holder and purpose, each on its normal side; totals; aging.
  const s = await get<Summary>(
    w,
    `/api/ledgerSummary?asOf=${asOf}${holder === null ? '' : `&accountHolderId=${holder}`}`,
  )
  assert.equal(s.asOf, asOf)
  const side = new Map(s.totals.map((x) => [x.purpose, x.normalSide]))
  const mine = (p: Posting) => holder === null || p.holder === holder
  const real = new Map<string, number>()
  for (const b of s.balances) {
    const net = cents(b.debit) - cents(b.credit)
    assert.equal(cents(b.balance), side.get(b.purpose) === 'DEBIT' ? net : 0 - net, what(`summary balance side`))
    add(real, `${b.accountHolderId}|${b.purpose}`, net)
  }
  assert.deepEqual(
    sorted(real),
    sorted(balancesAsOf(w, asOf, (p) => (mine(p) ? `${p.holder}|${p.purpose}` : null))),
    what('summary balances = model'),
  )
  for (const x of s.totals) {
    const rows = s.balances.filter((b) => b.purpose === x.purpose)
    assert.equal(
      cents(x.debit),
      rows.reduce((n, b) => n + cents(b.debit), 0),
      what(`${x.purpose} total debit`),
    )
    assert.equal(
      cents(x.credit),
      rows.reduce((n, b) => n + cents(b.credit), 0),
      what(`${x.purpose} total credit`),
    )
    const net = cents(x.debit) - cents(x.credit)
    assert.equal(cents(x.balance), x.normalSide === 'DEBIT' ? net : 0 - net, what(`${x.purpose} total balance`))
  }
  const open = openItems(w, asOf)
  const aging = new Map(['0-30', '31-60', '61-90', '90+'].map((b) => [b, 0]))
  for (const o of open) {
    const bucket = bucketOf(daysBetween(o.firstPostedDate, asOf))
    aging.set(bucket, aging.get(bucket)! + o.openCents)
  }
  assert.deepEqual(
    s.receivableAging.map((a) => [a.bucket, cents(a.amount)]),
    [...aging],
    what('summary receivable aging'),
  )
}

/**
 * The views as of `asOf` against the model's balances as of that day: the ledger summary, the
 * pay/receive ledgers, the dealer's unpaid products and, with `full`, the summary of the dealer alone
 * and the unpaid products of every dealer (other queries), and the journal lines (`/api/ledgers`,
 * which read the lines whatever the day) of the dealer and the administrator up to asOf (per account
 * and contract) and from asOf (opening balance + lines = today's balance).
 */
export async function checkViewsAsOf(w: ViewsWorld, asOf: string, { full = false } = {}): Promise<void> {
  const what = (view: string) => `${view} as of ${asOf}`
  await checkSummary(w, asOf, null)
  if (full) await checkSummary(w, asOf, w.dealerId)
  const open = openItems(w, asOf)

  // Pay/receive: per holder, the receivable and the payables and unapplied cash on their credit side.
  const pr = await all<PayReceive>(w, `/api/ledgers/payReceiveLedgers?asOf=${asOf}`)
  const nets = (of: (purpose: string) => number) => {
    const receivable = of('DEALER_RECEIVABLE')
    const payables = [0 - of('DISBURSEMENT_PAYABLE'), 0 - of('REFUND_PAYABLE'), 0 - of('CLAIM_PAYABLE')]
    const unapplied = 0 - of('UNAPPLIED_CASH')
    return [receivable, ...payables, unapplied, receivable - payables.reduce((a, b) => a + b, 0) - unapplied]
  }
  const byHolder = balancesAsOf(w, asOf, (p) => `${p.holder}|${p.purpose}`)
  const holders = new Set(w.postings.filter((p) => p.date <= asOf).map((p) => p.holder))
  const modelPr = new Map(
    [...holders].map((h) => [String(h), nets((purpose) => byHolder.get(`${h}|${purpose}`) ?? 0)] as const),
  )
  const realPr = new Map(
    pr.items.map((i) => {
      assert.equal(i.asOf, asOf)
      const figures = [i.receivable, i.disbursementPayable, i.refundPayable, i.claimPayable, i.unappliedCash, i.net]
      return [String(i.accountHolderId), figures.map(cents)] as const
    }),
  )
  const nonZero = (m: Map<string, number[]>) => sorted(new Map([...m].filter(([, v]) => v.some((x) => x !== 0))))
  assert.deepEqual(nonZero(realPr), nonZero(modelPr), what('pay/receive ledgers = model'))

  // The dealer's unpaid products (the only dealer with postings): its open items, their first posting and age.
  const expected = open.map((o) => {
    const age = daysBetween(o.firstPostedDate, asOf)
    return { ...o, age: [w.dealerId, age, bucketOf(age)] }
  })
  for (const dealer of full ? [`dealerId=${w.dealerId}&`, ''] : [`dealerId=${w.dealerId}&`]) {
    const unpaid = await all<Unpaid>(w, `/api/ledgers/unpaidLedgersProducts?${dealer}asOf=${asOf}`)
    assert.deepEqual(
      unpaid.items
        .map((i) => ({
          contractId: i.contractId,
          openCents: cents(i.openAmount),
          firstPostedDate: i.firstPostedDate,
          age: [i.dealerId, i.ageDays, i.agingBucket],
        }))
        .toSorted((x, y) => x.contractId - y.contractId),
      expected,
      what(`unpaid products${dealer ? ' of the dealer' : ''} = model open items`),
    )
  }

  // The journal lines of the dealer and the administrator.
  if (full)
    for (const holder of [w.dealerId, w.adminId]) {
      const upTo = await all<LedgerLine>(w, `/api/ledgers?accountHolderId=${holder}&to=${asOf}`)
      const perAccount = new Map<string, number>()
      for (const l of upTo.items) {
        assert.ok(l.effectiveDate <= asOf, what(`ledger line of ${holder} dated ${l.effectiveDate}`))
        add(
          perAccount,
          `${l.purpose}|${POOLED.has(l.purpose) ? 0 : (l.contractId ?? 0)}`,
          cents(l.debit) - cents(l.credit),
        )
      }
      assert.deepEqual(
        sorted(perAccount),
        sorted(balancesAsOf(w, asOf, (p) => (p.holder === holder ? `${p.purpose}|${p.contract}` : null))),
        what(`ledger lines of ${holder} up to the day = model`),
      )
      const from = await all<LedgerLine>(w, `/api/ledgers?accountHolderId=${holder}&from=${asOf}`)
      let balance = cents((from as unknown as { openingBalance: number }).openingBalance)
      assert.equal(balance, holderTotal(w, holder, addDays(asOf, -1)), what(`ledger opening balance of ${holder}`))
      for (const l of from.items) {
        assert.ok(l.effectiveDate >= asOf, what(`ledger line of ${holder} dated ${l.effectiveDate}`))
        balance += cents(l.debit) - cents(l.credit)
      }
      assert.equal(balance, holderTotal(w, holder, w.today), what(`ledger opening + lines of ${holder} = today's`))
    }
}

type StatementRequest = {
  status: string
  openingBalance: number
  closingBalance: number
  lineCount: number
  downloadUrl: string
}

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields may hold both (quotes doubled). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let atStart = true
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch !== '"') field += ch
      else if (text[i + 1] === '"') {
        field += '"'
        i++
      } else {
        quoted = false
        assert.ok([',', '\r', undefined].includes(text[i + 1]), `a closing quote ends its field (at ${i})`)
      }
    } else if (ch === '"') {
      assert.ok(atStart, `a quote opens a field only at its start (at ${i})`)
      quoted = true
    } else if (ch === ',') {
      row.push(field)
      field = ''
      atStart = true
      continue
    } else if (ch === '\r') {
      assert.equal(text[i + 1], '\n', `CR only before LF (at ${i})`)
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
      atStart = true
      continue
    } else {
      assert.notEqual(ch, '\n', `no bare LF (at ${i})`)
      field += ch
    }
    atStart = false
  }
  assert.ok(!quoted && row.length === 0 && field === '', 'the last record ends with CRLF')
  return rows
}

/** An amount of the CSV: 2 decimals, `-` for negatives; exact cents. */
function amountCents(text: string | undefined, what: string): number {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(text ?? '')
  assert.ok(m, `${what}: an amount with 2 decimals, got ${JSON.stringify(text)}`)
  const v = Number(m[2]) * 100 + Number(m[3])
  return m[1] ? -v : v
}

/**
 * A CSV statement of `holder` (every account, or `purpose`'s) over from..to: 201, opening = the
 * model's balance the day before `from`, closing = its balance at `to`, and the downloaded file
 * (parsed as RFC 4180) holds the same opening and closing rows, `lineCount` lines dated in the
 * period whose running balances go from the one to the other.
 */
export async function checkStatement(
  w: ViewsWorld,
  holder: number,
  from: string,
  to: string,
  purpose?: string,
): Promise<void> {
  const what = (x: string) => `statement of ${holder}${purpose ? ` (${purpose})` : ''} ${from}..${to}: ${x}`
  const res = await w.t.app.inject({
    method: 'POST',
    url: `/api/accountholders/${holder}/statementrequests`,
    headers: w.headers,
    payload: { from, to, format: 'CSV', ...(purpose ? { purpose } : {}) },
  })
  assert.equal(res.statusCode, 201, what(res.body))
  const r = json<StatementRequest>(res)
  assert.equal(r.status, 'COMPLETED')
  const model = (asOf: string) =>
    balancesAsOf(w, asOf, (p) => (p.holder === holder && (!purpose || p.purpose === purpose) ? 'all' : null)).get(
      'all',
    ) ?? 0
  assert.equal(cents(r.openingBalance), model(addDays(from, -1)), what('opening = model the day before'))
  assert.equal(cents(r.closingBalance), model(to), what('closing = model at the end'))

  const file = await w.t.app.inject({ method: 'GET', url: r.downloadUrl })
  assert.equal(file.statusCode, 200, what(file.body))
  const rows = parseCsv(file.body)
  const header = rows[0]!
  const col = (name: string) => {
    const i = header.indexOf(name)
    assert.ok(i >= 0, what(`column ${name}`))
    return i
  }
  const [date, kind, debit, credit, balance] = ['date', 'kind', 'debit', 'credit', 'balance'].map(col) as [
    number,
    number,
    number,
    number,
    number,
  ]
  assert.ok(
    rows.every((x) => x.length === header.length),
    what('every row has every column'),
  )
  const opening = rows[1]!
  const closing = rows.at(-1)!
  assert.deepEqual([opening[date], opening[kind]], [from, 'OPENING_BALANCE'], what('opening row'))
  assert.deepEqual([closing[date], closing[kind]], [to, 'CLOSING_BALANCE'], what('closing row'))
  assert.equal(amountCents(opening[balance], what('opening')), cents(r.openingBalance), what('opening row balance'))
  assert.equal(amountCents(closing[balance], what('closing')), cents(r.closingBalance), what('closing row balance'))
  const lines = rows.slice(2, -1)
  assert.equal(lines.length, r.lineCount, what('lineCount'))
  let running = cents(r.openingBalance)
  for (const [n, l] of lines.entries()) {
    assert.ok(l[date]! >= from && l[date]! <= to, what(`line ${n} dated ${l[date]} in the period`))
    const d = amountCents(l[debit], what(`line ${n} debit`))
    const c = amountCents(l[credit], what(`line ${n} credit`))
    assert.ok(d >= 0 && c >= 0, what(`line ${n}: debit and credit not negative`))
    running += d - c
    assert.equal(amountCents(l[balance], what(`line ${n} balance`)), running, what(`line ${n} running balance`))
  }
  assert.equal(running, cents(r.closingBalance), what('opening + lines = closing'))
}
