// The OpenAPI document as client generators see it (docs/openapi.md): the committed docs/openapi.json
// is the served /api/openapi.json, so every API change shows in a review's diff, and every operation
// has an operationId a generated SDK can name a method after.
//
// UPDATE_OPENAPI=1 rewrites docs/openapi.json from the served document; `npm run openapi:update` does
// that and regenerates the client types (test/openapi-types.ts) from it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createTestApp } from './harness.ts'

const COMMITTED = fileURLToPath(new URL('../docs/openapi.json', import.meta.url))

/**
 * The verbs an operationId starts with (docs/openapi.md): the standard ones of each method, and the
 * actions some POST, PATCH or DELETE routes name instead. SCIM ids put `scim` before the verb.
 */
export const OPERATION_VERBS: ReadonlySet<string> = new Set([
  'list',
  'get',
  'create',
  'replace',
  'update',
  'delete',
  'patch',
  'set',
  'reset',
  'link',
  'unlink',
  'upload',
  'render',
  'issue',
  'expire',
  'evaluate',
  'import',
  'export',
  'finalize',
  'refinalize',
  'resolve',
  // Cancellations (docs/cancellations.md): an action on a cancel request, a cancel's reversal.
  'act',
  'reverse',
  // Earnings (docs/earnings.md): posting what is due for one contract.
  'sync',
  // Claims (docs/claims.md "Denying the claims of ended contracts"): denying the claims of ended contracts.
  'deny',
  // Contracts (docs/contracts.md "Automatic expiry and voiding"): voiding a pending contract left too long.
  'void',
])

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

type Operation = { operationId?: string; tags?: string[] }
type Document = { paths: Record<string, Record<string, unknown>> }

let served: Document

before(async () => {
  const t = await createTestApp()
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
  assert.equal(res.statusCode, 200, res.body)
  served = res.json() as Document
  await t.close()
})

/** JSON pointers (RFC 6901) of the first `max` places where `a` and `b` differ, depth first. */
function differences(a: unknown, b: unknown, max = 20): string[] {
  const found: string[] = []
  const walk = (x: unknown, y: unknown, pointer: string) => {
    if (found.length >= max) return
    if (
      x !== null &&
      y !== null &&
      typeof x === 'object' &&
      typeof y === 'object' &&
      Array.isArray(x) === Array.isArray(y)
    ) {
      const xs = x as Record<string, unknown>
      const ys = y as Record<string, unknown>
      for (const key of new Set([...Object.keys(xs), ...Object.keys(ys)]))
        walk(xs[key], ys[key], `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    } else if (JSON.stringify(x) !== JSON.stringify(y)) found.push(pointer || '/')
  }
  walk(a, b, '')
  return found
}

test('docs/openapi.json is the served document', () => {
  const text = `${JSON.stringify(served, null, 2)}\n`
  if (process.env.UPDATE_OPENAPI === '1') {
    fs.writeFileSync(COMMITTED, text)
    return
  }
  const committed = fs.existsSync(COMMITTED) ? fs.readFileSync(COMMITTED, 'utf8') : ''
  if (committed === text) return
  const where = committed ? differences(JSON.parse(committed), served) : ['(no file)']
  assert.fail(
    `docs/openapi.json is not the served document; it differs at:\n  ${where.join('\n  ')}\n` +
      'If the API change is intended, run `npm run openapi:update` and commit docs/openapi.json and test/openapi-types.ts.',
  )
})

test('every operation has a unique camelCase operationId that starts with a verb', () => {
  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const [path, item] of Object.entries(served.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue
      const where = `${method.toUpperCase()} ${path}`
      const { operationId: id, tags = [] } = value as Operation
      if (id === undefined) {
        problems.push(`${where}: no operationId`)
        continue
      }
      if (seen.has(id)) problems.push(`${where}: operationId ${id} is also ${seen.get(id)}'s`)
      seen.set(id, where)
      if (!/^[a-z][a-zA-Z0-9]*$/.test(id)) {
        problems.push(`${where}: operationId ${id} is not camelCase`)
        continue
      }
      const scim = tags.includes('SCIM')
      if (scim !== id.startsWith('scim'))
        problems.push(`${where}: operationId ${id} must ${scim ? '' : 'not '}start with scim (SCIM routes only)`)
      const bare = scim ? id.replace(/^scim([A-Z])/, (_, c: string) => c.toLowerCase()) : id
      const verb = /^[a-z]+(?=[A-Z])/.exec(bare)?.[0]
      if (verb === undefined || !OPERATION_VERBS.has(verb))
        problems.push(
          `${where}: operationId ${id} does not start with a verb and a noun (verbs: ${[...OPERATION_VERBS].join(', ')})`,
        )
      if (!scim && path.toLowerCase().startsWith('/api/v2/') && !id.endsWith('V2'))
        problems.push(`${where}: operationId ${id} of a /api/v2 route must end with V2`)
    }
  }
  if (problems.length > 0) assert.fail(`operationId problems:\n  ${problems.join('\n  ')}`)
})
