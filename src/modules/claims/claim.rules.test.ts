// The claim state machine, table by table: the FULL table (every status × every event, with facts
// that satisfy the event's own rules), then each rule the facts decide (holds, the authorization's
// expiry, payments, denied reasons, reopening and voiding with payments), and the authorization's
// validity in days.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  authorizationExpired,
  authorizationExpiresOn,
  BLOCKED_BY_HOLDS,
  CLAIM_EVENTS,
  CLAIM_STATUSES,
  eventsFrom,
  transition,
  type ClaimEvent,
  type ClaimFacts,
  type ClaimStatus,
} from './claim.rules.ts'

const FACTS: ClaimFacts = {
  openHolds: 0,
  today: '2026-02-10',
  authorization: { authorizedOn: '2026-02-03', validDays: 180 },
  hasAuthorizedLines: true,
  hasDeniedReason: true,
  payableCents: 19_517,
  paidCents: 0,
  paymentCents: 19_517,
}

/** Facts that satisfy `event`'s own rules: only the table decides. */
const factsFor = (event: ClaimEvent): ClaimFacts => (event === 'RELEASE_HOLD' ? { ...FACTS, openHolds: 1 } : FACTS)

// The expected table, written out independently of CLAIM_TRANSITIONS. Columns in CLAIM_EVENTS order:
// EDIT, PLACE_HOLD, RELEASE_HOLD, REQUEST_INSPECTION, COMPLETE_INSPECTION, CANCEL_INSPECTION,
// AUTHORIZE, REQUEST_PAYMENT, CANCEL_PAYMENT_REQUEST, RECORD_PAYMENT, DENY, CLOSE, REOPEN, VOID.
// A status is where the event leads; '-' a refusal claim_state_conflict.
const O = 'OPEN'
const PI = 'PENDING_INSPECTION'
const A = 'AUTHORIZED'
const PP = 'PENDING_PAYMENT'
const P = 'PAID'
const PA = 'PARTIALLY_PAID'
const D = 'DENIED'
const C = 'CLOSED'
const V = 'VOIDED'
const _ = '-'
type Cell = ClaimStatus | '-'
// prettier-ignore
const TABLE: Record<ClaimStatus, Cell[]> = {
  //                   EDIT  HOLD  REL  REQ_I  CMP_I  CNL_I  AUTH  REQ_P  CNL_P  REC_P  DENY  CLOSE  REOPEN  VOID
  OPEN: [              O,    O,    O,   PI,    _,     _,     A,    _,     _,     _,     D,    C,     _,      V],
  PENDING_INSPECTION: [PI,   PI,   PI,  PI,    O,     O,     _,    _,     _,     _,     D,    C,     _,      V],
  AUTHORIZED: [        A,    A,    A,   _,     _,     _,     A,    PP,    _,     _,     D,    C,     _,      V],
  PENDING_PAYMENT: [   _,    PP,   PP,  _,     _,     _,     _,    _,     A,     P,     _,    _,     _,      _],
  PAID: [              _,    _,    P,   _,     _,     _,     _,    _,     _,     _,     _,    _,     _,      _],
  PARTIALLY_PAID: [    _,    PA,   PA,  _,     _,     _,     _,    _,     _,     P,     _,    C,     _,      _],
  DENIED: [            _,    _,    D,   _,     _,     _,     _,    _,     _,     _,     _,    _,     O,      V],
  CLOSED: [            _,    _,    C,   _,     _,     _,     _,    _,     _,     _,     _,    _,     O,      V],
  VOIDED: [            _,    _,    V,   _,     _,     _,     _,    _,     _,     _,     _,    _,     _,      _],
}

describe('the full table: every status × every event', () => {
  it('has a row per status and a column per event', () => {
    assert.deepEqual(Object.keys(TABLE).toSorted(), [...CLAIM_STATUSES].toSorted())
    for (const row of Object.values(TABLE)) assert.equal(row.length, CLAIM_EVENTS.length)
  })
  for (const status of CLAIM_STATUSES) {
    for (const [i, event] of CLAIM_EVENTS.entries()) {
      const expected = TABLE[status][i]!
      it(`${status} × ${event} → ${expected === '-' ? 'claim_state_conflict' : expected}`, () => {
        const t = transition(status, event, factsFor(event))
        if (expected === '-') {
          assert.equal(t.ok, false)
          if (!t.ok) assert.equal(t.code, 'claim_state_conflict')
        } else {
          assert.deepEqual(t, { ok: true, to: expected })
        }
      })
    }
  }
  it('eventsFrom lists exactly the events of a row', () => {
    for (const status of CLAIM_STATUSES)
      assert.deepEqual(
        eventsFrom(status),
        CLAIM_EVENTS.filter((_e, i) => TABLE[status][i] !== '-'),
      )
  })
  it('PAID and VOIDED are final (only a leftover hold can be released)', () => {
    assert.deepEqual(eventsFrom('PAID'), ['RELEASE_HOLD'])
    assert.deepEqual(eventsFrom('VOIDED'), ['RELEASE_HOLD'])
  })
  it('a refusal of the table names the statuses that allow the event', () => {
    const t = transition('PAID', 'VOID', FACTS)
    assert.ok(!t.ok)
    assert.match(
      t.message,
      /PAID cannot be voided; only one that is OPEN, PENDING_INSPECTION, AUTHORIZED, DENIED, CLOSED/,
    )
  })
})

describe('holds', () => {
  const held = { ...FACTS, openHolds: 2 }
  it('block AUTHORIZE, REQUEST_PAYMENT and RECORD_PAYMENT wherever the table allows them', () => {
    assert.deepEqual([...BLOCKED_BY_HOLDS], ['AUTHORIZE', 'REQUEST_PAYMENT', 'RECORD_PAYMENT'])
    for (const status of CLAIM_STATUSES)
      for (const event of BLOCKED_BY_HOLDS) {
        if (!eventsFrom(status).includes(event)) continue
        const t = transition(status, event, held)
        assert.ok(!t.ok, `${status} × ${event}`)
        assert.equal(t.code, 'claim_on_hold')
        assert.match(t.message, /2 open hold\(s\)/)
      }
  })
  it('block nothing else: the paperwork and ending the claim go on', () => {
    const free = CLAIM_EVENTS.filter((e) => !BLOCKED_BY_HOLDS.includes(e))
    for (const status of CLAIM_STATUSES)
      for (const event of free) {
        const i = CLAIM_EVENTS.indexOf(event)
        const expected = TABLE[status][i]!
        if (expected === '-') continue
        assert.deepEqual(transition(status, event, held), { ok: true, to: expected }, `${status} × ${event}`)
      }
  })
  it('the table comes first: a held PAID claim is refused as a state conflict', () => {
    const t = transition('PAID', 'RECORD_PAYMENT', held)
    assert.ok(!t.ok)
    assert.equal(t.code, 'claim_state_conflict')
  })
  it('a hold is released only when there is one', () => {
    const t = transition('OPEN', 'RELEASE_HOLD', FACTS)
    assert.ok(!t.ok)
    assert.equal(t.code, 'claim_not_on_hold')
  })
})

describe('the facts each event reads', () => {
  const refusal = (status: ClaimStatus, event: ClaimEvent, facts: Partial<ClaimFacts>) => {
    const t = transition(status, event, { ...FACTS, ...facts })
    assert.ok(!t.ok, `${status} × ${event} should be refused`)
    return t.code
  }
  const to = (status: ClaimStatus, event: ClaimEvent, facts: Partial<ClaimFacts>) => {
    const t = transition(status, event, { ...FACTS, ...facts })
    assert.ok(t.ok, `${status} × ${event}: ${t.ok ? '' : t.message}`)
    return t.to
  }

  it('AUTHORIZE needs an authorized job or benefit', () => {
    assert.equal(refusal('OPEN', 'AUTHORIZE', { hasAuthorizedLines: false }), 'claim_nothing_authorized')
    assert.equal(refusal('AUTHORIZED', 'AUTHORIZE', { hasAuthorizedLines: false }), 'claim_nothing_authorized')
  })

  const rows: Array<[string, Partial<ClaimFacts>, ClaimStatus | string]> = [
    ['authorized a week ago', {}, 'PENDING_PAYMENT'],
    ['no authorization', { authorization: null }, 'claim_authorization_missing'],
    ['the last valid day (2026-08-01)', { today: '2026-08-01' }, 'PENDING_PAYMENT'],
    ['the day it expires (2026-08-02)', { today: '2026-08-02' }, 'claim_authorization_expired'],
    ['long after', { today: '2027-01-01' }, 'claim_authorization_expired'],
    [
      'a shorter validity (30 days)',
      { authorization: { authorizedOn: '2026-02-03', validDays: 30 } },
      'PENDING_PAYMENT',
    ],
    [
      'a shorter validity, run out',
      { today: '2026-03-05', authorization: { authorizedOn: '2026-02-03', validDays: 30 } },
      'claim_authorization_expired',
    ],
    ['nothing payable (the deductible took it all)', { payableCents: 0 }, 'claim_nothing_payable'],
  ]
  for (const [name, facts, expected] of rows)
    it(`REQUEST_PAYMENT, ${name}: ${expected}`, () => {
      const t = transition('AUTHORIZED', 'REQUEST_PAYMENT', { ...FACTS, ...facts })
      assert.equal(t.ok ? t.to : t.code, expected)
    })

  it('the expiry refusal says when it expired', () => {
    const t = transition('AUTHORIZED', 'REQUEST_PAYMENT', { ...FACTS, today: '2026-09-01' })
    assert.ok(!t.ok)
    assert.match(t.message, /authorization of 2026-02-03 expired on 2026-08-02/)
  })

  it('RECORD_PAYMENT: part of the payable, then the rest', () => {
    assert.equal(to('PENDING_PAYMENT', 'RECORD_PAYMENT', { paymentCents: 10_000 }), 'PARTIALLY_PAID')
    assert.equal(to('PARTIALLY_PAID', 'RECORD_PAYMENT', { paidCents: 10_000, paymentCents: 5_000 }), 'PARTIALLY_PAID')
    assert.equal(to('PARTIALLY_PAID', 'RECORD_PAYMENT', { paidCents: 15_000, paymentCents: 4_517 }), 'PAID')
    assert.equal(to('PENDING_PAYMENT', 'RECORD_PAYMENT', { paymentCents: 19_517 }), 'PAID')
  })
  it('RECORD_PAYMENT: never above what is left, never 0', () => {
    assert.equal(refusal('PENDING_PAYMENT', 'RECORD_PAYMENT', { paymentCents: 19_518 }), 'claim_payment_above_payable')
    assert.equal(
      refusal('PARTIALLY_PAID', 'RECORD_PAYMENT', { paidCents: 15_000, paymentCents: 4_518 }),
      'claim_payment_above_payable',
    )
    assert.equal(refusal('PENDING_PAYMENT', 'RECORD_PAYMENT', { paymentCents: 0 }), 'claim_payment_not_positive')
    assert.equal(
      refusal('PENDING_PAYMENT', 'RECORD_PAYMENT', { paymentCents: undefined }),
      'claim_payment_not_positive',
    )
    const t = transition('PENDING_PAYMENT', 'RECORD_PAYMENT', { ...FACTS, paidCents: 15_000, paymentCents: 5_000 })
    assert.ok(!t.ok)
    assert.match(t.message, /payment 50\.00 is more than the 45\.17 left to pay/)
  })
  it('CANCEL_PAYMENT_REQUEST only before any payment', () => {
    assert.equal(to('PENDING_PAYMENT', 'CANCEL_PAYMENT_REQUEST', {}), 'AUTHORIZED')
    assert.equal(refusal('PENDING_PAYMENT', 'CANCEL_PAYMENT_REQUEST', { paidCents: 1 }), 'claim_has_payments')
  })
  it('DENY needs a denied reason', () => {
    for (const s of ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'] as const)
      assert.equal(refusal(s, 'DENY', { hasDeniedReason: false }), 'claim_denied_reason_required')
  })
  it('REOPEN goes back to OPEN, or to PARTIALLY_PAID when something was paid', () => {
    assert.equal(to('DENIED', 'REOPEN', {}), 'OPEN')
    assert.equal(to('CLOSED', 'REOPEN', {}), 'OPEN')
    assert.equal(to('CLOSED', 'REOPEN', { paidCents: 10_000 }), 'PARTIALLY_PAID')
  })
  it('VOID only with nothing paid', () => {
    assert.equal(to('CLOSED', 'VOID', {}), 'VOIDED')
    assert.equal(refusal('CLOSED', 'VOID', { paidCents: 10_000 }), 'claim_has_payments')
  })
  it('CLOSE of a partly paid claim leaves its payments (nothing more to pay)', () => {
    assert.equal(to('PARTIALLY_PAID', 'CLOSE', { paidCents: 10_000 }), 'CLOSED')
  })
})

describe("the authorization's validity", () => {
  const rows: Array<[string, number, string]> = [
    ['2026-02-03', 180, '2026-08-02'], // payloads.md §7's expiresAt
    ['2028-02-01', 30, '2028-03-02'], // a leap February
    ['2026-12-15', 30, '2027-01-14'], // over the year's end
    ['2026-02-03', 0, '2026-02-03'], // valid no day at all
  ]
  for (const [on, days, expires] of rows)
    it(`authorized ${on} for ${days} days: expired from ${expires}`, () => {
      assert.equal(authorizationExpiresOn(on, days), expires)
      assert.equal(authorizationExpired(on, days, expires), true)
      if (days > 0) {
        const dayBefore = new Date(Date.parse(`${expires}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
        assert.equal(authorizationExpired(on, days, dayBefore), false)
      }
    })
  it("a caller's mistake throws", () => {
    assert.throws(() => authorizationExpiresOn('2026-02-30', 180), RangeError)
    assert.throws(() => authorizationExpiresOn('2026-02-03', -1), RangeError)
  })
})
