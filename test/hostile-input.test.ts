// Hostile input the platform refuses once for every route: text no database column can hold (NUL,
// lone surrogates) anywhere in the path, query string or body; bodies nested deeper than the walk
// allows; numbers that are not finite or that no column holds; an oversized request line (431, over
// a real socket, since inject does not go through Node's HTTP parser).
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { MAX_JSON_DEPTH, printable, scanText } from '../src/platform/text.ts'
import { createTenant, createTestApp, json, type TestApp, type TestTenant } from './harness.ts'

type Problem = {
  status: number
  code: string
  detail: string
  requestId: string
  errors?: Array<{ field: string; code: string; message: string }>
}

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t)
})
after(() => t.close())

const send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: string,
  contentType = 'application/json',
) =>
  t.app.inject({
    method,
    url,
    headers: { ...tenant.headers, ...(payload === undefined ? {} : { 'content-type': contentType }) },
    ...(payload === undefined ? {} : { payload }),
  })

function problem(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
): Problem {
  assert.equal(res.statusCode, status, res.body)
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
  const body = JSON.parse(res.body) as Problem
  assert.equal(body.code, code, res.body)
  return body
}
const fields = (p: Problem) => (p.errors ?? []).map((e) => `${e.field}:${e.code}`)

const DEALER = { dealerNumber: 'D-1', legalName: 'Main Street Motors LLC' }

describe('scanText', () => {
  test('walks 100,000 levels without recursion, stopping at the depth bound', () => {
    let value: unknown = 'x\u0000'
    for (let i = 0; i < 100_000; i++) value = [value]
    assert.deepEqual(scanText(value), { findings: [], truncated: false, tooDeep: true })
    assert.equal(scanText(value, Number.POSITIVE_INFINITY).findings.length, 1)
  })

  test('names each NUL and lone surrogate, in values and member names, in document order', () => {
    const scan = scanText({ a: ['ok', 'n\u0000'], 'k\u0000': 1, b: { c: '\ud800' }, d: '\udc00\ud83d\ude00' })
    assert.deepEqual(scan.findings, [
      { path: ['a', 1], inKey: false, reason: 'nul' },
      { path: ['k\u0000'], inKey: true, reason: 'nul' },
      { path: ['b', 'c'], inKey: false, reason: 'lone_surrogate' },
      { path: ['d'], inKey: false, reason: 'lone_surrogate' },
    ])
    assert.equal(scan.tooDeep, false)
    // A well-formed surrogate pair and other control characters are the modules' business.
    assert.deepEqual(scanText({ e: '\ud83d\ude00\u0001' }).findings, [])
  })

  test('exactly MAX_JSON_DEPTH levels pass, one more does not', () => {
    const nest = (levels: number) => {
      let v: unknown = 1
      for (let i = 0; i < levels; i++) v = { a: v }
      return v
    }
    assert.equal(scanText(nest(MAX_JSON_DEPTH)).tooDeep, false)
    assert.equal(scanText(nest(MAX_JSON_DEPTH + 1)).tooDeep, true)
  })

  test('printable writes refused characters as escapes', () => {
    assert.equal(printable('a\u0000b\ud800c\ud83d\ude00'), 'a\\u0000b\\ud800c\ud83d\ude00')
  })
})

describe('deeply nested bodies', () => {
  test('10,000 levels answer 400 too_deep on every kind of JSON route, not a stack overflow', async () => {
    const arrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    const objects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`
    for (const [method, url, body, type] of [
      ['POST', '/api/dealers', objects, 'application/json'],
      ['POST', '/api/dealers', arrays, 'application/json'],
      ['POST', '/api/Rates/criteria/evaluate', objects, 'application/json'],
      ['PATCH', '/api/dealers/1', arrays, 'application/merge-patch+json'],
    ] as const) {
      const p = problem(await send(method, url, body, type), 400, 'validation_failed')
      assert.deepEqual(fields(p), ['(body):too_deep'], `${url}`)
      assert.match(p.detail, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`))
    }
    const scim = await t.app.inject({
      method: 'POST',
      url: '/api/v2/Users',
      headers: { ...tenant.headers, 'content-type': 'application/scim+json' },
      payload: objects,
    })
    assert.equal(scim.statusCode, 400, scim.body)
    assert.match(String(scim.headers['content-type']), /^application\/scim\+json/)
  })

  test(`${MAX_JSON_DEPTH} levels pass the walk and meet the schema`, async () => {
    const body = `{"dealerNumber":"D-2","legalName":"x","extra":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`
    const p = problem(await send('POST', '/api/dealers', body), 400, 'validation_failed')
    assert.deepEqual(fields(p), ['extra:unknown_field'])
  })
})

describe('NUL and lone surrogates', () => {
  test('in a body: 400 naming each field, nothing stored', async () => {
    const p = problem(
      await send(
        'POST',
        '/api/dealers',
        JSON.stringify({ ...DEALER, legalName: '\u0000', addresses: [{ line1: 'a\u0000', city: '\ud800' }] }),
      ),
      400,
      'validation_failed',
    )
    assert.deepEqual(fields(p), [
      'legalName:invalid_value',
      'addresses[0].line1:invalid_value',
      'addresses[0].city:invalid_value',
    ])
    assert.match(p.errors?.[0]?.message ?? '', /NUL/)
    assert.match(p.errors?.[2]?.message ?? '', /surrogate/)
    assert.equal(json<unknown[]>(await send('GET', '/api/dealers')).length, 0)
  })

  test('in a member name: 400 naming it, the NUL written as an escape', async () => {
    const p = problem(
      await send('POST', '/api/dealers', JSON.stringify({ ...DEALER, 'x\u0000': 1 })),
      400,
      'validation_failed',
    )
    assert.deepEqual(fields(p), ['x\\u0000:invalid_value'])
    assert.ok(!p.detail.includes('\u0000'))
  })

  test('in the query string and the path: 400 naming the parameter', async () => {
    assert.deepEqual(fields(problem(await send('GET', '/api/dealers?name=%00'), 400, 'validation_failed')), [
      'name:invalid_value',
    ])
    assert.deepEqual(fields(problem(await send('GET', '/api/dealers?name=ok&name=a%00'), 400, 'validation_failed')), [
      'name[1]:invalid_value',
    ])
    assert.deepEqual(
      fields(problem(await send('GET', '/api/contracts?customerName=ab%00'), 400, 'validation_failed')),
      ['customerName:invalid_value'],
    )
    assert.deepEqual(fields(problem(await send('GET', '/api/Rates/rateQuote/%00'), 400, 'validation_failed')), [
      'dealerNumber:invalid_value',
    ])
    assert.deepEqual(
      fields(problem(await send('GET', '/api/portalvisibilitygroups/code/a%00'), 400, 'validation_failed')),
      ['portalVisibilityGroupCode:invalid_value'],
    )
  })

  test('a lone surrogate is refused the same way (validation_failed naming the field)', async () => {
    const body = JSON.stringify({ ...DEALER, legalName: 'Sam' }).replace('"Sam"', '"Sam\\ud800"')
    assert.deepEqual(fields(problem(await send('POST', '/api/dealers', body), 400, 'validation_failed')), [
      'legalName:invalid_value',
    ])
  })

  test('the token endpoint: 400 naming username, JSON or form-encoded', async () => {
    for (const [payload, type] of [
      [JSON.stringify({ grant_type: 'password', username: 'a\u0000@x.example', password: 'p' }), 'application/json'],
      ['grant_type=password&username=a%00%40x.example&password=p', 'application/x-www-form-urlencoded'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'x-api-key': tenant.apiKey, 'content-type': type },
        payload,
      })
      assert.deepEqual(fields(problem(res, 400, 'validation_failed')), ['username:invalid_value'])
    }
  })

  test('the SCIM filter: 400 in the SCIM error schema', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/Users?filter=${encodeURIComponent('userName eq "a\u0000"')}`,
      headers: tenant.headers,
    })
    assert.equal(res.statusCode, 400, res.body)
    assert.match(String(res.headers['content-type']), /^application\/scim\+json/)
    const body = json<{ schemas: string[]; status: string; scimType: string; detail: string }>(res)
    assert.deepEqual(
      [body.schemas, body.status, body.scimType],
      [['urn:ietf:params:scim:api:messages:2.0:Error'], '400', 'invalidValue'],
    )
    assert.match(body.detail, /filter/)
  })
})

describe('numbers that are not finite or that no column holds', () => {
  test('paging: Infinity, 1e309 and 1e26 answer 400 naming the parameter', async () => {
    for (const url of ['/api/dealers', '/api/accountholders', '/api/v1/adminusers', '/api/customfielddefinitions']) {
      for (const value of ['1e309', 'Infinity', '-Infinity', '1e26']) {
        for (const name of ['offset', 'limit']) {
          const p = problem(await send('GET', `${url}?${name}=${value}`), 400, 'validation_failed')
          assert.deepEqual(
            p.errors?.map((e) => e.field),
            [name],
            `${url}?${name}=${value}`,
          )
        }
      }
    }
    assert.deepEqual(
      fields(problem(await send('GET', '/api/v2/contracts?pageNumber=Infinity'), 400, 'validation_failed')),
      ['pageNumber:invalid_type'],
    )
  })

  test('id filters: Infinity and ids past the largest id answer 400', async () => {
    for (const query of [
      'dealerGroupId=Infinity',
      'dealerGroupId=1e309',
      'agentId=-Infinity',
      'dealerGroupId=1e26',
      'agentId=99999999999999999999',
    ]) {
      const p = problem(await send('GET', `/api/dealers?${query}`), 400, 'validation_failed')
      assert.deepEqual(
        p.errors?.map((e) => e.field),
        [query.split('=')[0]],
        query,
      )
    }
  })

  test('1e309 in a JSON body is Infinity to JSON.parse: 400 invalid_type, not a database error', async () => {
    const res = await send(
      'POST',
      '/api/disbursementaccounts',
      '{"accountHolderId":1e309,"paymentMethod":"ACH","accountName":"x","routingNumber":"011000015","accountNumber":"1234"}',
    )
    assert.ok(fields(problem(res, 400, 'validation_failed')).includes('accountHolderId:invalid_type'), res.body)
    const dealer = await send('POST', '/api/dealers', `{"dealerNumber":"D-3","legalName":"x","dealerGroupId":-1e309}`)
    assert.deepEqual(fields(problem(dealer, 400, 'validation_failed')), ['dealerGroupId:invalid_type'])
  })

  test('a path id of Infinity is 400, an integer too large to exist still 404', async () => {
    assert.deepEqual(fields(problem(await send('GET', '/api/dealers/Infinity'), 400, 'validation_failed')), [
      'dealerId:invalid_type',
    ])
    problem(await send('GET', '/api/dealers/99999999999999999999999'), 404, 'account_holder_not_found')
  })
})

describe("requests Node's HTTP parser refuses", () => {
  /** Sends raw bytes to a listening app and returns the raw answer. */
  let listening: Promise<string> | undefined
  async function raw(request: string): Promise<string> {
    listening ??= t.app.listen({ port: 0, host: '127.0.0.1' })
    const port = Number(new URL(await listening).port)
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => {
        answer += chunk
      })
      // The server closes the connection after answering; a reset while we still write is expected.
      socket.on('error', () => {})
      socket.on('close', () => resolve(answer))
      socket.on('timeout', () => reject(new Error('no answer')))
      socket.setTimeout(20_000)
      socket.write(request)
    })
  }

  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Problem

  test('a 100 KB query string: 431 problem+json request_header_too_large', async () => {
    const answer = await raw(
      `GET /api/dealers?name=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${tenant.apiKey}\r\n\r\n`,
    )
    assert.match(answer, /^HTTP\/1\.1 431 /)
    assert.match(answer, /\r\ncontent-type: application\/problem\+json\r\n/i)
    const body = bodyOf(answer)
    assert.deepEqual([body.status, body.code], [431, 'request_header_too_large'])
    assert.match(answer, new RegExp(`\\r\\nx-request-id: ${body.requestId}\\r\\n`, 'i'))
  })

  test('a request line that is not HTTP: 400 problem+json malformed_request', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 400 /)
    assert.match(answer, /\r\ncontent-type: application\/problem\+json\r\n/i)
    assert.deepEqual([bodyOf(answer).status, bodyOf(answer).code], [400, 'malformed_request'])
  })
})
