// The shared security suite, run over every route in the OpenAPI document: no credentials → 401,
// a user without the route's permission → 403, hostile input → 4xx (never 5xx). Routes added by
// later modules are covered automatically.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTenant, createTestApp, createUserWithRoles, json, type TestApp, type TestTenant } from './harness.ts'

type Operation = { security?: Array<Record<string, unknown>>; description?: string }
type Route = { method: string; path: string; op: Operation }

let t: TestApp
let tenant: TestTenant
let routes: Route[]

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t)
  const doc = json<{ paths: Record<string, Record<string, Operation>> }>(
    await t.app.inject({ method: 'GET', url: '/api/openapi.json' }),
  )
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
  assert.ok(routes.length > 10)
})
after(() => t.close())

const HOSTILE_IDS = [
  '1',
  '0',
  '-1',
  '1.5',
  'abc',
  '99999999999999999999999',
  "1'%20OR%20'1'='1",
  '%00',
  '%F0%9F%92%A5',
  'x'.repeat(400),
  '..%2F..%2Fetc%2Fpasswd',
]
const HOSTILE_BODIES: unknown[] = [
  {},
  [],
  'text',
  12,
  null,
  { id: "1' OR 1=1 --" },
  { emailAddress: '\u0000' },
  { a: { b: { c: { d: { e: {} } } } } },
  { schemas: 'x', Operations: 'y' },
]

const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value)
const needsUser = (r: Route) => (r.op.security ?? []).some((s) => 'bearer' in s)
const needsAnyCredential = (r: Route) => (r.op.security ?? []).length > 0

test('no credentials → 401 on every authenticated route', async () => {
  for (const r of routes.filter(needsAnyCredential)) {
    const res = await t.app.inject({
      method: r.method,
      url: fill(r.path, '1'),
      payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
    })
    assert.equal(res.statusCode, 401, `${r.method} ${r.path}: ${res.body}`)
  }
})

test("a user without the route's permission → 403", async () => {
  const nobody = await createUserWithRoles(t, tenant, [])
  for (const r of routes.filter(needsUser)) {
    const permission = /Requires permission `([^`]+)`/.exec(r.op.description ?? '')?.[1]
    if (!permission) continue
    const res = await t.app.inject({
      method: r.method,
      url: fill(r.path, '1'),
      headers: nobody.headers,
      payload: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
    })
    assert.equal(res.statusCode, 403, `${r.method} ${r.path}: ${res.body}`)
  }
})

test('every route that needs a user declares a permission', () => {
  const undeclared = routes
    .filter(needsUser)
    .filter((r) => !/Requires permission `/.test(r.op.description ?? ''))
    .map((r) => `${r.method} ${r.path}`)
  assert.deepEqual(undeclared, [])
})

test('hostile input never produces a 5xx', async () => {
  for (const r of routes) {
    for (const id of HOSTILE_IDS) {
      const url = fill(r.path, id)
      const query = `?limit=-1&offset=abc&filter=${encodeURIComponent('userName eq "x" or (')}&startIndex=0&count=99999&searchData.id=%27`
      const bodies = r.method === 'GET' || r.method === 'DELETE' ? [undefined] : HOSTILE_BODIES
      for (const payload of bodies) {
        const res = await t.app.inject({
          method: r.method,
          url: url + query,
          headers: { ...tenant.headers, 'content-type': 'application/json' },
          ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
        })
        assert.ok(res.statusCode < 500, `${r.method} ${url} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`)
        assert.doesNotMatch(
          res.body,
          /\bat [\w.<>]+ \(|node_modules|SELECT |syntax error at/i,
          `${r.method} ${url} leaks internals`,
        )
      }
    }
  }
})
