// The role × route authorization matrix (test/authorization-matrix.ts, rendered in
// test/authorization-matrix.md): every operation of the OpenAPI document, called by every subject
// (anonymous, API key only, token only, each default role, a dealer-side user), answers the cell's
// expected 2xx / 401 / 403 / 404. An operation missing from the matrix fails the suite.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { after, before, test } from 'node:test'
import { createTestApp, createUserWithRoles, type TestApp } from './harness.ts'
import {
  DEFAULT_ROLES,
  expectedCell,
  LOOSE_2XX,
  renderMatrix,
  rolesFromDocs,
  ROUTE_PERMISSIONS,
  SUBJECTS,
  type Cell,
  type Subject,
} from './authorization-matrix.ts'
import {
  buildWorld,
  documentedOperations,
  NOW,
  OPERATION_REQUESTS,
  send,
  type Headers,
  type OperationRequest,
  type World,
} from './security-world.ts'

const MATRIX_FILE = new URL('./authorization-matrix.md', import.meta.url)

let t: TestApp
let w: World
let roles: Map<string, Set<string>>
let operations: Awaited<ReturnType<typeof documentedOperations>>
const headersOf = new Map<Subject, Headers>()
const refused = new Map<string, OperationRequest>()

before(async () => {
  t = await createTestApp({ now: NOW })
  w = await buildWorld(t, 'M')
  roles = rolesFromDocs()
  operations = await documentedOperations(t)
  headersOf.set('anonymous', {})
  headersOf.set('apiKeyOnly', { 'x-api-key': w.tenant.apiKey })
  headersOf.set('tokenOnly', { authorization: w.admin.authorization! })
  for (const role of DEFAULT_ROLES)
    headersOf.set(role as Subject, (await createUserWithRoles(t, w.tenant, [role])).headers)
  headersOf.set(
    'dealerSide',
    (await createUserWithRoles(t, w.tenant, ['DEALER_USER'], { groups: [{ id: w.portalGroup.id }] })).headers,
  )
})
after(() => t.close())

test('every operation of the OpenAPI document is a row of the matrix and has a request, and nothing else is', () => {
  const documented = operations.map((o) => o.key).toSorted()
  assert.deepEqual(
    documented.filter((k) => !ROUTE_PERMISSIONS[k]),
    [],
    'operations missing from ROUTE_PERMISSIONS (test/authorization-matrix.ts)',
  )
  assert.deepEqual(
    Object.keys(ROUTE_PERMISSIONS).filter((k) => !documented.includes(k)),
    [],
    'matrix rows that are no operation',
  )
  assert.deepEqual(
    documented.filter((k) => !OPERATION_REQUESTS[k]),
    [],
    'operations without a request (test/security-world.ts)',
  )
  assert.deepEqual(
    Object.keys(OPERATION_REQUESTS).filter((k) => !documented.includes(k)),
    [],
    'requests of no operation',
  )
})

test('docs/permissions.md defines every default role the matrix has a column for', () => {
  assert.deepEqual([...roles.keys()].toSorted(), [...DEFAULT_ROLES].toSorted())
  assert.deepEqual([...roles.get('ADMINISTRATOR')!], ['*'])
  assert.ok(roles.get('READ_ONLY')!.has('contracts:read') && !roles.get('READ_ONLY')!.has('bankdetails:read'))
  assert.ok(roles.get('CONTRACT_ADMINISTRATOR')!.has('contracts:finalize'))
})

test('each operation declares, in the OpenAPI document, the permission and credentials the matrix gives it', () => {
  const mismatches: string[] = []
  for (const op of operations) {
    const row = ROUTE_PERMISSIONS[op.key]!
    const declared = /Requires permission `([^`]+)`/.exec(op.description)?.[1]
    if (declared !== row.permission)
      mismatches.push(`${op.key}: documented ${declared ?? '(none)'}, matrix ${row.permission ?? '(none)'}`)
    const schemes = op.security
      .map((s) => Object.keys(s).toSorted().join('+'))
      .toSorted()
      .join('|')
    const credentials = { none: '', apiKey: 'apiKey', user: 'apiKey+bearer', scim: 'apiKey+bearer|bearer' }[row.auth]
    const expected = row.signedLink ? `${credentials}|signedLink` : credentials
    if (schemes !== expected) mismatches.push(`${op.key}: security ${schemes}, matrix ${expected}`)
  }
  assert.deepEqual(mismatches, [])
})

test('test/authorization-matrix.md is the matrix', () => {
  const rendered = renderMatrix(
    operations.map((o) => o.key),
    roles,
  )
  if (process.env.UPDATE_AUTHORIZATION_MATRIX === '1') fs.writeFileSync(MATRIX_FILE, rendered)
  assert.equal(
    fs.readFileSync(MATRIX_FILE, 'utf8'),
    rendered,
    'run the test with UPDATE_AUTHORIZATION_MATRIX=1 and review the diff',
  )
})

function matches(cell: Cell, status: number, operation: string): boolean {
  if (cell === '2xx') return LOOSE_2XX[operation] ? status !== 401 && status !== 403 : status >= 200 && status < 300
  return status === Number(cell)
}

for (const subject of SUBJECTS) {
  test(`every cell of the ${subject} column`, async (ctx) => {
    const headers = headersOf.get(subject)!
    const wrong: string[] = []
    const counts: Record<string, number> = {}
    for (const op of operations) {
      const cell = expectedCell(op.key, subject, roles)
      counts[cell] = (counts[cell] ?? 0) + 1
      // A refused request is refused before its body is read, so one request per operation serves
      // every refused cell; an allowed one gets fresh resources.
      let request = cell === '401' || cell === '403' ? refused.get(op.key) : undefined
      if (!request) {
        request = await OPERATION_REQUESTS[op.key]!(t, w)
        if (cell === '401' || cell === '403') refused.set(op.key, request)
      }
      const res = await send(t, op.key, request, headers)
      if (!matches(cell, res.statusCode, op.key))
        wrong.push(`${op.key}: expected ${cell}, got ${res.statusCode} ${res.body.slice(0, 200)}`)
      if (res.statusCode >= 400) {
        const code = (res.json() as { code?: string; status?: string }).code
        const expectedCode = {
          401: ['unauthenticated', 'invalid_token', 'invalid_api_key'],
          403: ['permission_denied'],
          404: [] as string[],
        }[cell === '2xx' ? 404 : (Number(cell) as 401 | 403 | 404)]
        if (cell !== '2xx' && cell !== '404' && code !== undefined && !expectedCode.includes(code))
          wrong.push(`${op.key}: ${res.statusCode} with code ${code}`)
      }
    }
    ctx.diagnostic(
      `${subject}: ${operations.length} operations (${Object.entries(counts)
        .map(([c, n]) => `${n} × ${c}`)
        .join(', ')})`,
    )
    assert.deepEqual(wrong, [])
  })
}

test('matrix size', (ctx) => {
  ctx.diagnostic(
    `authorization matrix: ${operations.length} operations × ${SUBJECTS.length} subjects = ${operations.length * SUBJECTS.length} cells`,
  )
  assert.ok(operations.length > 100)
})
