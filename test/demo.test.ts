// The demo tenant as `npm start` prepares it (src/demo.ts): a first start stopped after the tenant
// was created but before its data committed is completed by the next start, and lost credentials
// are replaced by new ones that work.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { completeDemoTenant, DEMO_ADMIN_EMAIL, DEMO_TENANT_NAME, findDemoTenant } from '../src/demo.ts'
import { systemContext } from '../src/platform/http/context.ts'
import { DEMO } from './demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(() => t.close())

test('a demo tenant left without its data is seeded, and gets new working credentials', async () => {
  // What a first start leaves when stopped during the seeding: the tenant, no parties, no rate book.
  const created = await t.tenants.createTenant(
    { name: DEMO_TENANT_NAME, adminEmail: DEMO_ADMIN_EMAIL, adminPassword: 'a-password-never-shown' },
    (tenantId) => systemContext(tenantId, 'demo-seed'),
  )
  const demoTenantId = await findDemoTenant(t.db)
  assert.ok(demoTenantId !== undefined)
  const dealersBefore = await t.db.read(created.tenantId, (x) =>
    x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', created.tenantId)
      .where('kind', '=', 'DEALER')
      .execute(),
  )
  assert.equal(dealersBefore.length, 0)

  const demo = await completeDemoTenant(t.modules, t.db, created.tenantId, true)
  assert.ok(demo)
  assert.equal(demo.tenantId, created.tenantId)
  assert.equal(demo.adminEmail, DEMO_ADMIN_EMAIL)

  const headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  const dealers = json<Array<{ dealerNumber: string }>>(
    await t.app.inject({ method: 'GET', url: '/api/dealers', headers }),
  )
  assert.ok(dealers.some((d) => d.dealerNumber === DEMO.dealerNumber))
  const quote = await t.app.inject({
    method: 'GET',
    url: `/api/Rates/rateQuote/${DEMO.dealerNumber}?${DEMO.accordQuery}`,
    headers,
  })
  assert.equal(quote.statusCode, 200, quote.body)
  // The password set at creation is gone; the key made then still names the tenant.
  await assert.rejects(loginHeaders(t, demo.apiKey, DEMO_ADMIN_EMAIL, 'a-password-never-shown'))
  await loginHeaders(t, created.apiKey, demo.adminEmail, demo.adminPassword)

  // Run again with the data present and nothing lost: nothing to do, nothing seeded twice.
  const count = async () =>
    (
      await t.db.read(created.tenantId, (x) =>
        x.selectFrom('account_holder').select('id').where('tenant_id', '=', created.tenantId).execute(),
      )
    ).length
  const seeded = await count()
  assert.ok(seeded > dealers.length)
  assert.equal(await completeDemoTenant(t.modules, t.db, created.tenantId, false), undefined)
  assert.equal(await count(), seeded)
})
