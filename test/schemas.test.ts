// Route schemas compile at their first use (platform/http/validation.ts): every one of them must
// compile, which this checks for the whole app, and a route validates the same before and after.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { compilePendingSchemas } from '../src/platform/http/validation.ts'
import { createTenant, createTestApp, json, type TestApp } from './harness.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(() => t.close())

test('a route refuses a bad body at its first use, compiled then', async () => {
  const tenant = await createTenant(t)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dealers',
    headers: tenant.headers,
    payload: { dealerNumber: 12, legalName: 'Typed Wrong Motors' },
  })
  assert.equal(res.statusCode, 400)
  assert.deepEqual(
    json<{ errors: Array<{ field: string }> }>(res).errors.map((e) => e.field),
    ['dealerNumber'],
  )
})

test('every schema the app holds compiles', async () => {
  const compiled = compilePendingSchemas()
  // Hundreds of route parts and responses wait for their first use after an app is built.
  assert.ok(compiled > 100, `only ${compiled} schemas were waiting`)
  assert.equal(compilePendingSchemas(), 0)
  const tenant = await createTenant(t)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dealers',
    headers: tenant.headers,
    payload: { dealerNumber: 12, legalName: 'Typed Wrong Motors' },
  })
  assert.equal(res.statusCode, 400)
})
