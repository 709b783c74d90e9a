// POST /api/Rates/criteria/evaluate through HTTP: evaluation, explain, syntax errors with their
// position (422), fact type errors (422), schema violations (400), no credentials (401).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTenant, createTestApp, json, type TestApp, type TestTenant } from '../../../../test/harness.ts'

type Problem = {
  status: number
  code: string
  errors?: Array<{
    field: string
    code: string
    message: string
    offset?: number
    line?: number
    column?: number
    expected?: string
  }>
}

const URL = '/api/Rates/criteria/evaluate'
const CRITERIA = "vehicleAge <= 10 AND odometer < 125000 AND make NOT IN ('TESLA', 'FERRARI') AND condition = 'USED'"
const FACTS = { vehicleAge: 4, odometer: 48000, make: 'TOYOTA', condition: 'USED' }

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t, 'Criteria')
})
after(() => t.close())

const post = (payload: unknown, headers: Record<string, string> = tenant.headers) =>
  t.app.inject({ method: 'POST', url: URL, headers, payload: payload as Record<string, unknown> })

test('evaluates criteria against facts', async () => {
  const yes = await post({ criteria: CRITERIA, facts: FACTS })
  assert.equal(yes.statusCode, 200, yes.body)
  assert.deepEqual(json(yes), { result: true })
  const no = await post({ criteria: CRITERIA, facts: { ...FACTS, make: 'TESLA' } })
  assert.deepEqual(json(no), { result: false })
  const unknown = await post({ criteria: 'lienHolder = 1', facts: { lienHolder: null } })
  assert.deepEqual(json(unknown), { result: false })
  const caseInsensitivePath = await t.app.inject({
    method: 'POST',
    url: '/api/rates/criteria/evaluate',
    headers: tenant.headers,
    payload: { criteria: 'a', facts: { a: true } },
  })
  assert.deepEqual(json(caseInsensitivePath), { result: true })
})

test('explain gives the value of every sub-expression', async () => {
  const res = await post({
    criteria: "vehicleAge <= 10 AND (make = 'TESLA' OR missing IS NULL)",
    facts: FACTS,
    explain: true,
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(json(res), {
    result: true,
    explanation: {
      text: "vehicleAge <= 10 AND (make = 'TESLA' OR missing IS NULL)",
      value: true,
      children: [
        { text: 'vehicleAge <= 10', value: true },
        {
          text: "(make = 'TESLA' OR missing IS NULL)",
          value: true,
          children: [
            { text: "make = 'TESLA'", value: false },
            { text: 'missing IS NULL', value: true },
          ],
        },
      ],
    },
  })
})

test('a syntax error answers 422 invalid_criteria with its position and what was expected', async () => {
  const res = await post({ criteria: 'vehicleAge <= ', facts: FACTS })
  assert.equal(res.statusCode, 422, res.body)
  assert.match(res.headers['content-type'] as string, /application\/problem\+json/)
  const body = json<Problem>(res)
  assert.equal(body.code, 'invalid_criteria')
  assert.deepEqual(body.errors, [
    {
      field: 'criteria',
      code: 'invalid_format',
      message: "expected a value after '<=' at 1:15",
      offset: 14,
      line: 1,
      column: 15,
      expected: 'a value',
    },
  ])

  for (const criteria of ['('.repeat(10_000), '\u0001\uffff', 'NOT '.repeat(2000), 'a IN (', "'"]) {
    const r = await post({ criteria, facts: {} })
    assert.equal(r.statusCode, 422, r.body)
    assert.equal(json<Problem>(r).code, 'invalid_criteria')
  }
  // A NUL is refused by the platform, for every route, before the parser sees it.
  const nul = await post({ criteria: 'a = 1\u0000', facts: {} })
  assert.equal(nul.statusCode, 400, nul.body)
  assert.deepEqual(
    json<Problem>(nul).errors?.map((e) => e.field),
    ['criteria'],
  )
})

test('a fact of the wrong type answers 422 criteria_evaluation_failed naming the fact', async () => {
  const res = await post({ criteria: 'make > 3', facts: FACTS })
  assert.equal(res.statusCode, 422, res.body)
  const body = json<Problem>(res)
  assert.equal(body.code, 'criteria_evaluation_failed')
  assert.equal(body.errors?.[0]?.field, 'facts.make')
  assert.equal(body.errors?.[0]?.code, 'invalid_type')
})

test('schema violations answer 400', async () => {
  const cases: unknown[] = [
    {},
    { criteria: 'a = 1' },
    { facts: {} },
    { criteria: '', facts: {} },
    { criteria: 'x'.repeat(10_001), facts: {} },
    { criteria: 'a = 1', facts: { a: { nested: 1 } } },
    { criteria: 'a = 1', facts: { a: [1] } },
    { criteria: 'a = 1', facts: [] },
    { criteria: 'a = 1', facts: {}, extra: true },
    { criteria: 'a = 1', facts: {}, explain: 'yes' },
    { criteria: 42, facts: {} },
    { criteria: 'a = 1', facts: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, i])) },
  ]
  for (const payload of cases) {
    const res = await post(payload)
    assert.equal(res.statusCode, 400, `${JSON.stringify(payload).slice(0, 80)} → ${res.statusCode} ${res.body}`)
    assert.equal(json<Problem>(res).code, 'validation_failed')
  }
})

test('no credentials answer 401', async () => {
  const res = await post({ criteria: 'a = 1', facts: {} }, {})
  assert.equal(res.statusCode, 401, res.body)
})
