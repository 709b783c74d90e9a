// The console's account holders, users and roles end to end (docs/console.md), in the world of
// test/console-world.ts: the dealers list, a dealer created through the form (first with a ZIP code
// the API refuses, its message shown at that field), its page with the API's values, a change, a
// custom field added, a disbursement account masked then shown as the API reveals it; the users list,
// a user created with a role, then expired (the status the API gives); the roles and groups. Each
// step is checked with axe-core and photographed into artifacts/console/parties-NN-*.png.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import {
  accessible,
  call,
  type Demo,
  shot as photograph,
  signInAsAdmin,
  skip,
  startConsoleWorld,
  tokenOf,
  world,
} from './console-world.ts'

let page: Page
let demo: Demo
let base = ''
let admin = ''
const stamp = Date.now()
const dealerNumber = `E2E-${stamp}`

type Dealer = {
  id: number
  dealerGroupId: number | null
  dealerNumber: string
  legalName: string
  displayName: string
  dealerType: string | null
  addresses: Array<{ line1: string; city: string; state: string; postalCode: string }>
  phones: Array<{ number: string }>
}

/** A call the API refuses: its status and problem body. */
async function refused(method: string, url: string, body: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, problem: (await res.json()) as { errors?: Array<{ field: string; message: string }> } }
}

/** A screenshot from the top of the page (the frame's header is fixed). */
async function shot(name: string) {
  await page.evaluate('window.scrollTo(0, 0)')
  await photograph(name)
}

/** The message under a field (Mantine links it by aria-describedby). */
async function errorUnder(field: ReturnType<Page['getByLabel']>) {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ')
  const id = ids.find((i) => i.endsWith('-error'))
  assert.ok(id, 'the field has an error')
  return (await page.locator(`[id="${id}"]`).textContent())?.trim()
}

async function total(url: string) {
  const res = await fetch(base + url, { headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${admin}` } })
  assert.ok(res.ok, `${url}: ${res.status}`)
  return Number(res.headers.get('x-total-count'))
}

describe('the console: account holders, users and roles', { skip }, () => {
  before(async () => {
    await startConsoleWorld('parties')
    ;({ page, demo, base } = world)
    await signInAsAdmin()
    admin = await tokenOf(demo.adminEmail, demo.adminPassword)
  })

  test('the dealers and insurers lists: their totals are the API’s', async () => {
    await page.getByRole('link', { name: 'Account holders' }).click()
    await page.getByRole('heading', { name: 'Dealers', level: 1 }).waitFor()
    const dealers = await total('/api/accountholders?kind=DEALER&limit=1')
    await page
      .getByTestId('holders-total')
      .filter({ hasText: new RegExp(`^${dealers} dealers?$`) })
      .waitFor({ timeout: 60_000 })
    await accessible('dealers list')
    await shot('dealers')
    // Every kind has its list: the insurers', by its link.
    await page
      .getByRole('navigation', { name: 'Kinds of account holder' })
      .getByRole('link', { name: 'Insurers' })
      .click()
    await page.getByRole('heading', { name: 'Insurers', level: 1 }).waitFor()
    const insurers = await total('/api/accountholders?kind=INSURER&limit=1')
    await page
      .getByTestId('holders-total')
      .filter({ hasText: new RegExp(`^${insurers} insurers?$`) })
      .waitFor({ timeout: 60_000 })
    await accessible('insurers list')
    await shot('insurers')
  })

  test('a dealer created through the form: a ZIP code the API refuses shown at its field, then the dealer as the API stored it', async () => {
    await page.goto(`${base}/console/accountholders/dealers`)
    await page.getByRole('link', { name: 'New dealer' }).click()
    await page.getByRole('heading', { name: 'New dealer', level: 1 }).waitFor()
    const form = page.getByTestId('holder-form')
    await form.getByLabel('Dealer number').fill(dealerNumber)
    await form.getByLabel('Legal name').fill(`Console Motors ${stamp} LLC`)
    await form.getByLabel('Dealer type').selectOption('INDEPENDENT')
    // The dealer group is chosen among the API's.
    const [group] = await call<Array<{ id: number; displayName: string; businessKey: string }>>(
      'GET',
      '/api/accountholders?kind=DEALER_GROUP&limit=1',
      admin,
    )
    await form.getByLabel('Dealer group').selectOption(String(group!.id))
    await form.getByLabel('Street', { exact: true }).fill('100 Congress Ave')
    await form.getByLabel('City').fill('Austin')
    await form.getByLabel('State').selectOption('TX')
    await form.getByLabel('ZIP code').fill('7870')
    await form.getByLabel('Phone number').fill('512-555-0142')
    await form.getByRole('button', { name: 'Create dealer' }).click()
    // The API's own message for this ZIP code, asked directly with the same address.
    const bad = await refused('POST', '/api/dealers', {
      dealerNumber: `${dealerNumber}-X`,
      legalName: 'x',
      addresses: [{ line1: '100 Congress Ave', city: 'Austin', state: 'TX', postalCode: '7870' }],
    })
    assert.equal(bad.status, 400)
    const message = bad.problem.errors!.find((e) => e.field === 'addresses[0].postalCode')!.message
    await page.waitForFunction(
      `document.querySelector('input[name="addresses[0].postalCode"]')?.getAttribute('aria-invalid') === 'true'`,
      undefined,
      { timeout: 60_000 },
    )
    const zip = form.getByLabel('ZIP code')
    assert.equal(await errorUnder(zip), message)
    await accessible('dealer form with an error')
    await shot('dealer-form-error')

    await zip.fill('78701')
    await form.getByRole('button', { name: 'Create dealer' }).click()
    await page.locator('[data-testid="holder-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const [stored] = await call<Dealer[]>('GET', `/api/dealers?dealerNumber=${dealerNumber}`, admin)
    assert.ok(stored, 'the dealer is stored')
    assert.equal(stored.dealerGroupId, group!.id)
    assert.match(page.url(), new RegExp(`/console/accountholders/dealers/${stored.id}$`))
    const details = page.getByTestId('holder-details')
    for (const [label, value] of [
      ['Dealer number', stored.dealerNumber],
      ['Legal name', stored.legalName],
      ['Display name', stored.displayName],
      ['Dealer type', stored.dealerType!],
    ] as const)
      assert.equal(
        (await details.getByRole('row', { name: label, exact: false }).first().getByRole('cell').textContent())?.trim(),
        value,
        label,
      )
    await details.getByRole('link', { name: `Dealer group ${group!.id}` }).waitFor()
    const a = stored.addresses[0]!
    await page.getByText(`mailing: ${a.line1}, ${a.city}, ${a.state} ${a.postalCode}`).waitFor()
    await page.getByText(`office: ${stored.phones[0]!.number}`).waitFor()
    await accessible('dealer page')
    await shot('dealer-page')

    // In the dealers list, found by its number (the search opened from its URL).
    await page.goto(`${base}/console/accountholders/dealers?businessKey=${dealerNumber}`)
    await page
      .getByTestId('holders-total')
      .filter({ hasText: /^1 dealer$/ })
      .waitFor({ timeout: 60_000 })
    await page.getByTestId('holders-table').getByRole('link', { name: stored.displayName }).waitFor()
    await accessible('dealers list searched')
    await shot('dealers-searched')

    // Changed through the same form: the display name, as the API then gives it.
    await page.getByTestId('holders-table').getByRole('link', { name: stored.displayName }).click()
    await page.locator('[data-testid="holder-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    await page.getByRole('link', { name: 'Change', exact: true }).click()
    await page.getByRole('heading', { name: `Change dealer ${stored.id}` }).waitFor()
    await page.getByTestId('holder-form').getByLabel('Display name').fill(`Console Motors ${stamp}`)
    await page.getByTestId('holder-form').getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('heading', { name: `Dealer Console Motors ${stamp}`, level: 1 }).waitFor({ timeout: 60_000 })
    const changed = await call<Dealer>('GET', `/api/dealers/${stored.id}`, admin)
    assert.equal(changed.displayName, `Console Motors ${stamp}`)
    assert.equal(changed.legalName, stored.legalName)
  })

  test('a custom field added on the dealer’s page; a disbursement account masked, then shown as the API reveals it', async () => {
    const [dealer] = await call<Dealer[]>('GET', `/api/dealers?dealerNumber=${dealerNumber}`, admin)
    await page.goto(`${base}/console/accountholders/dealers/${dealer!.id}`)
    const fields = page.getByTestId('custom-fields')
    await fields.getByText('No custom fields.').waitFor({ timeout: 60_000 })
    await fields.getByLabel('Field name').fill('dmsProvider')
    await fields.getByLabel('Field value').fill('Reynolds')
    await fields.getByRole('button', { name: 'Add field' }).click()
    await fields.getByText('Field dmsProvider added.').waitFor({ timeout: 60_000 })
    const stored = await call<Array<{ name: string; value: unknown }>>(
      'GET',
      `/api/dealers/${dealer!.id}/customfields`,
      admin,
    )
    assert.deepEqual(
      stored.map((f) => [f.name, f.value]),
      [['dmsProvider', 'Reynolds']],
    )
    await fields.getByRole('table', { name: 'Custom fields' }).getByRole('cell', { name: 'Reynolds' }).waitFor()

    // An ACH account added through the page, first with a routing number whose check digit is wrong:
    // the API's message for it under the routing number field.
    const accounts = page.getByTestId('disbursement-accounts')
    await accounts.getByLabel('Account name').fill('Operating account')
    await accounts.getByLabel('Bank name').fill('First National Bank')
    await accounts.getByLabel('Routing number').fill('021000020')
    await accounts.getByLabel('Account number').fill('000123456789')
    await accounts.getByLabel('Default account').check()
    await accounts.getByRole('button', { name: 'Add account' }).click()
    const badRouting = await refused('POST', '/api/disbursementaccounts', {
      accountHolderId: dealer!.id,
      name: 'x',
      paymentMethod: 'ACH',
      bankName: 'x',
      routingNumber: '021000020',
      accountNumber: '000123456789',
      accountType: 'CHECKING',
    })
    assert.equal(badRouting.status, 400)
    const routingMessage = badRouting.problem.errors!.find((e) => e.field === 'routingNumber')!.message
    await accounts.getByText(routingMessage).waitFor({ timeout: 60_000 })
    assert.equal(await errorUnder(accounts.getByLabel('Routing number')), routingMessage)
    await accounts.getByLabel('Routing number').fill('021000021')
    await accounts.getByRole('button', { name: 'Add account' }).click()
    await accounts.getByText('Account Operating account added.').waitFor({ timeout: 60_000 })
    // The page shows the numbers the API gives, masked.
    const [account] = await call<Array<{ id: number; accountNumber: string; routingNumber: string }>>(
      'GET',
      `/api/disbursementaccounts?accountHolderId=${dealer!.id}`,
      admin,
    )
    assert.equal(account!.accountNumber, '*****6789')
    await accounts.getByRole('cell', { name: account!.accountNumber, exact: true }).waitFor({ timeout: 60_000 })
    await accounts.getByRole('cell', { name: account!.routingNumber, exact: true }).waitFor()
    await accessible('dealer page with a custom field and an account')
    await shot('dealer-custom-field-account')
    // The administrator holds bankdetails:read: the API reveals the numbers, and the page shows them.
    const clear = await call<{ accountNumber: string }>(
      'GET',
      `/api/disbursementaccounts/${account!.id}?reveal=true`,
      admin,
    )
    await accounts.getByRole('button', { name: 'Show bank details of Operating account' }).click()
    await accounts.getByRole('cell', { name: clear.accountNumber, exact: true }).waitFor({ timeout: 60_000 })
    await shot('dealer-account-revealed')
  })

  test('users: the list’s total is the API’s, a user created with a role, then expired', async () => {
    await page.getByRole('link', { name: 'Users and roles' }).click()
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor()
    const users = await total('/api/v1/adminusers?limit=1')
    await page
      .getByTestId('users-total')
      .filter({ hasText: new RegExp(`^${users} users?$`) })
      .waitFor({ timeout: 60_000 })
    await accessible('users list')
    await shot('users')

    const email = `console.user.${stamp}@console-e2e.example`
    await page.getByRole('link', { name: 'New user' }).click()
    await page.getByRole('heading', { name: 'New user', level: 1 }).waitFor()
    const form = page.getByTestId('user-form')
    await form.getByLabel('Email address').fill(email)
    await form.getByLabel('First name').fill('Casey')
    await form.getByLabel('Last name').fill('Console')
    await form.getByRole('checkbox', { name: 'Read-only' }).check()
    // A password the API finds too short: its message under the field.
    const password = form.getByLabel('Password', { exact: true })
    await password.fill('short')
    await form.getByRole('button', { name: 'Create user' }).click()
    const tooShort = await refused('POST', '/api/v1/adminusers', { emailAddress: email, password: 'short' })
    assert.equal(tooShort.status, 400)
    const tooShortMessage = tooShort.problem.errors!.find((e) => e.field === 'password')!.message
    await form.getByText(tooShortMessage).waitFor({ timeout: 60_000 })
    assert.equal(await errorUnder(password), tooShortMessage)
    await accessible('new user form with an error')
    await shot('user-form-error')
    await password.fill('console-e2e-Pass-2')
    await form.getByRole('button', { name: 'Create user' }).click()
    await page.locator('[data-testid="user-page"][data-ready="true"]').waitFor({ timeout: 60_000 })
    const [created] = await call<Array<{ id: number; isActive: boolean; roles: Array<{ name: string }> }>>(
      'GET',
      `/api/v1/adminusers?searchData.emailAddress=${encodeURIComponent(email)}`,
      admin,
    )
    assert.deepEqual(
      created!.roles.map((r) => r.name),
      ['Read-only'],
    )
    assert.equal(created!.isActive, true)
    await page.getByTestId('user-roles').getByText('Read-only', { exact: true }).waitFor({ timeout: 60_000 })
    assert.equal((await page.getByTestId('user-status').textContent())?.trim(), 'active')
    await accessible('user page')
    await shot('user-page')

    await page.getByRole('button', { name: 'Expire now' }).click()
    await page.getByText('The user is expired.').waitFor({ timeout: 60_000 })
    await page
      .getByTestId('user-status')
      .filter({ hasText: /^expired$/ })
      .waitFor({ timeout: 60_000 })
    const expired = await call<{ isActive: boolean; expiredDate: string | null }>(
      'GET',
      `/api/v1/adminusers/${created!.id}`,
      admin,
    )
    assert.equal(expired.isActive, false)
    assert.ok(expired.expiredDate)
    await page.getByRole('button', { name: 'Reactivate' }).waitFor()
    await accessible('user expired')
    await shot('user-expired')
  })

  test('roles and groups: the API’s roles with their permissions, and its groups', async () => {
    await page.goto(`${base}/console/roles`)
    await page.getByRole('heading', { name: 'Roles and groups', level: 1 }).waitFor()
    const roles = await total('/api/MembershipRoles?limit=1')
    const groups = await total('/api/MembershipGroups?limit=1')
    await page
      .getByTestId('roles')
      .getByText(new RegExp(`^${roles} roles?$`))
      .waitFor({ timeout: 60_000 })
    await page
      .getByTestId('groups')
      .getByText(new RegExp(`^${groups} groups?$`))
      .waitFor({ timeout: 60_000 })
    await page.getByTestId('roles').getByRole('cell', { name: 'READ_ONLY' }).waitFor()
    await accessible('roles and groups')
    await shot('roles')
  })
})
