import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { ScimError } from './scim.errors.ts'
import { matchesValue, parseFilter, parsePatchPath, planFilter, type FilterPlan } from './scim.filter.ts'

function scimTypeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    if (err instanceof ScimError) return err.scimType
    throw err
  }
  return undefined
}

const plan = (text: string): FilterPlan => planFilter(parseFilter(text))

test('parseFilter: the grammar', () => {
  assert.deepEqual(parseFilter('userName eq "bjensen"'), {
    kind: 'compare',
    path: { name: 'userName' },
    op: 'eq',
    value: 'bjensen',
  })
  assert.deepEqual(parseFilter('UserName EQ "a\\"b"'), {
    kind: 'compare',
    path: { name: 'UserName' },
    op: 'eq',
    value: 'a"b',
  })
  assert.deepEqual(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName co "O\'Malley"'), {
    kind: 'compare',
    path: { urn: 'urn:ietf:params:scim:schemas:core:2.0:User', name: 'name', sub: 'familyName' },
    op: 'co',
    value: "O'Malley",
  })
  assert.deepEqual(parseFilter('title pr'), { kind: 'present', path: { name: 'title' } })
  assert.deepEqual(parseFilter('meta.lastModified gt "2011-05-13T04:42:34Z"').kind, 'compare')
  assert.deepEqual(parseFilter('x eq 12.5e2'), { kind: 'compare', path: { name: 'x' }, op: 'eq', value: 1250 })
  assert.deepEqual(parseFilter('x eq true and y eq null'), {
    kind: 'and',
    left: { kind: 'compare', path: { name: 'x' }, op: 'eq', value: true },
    right: { kind: 'compare', path: { name: 'y' }, op: 'eq', value: null },
  })
  // and binds tighter than or; parentheses group.
  const a = { kind: 'compare', path: { name: 'a' }, op: 'eq', value: '1' } as const
  const b = { kind: 'compare', path: { name: 'b' }, op: 'eq', value: '2' } as const
  const c = { kind: 'compare', path: { name: 'c' }, op: 'eq', value: '3' } as const
  assert.deepEqual(parseFilter('a eq "1" or b eq "2" and c eq "3"'), {
    kind: 'or',
    left: a,
    right: { kind: 'and', left: b, right: c },
  })
  assert.deepEqual(parseFilter('(a eq "1" or b eq "2") and c eq "3"'), {
    kind: 'and',
    left: { kind: 'or', left: a, right: b },
    right: c,
  })
  assert.deepEqual(parseFilter('not (a eq "1")'), { kind: 'not', filter: a })
  assert.deepEqual(parseFilter('not(a eq "1")'), { kind: 'not', filter: a })
  assert.deepEqual(parseFilter('emails[type eq "work" and value co "@example.com"]'), {
    kind: 'valuePath',
    path: { name: 'emails' },
    filter: {
      kind: 'and',
      left: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
      right: { kind: 'compare', path: { name: 'value' }, op: 'co', value: '@example.com' },
    },
  })
  // Lenient: a sub-attribute comparison after the value filter joins it.
  assert.deepEqual(parseFilter('emails[type eq "work"].value eq "a@b.c"'), {
    kind: 'valuePath',
    path: { name: 'emails' },
    filter: {
      kind: 'and',
      left: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
      right: { kind: 'compare', path: { name: 'value' }, op: 'eq', value: 'a@b.c' },
    },
  })
})

test('parseFilter: malformed filters are 400 invalidFilter', () => {
  const cases = [
    '',
    '   ',
    'userName',
    'userName eq',
    'userName eq bjensen',
    'userName equals "x"',
    'userName eq "x" and',
    '(userName eq "x"',
    'userName eq "x")',
    'userName eq "unterminated',
    'userName eq "x" "y"',
    '"x" eq userName',
    'emails[type eq "work"',
    'emails[addresses[type eq "work"]]',
    'name.givenName[type eq "x"]',
    'a.b.c eq "x"',
    'userName eq "x" or or userName eq "y"',
    'userName eq "\\q"',
    'userName ~ "x"',
    '1bad eq "x"',
    `${'('.repeat(40)}a eq "1"${')'.repeat(40)}`,
    `userName eq "${'x'.repeat(2100)}"`,
  ]
  for (const text of cases)
    assert.equal(
      scimTypeOf(() => parseFilter(text)),
      'invalidFilter',
      text,
    )
})

test('planFilter: eq on userName, externalId, emails.value and id, with and/or', () => {
  const cases: Array<[string, FilterPlan]> = [
    ['userName eq "Jane@X.example"', { kind: 'lookups', lookups: [{ userName: 'Jane@X.example' }] }],
    ['USERNAME Eq "a@x.example"', { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] }],
    [
      'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@x.example"',
      { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] },
    ],
    ['externalId eq "abc"', { kind: 'lookups', lookups: [{ externalId: 'abc' }] }],
    ['id eq "42"', { kind: 'lookups', lookups: [{ id: '42' }] }],
    ['emails.value eq "a@x.example"', { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] }],
    ['emails eq "a@x.example"', { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] }],
    ['emails[type eq "work"].value eq "a@x.example"', { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] }],
    ['emails[type eq "Work" and value eq "a@x.example"]', { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] }],
    ['emails[type eq "home"].value eq "a@x.example"', { kind: 'lookups', lookups: [] }],
    ['emails[primary eq true]', { kind: 'all' }],
    ['emails.type eq "work"', { kind: 'all' }],
    [
      'userName eq "a@x.example" and externalId eq "e1"',
      { kind: 'lookups', lookups: [{ userName: 'a@x.example', externalId: 'e1' }] },
    ],
    [
      'userName eq "a@x.example" or userName eq "b@x.example"',
      { kind: 'lookups', lookups: [{ userName: 'a@x.example' }, { userName: 'b@x.example' }] },
    ],
    [
      'userName eq "a@x.example" or userName eq "A@X.example"',
      { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] },
    ],
    [
      'userName eq "a@x.example" and userName eq "A@X.EXAMPLE"',
      { kind: 'lookups', lookups: [{ userName: 'a@x.example' }] },
    ],
    ['userName eq "a@x.example" and userName eq "b@x.example"', { kind: 'lookups', lookups: [] }],
    ['externalId eq "E1" and externalId eq "e1"', { kind: 'lookups', lookups: [] }],
    ['userName eq "a@x.example" and emails.value eq "b@x.example"', { kind: 'lookups', lookups: [] }],
    [
      '(userName eq "a@x.example" or externalId eq "e2") and externalId eq "e1"',
      {
        kind: 'lookups',
        lookups: [{ userName: 'a@x.example', externalId: 'e1' }],
      },
    ],
    ['userName eq "a@x.example" or emails[type eq "work"]', { kind: 'all' }],
  ]
  for (const [text, expected] of cases) assert.deepEqual(plan(text), expected, text)
})

test('planFilter: anything else is 400 invalidFilter', () => {
  const cases = [
    'userName ne "a"',
    'userName co "a"',
    'userName sw "a"',
    'userName pr',
    'not (userName eq "a")',
    'name.givenName eq "Jane"',
    'active eq true',
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    'displayName eq "x"',
    'userName eq 12',
    'userName eq true',
    'externalId eq null',
    'phoneNumbers[type eq "work"]',
    'emails[display eq "x"]',
    'emails[type ne "work"]',
    'emails[value pr]',
    'emails.primary eq "yes"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1"',
    Array.from({ length: 8 }, (_, i) => `(userName eq "a${i}" or userName eq "b${i}")`).join(' and '),
  ]
  for (const text of cases)
    assert.equal(
      scimTypeOf(() => plan(text)),
      'invalidFilter',
      text,
    )
})

test('parseFilter never throws anything but a SCIM invalidFilter error', () => {
  const alphabet = fc.constantFrom(
    ...'abEq "()[].:-_ \\/truefalsnul0129eqorandnotpr'.split(''),
    ' eq ',
    ' and ',
    ' or ',
    'userName',
    'emails',
    '[',
    ']',
    '"x"',
  )
  fc.assert(
    fc.property(
      fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')),
      (text) => {
        try {
          planFilter(parseFilter(text))
        } catch (err) {
          return err instanceof ScimError && err.status === 400 && err.scimType === 'invalidFilter'
        }
        return true
      },
    ),
    { numRuns: 2000 },
  )
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), (text) => {
      try {
        planFilter(parseFilter(text))
      } catch (err) {
        return err instanceof ScimError && err.scimType === 'invalidFilter'
      }
      return true
    }),
    { numRuns: 2000 },
  )
})

test('parsePatchPath', () => {
  assert.deepEqual(parsePatchPath('active'), { path: { name: 'active' } })
  assert.deepEqual(parsePatchPath('name.givenName'), { path: { name: 'name', sub: 'givenName' } })
  assert.deepEqual(parsePatchPath('emails[type eq "work"].value'), {
    path: { name: 'emails' },
    filter: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
    sub: 'value',
  })
  assert.deepEqual(parsePatchPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager'), {
    path: { urn: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', name: 'manager' },
  })
  for (const bad of [
    '',
    'emails[type eq "work"',
    'emails[type eq "work"].',
    'name.givenName.x',
    'a b',
    'emails[type eq "work"]value',
    'userName eq "x"',
  ]) {
    assert.equal(
      scimTypeOf(() => parsePatchPath(bad)),
      'invalidPath',
      bad,
    )
  }
})

test('matchesValue: a value filter against the one value held', () => {
  const held = { value: 'Jane@X.example', type: 'work', primary: true }
  const cases: Array<[string, boolean]> = [
    ['type eq "work"', true],
    ['type eq "WORK"', true],
    ['type eq "home"', false],
    ['type ne "home"', true],
    ['value eq "jane@x.example"', true],
    ['value ew "@x.example"', true],
    ['value sw "bob"', false],
    ['value pr', true],
    ['primary eq true', true],
    ['primary eq false', false],
    ['type eq "work" and primary eq true', true],
    ['type eq "home" or value co "jane"', true],
    ['not (type eq "work")', false],
    ['display pr', false],
    ['display eq null', true],
  ]
  for (const [text, expected] of cases) {
    const { filter } = parsePatchPath(`emails[${text}]`)
    assert.equal(matchesValue(filter!, held), expected, text)
  }
  const { filter } = parsePatchPath('phoneNumbers[type eq "work"]')
  assert.equal(matchesValue(filter!, { value: null, type: 'work', primary: true }), true)
  assert.equal(
    matchesValue(parsePatchPath('phoneNumbers[value pr]').filter!, { value: null, type: 'work', primary: true }),
    false,
  )
})
