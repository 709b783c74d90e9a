// POST /api/accountholders/autoexpirerequests through HTTP: dry run (the default) changes nothing,
// a real run expires, bumps versions and audits; explicit ids with every skip reason; the
// DEALERS_WITHOUT_CONTRACTS_SINCE and INACTIVE_STATUS rules, limits and truncation; scheduled
// expiry; bad requests; permissions; idempotent replay.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

type Expired = {
  id: number
  kind: string
  businessKey: string | null
  legalName: string
  reason: string
  detail: string
  lastContractDate: string | null
  previousExpiredDate: string | null
}
type Skipped = { id: number; kind: string | null; businessKey: string | null; reason: string; detail: string }
type Result = {
  dryRun: boolean
  expiredDate: string
  matchedCount: number
  truncated: boolean
  expired: Expired[]
  skipped: Skipped[]
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }
type Rep = { id: number; isActive: boolean; expiredDate: string | null; version: number }

const URL = '/api/accountholders/autoexpirerequests'
const NOW = new Date('2026-06-01T12:00:00Z')

let t: TestApp
let tenant: TestTenant
let other: TestTenant
let seq = 0

before(async () => {
  t = await createTestApp({ now: NOW })
  tenant = await createTenant(t, 'Auto expire')
  other = await createTenant(t, 'Other auto expire')
})
after(() => t.close())

const request = (
  payload: unknown,
  who: TestTenant | { headers: Record<string, string> } = tenant,
  extra: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...who.headers, ...extra },
    payload: payload as Record<string, unknown>,
  })

async function create(path: string, body: Record<string, unknown>, who: TestTenant = tenant): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: who.headers, payload: body })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}
const dealer = (who: TestTenant = tenant, extra: Record<string, unknown> = {}) =>
  create('/api/dealers', { dealerNumber: `D-${++seq}`, legalName: `Dealer ${seq} LLC`, ...extra }, who)
const agent = (who: TestTenant = tenant, extra: Record<string, unknown> = {}) =>
  create('/api/agents', { agentCode: `A-${++seq}`, legalName: `Agent ${seq} LLC`, ...extra }, who)
const read = async (path: string, id: number, who: TestTenant = tenant) =>
  json<Rep>(await t.app.inject({ method: 'GET', url: `${path}/${id}`, headers: who.headers }))

/** Arranges what contracts will maintain (last sale) and what only time gives (an older record). */
async function arrange(who: TestTenant, id: number, values: { last_contract_date?: string | null; created_at?: Date }) {
  await t.db.transaction(who.tenantId, (tx) =>
    tx.updateTable('account_holder').set(values).where('tenant_id', '=', who.tenantId).where('id', '=', id).execute(),
  )
}

const auditOf = (who: TestTenant, id: number) =>
  t.db.read(who.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['action', 'changes', 'actor_label'])
      .where('tenant_id', '=', who.tenantId)
      .where('entity_id', '=', String(id))
      .where('action', 'like', '%.expired')
      .orderBy('id')
      .execute(),
  )

const adminCompanyId = async (who: TestTenant) =>
  json<Array<{ id: number }>>(
    await t.app.inject({ method: 'GET', url: '/api/accountholders?kind=ADMIN_COMPANY', headers: who.headers }),
  )[0]!.id

describe('explicit ids', () => {
  test('dry run (the default) lists what would be expired and why, and changes nothing; the real run expires', async () => {
    const [d1, d2, gone] = [await dealer(), await agent(), await dealer()]
    await create('/api/dealergroups', { groupCode: `G-${++seq}`, legalName: 'Unrelated group' })
    const expireGone = await t.app.inject({
      method: 'PATCH',
      url: `/api/dealers/${gone}`,
      headers: { ...tenant.headers, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ expiredDate: '2026-01-01T00:00:00Z' }),
    })
    assert.equal(expireGone.statusCode, 200)
    const theirs = await dealer(other)
    const admin = await adminCompanyId(tenant)
    const original = await read('/api/dealers', d1)
    const body = { accountHolderIds: [gone, 999999999, d2, theirs, admin, d1, 1e20] }

    const dry = await request(body)
    assert.equal(dry.statusCode, 200, dry.body)
    const preview = json<Result>(dry)
    assert.equal(preview.dryRun, true)
    assert.equal(preview.expiredDate, NOW.toISOString())
    assert.equal(preview.matchedCount, 7)
    assert.equal(preview.truncated, false)
    assert.deepEqual(
      preview.expired.map((e) => [e.id, e.kind, e.reason, e.previousExpiredDate]),
      [
        [d1, 'DEALER', 'REQUESTED', null],
        [d2, 'AGENT', 'REQUESTED', null],
      ],
    )
    assert.equal(preview.expired[0]!.businessKey, `D-${seq - 4}`)
    const skipped = Object.fromEntries(preview.skipped.map((s) => [s.id, [s.reason, s.kind]]))
    assert.deepEqual(skipped, {
      [admin]: ['NOT_EXPIRABLE', 'ADMIN_COMPANY'],
      [gone]: ['ALREADY_EXPIRED', 'DEALER'],
      [theirs]: ['NOT_FOUND', null],
      999999999: ['NOT_FOUND', null],
      1e20: ['NOT_FOUND', null],
    })
    assert.deepEqual(
      preview.skipped.map((s) => s.id),
      preview.skipped.map((s) => s.id).toSorted((a, b) => a - b),
    )
    assert.deepEqual(await read('/api/dealers', d1), original)
    assert.deepEqual(await auditOf(tenant, d1), [])

    const real = await request({ ...body, dryRun: false, note: 'Agreements terminated' })
    assert.equal(real.statusCode, 200, real.body)
    const done = json<Result>(real)
    assert.equal(done.dryRun, false)
    assert.deepEqual({ ...done, dryRun: true }, preview)
    const expired = await read('/api/dealers', d1)
    assert.equal(expired.isActive, false)
    assert.equal(expired.expiredDate, NOW.toISOString())
    assert.equal(expired.version, original.version + 1)
    assert.equal((await read('/api/agents', d2)).isActive, false)
    assert.equal((await read('/api/dealers', theirs, other)).isActive, true)
    const audit = await auditOf(tenant, d1)
    assert.equal(audit.length, 1)
    assert.equal(audit[0]!.action, 'dealer.expired')
    assert.deepEqual(audit[0]!.changes, {
      before: { expiredDate: null },
      after: { expiredDate: NOW.toISOString() },
      reason: 'REQUESTED',
      detail: 'named in accountHolderIds',
      note: 'Agreements terminated',
    })
    assert.equal((await auditOf(tenant, d2))[0]!.action, 'agent.expired')

    // Once expired, never expired again (nor moved).
    const again = json<Result>(await request({ accountHolderIds: [d1], dryRun: false }))
    assert.deepEqual(again.expired, [])
    assert.deepEqual(
      again.skipped.map((s) => s.reason),
      ['ALREADY_EXPIRED'],
    )
    assert.equal((await auditOf(tenant, d1)).length, 1)
  })

  test('a future expiredDate schedules; a past one means now; an earlier request brings a later expiry forward', async () => {
    const [a, b, c] = [await dealer(), await dealer(), await dealer()]
    const july = '2026-07-01T00:00:00.000Z'
    const scheduled = json<Result>(await request({ accountHolderIds: [a, b], expiredDate: july, dryRun: false }))
    assert.equal(scheduled.expiredDate, july)
    assert.deepEqual(
      scheduled.expired.map((e) => e.id),
      [a, b],
    )
    const rep = await read('/api/dealers', a)
    assert.equal(rep.expiredDate, july)
    assert.equal(rep.isActive, true)

    // Due by the requested date already → skipped; due later → brought forward.
    const later = json<Result>(await request({ accountHolderIds: [a], expiredDate: '2026-08-01T00:00:00Z' }))
    assert.deepEqual(
      later.skipped.map((s) => s.reason),
      ['ALREADY_SCHEDULED'],
    )
    const sooner = json<Result>(
      await request({ accountHolderIds: [b, c], expiredDate: '2020-01-01T00:00:00Z', dryRun: false }),
    )
    assert.equal(sooner.expiredDate, NOW.toISOString())
    assert.deepEqual(
      sooner.expired.map((e) => [e.id, e.previousExpiredDate]),
      [
        [b, july],
        [c, null],
      ],
    )
    assert.equal((await read('/api/dealers', b)).isActive, false)
  })
})

describe('rules', () => {
  test('DEALERS_WITHOUT_CONTRACTS_SINCE: last sale before since, or none and created before since; limit and truncation', async () => {
    const own = await createTenant(t, 'Rule tenant')
    const long = new Date('2025-03-01T00:00:00Z')
    const stale = await dealer(own)
    await arrange(own, stale, { last_contract_date: '2025-11-30', created_at: long })
    const selling = await dealer(own)
    await arrange(own, selling, { last_contract_date: '2026-02-14', created_at: long })
    const neverSoldOld = await dealer(own)
    await arrange(own, neverSoldOld, { created_at: long })
    const neverSoldNew = await dealer(own) // created now, after since: not taken
    const alreadyExpired = await dealer(own, { expiredDate: '2026-01-15T00:00:00Z' })
    await arrange(own, alreadyExpired, { last_contract_date: '2025-01-01', created_at: long })
    const oldAgent = await agent(own)
    await arrange(own, oldAgent, { created_at: long })
    const rule = { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-01-01' }

    const dry = await request({ rule }, own)
    assert.equal(dry.statusCode, 200, dry.body)
    const preview = json<Result>(dry)
    assert.equal(preview.matchedCount, 2)
    assert.equal(preview.truncated, false)
    assert.deepEqual(preview.skipped, [])
    assert.deepEqual(
      preview.expired.map((e) => [e.id, e.reason, e.lastContractDate, e.detail]),
      [
        [stale, 'NO_CONTRACTS_SINCE', '2025-11-30', 'last contract sold 2025-11-30, before 2026-01-01'],
        [neverSoldOld, 'NO_CONTRACTS_SINCE', null, 'no contract ever sold; created 2025-03-01, before 2026-01-01'],
      ],
    )

    const limited = json<Result>(await request({ rule, limit: 1 }, own))
    assert.equal(limited.matchedCount, 2)
    assert.equal(limited.truncated, true)
    assert.deepEqual(
      limited.expired.map((e) => e.id),
      [stale],
    )

    // A real run in two requests of one: the second takes the rest.
    assert.deepEqual(
      json<Result>(await request({ rule, limit: 1, dryRun: false }, own)).expired.map((e) => e.id),
      [stale],
    )
    const rest = json<Result>(await request({ rule, dryRun: false }, own))
    assert.deepEqual([rest.matchedCount, rest.truncated, rest.expired.map((e) => e.id)], [1, false, [neverSoldOld]])
    for (const [id, active] of [
      [stale, false],
      [neverSoldOld, false],
      [selling, true],
      [neverSoldNew, true],
    ] as const) {
      assert.equal((await read('/api/dealers', id, own)).isActive, active, String(id))
    }
    assert.equal((await auditOf(own, neverSoldOld))[0]!.action, 'dealer.expired')
    assert.deepEqual(json<Result>(await request({ rule }, own)).matchedCount, 0)
    // The other tenant's dealers are never matched.
    assert.equal(json<Result>(await request({ rule }, own)).expired.length, 0)
  })

  test('INACTIVE_STATUS, optionally by kind', async () => {
    const own = await createTenant(t, 'Inactive tenant')
    const inactiveDealer = await dealer(own, { status: 'INACTIVE' })
    const inactiveAgent = await agent(own, { status: 'INACTIVE' })
    await dealer(own)
    const all = json<Result>(await request({ rule: { type: 'INACTIVE_STATUS' } }, own))
    assert.deepEqual(
      all.expired.map((e) => [e.id, e.reason]),
      [
        [inactiveDealer, 'INACTIVE_STATUS'],
        [inactiveAgent, 'INACTIVE_STATUS'],
      ],
    )
    const agents = json<Result>(
      await request({ rule: { type: 'INACTIVE_STATUS', kinds: ['AGENT'] }, dryRun: false }, own),
    )
    assert.deepEqual(
      agents.expired.map((e) => e.id),
      [inactiveAgent],
    )
    assert.equal((await read('/api/agents', inactiveAgent, own)).expiredDate, NOW.toISOString())
    assert.equal((await read('/api/dealers', inactiveDealer, own)).expiredDate, null)
  })
})

describe('bad requests, permissions, idempotency', () => {
  test('exactly one of ids and rule; rule members where they apply; bounds', async () => {
    const cases: Array<[unknown, number, string[]]> = [
      [{}, 400, ['accountHolderIds', 'rule']],
      [{ accountHolderIds: [1], rule: { type: 'INACTIVE_STATUS' } }, 400, ['accountHolderIds', 'rule']],
      [{ rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE' } }, 400, ['rule.since']],
      [
        { rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-01-01', kinds: ['DEALER'] } },
        400,
        ['rule.kinds'],
      ],
      [{ rule: { type: 'INACTIVE_STATUS', since: '2026-01-01' } }, 400, ['rule.since']],
      [{ rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '01/01/2026' } }, 400, ['rule.since']],
      [{ rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-06-02' } }, 422, ['rule.since']],
      [{ rule: { type: 'EVERYONE' } }, 400, ['rule.type']],
      [{ rule: { type: 'INACTIVE_STATUS', kinds: ['ADMIN_COMPANY'] } }, 400, ['rule.kinds[0]']],
      [{ accountHolderIds: [1], limit: 5 }, 400, ['limit']],
      [{ accountHolderIds: [] }, 400, ['accountHolderIds']],
      [{ accountHolderIds: [1, 1] }, 400, ['accountHolderIds']],
      [{ accountHolderIds: Array.from({ length: 1001 }, (_, i) => i + 1) }, 400, ['accountHolderIds']],
      [{ rule: { type: 'INACTIVE_STATUS' }, limit: 1001 }, 400, ['limit']],
      [{ accountHolderIds: [1], dryRun: 'no' }, 400, ['dryRun']],
      [{ accountHolderIds: [1], expiredDate: 'tomorrow' }, 400, ['expiredDate']],
    ]
    for (const [body, status, fields] of cases) {
      const res = await request(body)
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`)
      assert.deepEqual(
        json<Problem>(res).errors?.map((e) => e.field),
        fields,
        JSON.stringify(body),
      )
    }
    assert.equal(
      json<Problem>(await request({ rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-06-02' } })).code,
      'auto_expire_rule_invalid',
    )
    // Today is allowed.
    assert.equal(
      (await request({ rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2026-06-01' } })).statusCode,
      200,
    )
  })

  test('a read-only user is refused, even for a dry run', async () => {
    const d = await dealer()
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    const res = await request({ accountHolderIds: [d] }, reader)
    assert.equal(res.statusCode, 403, res.body)
    assert.equal(json<Problem>(res).code, 'permission_denied')
  })

  test('Idempotency-Key replays the result of a real run', async () => {
    const d = await dealer()
    const key = { 'idempotency-key': `expire-${d}` }
    const first = await request({ accountHolderIds: [d], dryRun: false }, tenant, key)
    assert.equal(first.statusCode, 200, first.body)
    const replay = await request({ accountHolderIds: [d], dryRun: false }, tenant, key)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.deepEqual(json(replay), json(first))
    assert.equal((await auditOf(tenant, d)).length, 1)
  })
})
