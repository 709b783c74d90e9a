import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isActive, normalizeEmail, storedExpiredDate } from './user.rules.ts'
import { holdsAll, missingPermissions } from './permissions.rules.ts'

const now = new Date('2026-06-01T12:00:00Z')

test('storedExpiredDate', () => {
  const cases: Array<[string, Date | null, Date | null]> = [
    ['null reactivates', null, null],
    ['past becomes now', new Date('2020-01-01T00:00:00Z'), now],
    ['one ms ago becomes now', new Date(now.getTime() - 1), now],
    ['now stays now', now, now],
    ['future kept', new Date('2027-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z')],
  ]
  for (const [name, input, expected] of cases) {
    assert.deepEqual(storedExpiredDate(input, now), expected, name)
  }
  const yesterday = new Date('2026-05-31T12:00:00Z')
  assert.deepEqual(storedExpiredDate(yesterday, now, yesterday), yesterday, 'an unchanged past value stays')
  assert.deepEqual(
    storedExpiredDate(new Date('2026-05-30T00:00:00Z'), now, yesterday),
    now,
    'a changed past value becomes now',
  )
})

test('isActive', () => {
  const cases: Array<[Date | null, boolean]> = [
    [null, true],
    [new Date(now.getTime() + 1), true],
    [now, false],
    [new Date(now.getTime() - 1), false],
  ]
  for (const [expired, expected] of cases) assert.equal(isActive(expired, now), expected, String(expired))
})

test('normalizeEmail', () => {
  assert.equal(normalizeEmail('  Jane.Doe@Example.COM '), 'jane.doe@example.com')
})

test('permission checks', () => {
  const cases: Array<[string[], string[], boolean, string[]]> = [
    [['*'], ['users:write', 'claims:approve'], true, []],
    [['users:read', 'users:write'], ['users:write'], true, []],
    [['users:read'], ['users:write', 'users:read'], false, ['users:write']],
    [['users:write'], ['*'], false, ['*']],
    [[], [], true, []],
  ]
  for (const [held, wanted, ok, missing] of cases) {
    assert.equal(holdsAll(new Set(held), wanted), ok, `${held} ⊇ ${wanted}`)
    assert.deepEqual(missingPermissions(new Set(held), wanted), missing)
  }
})
