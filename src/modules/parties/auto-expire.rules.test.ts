import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  effectiveExpiredDate,
  hasNoContractsSince,
  matchesRule,
  verdict,
  type ExpiryCandidate,
} from './auto-expire.rules.ts'

const now = new Date('2026-06-01T12:00:00Z')
const at = (iso: string) => new Date(iso)

const row = (over: Partial<ExpiryCandidate> = {}): ExpiryCandidate => ({
  kind: 'DEALER',
  status: 'ACTIVE',
  expired_date: null,
  last_contract_date: null,
  created_at: at('2024-01-15T09:00:00Z'),
  ...over,
})

test('effectiveExpiredDate: default now, past → now, future kept', () => {
  assert.deepEqual(effectiveExpiredDate(undefined, now), now)
  assert.deepEqual(effectiveExpiredDate(at('2020-01-01T00:00:00Z'), now), now)
  assert.deepEqual(effectiveExpiredDate(now, now), now)
  assert.deepEqual(effectiveExpiredDate(at('2026-07-01T00:00:00Z'), now), at('2026-07-01T00:00:00Z'))
})

test('hasNoContractsSince', () => {
  const since = '2026-01-01'
  const cases: Array<[string, Partial<ExpiryCandidate>, boolean]> = [
    ['last contract before since', { last_contract_date: '2025-12-31' }, true],
    ['last contract on since', { last_contract_date: '2026-01-01' }, false],
    ['last contract after since', { last_contract_date: '2026-03-01' }, false],
    ['never sold, created long before', { last_contract_date: null }, true],
    ['never sold, created the instant before since (UTC)', { created_at: at('2025-12-31T23:59:59.999Z') }, true],
    ['never sold, created at since (UTC midnight)', { created_at: at('2026-01-01T00:00:00Z') }, false],
    ['never sold, created after since', { created_at: at('2026-02-01T00:00:00Z') }, false],
    [
      'old contract but created recently does not matter: the contract decides',
      { last_contract_date: '2025-06-01', created_at: at('2026-02-01T00:00:00Z') },
      true,
    ],
    ['not a dealer', { kind: 'AGENT', last_contract_date: '2020-01-01' }, false],
  ]
  for (const [name, over, expected] of cases) assert.equal(hasNoContractsSince(row(over), since), expected, name)
})

test('matchesRule: INACTIVE_STATUS, optionally by kind, never the administrator company', () => {
  const rule = { type: 'INACTIVE_STATUS' as const }
  assert.equal(matchesRule(rule, row({ status: 'INACTIVE' })), true)
  assert.equal(matchesRule(rule, row({ status: 'ACTIVE' })), false)
  assert.equal(matchesRule(rule, row({ status: 'INACTIVE', kind: 'ADMIN_COMPANY' })), false)
  assert.equal(matchesRule({ ...rule, kinds: ['AGENT'] }, row({ status: 'INACTIVE' })), false)
  assert.equal(matchesRule({ ...rule, kinds: ['AGENT', 'DEALER'] }, row({ status: 'INACTIVE' })), true)
  assert.equal(matchesRule({ type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-01-01' }, row()), true)
})

test('verdict: expire, or skip with the reason', () => {
  const july = at('2026-07-01T00:00:00Z')
  const cases: Array<[string, ExpiryCandidate | undefined, Date, boolean, string]> = [
    ['missing', undefined, now, false, 'NOT_FOUND'],
    ['administrator company', row({ kind: 'ADMIN_COMPANY' }), now, false, 'NOT_EXPIRABLE'],
    ['active, no expiry', row(), now, true, 'REQUESTED'],
    ['inactive, no expiry', row({ status: 'INACTIVE' }), now, true, 'REQUESTED'],
    ['expired before now', row({ expired_date: at('2026-01-01T00:00:00Z') }), now, false, 'ALREADY_EXPIRED'],
    ['expires exactly now', row({ expired_date: now }), now, false, 'ALREADY_EXPIRED'],
    [
      'due before the requested date',
      row({ expired_date: at('2026-06-15T00:00:00Z') }),
      july,
      false,
      'ALREADY_SCHEDULED',
    ],
    ['due on the requested date', row({ expired_date: july }), july, false, 'ALREADY_SCHEDULED'],
    ['due later: brought forward', row({ expired_date: at('2026-12-31T00:00:00Z') }), july, true, 'REQUESTED'],
    ['due later than now', row({ expired_date: at('2026-12-31T00:00:00Z') }), now, true, 'REQUESTED'],
  ]
  for (const [name, candidate, expiredDate, expire, reason] of cases) {
    const v = verdict(null, candidate, expiredDate, now)
    assert.equal(v.expire, expire, name)
    assert.equal(v.reason, reason, name)
  }
  const byRule = verdict(
    { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-01-01' },
    row({ last_contract_date: '2025-11-30' }),
    now,
    now,
  )
  assert.deepEqual(byRule, {
    expire: true,
    reason: 'NO_CONTRACTS_SINCE',
    detail: 'last contract sold 2025-11-30, before 2026-01-01',
  })
  const never = verdict({ type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-01-01' }, row(), now, now)
  assert.deepEqual(never, {
    expire: true,
    reason: 'NO_CONTRACTS_SINCE',
    detail: 'no contract ever sold; created 2024-01-15, before 2026-01-01',
  })
  assert.equal(verdict({ type: 'INACTIVE_STATUS' }, row({ status: 'INACTIVE' }), now, now).reason, 'INACTIVE_STATUS')
})
