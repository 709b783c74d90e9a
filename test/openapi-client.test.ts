// A client generated from the committed OpenAPI document drives the API (docs/openapi.md): the types
// of test/openapi-types.ts (openapi-typescript, from docs/openapi.json) with openapi-fetch, over real
// HTTP, on the demo tenant: token → rate quote → contract → finalize. The calls carry no casts, so a
// wrong generated type fails the type check, and a wrong document fails here.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, test } from 'node:test'
import createClient from 'openapi-fetch'
import { DOCUMENT_FILE, sourceLine, TYPES_FILE } from '../scripts/openapi-client.ts'
import { seedDemoTenant, type DemoTenant } from '../src/demo.ts'
import { createTestApp, type TestApp } from './harness.ts'
import type { paths } from './openapi-types.ts'

const NOW = new Date('2026-11-21T18:00:00Z')
const SALE_DATE = '2026-11-21'
const VIN = '1HGCV1F37LA012345'

let t: TestApp
let demo: DemoTenant
let baseUrl: string

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemoTenant(t.modules, t.db)
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
})
after(() => t.close())

test('test/openapi-types.ts is generated from the committed docs/openapi.json', () => {
  // The header names the document's digest; regenerating (seconds) is the script's job, not every test run's.
  const header = fs.readFileSync(TYPES_FILE, 'utf8').split('\n', 3)
  assert.ok(
    header.includes(sourceLine(fs.readFileSync(DOCUMENT_FILE, 'utf8'))),
    'test/openapi-types.ts was generated from another docs/openapi.json: run `npm run openapi:client` and commit it',
  )
})

test('the generated client takes a quote to a finalized contract', async () => {
  const client = createClient<paths>({ baseUrl })

  const token = await client.POST('/api/auth/token', {
    headers: { 'x-api-key': demo.apiKey },
    body: { grant_type: 'password', username: demo.adminEmail, password: demo.adminPassword },
  })
  assert.equal(token.response.status, 200, JSON.stringify(token.error))
  assert.ok(token.data)
  const headers = { 'x-api-key': demo.apiKey, authorization: `Bearer ${token.data.access_token}` }

  const quote = await client.GET('/api/Rates/rateQuote/{dealerNumber}', {
    headers,
    params: {
      path: { dealerNumber: '10001' },
      query: {
        vin: VIN,
        vehicleCondition: 'USED',
        odometer: 42150,
        inServiceDate: '2020-05-01',
        saleDate: SALE_DATE,
        productTypes: 'VSC',
      },
    },
  })
  assert.equal(quote.response.status, 200, JSON.stringify(quote.error))
  assert.ok(quote.data)
  const plan = quote.data.products
    .find((p) => p.productCode === 'VSC')
    ?.programs.flatMap((g) => g.plans)
    .find((p) => p.planCode === 'PLAT-USED')
  assert.ok(plan, 'the demo book quotes PLAT-USED for a used Honda')
  const term = plan.terms.find((x) => x.termMonths === 48) ?? plan.terms[0]
  const rate = (term?.deductibles.find((d) => d.code === 'D100') ?? term?.deductibles[0])?.rate
  assert.ok(rate)

  const created = await client.POST('/api/contracts', {
    headers,
    body: {
      quoteId: quote.data.quoteId,
      rateId: rate.rateId,
      retailPrice: rate.suggestedRetail,
      saleDate: SALE_DATE,
      saleOdometer: 42150,
      vehicle: { vin: VIN, condition: 'USED' },
      customer: {
        firstName: 'Sam',
        lastName: 'Buyer',
        emailAddress: 'sam@example.com',
        address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
      },
      customFields: { financeManagerCode: 'FM7' },
    },
  })
  assert.equal(created.response.status, 201, JSON.stringify(created.error))
  assert.ok(created.data)
  assert.equal(created.data.status, 'PENDING')
  assert.equal(created.data.pricing.retailPrice, rate.suggestedRetail)

  const finalized = await client.POST('/api/contracts/{contractId}/finalize', {
    headers,
    params: { path: { contractId: created.data.id } },
    body: {},
  })
  assert.equal(finalized.response.status, 200, JSON.stringify(finalized.error))
  assert.ok(finalized.data)
  assert.equal(finalized.data.contract.status, 'ACTIVE')

  const read = await client.GET('/api/contracts/{contractId}', {
    headers,
    params: { path: { contractId: created.data.id } },
  })
  assert.equal(read.response.status, 200, JSON.stringify(read.error))
  assert.equal(read.data?.contractNumber, created.data.contractNumber)
  assert.equal(read.data?.status, finalized.data.contract.status)
})
