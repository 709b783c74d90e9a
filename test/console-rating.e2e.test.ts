// The console's rating screens end to end (docs/console.md), in the world of test/console-world.ts:
// a rate book with errors imported from files (the validation report on screen equal to the API's,
// each problem at its location), a valid import listed as the version in force, its export and its
// page; the quick rater: a VIN quoted with the API's prices and lines, a malformed VIN refused at its
// field, and a deal that gets no plans with the API's explanation of why; a dealer-side user refused
// the versions and the explanation (the API's 403s). Each step is checked with axe-core and photographed into artifacts/console/rating-NN-*.png.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import {
  accessible,
  call,
  createDealerUser,
  type Demo,
  shot,
  signInAsAdmin,
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

type BookError = { file: string; path?: string; row?: number; field: string; code: string; message: string }
type Version = { version: number; inForce: boolean; description: string | null; summary: { rates: number } }
type Quote = {
  products: Array<{
    programs: Array<{
      plans: Array<{
        planCode: string
        terms: Array<{
          deductibles: Array<{
            rate: {
              rateId: string
              dealerCost: number
              suggestedRetail: number
              disbursements: Array<{ code: string; amount: number }>
            }
          }>
        }>
      }>
    }>
  }>
  messages: Array<{ code: string; text: string }>
  exclusions?: Array<{
    level: string
    productCode: string
    programCode?: string
    planCode?: string
    termCode?: string
    deductibleCode?: string
    reason: string
    text: string
  }>
}

/** The text of each cell of each body row of a table. */
const tableCells = (table: ReturnType<Page['getByRole']>) =>
  table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td, th')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())),
    )

async function api(method: string, url: string, token: string, body?: string) {
  const res = await fetch(base + url, {
    method,
    headers: {
      'x-api-key': demo.apiKey,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
  })
  return { status: res.status, body: (await res.json()) as unknown }
}

describe('the console: rating and the quick rater', { skip }, () => {
  before(async () => {
    await startConsoleWorld('rating')
    ;({ page, demo, base } = world)
    await signInAsAdmin()
  })

  test('a rate book with errors: the validation report equal to the API, each problem located; a valid import in force, exported', async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    // The book in force (the demo's), built into files as an administrator would write them: one
    // problem in the JSON (a criteria naming a fact that does not exist) and one in the CSV rates.
    const book = await call<
      Record<string, unknown> & { products: Array<{ programs: Array<{ plans: Array<Record<string, unknown>> }> }> }
    >('GET', '/api/Rates/ratebooks/active/document', admin)
    const stamp = Date.now()
    const broken = structuredClone(book)
    broken.description = `Console end-to-end, refused ${stamp}`
    broken.products[0]!.programs[0]!.plans[0]!.criteria = 'vehicleAg <= 3'
    const plan = broken.products[0]!.programs[0]!.plans[0]! as {
      code: string
      terms: Array<{ code?: string; months: number; miles: number }>
    }
    const term = plan.terms[0]!
    const csv = [
      'plan,term,deductible,vehicleClass,RES,suggestedRetail',
      `${plan.code},${term.code ?? `${term.months}-${term.miles}`},D100,A,12.345,900.00`,
      '',
    ].join('\n')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-console-rating-'))
    const bookFile = path.join(dir, 'acme-book.json')
    const csvFile = path.join(dir, 'acme-rates.csv')
    fs.writeFileSync(bookFile, JSON.stringify(broken, null, 2))
    fs.writeFileSync(csvFile, csv)

    // The API's report of the same book (a check only; a refused book is never stored anyway).
    const refused = await api(
      'POST',
      '/api/Rates/ratebooks?dryRun=true',
      admin,
      JSON.stringify({ ...broken, ratesCsv: csv }),
    )
    assert.equal(refused.status, 422)
    const report = (refused.body as { errors: BookError[] }).errors
    assert.ok(report.some((e) => e.row !== undefined) && report.some((e) => e.path), 'a JSON and a CSV problem')

    await page.getByRole('link', { name: 'Rating', exact: true }).click()
    await page.getByRole('heading', { name: 'Rate books', level: 1 }).waitFor()
    await page.locator('[data-testid="rate-books"][data-ready="true"]').waitFor()
    await page.getByLabel('Rate book (JSON)').setInputFiles(bookFile)
    await page.getByLabel('Rates as CSV (optional)').setInputFiles(csvFile)
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const problems = page.getByRole('table', { name: 'Validation report' })
    await problems.waitFor({ timeout: 60_000 })
    const names: Record<string, string> = { body: 'acme-book.json', 'body#ratesCsv': 'acme-rates.csv' }
    assert.deepEqual(
      await tableCells(problems),
      report.map((e, i) => [
        String(i + 1),
        `${names[e.file] ?? e.file} (${e.file})`,
        e.row !== undefined ? `row ${e.row}` : e.path || '(the whole book)',
        e.row !== undefined && e.field ? e.field : '—',
        e.code,
        e.message,
      ]),
    )
    await accessible('rate book refused, its validation report')
    await shot('import-refused')

    // A valid book: the same with a description of its own, imported as the next version (in force:
    // effective on the same date, imported last).
    const valid = { ...book, description: `Console end-to-end ${stamp}` }
    fs.writeFileSync(bookFile, JSON.stringify(valid))
    await page.getByLabel('Rate book (JSON)').setInputFiles(bookFile)
    await page.getByLabel('Rates as CSV (optional)').setInputFiles([])
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const done = page.getByTestId('import-result').getByRole('status')
    await done.waitFor({ timeout: 60_000 })
    const versions = await call<Version[]>('GET', '/api/Rates/ratebooks', admin)
    const latest = versions[0]!
    assert.equal(latest.description, valid.description)
    assert.ok(latest.inForce, 'the new version is in force')
    assert.match((await done.textContent()) ?? '', new RegExp(`^Imported as version ${latest.version}, effective `))
    const row = page.getByTestId(`ratebook-version-${latest.version}`)
    await row.waitFor()
    await row.getByText('in force').waitFor()
    assert.equal(await row.getByRole('cell').nth(3).textContent(), valid.description)
    await page
      .getByTestId('ratebook-versions-total')
      .filter({ hasText: new RegExp(`^${versions.length} versions?$`) })
      .waitFor()
    await accessible('rate book imported, the versions')
    await shot('import-done')

    // The export: the file downloaded is the API's document of that version.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Export version ${latest.version}` }).click(),
    ])
    assert.equal(download.suggestedFilename(), `rate-book-v${latest.version}.json`)
    const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as unknown
    assert.deepEqual(saved, await call('GET', `/api/Rates/ratebooks/${latest.version}/document`, admin))

    // The version's page: what it holds.
    await row.getByRole('link', { name: String(latest.version), exact: true }).click()
    await page.locator('[data-testid="ratebook-version"][data-ready="true"]').waitFor()
    await page.getByRole('heading', { name: new RegExp(`^Rate book version ${latest.version}`), level: 1 }).waitFor()
    await page.getByText(new RegExp(`${latest.summary.rates.toLocaleString('en-US')} rates`)).waitFor()
    await page.getByRole('table', { name: 'Products, programs and plans' }).getByText(`(${plan.code})`).waitFor()
    await accessible('a rate-book version')
    await shot('version')
    fs.rmSync(dir, { recursive: true, force: true })
  })

  test("the quick rater: a VIN quoted at the API's prices and lines; a malformed VIN at its field; a deal with no plans and why", async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    const [dealer] = await call<Array<{ dealerNumber: string }>>('GET', '/api/dealers?limit=1', admin)
    const deal = { vin: '1HGCV1F37LA012345', vehicleCondition: 'USED', odometer: '42150', inServiceDate: '2020-05-01' }

    await page.getByRole('link', { name: 'Quick rater', exact: true }).click()
    await page.getByRole('heading', { name: 'Quick rater', level: 1 }).waitFor()
    await page.getByLabel('Dealer number').fill(dealer!.dealerNumber)
    await page.getByLabel('VIN', { exact: true }).fill(deal.vin)
    await page.getByLabel('Condition').selectOption(deal.vehicleCondition)
    await page.getByLabel('In-service date').fill(deal.inServiceDate)
    await page.getByLabel('Odometer (miles)').fill(deal.odometer)
    // By keyboard: Enter submits the deal.
    await page.getByLabel('Odometer (miles)').press('Enter')
    await page.waitForURL(/\/console\/quick-rater\?dealerNumber=/)
    await page.locator('[data-testid="quick-rater"][data-ready="true"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('quote').waitFor()

    const query = new URLSearchParams(deal).toString()
    const quote = await call<Quote>('GET', `/api/Rates/rateQuote/${dealer!.dealerNumber}?${query}`, admin)
    const rates = quote.products.flatMap((p) =>
      p.programs.flatMap((g) => g.plans.flatMap((pl) => pl.terms.flatMap((t) => t.deductibles.map((d) => d.rate)))),
    )
    const plans = quote.products.reduce((n, p) => n + p.programs.reduce((m, g) => m + g.plans.length, 0), 0)
    assert.ok(rates.length > 0, 'the API quotes plans for this VIN')
    assert.equal(
      (await page.getByTestId('quote-total').textContent())?.trim(),
      `${plans} plan${plans === 1 ? '' : 's'} offered in ${quote.products.length} product${quote.products.length === 1 ? '' : 's'}`,
    )
    assert.equal(await page.locator('[data-testid^="rate-r."]').count(), rates.length)
    const shown = await page.locator('[data-testid^="rate-r."]').evaluateAll((rows) =>
      rows.map((r) => ({
        rateId: r.getAttribute('data-testid')!.slice('rate-'.length),
        dealerCost: r.querySelector('[data-testid="dealer-cost"]')?.textContent?.trim(),
        suggestedRetail: r.querySelector('[data-testid="suggested-retail"]')?.textContent?.trim(),
      })),
    )
    assert.deepEqual(
      shown,
      rates.map((r) => ({
        rateId: r.rateId,
        dealerCost: usd.format(r.dealerCost),
        suggestedRetail: usd.format(r.suggestedRetail),
      })),
    )
    // A price's lines, opened by keyboard: the API's disbursements, adding up to its dealer cost.
    const first = rates[0]!
    const toggle = page.getByTestId(`rate-${first.rateId}`).getByRole('button', { name: /^Show \d+ lines/ })
    await toggle.focus()
    await page.keyboard.press('Enter')
    const lines = page.getByRole('table', { name: `Lines of ${first.rateId}` })
    await lines.waitFor()
    assert.deepEqual(
      (await tableCells(lines)).map((cells) => [cells[0], cells.at(-1)]),
      [
        ...first.disbursements.map((l) => [l.code, usd.format(l.amount)]),
        ['Dealer cost', usd.format(first.dealerCost)],
      ],
    )
    await accessible('quick rater: a quote')
    await shot('quote')

    // A VIN whose check digit is wrong: the API's message under the VIN field.
    const badVin = '1HGCV1F37LA012346'
    const refused = await api('GET', `/api/Rates/rateQuote/${dealer!.dealerNumber}?vin=${badVin}`, admin)
    assert.equal(refused.status, 400)
    const vinError = (refused.body as { errors: Array<{ field: string; message: string }> }).errors.find(
      (e) => e.field === 'vin',
    )!
    await page.getByLabel('VIN', { exact: true }).fill(badVin)
    await page.getByRole('button', { name: 'Quote', exact: true }).click()
    await page.waitForFunction(`document.querySelector('input[name="vin"]')?.getAttribute('aria-invalid') === 'true'`)
    await page.getByText(vinError.message, { exact: true }).waitFor()
    await accessible('quick rater: a field error')
    await shot('quote-field-error')

    // Another VIN that gets no plans (a 2019 Camry over the VSC's odometer limit, VSC only). The
    // screen asks the API to explain, and shows its exclusions.
    const none = {
      vin: '4T1B11HK8KU123456',
      vehicleCondition: 'USED',
      odometer: '160000',
      inServiceDate: '2019-03-01',
      productTypes: 'VSC',
    }
    await page.getByLabel('VIN', { exact: true }).fill(none.vin)
    await page.getByLabel('In-service date').fill(none.inServiceDate)
    await page.getByLabel('Odometer (miles)').fill(none.odometer)
    await page.getByLabel('Product types').fill(none.productTypes)
    await page.getByRole('button', { name: 'Quote', exact: true }).click()
    const why = page.getByRole('table', { name: 'Why no plans' })
    await why.waitFor({ timeout: 60_000 })
    const explained = await call<Quote>(
      'GET',
      `/api/Rates/rateQuote/${dealer!.dealerNumber}?${new URLSearchParams({ ...none, explain: 'true' }).toString()}`,
      admin,
    )
    assert.equal(explained.products.length, 0)
    assert.ok(explained.exclusions && explained.exclusions.length > 0)
    assert.equal((await page.getByTestId('quote-total').textContent())?.trim(), 'No plans offered.')
    for (const m of explained.messages) await page.getByTestId('quote-message').filter({ hasText: m.text }).waitFor()
    const cells = await tableCells(why)
    assert.deepEqual(
      cells.map((c) => c.slice(0, 4)),
      explained.exclusions.map((e) => [
        e.level.toLowerCase(),
        [e.productCode, e.programCode, e.planCode, e.termCode, e.deductibleCode].filter(Boolean).join(' › '),
        e.reason,
        e.text,
      ]),
    )
    // The criteria part by part: the odometer part is the one that fails.
    await why.getByText('odometer < 150000', { exact: true }).waitFor()
    await accessible('quick rater: why no plans')
    await shot('no-plans-why')

    // The deal is in the URL: the same link shows the same answer.
    const shared = page.url()
    await page.goto(`${base}/console/`)
    await page.goto(shared)
    await page.getByRole('table', { name: 'Why no plans' }).waitFor({ timeout: 60_000 })
    assert.equal(await page.getByLabel('Odometer (miles)').inputValue(), none.odometer)
    assert.equal(await page.getByLabel('VIN', { exact: true }).inputValue(), none.vin)
  })

  test('a dealer-side user: the versions are not available to it; its quote shows, and why no plans is not available (no rates:explain)', async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    const [dealer] = await call<Array<{ id: number; dealerNumber: string }>>('GET', '/api/dealers?limit=1', admin)
    // The DEALER_USER role: rates:read, not rates:explain nor rates:write.
    const { email, password, token: dealerToken } = await createDealerUser(admin, [dealer!.id], 'rating')
    const none = new URLSearchParams({
      vin: '1HGCV1F37LA012345',
      vehicleCondition: 'USED',
      odometer: '160000',
      inServiceDate: '2020-05-01',
      productTypes: 'VSC',
    })
    const versions = await api('GET', '/api/Rates/ratebooks', dealerToken)
    assert.equal(versions.status, 403)
    const explained = await api('GET', `/api/Rates/rateQuote/${dealer!.dealerNumber}?${none}&explain=true`, dealerToken)
    assert.equal(explained.status, 403)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/console\/signin/)
    await signInByKeyboard(email, password)
    await page.locator('[data-testid="dashboard"][data-ready="true"]').waitFor({ timeout: 120_000 })
    await page.getByRole('link', { name: 'Rating', exact: true }).click()
    await page.getByTestId('ratebook-versions').getByText('Not available to your roles').waitFor()
    await accessible('rate books refused to a dealer-side user')
    await shot('dealer-versions-refused')

    await page.goto(`${base}/console/quick-rater?dealerNumber=${dealer!.dealerNumber}&${none}`)
    await page.getByTestId('quote-total').filter({ hasText: 'No plans offered.' }).waitFor({ timeout: 60_000 })
    await page.getByTestId('why').getByText('Not available to your roles').waitFor()
    await accessible('quick rater: why not available to a dealer-side user')
    await shot('dealer-why-refused')
  })
})
