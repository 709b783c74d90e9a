import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { visibilityViolations, visibleEntry } from './visibility.rules.ts'

describe('visibilityViolations', () => {
  const cases: Array<[string, unknown, Array<[string, string]>]> = [
    ['an empty set', [], []],
    [
      'whole products and a plan with limits',
      [
        { productId: 2 },
        { productId: 36, programId: 38, planId: 39, maxMarkupAmount: '400.00', maxMarkupPercent: 150 },
      ],
      [],
    ],
    ['zero markup is a limit', [{ productId: 2, maxMarkupAmount: 0, maxMarkupPercent: '0' }], []],
    [
      'negative and too precise limits',
      [{ productId: 2, maxMarkupAmount: -1, maxMarkupPercent: '1.00001' }],
      [
        ['[0].maxMarkupAmount', 'out_of_range'],
        ['[0].maxMarkupPercent', 'too_precise'],
      ],
    ],
    [
      'a limit over the bounds',
      [
        { productId: 2, maxMarkupPercent: 1000.5 },
        { productId: 36, maxMarkupAmount: '1000000.01' },
      ],
      [
        ['[0].maxMarkupPercent', 'out_of_range'],
        ['[1].maxMarkupAmount', 'out_of_range'],
      ],
    ],
    [
      'the same product twice',
      [{ productId: 2 }, { productId: 36 }, { productId: 2, programId: null }],
      [['[2]', 'conflict']],
    ],
    [
      'the same plan twice',
      [
        { productId: 2, planId: 19 },
        { productId: 2, planId: 19, maxMarkupAmount: 5 },
      ],
      [['[1]', 'conflict']],
    ],
    [
      'a product and one of its plans are distinct',
      [
        { productId: 2 },
        { productId: 2, planId: 19 },
        { productId: 2, programId: 13 },
        { productId: 2, programId: 13, planId: 19 },
      ],
      [],
    ],
    ['items of the wrong shape are left to the schema', [null, 'x', { productId: 'a' }], []],
    ['not a list', { productId: 2 }, []],
  ]
  for (const [name, input, expected] of cases) {
    test(name, () =>
      assert.deepEqual(
        visibilityViolations(input).map((e) => [e.field, e.code]),
        expected,
      ),
    )
  }
})

describe('visibleEntry', () => {
  type Entry = { productId: number; programId: number | null; planId: number | null; tag: string }
  const product: Entry = { productId: 2, programId: null, planId: null, tag: 'product' }
  const program: Entry = { productId: 2, programId: 13, planId: null, tag: 'program' }
  const plan: Entry = { productId: 2, programId: null, planId: 19, tag: 'plan' }
  const programPlan: Entry = { productId: 2, programId: 13, planId: 19, tag: 'program+plan' }
  const other: Entry = { productId: 36, programId: null, planId: null, tag: 'gap' }
  const platUsed = { productId: 2, programId: 13, planId: 19 }
  const goldUsed = { productId: 2, programId: 24, planId: 25 }
  const cases: Array<[string, Entry[], typeof platUsed, string | undefined]> = [
    ['no entries: nothing is visible', [], platUsed, undefined],
    ['the whole product', [product], goldUsed, 'product'],
    ['another product only', [other], platUsed, undefined],
    ['a program covers its plans', [program], platUsed, 'program'],
    ['a program does not cover another program', [program], goldUsed, undefined],
    ['a plan beats its program and product', [product, program, plan], platUsed, 'plan'],
    ['a program beats the product', [product, program], platUsed, 'program'],
    ['program and plan together are the most specific', [plan, programPlan, product], platUsed, 'program+plan'],
    ['the product still covers other plans', [product, plan], goldUsed, 'product'],
  ]
  for (const [name, entries, sale, expected] of cases) {
    test(name, () => assert.equal(visibleEntry(entries, sale)?.tag, expected))
  }
})
