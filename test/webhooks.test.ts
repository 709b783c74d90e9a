// Webhooks (docs/webhooks.md): subscriptions, signed out-of-band delivery to a local receiver, retries
// with backoff, order per contract, FAILED after webhookRetryLimit, redelivery, several deliverers on
// one database. The deliverer is driven with deliverDue() under the manual clock; one test runs the loop.
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { createModules } from '../src/modules.ts'
import { appendEvent } from '../src/platform/events/outbox.ts'
import { createManualClock } from '../src/platform/clock.ts'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  TEST_CONFIG,
  TEST_SECRETS,
  type TestApp,
  type TestTenant,
} from './harness.ts'

type Received = { headers: http.IncomingHttpHeaders; body: string; at: number }

/** A receiver on 127.0.0.1: records every request and answers what `answer` says (200 by default). */
async function startReceiver() {
  const received: Received[] = []
  let answer: (r: Received, n: number) => number = () => 200
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      received.push(r)
      res.statusCode = answer(r, received.length)
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith(fn: (r: Received, n: number) => number) {
      answer = fn
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The receiver's side, written independently of the service: HMAC-SHA256 of "<timestamp>.<body>". */
function verify(secret: string, r: Received, toleranceSeconds = 300, nowSeconds?: number): boolean {
  const timestamp = String(r.headers['webhook-timestamp'])
  const header = String(r.headers['webhook-signature'])
  if (!/^\d+$/.test(timestamp) || !header.startsWith('v1=')) return false
  if (nowSeconds !== undefined && Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${r.body}`).digest()
  const given = Buffer.from(header.slice(3), 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

let t: TestApp
let tenant: TestTenant
let other: TestTenant
let receiver: Awaited<ReturnType<typeof startReceiver>>
const start = new Date('2026-11-27T10:00:00.000Z')

before(async () => {
  t = await createTestApp({ now: start })
  t.modules.webhooks.options.allowPrivateReceivers = true
  t.modules.webhooks.options.random = () => 0.5
  tenant = await createTenant(t, 'Webhooks tenant')
  other = await createTenant(t, 'Other webhooks tenant')
  receiver = await startReceiver()
})
after(async () => {
  await t.close()
  await receiver.close()
})

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown, who = tenant) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) })

async function subscribe(body: Record<string, unknown>, who = tenant) {
  const res = await inject('POST', '/api/webhooks/subscriptions', body, who)
  assert.equal(res.statusCode, 201, res.body)
  return res.json() as { id: number; secret: string; url: string; eventTypes: string[] }
}

/** Appends events as a change would (the outbox is the only source of deliveries). */
async function emit(tenantId: number, ...events: Array<{ type: string; payload: Record<string, string | number> }>) {
  const ids: number[] = []
  await t.db.transaction(tenantId, async (tx) => {
    for (const e of events) ids.push(await appendEvent(tx, tenantId, t.clock.now(), e))
  })
  return ids
}

async function deliveries(query = '', who = tenant) {
  const res = await inject('GET', `/api/webhooks/deliveries${query}`, undefined, who)
  assert.equal(res.statusCode, 200, res.body)
  return (res.json() as { items: Array<Record<string, unknown>> }).items
}

async function unsubscribe(id: number) {
  assert.equal((await inject('DELETE', `/api/webhooks/subscriptions/${id}`)).statusCode, 204)
}

test('a subscription shows its secret once; reads, lists, patches and deletes never show it; writes are audited', async () => {
  const created = await subscribe({ url: receiver.url, eventTypes: ['contract.finalized'], description: 'sync' })
  assert.match(created.secret, /^whsec_[A-Za-z0-9_-]{43}$/)
  const read = await inject('GET', `/api/webhooks/subscriptions/${created.id}`)
  assert.equal(read.statusCode, 200)
  assert.deepEqual(
    { ...(read.json() as object), createdAt: undefined, updatedAt: undefined },
    {
      id: created.id,
      url: receiver.url,
      eventTypes: ['contract.finalized'],
      description: 'sync',
      active: true,
      createdAt: undefined,
      updatedAt: undefined,
    },
  )
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/api/webhooks/subscriptions/${created.id}`,
    headers: { ...tenant.headers, 'content-type': 'application/merge-patch+json' },
    payload: JSON.stringify({ active: false, eventTypes: ['*'] }),
  })
  assert.equal(patched.statusCode, 200, patched.body)
  assert.equal(patched.json().active, false)
  assert.deepEqual(patched.json().eventTypes, ['*'])
  const list = await inject('GET', '/api/webhooks/subscriptions')
  for (const body of [read.body, patched.body, list.body]) {
    assert.ok(!body.includes(created.secret), 'the secret is never shown again')
    assert.ok(!/"secret"/.test(body))
  }
  const stored = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('webhook_subscription')
      .select('secret')
      .where('tenant_id', '=', tenant.tenantId)
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow(),
  )
  assert.ok(stored.secret.startsWith('v1:') && !stored.secret.includes(created.secret), 'sealed at rest')

  const rotated = await inject('POST', `/api/webhooks/subscriptions/${created.id}/secret`)
  assert.equal(rotated.statusCode, 201)
  assert.notEqual(rotated.json().secret, created.secret)

  await unsubscribe(created.id)
  assert.equal((await inject('GET', `/api/webhooks/subscriptions/${created.id}`)).statusCode, 404)
  const audit = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('tenant_id', '=', tenant.tenantId)
      .where('entity_type', '=', 'webhook_subscription')
      .where('entity_id', '=', String(created.id))
      .orderBy('id')
      .execute(),
  )
  assert.deepEqual(
    audit.map((a) => a.action),
    [
      'webhook_subscription.created',
      'webhook_subscription.updated',
      'webhook_subscription.secret_rotated',
      'webhook_subscription.deleted',
    ],
  )
  assert.ok(!JSON.stringify(audit).includes('whsec_'), 'no secret in the audit trail')
})

test('bad URLs and event types are 422 naming the field; private receivers need the operator', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ url: 'ftp://hooks.example.com/x', eventTypes: ['*'] }, 'url'],
    [{ url: 'javascript:alert(1)', eventTypes: ['*'] }, 'url'],
    [{ url: 'not a url', eventTypes: ['*'] }, 'url'],
    [{ url: `https://hooks.example.com/${'a'.repeat(2000)}`, eventTypes: ['*'] }, 'url'],
    [{ url: 'https://user:pw@hooks.example.com/', eventTypes: ['*'] }, 'url'],
    [{ url: 'https://hooks.example.com/', eventTypes: ['*', 'contract.finalized'] }, 'eventTypes'],
    [{ url: 'https://hooks.example.com/', eventTypes: ['Contract Finalized'] }, 'eventTypes[0]'],
  ]
  for (const [body, field] of cases) {
    const res = await inject('POST', '/api/webhooks/subscriptions', body)
    assert.equal(res.statusCode, 422, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`)
    assert.equal(res.json().code, 'webhook_subscription_invalid')
    assert.deepEqual(
      res.json().errors.map((e: { field: string }) => e.field),
      [field],
    )
  }
  const exactly2000 = `https://hooks.example.com/${'a'.repeat(2000 - 'https://hooks.example.com/'.length)}`
  const ok = await subscribe({ url: exactly2000, eventTypes: ['contract.finalized'] })
  await unsubscribe(ok.id)

  t.modules.webhooks.options.allowPrivateReceivers = false
  try {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/',
    ]) {
      const res = await inject('POST', '/api/webhooks/subscriptions', { url, eventTypes: ['*'] })
      assert.equal(res.statusCode, 422, url)
      assert.equal(res.json().errors[0].field, 'url')
      assert.equal(res.json().errors[0].code, 'private_address')
    }
  } finally {
    t.modules.webhooks.options.allowPrivateReceivers = true
  }
})

test('another tenant sees none of it: 404 by id, nothing in lists', async () => {
  const sub = await subscribe({ url: receiver.url, eventTypes: ['order.placed'] })
  await emit(tenant.tenantId, { type: 'order.placed', payload: { orderId: 1 } })
  await t.modules.webhooks.deliverer.deliverDue()
  const [delivery] = await deliveries(`?subscriptionId=${sub.id}`)
  assert.ok(delivery)
  for (const [method, url] of [
    ['GET', `/api/webhooks/subscriptions/${sub.id}`],
    ['PATCH', `/api/webhooks/subscriptions/${sub.id}`],
    ['DELETE', `/api/webhooks/subscriptions/${sub.id}`],
    ['POST', `/api/webhooks/subscriptions/${sub.id}/secret`],
    ['GET', `/api/webhooks/deliveries/${delivery.id}`],
    ['POST', `/api/webhooks/deliveries/${delivery.id}/redeliveries`],
  ] as const) {
    const res = await inject(method, url, method === 'PATCH' ? { active: false } : undefined, other)
    assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`)
  }
  assert.deepEqual((await inject('GET', '/api/webhooks/subscriptions', undefined, other)).json().items, [])
  assert.deepEqual(await deliveries('', other), [])
  await unsubscribe(sub.id)
})

test('a delivery is signed (verified independently); a receiver failing twice gets 3 attempts, then SUCCEEDED', async () => {
  const t0 = t.clock.now()
  const sub = await subscribe({ url: receiver.url, eventTypes: ['contract.finalized'] })
  const seenBefore = receiver.received.length
  receiver.answerWith((_r, n) => (n - seenBefore <= 2 ? 503 : 204))
  const [eventId] = await emit(
    tenant.tenantId,
    { type: 'contract.finalized', payload: { contractId: 900123, contractNumber: 'C-1' } },
    { type: 'contract.voided', payload: { contractId: 900124 } },
  )
  // Nothing is sent until the deliverer runs: no request delivers.
  assert.equal(receiver.received.length, seenBefore)

  await t.modules.webhooks.deliverer.deliverDue()
  assert.equal(receiver.received.length, seenBefore + 1)
  let [d] = await deliveries(`?subscriptionId=${sub.id}`)
  assert.ok(d)
  assert.equal(d.status, 'PENDING')
  assert.equal(d.attempts, 1)
  assert.equal(d.lastResponseCode, 503)
  assert.equal(d.eventType, 'contract.finalized')
  assert.equal(d.contractId, '900123')
  assert.equal(typeof d.lastLatencyMs, 'number')
  // First retry after 10 s: half fixed, half jitter (random fixed at 0.5 here) → 7.5 s.
  assert.equal(d.nextAttemptAt, new Date(t0.getTime() + 7_500).toISOString())

  // Not due yet: nothing is attempted.
  await t.modules.webhooks.deliverer.deliverDue()
  assert.equal(receiver.received.length, seenBefore + 1)
  t.clock.advance(7_500)
  await t.modules.webhooks.deliverer.deliverDue()
  assert.equal(receiver.received.length, seenBefore + 2)
  t.clock.advance(15_000)
  await t.modules.webhooks.deliverer.deliverDue()
  assert.equal(receiver.received.length, seenBefore + 3)
  ;[d] = await deliveries(`?subscriptionId=${sub.id}`)
  assert.ok(d)
  assert.equal(d.status, 'SUCCEEDED')
  assert.equal(d.attempts, 3)
  assert.equal(d.lastResponseCode, 204)
  assert.equal(d.nextAttemptAt, null)
  const got = await inject('GET', `/api/webhooks/deliveries/${d.id}`)
  assert.equal(got.statusCode, 200)
  assert.equal(got.json().status, 'SUCCEEDED')

  const attempts = receiver.received.slice(seenBefore)
  assert.equal(attempts.length, 3, 'the voided event is not subscribed to')
  for (const r of attempts) {
    assert.ok(verify(sub.secret, r, 300, Math.floor(t.clock.now().getTime() / 1000)), 'signature verifies')
    assert.ok(
      !verify(
        sub.secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        r,
      ),
      'another secret does not',
    )
    assert.ok(!verify(sub.secret, { ...r, body: r.body.replace('900123', '900999') }), 'a changed body does not')
    assert.equal(r.headers['content-type'], 'application/json')
    assert.equal(r.headers['webhook-id'], `evt_${eventId}`)
    assert.deepEqual(JSON.parse(r.body), {
      id: `evt_${eventId}`,
      type: 'contract.finalized',
      created: t0.toISOString(),
      data: { contractId: 900123, contractNumber: 'C-1' },
    })
  }
  assert.deepEqual(
    attempts.map((r) => Number(r.headers['webhook-timestamp']) - Math.floor(t0.getTime() / 1000)),
    [0, 7, 22],
    'each attempt signs its own timestamp',
  )
  await unsubscribe(sub.id)
})

test('in order per contract: a later event of a contract waits until the earlier one succeeded or failed for good', async () => {
  const sub = await subscribe({ url: receiver.url, eventTypes: ['deal.opened', 'deal.closed', 'report.done'] })
  const seenBefore = receiver.received.length
  await emit(
    tenant.tenantId,
    { type: 'deal.opened', payload: { contractId: 501 } },
    { type: 'deal.closed', payload: { contractId: 501 } },
    { type: 'deal.opened', payload: { contractId: 502 } },
    { type: 'report.done', payload: { statementRequestId: 9 } },
  )
  // The first attempt of contract 501's first event fails; everything else succeeds.
  let failedOnce = false
  receiver.answerWith((r) => {
    const body = JSON.parse(r.body)
    if (!failedOnce && body.type === 'deal.opened' && body.data.contractId === 501) {
      failedOnce = true
      return 500
    }
    return 200
  })
  await t.modules.webhooks.deliverer.deliverDue()
  const firstPass = receiver.received.slice(seenBefore).map((r) => JSON.parse(r.body))
  assert.deepEqual(
    firstPass.map((b) => `${b.type}:${b.data.contractId ?? '-'}`).toSorted(),
    ['deal.opened:501', 'deal.opened:502', 'report.done:-'],
    'the cancel of contract 501 waits for its finalize; other contracts and events go on',
  )
  const waiting = await deliveries(`?subscriptionId=${sub.id}&status=PENDING`)
  assert.deepEqual(waiting.map((d) => [d.eventType, d.attempts]).toSorted(), [
    ['deal.closed', 0],
    ['deal.opened', 1],
  ])

  t.clock.advance(60_000)
  await t.modules.webhooks.deliverer.deliverDue()
  const of501 = receiver.received
    .slice(seenBefore)
    .map((r) => JSON.parse(r.body))
    .filter((b) => b.data.contractId === 501)
    .map((b) => b.type)
  assert.deepEqual(of501, ['deal.opened', 'deal.opened', 'deal.closed'])
  assert.deepEqual(await deliveries(`?subscriptionId=${sub.id}&status=PENDING`), [])
  assert.equal((await deliveries(`?subscriptionId=${sub.id}&status=SUCCEEDED`)).length, 4)
  assert.equal((await deliveries(`?subscriptionId=${sub.id}&eventType=deal.closed`)).length, 1)
  await unsubscribe(sub.id)
})

test('FAILED after webhookRetryLimit attempts; a later event of the contract then goes; a redelivery tries again', async () => {
  const limit = await inject('PUT', '/api/generalsettings/webhookRetryLimit', { value: 3 })
  assert.equal(limit.statusCode, 200, limit.body)
  const sub = await subscribe({ url: receiver.url, eventTypes: ['claim.paid', 'claim.authorized'] })
  const seenBefore = receiver.received.length
  receiver.answerWith((r) => (JSON.parse(r.body).type === 'claim.authorized' ? 500 : 200))
  await emit(
    tenant.tenantId,
    { type: 'claim.authorized', payload: { claimId: 1, contractId: 777 } },
    { type: 'claim.paid', payload: { claimId: 1, contractId: 777 } },
  )
  for (let i = 0; i < 5; i++) {
    await t.modules.webhooks.deliverer.deliverDue()
    t.clock.advance(60_000)
  }
  const [authorized] = await deliveries(`?subscriptionId=${sub.id}&eventType=claim.authorized`)
  assert.ok(authorized)
  assert.equal(authorized.status, 'FAILED')
  assert.equal(authorized.attempts, 3)
  assert.equal(authorized.lastResponseCode, 500)
  assert.equal(authorized.lastError, 'receiver answered 500')
  assert.equal(authorized.nextAttemptAt, null)
  const [paid] = await deliveries(`?subscriptionId=${sub.id}&eventType=claim.paid`)
  assert.equal(paid?.status, 'SUCCEEDED', 'a failure for good no longer holds the contract back')
  assert.deepEqual(
    receiver.received.slice(seenBefore).map((r) => JSON.parse(r.body).type),
    ['claim.authorized', 'claim.authorized', 'claim.authorized', 'claim.paid'],
  )

  receiver.answerWith(() => 200)
  const redelivery = await inject('POST', `/api/webhooks/deliveries/${authorized.id}/redeliveries`)
  assert.equal(redelivery.statusCode, 202, redelivery.body)
  assert.equal(redelivery.json().status, 'PENDING')
  assert.equal(receiver.received.length, seenBefore + 4, 'the request itself delivers nothing')
  await t.modules.webhooks.deliverer.deliverDue()
  const again = (await inject('GET', `/api/webhooks/deliveries/${authorized.id}`)).json()
  assert.equal(again.status, 'SUCCEEDED')
  assert.equal(again.attempts, 4)
  const last = receiver.received.at(-1)
  assert.ok(last && verify(sub.secret, last))
  assert.equal(last.headers['webhook-id'], String(authorized.eventId))
  const audit = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select('action')
      .where('tenant_id', '=', tenant.tenantId)
      .where('entity_type', '=', 'webhook_delivery')
      .where('entity_id', '=', String(authorized.id))
      .execute(),
  )
  assert.deepEqual(
    audit.map((a) => a.action),
    ['webhook_delivery.redelivery_requested'],
  )
  await inject('PUT', '/api/generalsettings/webhookRetryLimit', { value: 8 })
  await unsubscribe(sub.id)
})

test('two deliverers on one database (two service instances) attempt each delivery once', async () => {
  const second = createModules({ config: TEST_CONFIG, db: t.db, clock: t.clock, bus: t.bus, secrets: TEST_SECRETS })
  second.webhooks.options.allowPrivateReceivers = true
  const sub = await subscribe({ url: receiver.url, eventTypes: ['lot.sold'] })
  const seenBefore = receiver.received.length
  receiver.answerWith(() => 200)
  await emit(
    tenant.tenantId,
    ...Array.from({ length: 40 }, (_, i) => ({ type: 'lot.sold', payload: { lotId: i, contractId: i % 7 } })),
  )
  await Promise.all([t.modules.webhooks.deliverer.deliverDue(), second.webhooks.deliverer.deliverDue()])
  await second.webhooks.deliverer.stop()
  const bodies = receiver.received.slice(seenBefore).map((r) => JSON.parse(r.body))
  assert.equal(bodies.length, 40, 'each event once')
  assert.equal(new Set(bodies.map((b) => b.id)).size, 40)
  for (let c = 0; c < 7; c++) {
    const lots = bodies.filter((b) => b.data.contractId === c).map((b) => b.data.lotId)
    assert.deepEqual(
      lots,
      lots.toSorted((a, b) => a - b),
      `contract ${c} in order`,
    )
  }
  await unsubscribe(sub.id)
})

test('the loop delivers out of band and stops with the app', async () => {
  const app = await createTestApp({ db: t.db, clock: createManualClock(t.clock.now()) })
  app.modules.webhooks.options.allowPrivateReceivers = true
  app.modules.webhooks.options.intervalMs = 20
  const sub = await subscribe({ url: receiver.url, eventTypes: ['loop.tested'] })
  const seenBefore = receiver.received.length
  receiver.answerWith(() => 200)
  app.modules.webhooks.deliverer.start()
  await emit(tenant.tenantId, { type: 'loop.tested', payload: { n: 1 } })
  const deadline = Date.now() + 10_000
  while (receiver.received.length === seenBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  assert.equal(receiver.received.length, seenBefore + 1)
  await app.close()
  assert.equal(app.modules.webhooks.deliverer.running, false)
  await unsubscribe(sub.id)
})

test('webhooks are for staff: a dealer-side user is refused even with webhooks:read', async () => {
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'WH-PORTAL',
    name: 'Portal',
    dealerIds: [],
  })
  assert.equal(group.statusCode, 201, group.body)
  const dealerSide = await createUserWithRoles(t, tenant, ['READ_ONLY'], { groups: [{ id: group.json().id }] })
  const staff = await createUserWithRoles(t, tenant, ['READ_ONLY'])
  for (const url of ['/api/webhooks/subscriptions', '/api/webhooks/deliveries']) {
    const refused = await t.app.inject({ method: 'GET', url, headers: dealerSide.headers })
    assert.equal(refused.statusCode, 403, refused.body)
    assert.equal(refused.json().code, 'permission_denied')
    assert.equal((await t.app.inject({ method: 'GET', url, headers: staff.headers })).statusCode, 200)
  }
})

test('a receiver on a private address is not contacted at delivery once the operator no longer allows it', async () => {
  const sub = await subscribe({ url: receiver.url, eventTypes: ['guard.tested'] })
  const seenBefore = receiver.received.length
  t.modules.webhooks.options.allowPrivateReceivers = false
  try {
    await emit(tenant.tenantId, { type: 'guard.tested', payload: { n: 1 } })
    await t.modules.webhooks.deliverer.deliverDue()
  } finally {
    t.modules.webhooks.options.allowPrivateReceivers = true
  }
  assert.equal(receiver.received.length, seenBefore)
  const [d] = await deliveries(`?subscriptionId=${sub.id}`)
  assert.equal(d?.status, 'PENDING')
  assert.equal(d?.attempts, 1)
  assert.match(String(d?.lastError), /private/)
  await unsubscribe(sub.id)
})

test('a receiver that does not answer in time is a failed attempt, and the pass does not wait for it', async () => {
  const hanging = http.createServer(() => {})
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
  const { port } = hanging.address() as AddressInfo
  const sub = await subscribe({ url: `http://127.0.0.1:${port}/slow`, eventTypes: ['slow.tested'] })
  t.modules.webhooks.options.timeoutMs = 200
  try {
    await emit(tenant.tenantId, { type: 'slow.tested', payload: { n: 1 } })
    const started = Date.now()
    await t.modules.webhooks.deliverer.deliverDue()
    assert.ok(Date.now() - started < 5_000)
  } finally {
    t.modules.webhooks.options.timeoutMs = 5_000
    hanging.closeAllConnections()
    await new Promise<void>((resolve) => hanging.close(() => resolve()))
  }
  const [d] = await deliveries(`?subscriptionId=${sub.id}`)
  assert.equal(d?.status, 'PENDING')
  assert.equal(d?.lastResponseCode, null)
  assert.match(String(d?.lastError), /no complete response within 200 ms/)
  await unsubscribe(sub.id)
})
