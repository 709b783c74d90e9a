// The console's claims from intake through payment (docs/console.md "Claims"), in the world of
// test/console-world.ts: a claim filed through the intake screen on an ACTIVE demo contract (an
// odometer below the sale's first: the API's refusal shown under the odometer field), a second job
// added with its three Cs and lines, a hold placed and released, an inspection requested and its
// results recorded, the jobs authorized, payment requested and the payment recorded, a document
// uploaded; at each step the figures on the page equal the API's. Screenshots go to
// artifacts/console/claims-NN-*.png; axe-core checks every step.
import assert from 'node:assert/strict'
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
let base = ''

type Lookup = { id: number; code: string; name: string }
type Totals = { requested: number; authorized: number; tax: number; deductible: number; payable: number; paid: number }
type Claim = {
  id: number
  claimNumber: string
  status: string
  odometer: number | null
  totals: Totals
  jobs: Array<{
    lineNumber: number
    status: string
    complaint: { id: number }
    cause: { id: number } | null
    correction: { id: number } | null
    coverageComponentCode: string | null
    requestedTotal: number
    authorizedTotal: number
  }>
  holds: Array<{ releasedAt: string | null }>
  inspection: { status: string; findings: string | null } | null
  paymentRequests: Array<{ id: number; status: string; amount: number; paidTotal: number }>
}

/** The error Mantine shows under the input named `name`. */
const errorUnder = (name: string) =>
  page
    .locator('.mantine-InputWrapper-root', { has: page.locator(`[name="${name}"]`) })
    .locator('.mantine-InputWrapper-error')

const text = async (testId: string) => (await page.getByTestId(testId).textContent())?.trim()

type Target = { id: number; contractNumber: string; deductible: number; odometer: number; facility: number }

/**
 * An ACTIVE demo contract with claims paid before (so in force, past any waiting period), its coverage
 * reading miles, and the odometer of a claim on it today: past its claims' highest, below the end of
 * its coverage. One with a deductible when the demo has one (the totals then show it taken off).
 */
async function claimableContract(admin: string): Promise<Target | undefined> {
  const demoClaims = await call<{ items: Array<{ contractId: number; repairFacility: { accountHolderId: number } }> }>(
    'GET',
    '/api/claims?status=PAID&pageSize=100',
    admin,
  )
  const candidates: Target[] = []
  for (const dc of demoClaims.items) {
    if (candidates.some((t) => t.id === dc.contractId)) continue
    const c = await call<{
      id: number
      contractNumber: string
      status: string
      deductible: { amount: number }
      saleOdometer: number | null
      expirationOdometer: number | null
    }>('GET', `/api/contracts/${dc.contractId}`, admin)
    if (c.status !== 'ACTIVE' || c.saleOdometer === null || c.expirationOdometer === null) continue
    const its = await call<{ items: Array<{ odometer: number | null }> }>(
      'GET',
      `/api/claims?contractId=${c.id}&pageSize=1000`,
      admin,
    )
    const odometer = Math.max(c.saleOdometer, ...its.items.map((x) => x.odometer ?? 0)) + 250
    if (odometer >= c.expirationOdometer) continue
    candidates.push({
      id: c.id,
      contractNumber: c.contractNumber,
      deductible: c.deductible.amount,
      odometer,
      facility: dc.repairFacility.accountHolderId,
    })
  }
  return candidates.find((t) => t.deductible > 0) ?? candidates[0]
}

const lookups = async (admin: string, list: string) =>
  call<Lookup[]>('GET', `/api/claims/${list}?active=true&limit=1000`, admin).then(
    (xs) => new Map(xs.map((x) => [x.code, x])),
  )

describe('the console: a claim from intake through payment', { skip }, () => {
  before(async () => {
    await startConsoleWorld('claims')
    ;({ page, demo, base } = world)
    await signInAsAdmin()
  })

  test('intake with a field error, a job with its three Cs and lines, a hold, an inspection, authorization, payment request, payment, a document', async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    const lossDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date())

    const target = await claimableContract(admin)
    assert.ok(target, 'an ACTIVE demo contract to claim on')
    const [complaints, causes, corrections] = await Promise.all([
      lookups(admin, 'complaints'),
      lookups(admin, 'causes'),
      lookups(admin, 'corrections'),
    ])
    const components = (
      await call<Array<{ code: string; components: Array<{ code: string }> }>>(
        'GET',
        `/api/contracts/${target.id}/coveragegroups`,
        admin,
      )
    ).flatMap((g) => g.components.map((c) => c.code))
    const component = components[0]!

    // The intake: the contract found by its number, chosen from the list.
    await page.getByRole('link', { name: 'Claims', exact: true }).click()
    await page.getByRole('button', { name: 'New claim' }).click()
    await page.getByRole('heading', { name: 'New claim', level: 1 }).waitFor()
    await page.getByLabel('Contract number or VIN').fill(target.contractNumber)
    await page.getByLabel('Contract number or VIN').press('Enter')
    await page.getByRole('button', { name: `Claim on ${target.contractNumber}` }).click()
    await page.getByTestId('intake-contract').filter({ hasText: target.contractNumber }).waitFor()
    assert.equal(
      await page.getByLabel('Loss date').inputValue(),
      lossDate,
      "the loss date starts at the tenant's today",
    )
    await page.getByLabel(/^Repair facility/).selectOption(String(target.facility))
    await page.getByLabel('Repair order').fill('RO-CLAIMS-E2E')
    await page.getByLabel('Tax rate on parts').fill('0.0825')
    await page.getByLabel('Contact name').fill('Service Advisor')
    await page.getByLabel('Job 1: complaint').selectOption(String(complaints.get('CHECK_ENGINE_LIGHT')!.id))
    await page.getByLabel('Job 1: cause').selectOption(String(causes.get('IGNITION_COIL_FAILED')!.id))
    // The tenant's usual combination fills in the correction.
    assert.equal(
      await page.getByLabel('Job 1: correction').inputValue(),
      String(corrections.get('REPLACE_IGNITION_COIL')!.id),
    )
    await page.getByLabel('Job 1: covered component').selectOption(component)
    await page.getByRole('button', { name: 'Add labor' }).click()
    await page.getByLabel('Job 1, labor 1: operation').fill('DIAG')
    await page.getByLabel('Job 1, labor 1: hours').fill('0.5')
    await page.getByLabel('Job 1, labor 1: rate').fill('145')

    // An odometer below the sale's: the API's refusal, under the odometer field.
    await page.getByLabel('Odometer', { exact: true }).fill('1')
    await page.getByRole('button', { name: 'File the claim' }).click()
    await page.waitForFunction(
      `document.querySelector('input[name="odometer"]')?.getAttribute('aria-invalid') === 'true'`,
    )
    const refused = await fetch(`${base}/api/claims`, {
      method: 'POST',
      headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contractId: target.id, lossDate, odometer: 1, repairFacilityId: target.facility }),
    })
    assert.equal(refused.status, 422)
    const problem = (await refused.json()) as { errors: Array<{ field: string; message: string }> }
    const message = problem.errors.find((e) => e.field === 'odometer')!.message
    assert.equal((await errorUnder('odometer').textContent())?.trim(), message)
    await accessible('intake with a field error')
    await shot('intake-field-error')

    await page.getByLabel('Odometer', { exact: true }).fill(String(target.odometer))
    await page.getByRole('button', { name: 'File the claim' }).click()
    await page.waitForURL(/\/console\/claims\/\d+$/, { timeout: 60_000 })
    const claimId = Number(/\/claims\/(\d+)$/.exec(page.url())![1])
    await page.locator('[data-testid="claim-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    let claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    assert.equal(claim.status, 'OPEN')
    assert.equal(claim.odometer, target.odometer)
    assert.equal(claim.jobs.length, 1)
    assert.equal(claim.jobs[0]!.complaint.id, complaints.get('CHECK_ENGINE_LIGHT')!.id)
    assert.equal(claim.jobs[0]!.correction?.id, corrections.get('REPLACE_IGNITION_COIL')!.id)
    await page.getByRole('heading', { name: `Claim ${claim.claimNumber}` }).waitFor()
    assert.equal(await text('claim-requested'), usd.format(claim.totals.requested))
    await accessible('claim filed')
    await shot('claim-filed')

    // A second job: the three Cs of a transmission repair, a part and labor.
    await page.getByRole('button', { name: 'Add a job' }).click()
    const job = page.getByTestId('add-job')
    await job.getByLabel('Job 2: complaint').selectOption(String(complaints.get('HARSH_SHIFT')!.id))
    await job.getByLabel('Job 2: cause').selectOption(String(causes.get('VALVE_BODY_FAILED')!.id))
    await job.getByLabel('Job 2: correction').selectOption(String(corrections.get('REPLACE_VALVE_BODY')!.id))
    if (components.includes('VALVE_BODY')) await job.getByLabel('Job 2: covered component').selectOption('VALVE_BODY')
    await job.getByRole('button', { name: 'Add a part' }).click()
    await job.getByLabel('Job 2, part 1: number').fill('24117-VB')
    await job.getByLabel('Job 2, part 1: description').fill('Valve body assembly')
    await job.getByLabel('Job 2, part 1: quantity').fill('1')
    await job.getByLabel('Job 2, part 1: unit price').fill('612.40')
    await job.getByRole('button', { name: 'Add labor' }).click()
    await job.getByLabel('Job 2, labor 1: hours').fill('2.5')
    await job.getByLabel('Job 2, labor 1: rate').fill('145')
    await accessible('a job being added')
    await job.getByRole('button', { name: 'Add the job' }).click()
    await page.getByTestId('job-2').waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    const added = claim.jobs[1]!
    assert.equal(added.complaint.id, complaints.get('HARSH_SHIFT')!.id)
    assert.equal(added.cause?.id, causes.get('VALVE_BODY_FAILED')!.id)
    assert.equal(added.correction?.id, corrections.get('REPLACE_VALVE_BODY')!.id)
    assert.equal(added.status, 'PENDING')
    assert.equal(
      (await page.getByTestId('job-2').getByRole('cell').nth(5).textContent())?.trim(),
      usd.format(added.requestedTotal),
    )
    await page
      .getByTestId('claim-requested')
      .filter({ hasText: usd.format(claim.totals.requested) })
      .waitFor()
    await shot('job-added')

    // A hold placed, then released.
    await page.getByLabel('Hold reason').selectOption({ label: 'Repair invoice missing' })
    await page.getByLabel('Hold note').fill('Waiting for the shop invoice')
    await page.getByRole('button', { name: 'Place the hold' }).click()
    await page.getByRole('button', { name: /^Release the hold/ }).waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    assert.equal(claim.holds.filter((h) => !h.releasedAt).length, 1)
    await accessible('claim on hold')
    await shot('claim-on-hold')
    await page.getByRole('button', { name: /^Release the hold/ }).click()
    await page
      .getByRole('table', { name: 'Holds' })
      .getByRole('cell', { name: 'open', exact: true })
      .waitFor({ state: 'detached' })

    // An inspection requested (the company serving the facility's state), then its results.
    await page.getByLabel('Inspection reason').selectOption({ index: 1 })
    await page.getByLabel('Instructions').fill('Verify the valve body failure.')
    await page.getByRole('button', { name: 'Request an inspection' }).click()
    await page.getByTestId('claim-status').filter({ hasText: 'pending inspection' }).waitFor()
    await page.getByLabel('Findings').fill('Valve body worn; no sign of misuse.')
    await page.getByLabel('Inspected odometer').fill(String(target.odometer + 5))
    await page.getByRole('button', { name: 'Record the results' }).click()
    await page
      .getByTestId('claim-status')
      .filter({ hasText: /^open$/ })
      .waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    assert.equal(claim.inspection?.status, 'COMPLETED')
    await page.getByTestId('claim-inspection').getByText('Valve body worn; no sign of misuse.').waitFor()
    await accessible('inspection completed')
    await shot('inspection-completed')

    // Authorized as requested: every figure the API's.
    await page.getByRole('button', { name: 'Authorize the jobs as requested' }).click()
    await page.getByTestId('claim-status').filter({ hasText: 'authorized' }).waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    assert.equal(claim.status, 'AUTHORIZED')
    assert.ok(claim.totals.payable > 0)
    console.log(
      `claims e2e: contract ${target.contractNumber} (deductible ${target.deductible}); totals ${JSON.stringify(claim.totals)}`,
    )
    await page
      .getByTestId('claim-payable')
      .filter({ hasText: usd.format(claim.totals.payable) })
      .waitFor()
    for (const k of ['requested', 'authorized', 'tax', 'deductible', 'payable', 'paid'] as const)
      assert.equal(await text(`claim-${k}`), usd.format(claim.totals[k]), k)
    await accessible('claim authorized')
    await shot('claim-authorized')

    // The payment requested for the payable, then paid.
    await page.getByLabel('Invoice number').fill(`INV-E2E-${Date.now()}`)
    await page.getByLabel('Invoiced total').fill(claim.totals.payable.toFixed(2))
    await page.getByRole('button', { name: 'Request payment' }).click()
    await page.getByTestId('claim-status').filter({ hasText: 'pending payment' }).waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    const request = claim.paymentRequests[0]!
    assert.equal(request.status, 'REQUESTED')
    await page
      .getByTestId('payment-left')
      .filter({ hasText: usd.format(request.amount - request.paidTotal) })
      .waitFor()
    assert.equal(await page.getByLabel('Amount paid').inputValue(), request.amount.toFixed(2))
    await page.getByLabel('Reference', { exact: true }).fill('CHK 100442')
    await accessible('payment requested')
    await shot('payment-requested')
    await page.getByRole('button', { name: 'Record the payment' }).click()
    await page
      .getByTestId('claim-status')
      .filter({ hasText: /^paid$/ })
      .waitFor()
    claim = await call<Claim>('GET', `/api/claims/${claimId}`, admin)
    assert.equal(claim.status, 'PAID')
    assert.equal(claim.paymentRequests[0]!.status, 'PAID')
    assert.equal(claim.totals.paid, claim.totals.payable)
    for (const k of ['requested', 'authorized', 'tax', 'deductible', 'payable', 'paid'] as const)
      assert.equal(await text(`claim-${k}`), usd.format(claim.totals[k]), k)
    await page
      .getByRole('table', { name: 'Payment requests' })
      .getByText(/^check CHK 100442 on /)
      .waitFor()
    await accessible('claim paid')
    await shot('claim-paid')

    // A document uploaded, listed with its link.
    await page.locator('[data-testid="claim-documents"] input[type="file"]').setInputFiles({
      name: 'invoice.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Invoice of the console end-to-end test\n'),
    })
    await page.getByLabel('Title', { exact: true }).fill('Shop invoice')
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.getByRole('table', { name: 'Claim documents' }).getByRole('link', { name: 'invoice.txt' }).waitFor()
    const docs = await call<Array<{ title: string }>>('GET', `/api/claims/${claimId}/documents`, admin)
    assert.deepEqual(
      docs.map((d) => d.title),
      ['Shop invoice'],
    )
    await accessible('claim with a document')
    await shot('claim-document')

    // The queue lists it, as the API does.
    await page.getByRole('link', { name: 'All claims' }).click()
    await page.getByLabel('Contract id').fill(String(target.id))
    await page.getByRole('button', { name: 'Filter' }).click()
    const listed = await call<{ totalCount: number }>('GET', `/api/claims?contractId=${target.id}&pageSize=1`, admin)
    await page
      .getByTestId('claims-total')
      .filter({ hasText: new RegExp(`^${listed.totalCount} claims?$`) })
      .waitFor()
    await page.getByRole('link', { name: claim.claimNumber }).waitFor()
    await accessible('claims of the contract')
    await shot('claims-of-contract')
  })

  test('a job line refused at its field, a job denied, the claim denied, reopened and voided', async () => {
    const admin = await tokenOf(demo.adminEmail, demo.adminPassword)
    const target = await claimableContract(admin)
    assert.ok(target, 'an ACTIVE demo contract to claim on')
    const [complaints, denied] = await Promise.all([lookups(admin, 'complaints'), lookups(admin, 'deniedReasons')])
    const lossDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date())
    const taken = await call<Claim>('POST', '/api/claims', admin, {
      contractId: target.id,
      lossDate,
      odometer: target.odometer,
      repairFacilityId: target.facility,
      jobs: [
        {
          complaintId: complaints.get('OIL_LEAK')!.id,
          parts: [{ partNumber: 'G-1', description: 'Oil pan gasket', quantity: 1, unitPrice: 38.5, taxable: true }],
          labor: [],
          sublet: [],
        },
      ],
    })
    await page.goto(`${base}/console/claims/${taken.id}`)
    await page.locator('[data-testid="claim-page"][data-ready="true"]').waitFor({ timeout: 60_000 })

    // A labor rate of three places: the API's refusal under that line's rate.
    await page.getByRole('button', { name: 'Add a job' }).click()
    const job = page.getByTestId('add-job')
    await job.getByLabel('Job 2: complaint').selectOption(String(complaints.get('ENGINE_NOISE')!.id))
    await job.getByRole('button', { name: 'Add labor' }).click()
    await job.getByLabel('Job 2, labor 1: hours').fill('1')
    await job.getByLabel('Job 2, labor 1: rate').fill('99.999')
    await job.getByRole('button', { name: 'Add the job' }).click()
    await job.getByLabel('Job 2, labor 1: rate').and(page.locator('[aria-invalid="true"]')).waitFor()
    const refused = await fetch(`${base}/api/claims/${taken.id}`, {
      method: 'PATCH',
      headers: {
        'x-api-key': demo.apiKey,
        authorization: `Bearer ${admin}`,
        'content-type': 'application/json-patch+json',
      },
      body: JSON.stringify([
        {
          op: 'add',
          path: '/jobs/-',
          value: {
            complaintId: complaints.get('ENGINE_NOISE')!.id,
            causeId: null,
            correctionId: null,
            coverageComponentCode: null,
            parts: [],
            labor: [{ operationCode: null, hours: '1', rate: '99.999' }],
            sublet: [],
          },
        },
      ]),
    })
    assert.equal(refused.status, 422)
    const problem = (await refused.json()) as { errors: Array<{ field: string; message: string }> }
    const message = problem.errors.find((e) => e.field === 'jobs[1].labor[0].rate')!.message
    const rateError = job
      .locator('.mantine-InputWrapper-root', { has: page.getByLabel('Job 2, labor 1: rate') })
      .locator('.mantine-InputWrapper-error')
    assert.equal((await rateError.textContent())?.trim(), message)
    await accessible('a job line refused at its field')
    await shot('job-line-error')
    await job.getByRole('button', { name: 'Cancel' }).click()

    // Job 1 denied for a reason.
    await page.getByRole('button', { name: 'Deny job 1' }).click()
    await page.getByLabel('Job 1: denied reason').selectOption(String(denied.get('WEAR_AND_TEAR')!.id))
    await page.getByRole('button', { name: 'Confirm the denial' }).click()
    await page
      .getByTestId('job-1')
      .getByText(`denied (${denied.get('WEAR_AND_TEAR')!.name})`)
      .waitFor()
    let claim = await call<Claim & { jobs: Array<{ deniedReason: { id: number } | null }> }>(
      'GET',
      `/api/claims/${taken.id}`,
      admin,
    )
    assert.equal(claim.jobs[0]!.status, 'DENIED')
    assert.equal(claim.jobs[0]!.deniedReason?.id, denied.get('WEAR_AND_TEAR')!.id)

    // The claim denied: refused without a reason (the API's answer shown), then with one.
    const decision = page.getByTestId('claim-decision')
    await decision.getByRole('button', { name: 'Deny the claim' }).click()
    // The API's refusal: under the reason when it names it, else above the buttons.
    await decision.locator('[role="alert"], .mantine-InputWrapper-error').first().waitFor()
    await decision.getByLabel('Denied reason', { exact: true }).selectOption(String(denied.get('WEAR_AND_TEAR')!.id))
    await decision.getByRole('button', { name: 'Deny the claim' }).click()
    await page
      .getByTestId('claim-status')
      .filter({ hasText: /^denied$/ })
      .waitFor()
    claim = await call('GET', `/api/claims/${taken.id}`, admin)
    assert.equal(claim.status, 'DENIED')
    await accessible('claim denied')
    await shot('claim-denied')

    // Reopened, then voided (asked twice).
    await decision.getByRole('button', { name: 'Reopen the claim' }).click()
    await page
      .getByTestId('claim-status')
      .filter({ hasText: /^open$/ })
      .waitFor()
    await decision.getByRole('button', { name: 'Void the claim' }).click()
    await decision.getByRole('button', { name: 'Void it (entered in error)' }).click()
    await page
      .getByTestId('claim-status')
      .filter({ hasText: /^voided$/ })
      .waitFor()
    claim = await call('GET', `/api/claims/${taken.id}`, admin)
    assert.equal(claim.status, 'VOIDED')
    await accessible('claim voided')
    await shot('claim-voided')
  })
})
