// The console's finance screens end to end (docs/console.md "Cash and ledgers", "Process runs",
// "Webhooks"), in the world of test/console-world.ts: cash received from a demo dealer and applied
// to its unpaid items (the ledger balance shown after equal to the API's), an API field error shown
// at its field once, a statement downloaded (the CSV's closing balance equal to the API's ledger, the
// PDF a PDF), the payment returned (NSF), the ledgers, unpaid items and payout runs, the process runs
// (a run started and followed to its end), a webhook subscription created. Each step is checked with
// axe-core and photographed into artifacts/console/finance-NN-*.png.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import {
  accessible,
  call,
  type Demo,
  shot,
  signInAsAdmin,
  skip,
  startConsoleWorld,
  tokenOf,
  world,
  usd,
} from './console-world.ts'

let page: Page
let demo: Demo
let token = ''
const unique = Date.now().toString(36)

type Unpaid = { dealerId: number; contractId: number; contractNumber: string; openAmount: number }
type Summary = { totals: Array<{ purpose: string; balance: number }> }

/** The API's problem for a request it refuses (the figures the screen must show). */
async function problemOf(method: string, url: string, body: unknown) {
  const res = await fetch(world.base + url, {
    method,
    headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  assert.ok(!res.ok, `${method} ${url} was accepted`)
  return (await res.json()) as { errors: Array<{ field: string; message: string }> }
}

/** The API's X-Total-Count of a list. */
async function totalOf(url: string) {
  const res = await fetch(world.base + url, { headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${token}` } })
  assert.ok(res.ok, `${url}: ${res.status}`)
  return Number(res.headers.get('x-total-count'))
}

const receivable = async (holderId: number) =>
  (
    await call<Summary>('GET', `/api/ledgerSummary?accountHolderId=${holderId}&purpose=DEALER_RECEIVABLE`, token)
  ).totals.find((t) => t.purpose === 'DEALER_RECEIVABLE')?.balance ?? 0

const text = async (testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim()

let dealerId = 0
let receiptId = 0

describe('the console: cash, ledgers, statements, process runs, webhooks', { skip }, () => {
  before(async () => {
    await startConsoleWorld('finance')
    ;({ page, demo } = world)
    await signInAsAdmin()
    token = await tokenOf(demo.adminEmail, demo.adminPassword)
  })

  test("cash from a demo dealer applied to its unpaid items: a field error at its field, the ledger balance the API's", async () => {
    // A demo dealer with at least two open items (the API's oldest first).
    const unpaid = await call<{ items: Unpaid[] }>('GET', '/api/ledgers/unpaidLedgersProducts?pageSize=1000', token)
    const byDealer = Map.groupBy(unpaid.items, (i) => i.dealerId)
    const [id, items] = [...byDealer].find(([, list]) => list.length >= 2)!
    dealerId = id
    const [first, second] = items
    const cents = Math.round(first!.openAmount * 100) + Math.round(second!.openAmount * 100)
    const amount = (cents / 100).toFixed(2)

    await page.getByRole('link', { name: 'Cash', exact: true }).click()
    await page.getByRole('heading', { name: 'Cash', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Receive cash' }).click()
    await page.getByRole('heading', { name: 'Receive cash', level: 1 }).waitFor()
    await page.waitForFunction(
      `[...document.querySelectorAll('select[name="payerId"] option')].some((o) => o.value === '${dealerId}')`,
      undefined,
      { timeout: 60_000 },
    )
    await page.getByLabel('Payer', { exact: true }).selectOption(String(dealerId))
    await page.getByLabel('Reference (check number, trace id)').fill(`CHK-${unique}`)

    // An amount of 0: the API's message under the Amount field, once on the page.
    // (Sent from the keyboard: Enter in the field submits the form.)
    await page.getByLabel('Amount', { exact: true }).fill('0')
    await page.getByLabel('Amount', { exact: true }).press('Enter')
    await page.waitForFunction(
      `document.querySelector('input[name="amount"]')?.getAttribute('aria-invalid') === 'true'`,
    )
    const refused = await problemOf('POST', '/api/cashtransactions', {
      payerId: dealerId,
      paymentMethod: 'CHECK',
      amount: '0',
      reference: `CHK-${unique}`,
      receivedDate: new Date().toISOString().slice(0, 10),
    })
    const message = refused.errors.find((e) => e.field === 'amount')!.message
    const describedBy = await page.getByLabel('Amount', { exact: true }).getAttribute('aria-describedby')
    assert.ok(describedBy, 'the amount field names its error')
    assert.equal(
      (await page.locator(`[id="${describedBy!.split(' ').find((d) => d.endsWith('-error'))}"]`).textContent())?.trim(),
      message,
    )
    assert.equal(await page.getByText(message, { exact: true }).count(), 1, 'the error is shown once')
    await accessible('receive cash with a field error')
    await shot('cash-field-error')

    // The amount of the two oldest items, applied to them.
    await page.getByLabel('Amount', { exact: true }).fill(amount)
    await page.getByLabel('the items chosen below').check()
    await page.getByRole('checkbox', { name: `Apply to ${first!.contractNumber}` }).check()
    await page.getByRole('checkbox', { name: `Apply to ${second!.contractNumber}` }).check()
    assert.equal(await text('chosen-total'), usd.format(cents / 100))
    await accessible('receive cash, items chosen')
    await shot('cash-receive')
    await page.getByRole('button', { name: 'Receive', exact: true }).click()
    await page.waitForURL(/\/console\/cash\/\d+/, { timeout: 60_000 })
    receiptId = Number(/\/cash\/(\d+)/.exec(page.url())![1])
    await page.locator('[data-testid="cash-page"][data-ready="true"]').waitFor({ timeout: 60_000 })

    const receipt = await call<{ appliedAmount: number; unappliedAmount: number; applications: unknown[] }>(
      'GET',
      `/api/cashtransactions/${receiptId}`,
      token,
    )
    assert.equal(receipt.appliedAmount, cents / 100)
    assert.equal(receipt.applications.length, 2)
    assert.equal(await text('cash-applied'), usd.format(receipt.appliedAmount))
    assert.equal(await text('cash-unapplied'), usd.format(0))
    const balance = await receivable(dealerId)
    assert.equal(await text('payer-receivable'), usd.format(balance))
    await accessible('a receipt')
    await shot('cash-receipt')

    // The dealer's ledger: its receivable the API's.
    await page.getByRole('link', { name: "The payer's ledger" }).click()
    await page.locator('[data-testid="holder-ledger"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const row = page.getByTestId('balance-DEALER_RECEIVABLE')
    assert.equal(((await row.getByRole('cell').last().textContent()) ?? '').trim(), usd.format(balance))
    // The two applications are the last lines of the receivable, its running balance the balance.
    await page.getByLabel('Account', { exact: true }).selectOption('DEALER_RECEIVABLE')
    await page.getByRole('button', { name: 'Show' }).click()
    await page.waitForURL(/purpose=DEALER_RECEIVABLE/)
    await page.locator('[data-testid="holder-ledger"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const lines = await call<{ totalCount: number }>(
      'GET',
      `/api/ledgers?accountHolderId=${dealerId}&purpose=DEALER_RECEIVABLE&pageSize=1`,
      token,
    )
    const lastPage = Math.max(1, Math.ceil(lines.totalCount / 25))
    if (lastPage > 1) {
      await page.getByRole('button', { name: `Page ${lastPage}` }).click()
      await page.waitForURL(new RegExp(`page=${lastPage}`))
      await page.locator('[data-testid="holder-ledger"][data-ready="true"]').waitFor({ timeout: 60_000 })
    }
    const lastBalance = await page.getByTestId('ledger-lines').locator('tbody tr').last().getByRole('cell').last()
    assert.equal(((await lastBalance.textContent()) ?? '').trim(), usd.format(balance))
    await accessible("a dealer's ledger")
    await shot('holder-ledger')
  })

  test("a statement downloaded: the CSV's closing balance the API's, the PDF a PDF", async () => {
    await page.goto(`${world.base}/console/ledgers/${dealerId}`)
    await page.locator('[data-testid="holder-ledger"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const balance = await receivable(dealerId)
    await page.getByLabel('Statement from').fill('2025-01-01')
    await page.getByLabel('Format').selectOption('CSV')
    await page.getByLabel('Accounts').selectOption('DEALER_RECEIVABLE')
    await page.getByRole('button', { name: 'Make statement' }).click()
    await page.locator('[data-testid="statement"][data-status="COMPLETED"]').waitFor({ timeout: 120_000 })
    assert.equal(await text('statement-closing'), usd.format(balance))
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the CSV statement' }).click(),
    ])
    const content = fs.readFileSync((await csv.path())!, 'utf8')
    const closing = content.trim().split(/\r?\n/).at(-1)!.split(',')
    assert.equal(closing[1], 'CLOSING_BALANCE')
    assert.equal(closing.at(-1), balance.toFixed(2))
    await accessible('a statement made')
    await shot('statement-csv')

    await page.getByLabel('Format').selectOption('PDF')
    await page.getByRole('button', { name: 'Make statement' }).click()
    await page.getByRole('link', { name: 'Download the PDF statement' }).waitFor({ timeout: 120_000 })
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the PDF statement' }).click(),
    ])
    assert.equal(
      fs
        .readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    )
  })

  test('the payment returned (NSF): the items open again, the balance the API’s', async () => {
    await page.goto(`${world.base}/console/cash/${receiptId}`)
    await page.locator('[data-testid="cash-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const owedBefore = await receivable(dealerId)
    await page.getByRole('button', { name: 'Mark returned (NSF)' }).click()
    await page.locator('[data-testid="cash-status"]', { hasText: 'returned' }).waitFor({ timeout: 60_000 })
    await page.locator('[data-testid="cash-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const after = await receivable(dealerId)
    const receipt = await call<{ amount: number; status: string }>('GET', `/api/cashtransactions/${receiptId}`, token)
    assert.equal(receipt.status, 'RETURNED')
    assert.equal(Math.round(after * 100), Math.round((owedBefore + receipt.amount) * 100))
    await page
      .getByTestId('payer-receivable')
      .filter({ hasText: usd.format(after) })
      .waitFor()
    await accessible('a returned receipt')
    await shot('cash-returned')

    // The payer's receipts, filtered from the list: the API's count, this one returned.
    await page.getByRole('link', { name: 'All cash' }).click()
    await page.getByLabel('Payer id').fill(String(dealerId))
    await page.getByLabel('Payer id').press('Enter')
    await page.waitForURL(new RegExp(`/console/cash\\?payerId=${dealerId}$`))
    const total = await totalOf(`/api/cashtransactions?payerId=${dealerId}&limit=1`)
    await page
      .getByTestId('cash-total')
      .filter({ hasText: `${total.toLocaleString('en-US')} receipt` })
      .waitFor({ timeout: 60_000 })
    await page
      .getByTestId('cash-table')
      .getByRole('row', { name: new RegExp(`^Receipt ${receiptId} returned`) })
      .waitFor()
    await accessible('cash received from a payer')
    await shot('cash-list')
  })

  test('ledgers, unpaid items and payout runs as the API gives them', async () => {
    await page.getByRole('link', { name: 'Ledgers', exact: true }).click()
    await page.getByRole('heading', { name: 'Ledgers', level: 1 }).waitFor()
    const holders = await call<{ totalCount: number }>('GET', '/api/ledgers/payReceiveLedgers?pageSize=1', token)
    await page
      .getByTestId('ledgers-total')
      .filter({ hasText: `${holders.totalCount.toLocaleString('en-US')} account holder` })
      .waitFor({ timeout: 60_000 })
    await page.locator('[data-testid="ledger-aging"]:not([data-loading])').waitFor()
    await accessible('ledgers')
    await shot('ledgers')

    await page.getByRole('link', { name: 'Unpaid items' }).click()
    const open = await call<{ totalCount: number }>('GET', '/api/ledgers/unpaidLedgersProducts?pageSize=1', token)
    await page
      .getByTestId('unpaid-total')
      .filter({ hasText: `${open.totalCount.toLocaleString('en-US')} open item` })
      .waitFor({ timeout: 60_000 })
    await accessible('unpaid items')
    await shot('unpaid-items')

    await page.getByRole('link', { name: 'Payout runs', exact: true }).first().click()
    await page.getByRole('heading', { name: 'Payout runs', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Compute (dry run)' }).click()
    await page.getByTestId('payout-preview').waitFor({ timeout: 60_000 })
    await accessible('payout runs with a dry run')
    await shot('payouts-dry-run')

    // Paid: the run's page with the API's total.
    await page.getByRole('button', { name: 'Pay now' }).click()
    await page.waitForURL(/\/console\/payouts\/\d+$/, { timeout: 120_000 })
    const runId = /payouts\/(\d+)$/.exec(page.url())![1]
    await page.locator('[data-testid="payout-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const run = await call<{ total: number }>('GET', `/api/payoutruns/${runId}`, token)
    const shown = page.getByRole('row', { name: /^Total/ }).getByRole('cell')
    assert.equal(((await shown.textContent()) ?? '').trim(), usd.format(run.total))
    await accessible('a payout run')
    await shot('payout-run')
  })

  test('process runs: the list the API’s, a parameter refused at its field, a run followed to its end', async () => {
    await page.getByRole('link', { name: 'Process runs' }).click()
    await page.getByRole('heading', { name: 'Process runs', level: 1 }).waitFor()
    const runs = await call<{ totalCount: number }>('GET', '/api/automatic-process-runs?pageSize=1', token)
    await page
      .getByTestId('runs-total')
      .filter({ hasText: `${runs.totalCount.toLocaleString('en-US')} run` })
      .waitFor({ timeout: 60_000 })
    await accessible('process runs')
    await shot('process-runs')

    await page.getByLabel('Process', { exact: true }).first().selectOption('MONTHLY_STATEMENTS')
    await page.getByLabel('Month (YYYY-MM)').fill('2099-01')
    await page.getByRole('button', { name: 'Start', exact: true }).click()
    await page.waitForFunction(`document.querySelector('input[name="month"]')?.getAttribute('aria-invalid') === 'true'`)
    await accessible('start a run with a field error')
    await shot('process-run-field-error')

    await page.getByLabel('Process', { exact: true }).first().selectOption('ACTIVATION')
    await page.getByRole('button', { name: 'Start', exact: true }).click()
    await page.waitForURL(/\/console\/processes\/[0-9a-f-]{36}$/, { timeout: 60_000 })
    const guid = /processes\/([0-9a-f-]{36})$/.exec(page.url())![1]!
    await page.locator('[data-testid="process-run"][data-status="SUCCEEDED"]').waitFor({ timeout: 180_000 })
    const run = await call<{ examined: number; status: string }>('GET', `/api/automatic-process-runs/${guid}`, token)
    assert.equal(run.status, 'SUCCEEDED')
    const examined = page
      .getByTestId('run-counts')
      .getByRole('row', { name: /^Examined/ })
      .getByRole('cell')
    assert.equal(((await examined.textContent()) ?? '').trim(), run.examined.toLocaleString('en-US'))
    await accessible('a process run')
    await shot('process-run')
  })

  test('a webhook subscription created, its secret shown once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    const url = `https://hooks.example.com/vpp-${unique}`
    await page.getByLabel('Receiver URL').fill(url)
    await page.getByLabel('Event types (comma-separated, * for all)').fill('contract.finalized, cash.received')
    await page.getByLabel('Description').fill('Console end-to-end test')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await page.getByTestId('webhook-secret').waitFor({ timeout: 60_000 })
    assert.match((await page.getByTestId('webhook-secret').textContent()) ?? '', /whsec_/)
    const subs = await call<{ items: Array<{ id: number; url: string; eventTypes: string[] }> }>(
      'GET',
      '/api/webhooks/subscriptions?pageSize=1000',
      token,
    )
    const created = subs.items.find((s) => s.url === url)
    assert.ok(created, 'the API lists the subscription')
    assert.deepEqual(created.eventTypes.toSorted(), ['cash.received', 'contract.finalized'])
    await page.getByTestId('subscriptions-table').getByRole('cell', { name: url }).waitFor()
    await accessible('webhooks')
    await shot('webhooks')

    await page.getByRole('link', { name: 'Deliveries' }).first().click()
    await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor()
    await page
      .getByTestId('deliveries-total')
      .filter({ hasText: /deliver/ })
      .waitFor()
    await accessible('webhook deliveries')
    await shot('webhook-deliveries')
  })
})
