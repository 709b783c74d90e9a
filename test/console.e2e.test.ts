// The staff console end to end (docs/console.md), in the world of test/console-world.ts: sign-in,
// the dashboard (its render time printed, never asserted: the machine is shared), contracts,
// cancellations, claims and a dealer-side user. Each step is checked with axe-core (no serious or
// critical violation) and photographed into artifacts/console/console-NN-*.png. The other screens
// have their own test/console-*.e2e.test.ts files.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { gzippedScripts } from '../scripts/console-build.ts'
import {
  accessible,
  call,
  createDealerUser,
  type Demo,
  ROOT,
  shot,
  signInByKeyboard,
  skip,
  startConsoleWorld,
  tokenOf,
  world,
  usd,
} from './console-world.ts'

let page: Page
let demo: Demo
let base = ''
let consoleLink = ''

describe('the staff console in a browser', { skip }, () => {
  before(async () => {
    await startConsoleWorld('console')
    ;({ page, demo, base, consoleLink } = world)
  })

  test('the first screen is small: gzipped JavaScript printed', () => {
    const index = fs.readFileSync(path.join(ROOT, 'console', 'dist', 'index.html'), 'utf8')
    const entry = /src="\/console\/(assets\/[^"]+\.js)"/.exec(index)![1]!
    const preloaded = [...index.matchAll(/href="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
    const sizes = gzippedScripts()
    const first = sizes.filter((s) => s.file === entry || preloaded.includes(s.file))
    const total = first.reduce((s, f) => s + f.gzipped, 0)
    console.log(
      `console: first screen ${(total / 1024).toFixed(1)} KiB gzipped JavaScript (${first.map((f) => f.file).join(', ')}); all scripts ${(sizes.reduce((s, f) => s + f.gzipped, 0) / 1024).toFixed(1)} KiB`,
    )
    assert.ok(total > 0)
  })

  test('sign-in by keyboard, a wrong password shown at its field, then the dashboard with the demo data', async () => {
    // The link the service prints fills in the demo tenant's API key and the administrator's email.
    await page.goto(consoleLink)
    await page.waitForURL(/\/console\/signin/)
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor()
    assert.equal(await page.getByLabel('Tenant API key').inputValue(), demo.apiKey)
    await accessible('sign-in')
    await shot('signin')

    await signInByKeyboard(demo.adminEmail, 'not-the-password')
    const passwordError = page.locator('.mantine-PasswordInput-error, [id$="-error"]').first()
    await passwordError.waitFor()
    assert.match((await passwordError.textContent()) ?? '', /\S/)
    await accessible('sign-in with an error')
    await shot('signin-wrong-password')

    const started = performance.now()
    await signInByKeyboard(demo.adminEmail, demo.adminPassword)
    await page.locator('[data-testid="dashboard"][data-ready="true"]').waitFor({ timeout: 120_000 })
    const firstRender = performance.now() - started
    // A fresh load of the dashboard (the scripts cached, as on a second visit).
    const reload = performance.now()
    await page.reload()
    await page.locator('[data-testid="dashboard"][data-ready="true"]').waitFor({ timeout: 120_000 })
    const rendered = performance.now() - reload
    // Where the time went: the page's scripts, then the API calls (the slowest named).
    const timing = await page.evaluate<{
      scripts: number
      api: Array<{ url: string; start: number; ms: number }>
    }>(`(() => {
      const nav = performance.getEntriesByType('navigation')[0]
      const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/'))
        .map((e) => ({ url: new URL(e.name).pathname + new URL(e.name).search, start: Math.round(e.startTime), ms: Math.round(e.duration) }))
      return { scripts: Math.round(nav.domContentLoadedEventEnd), api }
    })()`)
    const slowest = timing.api.toSorted((a, b) => b.ms - a.ms).slice(0, 3)
    console.log(
      `console: on reload, scripts loaded at ${timing.scripts} ms; first API call at ${Math.min(...timing.api.map((a) => a.start))} ms; slowest: ${slowest.map((a) => `${a.url} ${a.ms} ms`).join(', ')}`,
    )
    console.log(
      `console: dashboard rendered with the demo data in ${Math.round(firstRender)} ms after sign-in, ${Math.round(rendered)} ms on reload (load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    )

    // The figures are the API's.
    const token = await tokenOf(demo.adminEmail, demo.adminPassword)
    const open = await call<{ totalCount: number }>('GET', '/api/claims?status=OPEN&pageSize=1', token)
    const claims = page.getByTestId('claims')
    assert.equal(
      (
        await claims
          .getByRole('row', { name: /^Open\b/ })
          .getByRole('cell')
          .last()
          .textContent()
      )?.trim(),
      open.totalCount.toLocaleString('en-US'),
    )
    const summary = await call<{ receivableAging: Array<{ bucket: string; amount: number }> }>(
      'GET',
      '/api/ledgerSummary?purpose=DEALER_RECEIVABLE',
      token,
    )
    const first = summary.receivableAging[0]!
    assert.equal(
      (
        await page
          .getByTestId('aging')
          .getByRole('row', { name: new RegExp(`^${first.bucket} days`) })
          .getByRole('cell')
          .textContent()
      )?.trim(),
      usd.format(first.amount),
    )
    const cancels = await call<{ totalCount: number; items: Array<{ requestNumber: string }> }>(
      'GET',
      '/api/v2/cancelrequests?open=true&pageSize=10',
      token,
    )
    const cancelsPanel = page.getByTestId('cancels')
    if (cancels.totalCount === 0) await cancelsPanel.getByText('No cancel request is waiting.').waitFor()
    else {
      await cancelsPanel
        .getByText(new RegExp(`^${cancels.totalCount.toLocaleString('en-US')} cancel request`))
        .waitFor()
      assert.equal(await cancelsPanel.getByRole('row').count(), cancels.items.length + 1)
    }
    assert.ok((await page.getByTestId('sales').locator('svg .recharts-bar-rectangle').count()) > 0, 'sales chart drawn')
    // Instants are shown in the tenant's zone (the demo tenant's timeZone setting), not the browser's (UTC here).
    await page.getByText('Times in America/Chicago').waitFor()
    // The first Tab stop skips the header and navigation.
    await page.locator('body').focus()
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Skip to content')
    await page.keyboard.press('Enter')
    assert.equal(await page.evaluate<string>('document.activeElement?.id ?? ""'), 'content')
    await accessible('dashboard')
    await shot('dashboard')
  })

  test('contracts: a field error from the API, a search, the contract page with the API figures', async () => {
    await page.getByRole('link', { name: 'Contracts' }).click()
    await page.getByRole('heading', { name: 'Contracts', level: 1 }).waitFor()
    // One letter is too short for the API's customerName: its message is shown under that field.
    await page.getByLabel("Holder's name").fill('A')
    await page.getByRole('button', { name: 'Search' }).click()
    const nameField = page.getByLabel("Holder's name")
    await page.waitForFunction(
      `document.querySelector('input[name="customerName"]')?.getAttribute('aria-invalid') === 'true'`,
    )
    assert.equal(await nameField.getAttribute('aria-invalid'), 'true')
    assert.match(page.url(), /customerName=A/)
    await accessible('contracts with a field error')
    await shot('contracts-field-error')

    const token = await tokenOf(demo.adminEmail, demo.adminPassword)
    const [target] = await call<Array<{ id: number; contractNumber: string; dealerCost: number }>>(
      'GET',
      '/api/contracts?limit=1&offset=3',
      token,
    )
    // A column heading asks the API for its order over the whole search: the first rows are the API's.
    await page.getByLabel("Holder's name").fill('')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('button', { name: 'Dealer cost', exact: true }).click()
    await page.waitForURL(/sort=dealerCost/)
    await page.getByRole('button', { name: 'Dealer cost', exact: true }).click()
    await page.waitForURL(/sort=-dealerCost/)
    const costliest = await call<Array<{ contractNumber: string }>>(
      'GET',
      '/api/contracts?limit=3&sort=-dealerCost',
      token,
    )
    const table = page.getByTestId('contracts-table')
    await table.locator('tbody tr').first().getByRole('link', { name: costliest[0]!.contractNumber }).waitFor()
    assert.equal(await table.getByRole('columnheader', { name: 'Dealer cost' }).getAttribute('aria-sort'), 'descending')
    assert.deepEqual(
      (await table.locator('tbody tr td:first-child').allTextContents()).slice(0, 3),
      costliest.map((c) => c.contractNumber),
    )
    await shot('contracts-sorted')
    await page.getByLabel('Contract number').fill(target!.contractNumber)
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`contractNumber=${encodeURIComponent(target!.contractNumber)}`))
    await page
      .getByTestId('contracts-total')
      .filter({ hasText: /^1 contract$/ })
      .waitFor()
    await accessible('contracts search')
    await shot('contracts-search')

    // A shared link opens the same search.
    const shared = page.url()
    await page.goto(`${base}/console/`)
    await page.goto(shared)
    await page
      .getByTestId('contracts-total')
      .filter({ hasText: /^1 contract$/ })
      .waitFor()

    await page.getByRole('link', { name: target!.contractNumber }).click()
    await page.locator('[data-testid="contract-page"][data-ready="true"]').waitFor()
    assert.match(page.url(), new RegExp(`/console/contracts/${target!.id}$`))
    assert.equal((await page.getByTestId('dealer-cost').textContent())?.trim(), usd.format(target!.dealerCost))
    await page.getByRole('table', { name: 'Status history' }).waitFor()
    await accessible('contract page')
    await shot('contract')
  })

  test('an expired session goes back to sign-in and returns to the page', async () => {
    const here = new URL(page.url()).pathname
    // A token the API refuses, as an expired one is.
    await page.evaluate(`(() => {
      const s = JSON.parse(sessionStorage.getItem('vpp.console.session'))
      sessionStorage.setItem('vpp.console.session', JSON.stringify({ ...s, token: 'expired.token.value' }))
    })()`)
    await page.reload()
    await page.waitForURL(/\/console\/signin\?next=/)
    await page.getByText('Your session has expired').waitFor()
    await shot('session-expired')
    await signInByKeyboard(demo.adminEmail, demo.adminPassword)
    await page.waitForURL((u) => u.pathname === here)
    await page.locator('[data-testid="contract-page"][data-ready="true"]').waitFor()
  })

  test("cancellations: a field error, a quote equal to the API's, the cancel processed then reversed", async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    // The cancel date the form starts with: today in the tenant's zone (the demo tenant's America/Chicago).
    const cancelDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date())
    const active = await call<Array<{ id: number }>>('GET', '/api/contracts?status=ACTIVE&limit=50', admin)
    // A demo contract the API lets us cancel today (no open claim, no lock): its quote is the reference.
    let target: { id: number; saleOdometer: number; body: Record<string, unknown>; net: number } | undefined
    for (const c of active) {
      const contract = await call<{ saleOdometer: number | null }>('GET', `/api/contracts/${c.id}`, admin)
      if (!contract.saleOdometer) continue
      const body = { cancelDate, cancelOdometer: contract.saleOdometer + 1500, cancelReasonCode: 'CUSTOMER_REQUEST' }
      const res = await fetch(`${base}/api/contracts/${c.id}/cancelrequests?quoteOnly=true`, {
        method: 'POST',
        headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (!res.ok) continue
      const quote = (await res.json()) as { calculation: { netCustomerRefund: number } }
      target = { id: c.id, saleOdometer: contract.saleOdometer, body, net: quote.calculation.netCustomerRefund }
      break
    }
    assert.ok(target, 'a demo contract that can be cancelled today')

    await page.goto(`${base}/console/contracts/${target.id}`)
    await page.locator('[data-testid="contract-page"][data-ready="true"]').waitFor()
    await page.locator('[data-testid="cancellations"][data-ready="true"]').waitFor()
    const reason = page.getByLabel('Reason', { exact: true })
    await page.waitForFunction(
      `[...document.querySelectorAll('select[name="cancelReasonCode"] option')].some((o) => o.value === 'CUSTOMER_REQUEST')`,
    )
    await reason.selectOption('CUSTOMER_REQUEST')
    // An odometer below the sale odometer: the API's message under the odometer field.
    await page.getByLabel('Odometer').fill('1')
    await page.getByRole('button', { name: 'Quote' }).click()
    await page.waitForFunction(
      `document.querySelector('input[name="cancelOdometer"]')?.getAttribute('aria-invalid') === 'true'`,
    )
    await accessible('cancel quote with a field error')
    await shot('cancel-field-error')

    await page.getByLabel('Odometer').fill(String(target.saleOdometer + 1500))
    assert.equal(await page.getByLabel('Cancel date').inputValue(), cancelDate)
    // By keyboard: the Quote button is the form's submit.
    await page.getByLabel('Odometer').press('Enter')
    const figures = page.getByTestId('refund-figures')
    await figures.getByText(/^Quote: a cancel on/).waitFor()
    assert.equal((await figures.getByTestId('net-refund').textContent())?.trim(), usd.format(target.net))
    await accessible('cancel quote')
    await shot('cancel-quote')

    // A request, stored with the API's number, then rejected with a reason.
    await page.getByRole('button', { name: 'Request cancel' }).click()
    const stored = page.getByRole('status').filter({ hasText: /^Cancel request \S+ stored\.$/ })
    await stored.waitFor()
    const requestNumber = /^Cancel request (\S+) stored\.$/.exec((await stored.textContent()) ?? '')![1]!
    const requestRow = page
      .getByRole('table', { name: 'Cancel requests' })
      .getByRole('row', { name: new RegExp(`^${requestNumber} `) })
    await requestRow.getByText('REQUESTED').waitFor()
    assert.equal(
      (await requestRow.getByRole('cell').nth(5).textContent())?.trim(),
      usd.format(target.net),
      "the request's net refund",
    )
    await requestRow.getByRole('button', { name: 'Reject' }).click()
    await requestRow.getByLabel('Reject: reason').fill('Customer changed their mind')
    await requestRow.getByRole('button', { name: 'Reject request' }).click()
    await requestRow.getByText('REJECTED').waitFor()

    // A reason that needs documents: the request waits for them; one attached and submitted from the
    // row moves it to REQUESTED, as the API says; then it is withdrawn.
    await reason.selectOption('TRADE_IN')
    await page.getByRole('button', { name: 'Request cancel' }).click()
    const pending = page.getByRole('status').filter({ hasText: /^Cancel request \S+ stored\.$/ })
    await pending.filter({ hasNotText: requestNumber }).waitFor()
    const pendingNumber = /^Cancel request (\S+) stored\.$/.exec((await pending.textContent()) ?? '')![1]!
    const pendingRow = page
      .getByRole('table', { name: 'Cancel requests' })
      .getByRole('row', { name: new RegExp(`^${pendingNumber} `) })
    await pendingRow.getByText('PENDING_DOCUMENTS').waitFor()
    const needed = (
      await call<Array<{ code: string; requiresDocuments: string[] }>>('GET', '/api/cancelreasons?limit=200', admin)
    ).find((r) => r.code === 'TRADE_IN')!.requiresDocuments
    assert.ok(needed.length > 0, 'TRADE_IN needs documents')
    await pendingRow.getByText(`Missing: ${needed.join(', ')}`).waitFor()
    for (const type of needed) {
      await pendingRow.getByRole('button', { name: 'Add document' }).click()
      await pendingRow.getByLabel('Document type').selectOption(type)
      await pendingRow.locator('input[type="file"]').setInputFiles({
        name: `${type.toLowerCase()}.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from(`${type}: console end-to-end test`),
      })
      await accessible('a document chosen for a cancel request')
      await pendingRow.getByRole('button', { name: 'Attach and submit' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `attached as ${type}` })
        .waitFor()
    }
    await pendingRow.getByText('REQUESTED', { exact: true }).waitFor()
    const submitted = await call<{ status: string; documents: Array<{ type: string }> }>(
      'GET',
      `/api/v2/cancelrequests/${pendingNumber}`,
      admin,
    )
    assert.equal(submitted.status, 'REQUESTED')
    assert.deepEqual(submitted.documents.map((d) => d.type).toSorted(), needed.toSorted())
    await shot('cancel-request-documents')
    await pendingRow.getByRole('button', { name: 'Withdraw' }).click()
    await pendingRow.getByText('WITHDRAWN').waitFor()
    await reason.selectOption('CUSTOMER_REQUEST')

    await page.getByRole('button', { name: 'Process cancel now' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /processed: the contract is cancelled/ })
      .waitFor()
    await page.getByTestId('contract-status').filter({ hasText: 'CANCELLED' }).waitFor()
    const cancels = await call<
      Array<{ cancelNumber: string; status: string; calculation: { netCustomerRefund: number } }>
    >('GET', `/api/contracts/${target.id}/cancels`, admin)
    // The contract's one cancel in force (a rerun on a kept data directory finds earlier, reversed ones).
    const cancel = cancels.find((c) => c.status === 'PROCESSED')
    assert.ok(cancel, 'the API lists the cancel')
    assert.equal(cancel.calculation.netCustomerRefund, target.net)
    await page.getByTestId(`cancel-net-${cancel.cancelNumber}`).waitFor()
    assert.equal(
      (await page.getByTestId(`cancel-net-${cancel.cancelNumber}`).textContent())?.trim(),
      usd.format(cancel.calculation.netCustomerRefund),
    )
    assert.equal((await figures.getByTestId('net-refund').textContent())?.trim(), usd.format(target.net))
    await accessible('cancel processed')
    await shot('cancel-processed')

    await page.getByRole('button', { name: 'Reverse', exact: true }).click()
    await page.getByLabel('Reverse: reason').fill('Entered in error (console end-to-end test)')
    await page.getByRole('button', { name: 'Reverse cancel' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /reversed: the contract is reinstated/ })
      .waitFor()
    await page
      .getByRole('table', { name: 'Cancels' })
      .getByRole('row', { name: new RegExp(`^${cancel.cancelNumber} REVERSED`) })
      .waitFor()
    await page.getByTestId('contract-status').filter({ hasNotText: 'CANCELLED' }).waitFor()
    await accessible('cancel reversed')
    await shot('cancel-reversed')
  })

  test("claims: the queue filtered as the API's, a field error, a claim authorized and its payment requested", async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    await page.getByRole('link', { name: 'Claims', exact: true }).click()
    await page.getByRole('heading', { name: 'Claims', level: 1 }).waitFor()
    const all = await call<{ totalCount: number }>('GET', '/api/claims?pageSize=1', admin)
    await page
      .getByTestId('claims-total')
      .filter({ hasText: new RegExp(`^${all.totalCount.toLocaleString('en-US')} claims?$`) })
      .waitFor()

    // A dealer id that is not a number: the API's message under the field.
    await page.getByLabel('Dealer id').fill('abc')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForFunction(
      `document.querySelector('input[name="dealerId"]')?.getAttribute('aria-invalid') === 'true'`,
    )
    await accessible('claims with a field error')
    await shot('claims-field-error')

    // A claim to decide: the demo's claims are all past authorization, so one is taken through the
    // API like the demo's own (its contract, repair facility and three Cs), dated today.
    const lossDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date())
    const seeded = await call<{ items: Array<{ id: number }> }>('GET', '/api/claims?pageSize=50', admin)
    let first: { id: number; claimNumber: string } | undefined
    for (const { id } of seeded.items) {
      const model = await call<{
        contractId: number
        odometer: number | null
        repairFacility: { accountHolderId: number }
        jobs: Array<{
          complaint: { id: number }
          cause: { id: number } | null
          correction: { id: number } | null
          coverageComponentCode: string | null
        }>
      }>('GET', `/api/claims/${id}`, admin)
      const job = model.jobs[0]
      if (!job) continue
      const res = await fetch(`${base}/api/claims`, {
        method: 'POST',
        headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          contractId: model.contractId,
          lossDate,
          odometer: (model.odometer ?? 0) + 500,
          repairFacilityId: model.repairFacility.accountHolderId,
          repairOrderNumber: 'RO-CONSOLE-1',
          taxRate: 0,
          jobs: [
            {
              complaintId: job.complaint.id,
              causeId: job.cause?.id ?? null,
              correctionId: job.correction?.id ?? null,
              coverageComponentCode: job.coverageComponentCode,
              parts: [{ partNumber: 'P-2', description: 'Thermostat', quantity: 1, unitPrice: 84.5, taxable: false }],
              labor: [{ operationCode: 'TS', hours: 1.5, rate: 100 }],
              sublet: [],
            },
          ],
        }),
      })
      if (res.ok) {
        first = (await res.json()) as { id: number; claimNumber: string }
        break
      }
    }
    assert.ok(first, 'a claim taken on a demo contract')

    await page.getByLabel('Dealer id').fill('')
    await page.getByLabel('Status').selectOption('OPEN')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(/\/console\/claims\?status=OPEN$/)
    const open = await call<{ totalCount: number }>('GET', '/api/claims?status=OPEN&pageSize=1', admin)
    assert.ok(open.totalCount > 0)
    await page
      .getByTestId('claims-total')
      .filter({ hasText: new RegExp(`^${open.totalCount.toLocaleString('en-US')} claims?$`) })
      .waitFor()
    await accessible('claims queue')
    await shot('claims-queue')

    // A shared link opens the same queue.
    const shared = page.url()
    await page.goto(`${base}/console/`)
    await page.goto(shared)
    await page
      .getByTestId('claims-total')
      .filter({ hasText: new RegExp(`^${open.totalCount.toLocaleString('en-US')} claims?$`) })
      .waitFor()

    await page.getByRole('link', { name: first.claimNumber }).click()
    await page.locator('[data-testid="claim-page"][data-ready="true"]').waitFor()
    await page.locator('[data-testid="claim-notes"]:not([data-loading])').getByLabel('New note').waitFor()
    const claim = await call<{ totals: { requested: number } }>('GET', `/api/claims/${first.id}`, admin)
    assert.equal((await page.getByTestId('claim-requested').textContent())?.trim(), usd.format(claim.totals.requested))
    await accessible('claim page')
    await shot('claim')

    await page.getByRole('button', { name: 'Authorize the jobs as requested' }).click()
    await page.getByTestId('claim-status').filter({ hasText: 'authorized' }).waitFor()
    const authorized = await call<{ status: string; totals: { payable: number } }>(
      'GET',
      `/api/claims/${first.id}`,
      admin,
    )
    assert.equal(authorized.status, 'AUTHORIZED')
    assert.equal((await page.getByTestId('claim-payable').textContent())?.trim(), usd.format(authorized.totals.payable))

    await page.getByLabel('Invoice number').fill('INV-CONSOLE-1')
    await page.getByLabel('Invoiced total').fill(authorized.totals.payable.toFixed(2))
    await page.getByRole('button', { name: 'Request payment' }).click()
    await page.getByTestId('claim-status').filter({ hasText: 'pending payment' }).waitFor()
    const requested = await call<{ paymentRequests: Array<{ amount: number }> }>(
      'GET',
      `/api/claims/${first.id}`,
      admin,
    )
    assert.equal(requested.paymentRequests.length, 1)
    await page
      .getByRole('table', { name: 'Payment requests' })
      .getByRole('cell', { name: usd.format(requested.paymentRequests[0]!.amount) })
      .first()
      .waitFor()

    await page.getByLabel('New note').fill('Authorized and invoiced from the console.')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Authorized and invoiced from the console.', { exact: true }).waitFor()
    await accessible('claim authorized, payment requested')
    await shot('claim-payment-requested')
  })

  test("a dealer-side user sees its dealer's contracts only, and not another dealer's contract", async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    const all = await call<Array<{ id: number; dealerId: number; contractNumber: string }>>(
      'GET',
      '/api/contracts?limit=1000',
      admin,
    )
    const dealers = [...new Set(all.map((c) => c.dealerId))]
    assert.ok(dealers.length >= 2, 'the demo book sells through two dealers or more')
    const [mine, theirs] = dealers as [number, number]
    const other = all.find((c) => c.dealerId === theirs)!
    const { email, password, token: dealerToken } = await createDealerUser(admin, [mine], 'console')
    const visible = await fetch(`${base}/api/contracts?limit=1`, {
      headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${dealerToken}` },
    })
    const visibleTotal = Number(visible.headers.get('x-total-count'))

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/console\/signin/)
    await page.getByText('You are signed out.').waitFor()
    await signInByKeyboard(email, password)
    await page.locator('[data-testid="dashboard"][data-ready="true"]').waitFor({ timeout: 120_000 })
    // Receivables need finance:read, which a dealer user does not hold: the panel says so.
    await page.getByTestId('aging').getByText('Not available to your roles').waitFor()
    await accessible('dashboard of a dealer-side user')
    await shot('dealer-dashboard')

    await page.getByRole('link', { name: 'Contracts' }).click()
    await page
      .getByTestId('contracts-total')
      .filter({ hasText: new RegExp(`^${visibleTotal} contracts?$`) })
      .waitFor()
    assert.ok(visibleTotal > 0 && visibleTotal < all.length, `${visibleTotal} of ${all.length}`)
    await shot('dealer-contracts')

    await page.goto(`${base}/console/contracts/${other.id}`)
    await page
      .getByRole('alert')
      .filter({ hasText: /not found|no contract/i })
      .waitFor()
    assert.equal(await page.getByText(other.contractNumber).count(), 0)
    await accessible("another dealer's contract")
    await shot('dealer-other-contract')

    // Its own contract: a direct cancel is the staff's (cancellations:approve), the API's 403 shown as such.
    const own = all.find((c) => c.dealerId === mine)!
    await page.goto(`${base}/console/contracts/${own.id}`)
    await page.locator('[data-testid="cancellations"][data-ready="true"]').waitFor()
    await page.getByRole('button', { name: 'Process cancel now' }).click()
    await page.getByTestId('cancellations').getByText('Not available to your roles').waitFor()
    await accessible('a dealer-side user refused a direct cancel')
    await shot('dealer-cancel-refused')

    // The claims queue: the DEALER_USER role holds no claims:read, so the API refuses it and the screen says so.
    const dealerClaims = await fetch(`${base}/api/claims?pageSize=1`, {
      headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${dealerToken}` },
    })
    assert.equal(dealerClaims.status, 403)
    await page.getByRole('link', { name: 'Claims', exact: true }).click()
    await page.getByRole('alert').filter({ hasText: 'Not available to your roles' }).waitFor()
    await accessible('claims refused to a dealer-side user')
    await shot('dealer-claims')
  })
})
