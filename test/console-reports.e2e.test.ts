// The console's reports screens end to end (docs/console.md "Reports", docs/reporting.md), in the
// world of test/console-world.ts (the demo tenant with its year of business, Lone Star Re's treaty):
// the loss ratios by dealer and vintage over whole months equal to the API's answer of the same
// query, the grouping changed (the URL follows), a refused range shown at its field, the CSV
// downloaded; Lone Star Re's statement of the last month (its MTD written premium and loss ratio the
// API's), a figure drilled into (the lines' count and total the API's), the PDF downloaded; a report
// run for a month that is not closed refused at the Month field, then the books closed through the
// API and the run followed to its end. Each step is checked with axe-core and photographed into
// artifacts/console/reports-NN-*.png.
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
let todayThere = ''

type LossRatios = {
  from: string
  to: string
  items: Array<{
    group: { dealer?: { dealerNumber: string; name: string }; vintage?: string; product?: { code: string } }
    contracts: number
    writtenPremium: number
    cancellations: number
    netWrittenPremium: number
    earnedPremium: number
    claimsPaid: number
    claimsIncurred: number
    lossRatio: string | null
  }>
  totalCount: number
}
type Cell = Record<string, number> & { lossRatio: string | null }
type Statement = { month: string; contracts: number; totals: Record<'mtd' | 'qtd' | 'ytd' | 'itd', Cell> }
type Problem = { errors: Array<{ field: string; message: string }> }

/** "0.6250" as the console shows it: "62.50 %"; null is "n/a". */
const percent = (ratio: string | null) =>
  ratio === null
    ? 'n/a'
    : `${(Math.round(Number(ratio) * 10_000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`

const lastMonthOf = (day: string) => {
  const y = Number(day.slice(0, 4))
  const m = Number(day.slice(5, 7))
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
}
const lastDayOf = (month: string) =>
  `${month}-${String(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0')}`

const cells = async (row: ReturnType<Page['locator']>) =>
  (await row.getByRole('cell').allTextContents()).map((t) => t.trim())

/** The API's refusal of a request (the message the screen must show at the field). */
async function refusal(method: string, url: string, body?: unknown) {
  const res = await fetch(world.base + url, {
    method,
    headers: {
      'x-api-key': demo.apiKey,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  assert.equal(res.status, 422, `${method} ${url}`)
  return (await res.json()) as Problem
}

/** The message shown under the input named `name` (its aria-describedby error). */
async function errorUnder(name: string) {
  await page.waitForFunction(`document.querySelector('input[name="${name}"]')?.getAttribute('aria-invalid') === 'true'`)
  const describedBy = (await page.locator(`input[name="${name}"]`).getAttribute('aria-describedby')) ?? ''
  const id = describedBy.split(' ').find((d) => d.endsWith('-error'))
  assert.ok(id, `the ${name} field names its error`)
  return ((await page.locator(`[id="${id}"]`).textContent()) ?? '').trim()
}

describe('the console: loss ratios, reinsurance statements, report runs', { skip }, () => {
  before(async () => {
    await startConsoleWorld('reports')
    ;({ page, demo } = world)
    await signInAsAdmin()
    token = await tokenOf(demo.adminEmail, demo.adminPassword)
    // The tenant's today (its own zone): the months the screens start with follow it.
    const zone = await call<{ value: string }>('GET', '/api/generalsettings/timeZone', token)
    todayThere = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone.value,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date())
  })

  test('loss ratios by dealer and vintage over whole months: the API’s figures, the grouping in the URL, a refused range at its field', async () => {
    const toMonth = lastMonthOf(todayThere)
    const fromMonth = `${toMonth.slice(0, 4)}-01`

    // The section from the navigation: the API's default grouping (by product), January to last month.
    await page.getByRole('link', { name: 'Reports', exact: true }).click()
    await page.getByRole('heading', { name: 'Loss ratios', level: 1 }).waitFor()
    await page.locator('[data-testid="loss-ratios"][data-ready="true"]').waitFor({ timeout: 120_000 })
    assert.equal(await page.getByLabel('From month').inputValue(), fromMonth)
    assert.equal(await page.getByLabel('To month').inputValue(), toMonth)
    assert.ok(await page.getByRole('checkbox', { name: 'Product', exact: true }).isChecked())

    // By dealer and vintage, from its URL: each row of the page the API's row of the same query.
    await page.goto(
      `${world.base}/console/reports/lossratios?groupBy=dealer,vintage&fromMonth=${fromMonth}&toMonth=${toMonth}`,
    )
    await page.locator('[data-testid="loss-ratios"][data-ready="true"]').waitFor({ timeout: 120_000 })
    const api = await call<LossRatios>(
      'GET',
      `/api/reports/lossratios?groupBy=dealer,vintage&from=${fromMonth}-01&to=${lastDayOf(toMonth)}&pageNumber=1&pageSize=25`,
      token,
    )
    assert.ok(api.items.length > 0, 'the demo book has loss ratios')
    await page
      .getByTestId('loss-ratios-total')
      .filter({ hasText: `${api.totalCount.toLocaleString('en-US')} group` })
      .waitFor()
    const rows = page.getByTestId('loss-ratio-row')
    assert.equal(await rows.count(), api.items.length)
    // A row with claims (else the first), every cell the API's.
    const at = Math.max(
      0,
      api.items.findIndex((i) => i.claimsIncurred !== 0 && i.lossRatio !== null),
    )
    const item = api.items[at]!
    assert.deepEqual(await cells(rows.nth(at)), [
      `${item.group.dealer!.dealerNumber} · ${item.group.dealer!.name}`,
      item.group.vintage!,
      item.contracts.toLocaleString('en-US'),
      usd.format(item.writtenPremium),
      usd.format(item.cancellations),
      usd.format(item.netWrittenPremium),
      usd.format(item.earnedPremium),
      usd.format(item.claimsPaid),
      usd.format(item.claimsIncurred),
      percent(item.lossRatio),
    ])
    await page.getByRole('img', { name: /^Loss ratio of the \d+ groups on this page/ }).waitFor()
    await page.locator('.recharts-bar-rectangle').first().waitFor({ state: 'attached', timeout: 60_000 })
    await accessible('loss ratios by dealer and vintage')
    await shot('loss-ratios')

    // The CSV of the same query: a record per group of the page, the row's figures.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the loss ratios as CSV' }).click(),
    ])
    assert.equal(csv.suggestedFilename(), `loss-ratios-${api.from}-${api.to}.csv`)
    const records = fs
      .readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r\n/)
    assert.equal(records.length, api.items.length + 1)
    assert.ok(records[at + 1]!.includes(`,${item.writtenPremium.toFixed(2)},`), records[at + 1])

    // Sorted by loss ratio on the page: the highest first.
    await page.getByRole('button', { name: /^Loss ratio/ }).click()
    await page.getByRole('button', { name: /^Loss ratio/ }).click()
    await page.waitForURL(/sort=-lossRatio/)
    assert.equal(await page.getByRole('columnheader', { name: /^Loss ratio/ }).getAttribute('aria-sort'), 'descending')
    const highest = api.items.reduce((a, b) => (Number(b.lossRatio ?? -1) > Number(a.lossRatio ?? -1) ? b : a))
    assert.equal((await cells(rows.first())).at(-1), percent(highest.lossRatio))

    // The grouping changed: by dealer and product; the URL follows, the count the API's.
    await page.getByRole('checkbox', { name: 'Vintage', exact: true }).uncheck()
    await page.getByRole('checkbox', { name: 'Product', exact: true }).check()
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.waitForURL(/groupBy=dealer%2Cproduct/)
    assert.match(page.url(), new RegExp(`fromMonth=${fromMonth}&toMonth=${toMonth}`))
    const byProduct = await call<LossRatios>(
      'GET',
      `/api/reports/lossratios?groupBy=dealer,product&from=${fromMonth}-01&to=${lastDayOf(toMonth)}&pageSize=25`,
      token,
    )
    await page
      .getByTestId('loss-ratios-total')
      .filter({ hasText: `${byProduct.totalCount.toLocaleString('en-US')} group` })
      .waitFor({ timeout: 120_000 })
    // A column per dimension, then the figures (the sort by loss ratio kept).
    assert.deepEqual(
      (await page.getByTestId('loss-ratios-table').getByRole('columnheader').allTextContents()).map((h) =>
        h.replace(/ [▴▾▲▼]+$/, ''),
      ),
      [
        'Dealer',
        'Product',
        'Contracts',
        'Written',
        'Cancelled',
        'Net written',
        'Earned',
        'Claims paid',
        'Claims incurred',
        'Loss ratio',
      ],
    )
    await shot('loss-ratios-by-product')

    // From after to: the API's 422 names `from`, shown under the From month field.
    await page.getByLabel('From month').fill(toMonth)
    await page.getByLabel('To month').fill(fromMonth)
    await page.getByLabel('To month').press('Enter')
    const refused = await refusal(
      'GET',
      `/api/reports/lossratios?groupBy=dealer,product&from=${toMonth}-01&to=${lastDayOf(fromMonth)}`,
    )
    const message = refused.errors.find((e) => e.field === 'from')!.message
    assert.equal(await errorUnder('fromMonth'), message)
    assert.equal(await page.getByText(message, { exact: true }).count(), 1, 'the error is shown once')
    await accessible('loss ratios with a refused range')
    await shot('loss-ratios-refused')
  })

  test('Lone Star Re’s statement: the MTD written premium and loss ratio the API’s, a figure drilled into', async () => {
    const month = lastMonthOf(todayThere)
    const [company] = await call<Array<{ id: number; displayName: string; companyCode: string }>>(
      'GET',
      '/api/reinsurancecompanies?companyCode=LSRE',
      token,
    )
    assert.ok(company, 'the demo has Lone Star Re')
    const statement = await call<Statement>(
      'GET',
      `/api/reports/reinsurancecompanies/${company.id}/statement?month=${month}`,
      token,
    )

    await page.getByRole('link', { name: 'Reinsurance statements' }).click()
    await page.getByRole('heading', { name: 'Reinsurance statements', level: 1 }).waitFor()
    await page.waitForFunction(
      `[...document.querySelectorAll('select[name="companyId"] option')].some((o) => o.value === '${company.id}')`,
      undefined,
      { timeout: 60_000 },
    )
    assert.equal(await page.getByLabel('Month', { exact: true }).inputValue(), month, 'the last month to start with')
    await page.getByLabel('Reinsurance company').selectOption(String(company.id))
    await page.getByLabel('Month', { exact: true }).fill(month)
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.waitForURL(new RegExp(`/console/reports/statements\\?companyId=${company.id}&month=${month}$`))
    await page.locator('[data-testid="statement"][data-ready="true"]').waitFor({ timeout: 120_000 })

    const totals = page.getByTestId('statement-totals')
    const written = await cells(totals.getByTestId('total-writtenPremium'))
    assert.equal(written[0], usd.format(statement.totals.mtd.writtenPremium!))
    assert.deepEqual(
      written,
      (['mtd', 'qtd', 'ytd', 'itd'] as const).map((c) => usd.format(statement.totals[c].writtenPremium!)),
    )
    const ratio = await cells(totals.getByTestId('total-lossRatio'))
    assert.equal(ratio[0], percent(statement.totals.mtd.lossRatio))
    assert.equal(
      ((await page.getByTestId('statement-contracts').textContent()) ?? '').trim(),
      statement.contracts.toLocaleString('en-US'),
    )
    await page.getByRole('table', { name: 'By vintage, month to date' }).waitFor()
    await accessible("Lone Star Re's statement")
    await shot('statement')

    // The PDF of the same statement.
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the statement as PDF' }).click(),
    ])
    assert.equal(pdf.suggestedFilename(), `reinsurance-statement-${company.id}-${month}.pdf`)
    assert.equal(
      fs
        .readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    )

    // The breakdowns in another column: the URL keeps it.
    await page.locator('label', { hasText: /^YTD$/ }).click()
    await page.waitForURL(/column=ytd/)
    await page.getByRole('table', { name: 'By vintage, year to date' }).waitFor()
    await shot('statement-ytd')

    // The contracts behind the YTD written premium: the API's count and total (the statement's cell).
    assert.ok(statement.totals.ytd.writtenPremium! > 0, 'Lone Star Re wrote premium this year')
    await totals.getByRole('link', { name: /: Written premium ceded, YTD, the contracts$/ }).click()
    await page.waitForURL(/\/console\/reports\/statements\/lines\?/)
    await page.locator('[data-testid="statement-lines"][data-ready="true"]').waitFor({ timeout: 120_000 })
    const lines = await call<{ totalCount: number; total: number; items: Array<{ contractNumber: string }> }>(
      'GET',
      `/api/reports/reinsurancecompanies/${company.id}/statement/lines?month=${month}&figure=writtenPremium&column=ytd&pageSize=25`,
      token,
    )
    assert.equal(lines.total, statement.totals.ytd.writtenPremium)
    const count = ((await page.getByTestId('lines-total').textContent()) ?? '').trim()
    assert.ok(
      count.startsWith(`${lines.totalCount.toLocaleString('en-US')} contract`),
      `${count} names ${lines.totalCount} contracts`,
    )
    assert.ok(count.endsWith(usd.format(lines.total)), `${count} ends with the total ${usd.format(lines.total)}`)
    assert.equal(await page.getByTestId('lines-table').locator('tbody tr').count(), lines.items.length)
    assert.equal(
      (
        (await page.getByTestId('lines-table').locator('tbody tr').first().getByRole('cell').first().textContent()) ??
        ''
      ).trim(),
      lines.items[0]!.contractNumber,
    )
    await accessible('the contracts behind a figure')
    await shot('statement-lines')
  })

  test('report runs: a month not closed refused at its field; the books closed, a run followed to its end', async () => {
    const month = lastMonthOf(todayThere)
    await page.getByRole('link', { name: 'Report runs' }).click()
    await page.getByRole('heading', { name: 'Report runs', level: 1 }).waitFor()
    const res = await fetch(`${world.base}/api/reports/runs?limit=1`, {
      headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${token}` },
    })
    const total = Number(res.headers.get('x-total-count'))
    await page
      .getByTestId('report-runs-total')
      .filter({ hasText: `${total.toLocaleString('en-US')} run` })
      .waitFor({ timeout: 60_000 })
    await accessible('report runs')
    await shot('runs')

    const closed = await call<{ value: string | null }>('GET', '/api/generalsettings/booksClosedThrough', token)
    if (closed.value === null || closed.value < lastDayOf(month)) {
      // The demo closes no month: the API's 422 names `period`, shown under the Month field.
      assert.equal(await page.getByLabel('Month', { exact: true }).inputValue(), month, 'the last month to start with')
      await page.getByLabel('Reports', { exact: true }).selectOption('REINSURANCE_STATEMENT')
      await page.getByRole('button', { name: 'Start the run' }).click()
      const refused = await refusal('POST', '/api/reports/runs', { kind: 'REINSURANCE_STATEMENT', period: month })
      const message = refused.errors.find((e) => e.field === 'period')!.message
      assert.equal(await errorUnder('period'), message)
      assert.equal(await page.getByText(message, { exact: true }).count(), 1, 'the error is shown once')
      await accessible('a run refused')
      await shot('run-refused')
      // The books closed through the last month's end (the finance setting), as an accountant would.
      await call('PUT', '/api/generalsettings/booksClosedThrough', token, { value: lastDayOf(month) })
    }

    await page.getByLabel('Month', { exact: true }).fill(month)
    await page.getByRole('button', { name: 'Start the run' }).click()
    await page.waitForURL(/\/console\/reports\/runs\/\d+$/, { timeout: 60_000 })
    const runId = Number(/runs\/(\d+)$/.exec(page.url())![1])
    await page.locator('[data-testid="report-run"][data-status="SUCCEEDED"]').waitFor({ timeout: 300_000 })
    const run = await call<{
      status: string
      progress: { done: number; total: number }
      documents: Array<{ riskBearerId: number }>
    }>('GET', `/api/reports/runs/${runId}`, token)
    assert.equal(run.status, 'SUCCEEDED')
    assert.equal(run.documents.length, run.progress.total)
    const done = page
      .getByTestId('report-run-progress')
      .getByRole('row', { name: /^Reports done/ })
      .getByRole('cell')
    assert.equal(((await done.textContent()) ?? '').trim(), run.progress.done.toLocaleString('en-US'))
    const [company] = await call<Array<{ id: number; displayName: string }>>(
      'GET',
      '/api/reinsurancecompanies?companyCode=LSRE',
      token,
    )
    const row = page.getByTestId(`document-${company!.id}`)
    await row.getByRole('link', { name: company!.displayName }).waitFor()
    // Its frozen statement as CSV: the report's own CSV, a TOTAL record per column.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download the report for ${company!.displayName} as CSV` }).click(),
    ])
    const content = fs.readFileSync((await csv.path())!, 'utf8')
    assert.match(content, /^recordType,key,column,/)
    assert.equal(content.split(/\r\n/).filter((l) => l.startsWith('TOTAL,')).length, 4)
    await accessible('a report run')
    await shot('run')
  })
})
