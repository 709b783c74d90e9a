import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ScimError } from './scim.errors.ts'
import { nextExpiredDate, stateOfResource, type ScimUserState } from './scim.mapper.ts'
import { applyPatch, type PatchOperation } from './scim.patch.ts'

const base: ScimUserState = {
  userName: 'jane@x.example',
  externalId: 'ext-1',
  givenName: 'Jane',
  familyName: 'Doe',
  phoneNumber: '+15555550100',
  active: undefined,
}

function scimTypeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    if (err instanceof ScimError) return `${err.status} ${err.scimType}`
    throw err
  }
  return undefined
}

test('applyPatch: Entra ID and Okta shapes', () => {
  const cases: Array<[string, PatchOperation[], Partial<ScimUserState>]> = [
    ['Entra deactivate, boolean as a string', [{ op: 'Replace', path: 'active', value: 'False' }], { active: false }],
    ['Entra reactivate', [{ op: 'Replace', path: 'active', value: 'True' }], { active: true }],
    ['no path, value object', [{ op: 'replace', value: { active: false } }], { active: false }],
    [
      'no path, attribute names in any case',
      [{ op: 'replace', value: { Active: true, ExternalId: 'ext-2' } }],
      { active: true, externalId: 'ext-2' },
    ],
    [
      'no path, dotted keys',
      [{ op: 'Replace', value: { 'name.givenName': 'Janet', 'name.familyName': 'Smith' } }],
      { givenName: 'Janet', familyName: 'Smith' },
    ],
    [
      'no path, core schema URN wrapper',
      [{ op: 'replace', value: { 'urn:ietf:params:scim:schemas:core:2.0:User': { active: false } } }],
      { active: false },
    ],
    ['name.givenName', [{ op: 'Replace', path: 'name.givenName', value: 'Janet' }], { givenName: 'Janet' }],
    [
      'name object merges',
      [{ op: 'add', path: 'name', value: { familyName: 'Smith' } }],
      { givenName: 'Jane', familyName: 'Smith' },
    ],
    ['remove name.familyName', [{ op: 'Remove', path: 'name.familyName' }], { familyName: null }],
    ['remove name', [{ op: 'remove', path: 'name' }], { givenName: null, familyName: null }],
    ['name.formatted is not held', [{ op: 'replace', path: 'name.formatted', value: 'Jane Doe' }], {}],
    ['externalId add', [{ op: 'Add', path: 'externalId', value: 'ext-9' }], { externalId: 'ext-9' }],
    ['externalId remove', [{ op: 'Remove', path: 'externalId' }], { externalId: null }],
    [
      'URN-qualified path',
      [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:userName', value: 'j@x.example' }],
      { userName: 'j@x.example' },
    ],
    ['userName', [{ op: 'Replace', path: 'userName', value: 'janet@x.example' }], { userName: 'janet@x.example' }],
    [
      'work email follows into userName',
      [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'janet@x.example' }],
      { userName: 'janet@x.example' },
    ],
    [
      'both set, same address',
      [
        { op: 'Replace', path: 'userName', value: 'janet@x.example' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'Janet@X.example' },
      ],
      { userName: 'janet@x.example' },
    ],
    [
      'emails list',
      [{ op: 'replace', path: 'emails', value: [{ value: 'k@x.example', type: 'work', primary: true }] }],
      { userName: 'k@x.example' },
    ],
    [
      'emails[primary eq true] with an object',
      [{ op: 'replace', path: 'emails[primary eq true]', value: { value: 'k@x.example' } }],
      { userName: 'k@x.example' },
    ],
    ['home email is not held', [{ op: 'add', path: 'emails[type eq "home"].value', value: 'home@x.example' }], {}],
    [
      'add a home email to the list: not held',
      [{ op: 'add', path: 'emails', value: [{ value: 'home@x.example', type: 'home' }] }],
      {},
    ],
    [
      'phone work value',
      [{ op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+15555550199' }],
      { phoneNumber: '+15555550199' },
    ],
    [
      'mobile phone is not held',
      [{ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+15555550199' }],
      {},
    ],
    ['phone remove', [{ op: 'Remove', path: 'phoneNumbers[type eq "work"]' }], { phoneNumber: null }],
    [
      'phone remove by value',
      [{ op: 'remove', path: 'phoneNumbers', value: [{ value: '+1 555 555 0100' }] }],
      { phoneNumber: null },
    ],
    ['phone remove by another value', [{ op: 'remove', path: 'phoneNumbers', value: [{ value: '+15555550111' }] }], {}],
    [
      'phone list replaced without a work phone',
      [{ op: 'replace', path: 'phoneNumbers', value: [{ value: '+15555550111', type: 'mobile' }] }],
      { phoneNumber: null },
    ],
    [
      'attributes not held are ignored',
      [
        { op: 'Add', path: 'displayName', value: 'Jane Doe' },
        {
          op: 'Replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
          value: '701984',
        },
        {
          op: 'replace',
          value: {
            title: 'Tour Guide',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Tours' },
          },
        },
      ],
      {},
    ],
    [
      'read-only attributes in a value object are ignored',
      [{ op: 'replace', value: { id: '99', meta: {}, schemas: [], active: 'false' } }],
      { active: false },
    ],
    [
      'operations apply in order',
      [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Replace', path: 'active', value: true },
      ],
      { active: true },
    ],
  ]
  for (const [name, ops, changes] of cases) assert.deepEqual(applyPatch(base, ops), { ...base, ...changes }, name)
})

test('applyPatch: refusals', () => {
  const cases: Array<[string, PatchOperation[], string]> = [
    ['remove without a path', [{ op: 'remove' }], '400 noTarget'],
    ['add without a path needs an object', [{ op: 'add', value: 'x' }], '400 invalidValue'],
    ['active not a boolean', [{ op: 'replace', path: 'active', value: 'yes' }], '400 invalidValue'],
    ['remove active', [{ op: 'remove', path: 'active' }], '400 invalidValue'],
    ['remove userName', [{ op: 'remove', path: 'userName' }], '400 invalidValue'],
    ['empty userName', [{ op: 'replace', path: 'userName', value: '' }], '400 invalidValue'],
    ['remove the work email', [{ op: 'Remove', path: 'emails[type eq "work"].value' }], '400 invalidValue'],
    [
      'work email and userName disagree',
      [
        { op: 'replace', path: 'userName', value: 'a@x.example' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'b@x.example' },
      ],
      '400 invalidValue',
    ],
    ['givenName not a string', [{ op: 'replace', path: 'name.givenName', value: 12 }], '400 invalidValue'],
    ['malformed path', [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }], '400 invalidPath'],
    ['sub-attribute of a simple attribute', [{ op: 'replace', path: 'userName.value', value: 'x' }], '400 invalidPath'],
    ['id is read-only', [{ op: 'replace', path: 'id', value: '12' }], '400 mutability'],
    ['meta is read-only', [{ op: 'replace', path: 'meta.created', value: 'x' }], '400 mutability'],
  ]
  for (const [name, ops, expected] of cases)
    assert.equal(
      scimTypeOf(() => applyPatch(base, ops)),
      expected,
      name,
    )
})

test('stateOfResource: POST and PUT bodies', () => {
  assert.deepEqual(
    stateOfResource(
      {
        userName: ' jane@x.example ',
        name: { givenName: 'Jane', familyName: '' },
        active: 'False',
        emails: [
          { value: 'home@x.example', type: 'home' },
          { value: 'JANE@x.example', type: 'work' },
        ],
        phoneNumbers: [
          { value: '+15555550111', type: 'mobile' },
          { value: '+15555550100', type: 'work', primary: 'true' },
        ],
      },
      undefined,
    ),
    {
      userName: 'jane@x.example',
      externalId: null,
      givenName: 'Jane',
      familyName: null,
      phoneNumber: '+15555550100',
      active: false,
    },
  )
  // PUT: externalId and active left out are kept; name and phone left out are cleared.
  assert.deepEqual(stateOfResource({ userName: 'jane@x.example' }, { ...base, active: undefined }), {
    userName: 'jane@x.example',
    externalId: 'ext-1',
    givenName: null,
    familyName: null,
    phoneNumber: null,
    active: undefined,
  })
  assert.equal(stateOfResource({ userName: 'jane@x.example', externalId: null }, base).externalId, null)
  assert.equal(
    scimTypeOf(() =>
      stateOfResource({ userName: 'jane@x.example', emails: [{ value: 'other@x.example', primary: true }] }, undefined),
    ),
    '400 invalidValue',
  )
})

test('nextExpiredDate: active false expires now, true reactivates, an already right state is kept', () => {
  const now = new Date('2026-06-01T12:00:00Z')
  const past = new Date('2026-01-01T00:00:00Z')
  const future = new Date('2027-01-01T00:00:00Z')
  const cases: Array<[Date | null, boolean | undefined, Date | null]> = [
    [null, undefined, null],
    [past, undefined, past],
    [future, undefined, future],
    [null, false, now],
    [future, false, now],
    [past, false, past],
    [null, true, null],
    [future, true, future],
    [past, true, null],
  ]
  for (const [current, active, expected] of cases) {
    assert.deepEqual(nextExpiredDate(current, active, now), expected, `${String(current)} ${String(active)}`)
  }
})
