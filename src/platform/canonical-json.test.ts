import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canonicalJson, jsonEqual } from './canonical-json.ts'

test('canonicalJson sorts object members at every depth and leaves undefined members out', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } }),
    '{"a":{"d":[2,{"e":0,"f":1}]},"b":1}',
  )
  assert.equal(canonicalJson(undefined), 'null')
})

test('jsonEqual: equal as JSON, whatever the member order', () => {
  const cases: Array<[unknown, unknown, boolean, string]> = [
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true, 'members reordered'],
    [{ a: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 } }, true, 'nested members reordered'],
    [[1, 2], [2, 1], false, 'arrays keep their order'],
    [{ a: 1 }, { a: 1, b: undefined }, true, 'an undefined member is an absent one'],
    [undefined, null, true, 'absent and null are the same value'],
    [{ a: null }, {}, false, 'a null member is not an absent one'],
    ['1', 1, false, 'text is not a number'],
    [{ a: 1 }, { a: 2 }, false, 'a changed value'],
    [null, null, true, 'null'],
  ]
  for (const [a, b, equal, name] of cases) assert.equal(jsonEqual(a, b), equal, name)
})
