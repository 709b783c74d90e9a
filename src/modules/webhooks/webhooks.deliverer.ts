// The deliverer (docs/webhooks.md): out of band, never inside a request. Each pass, per tenant:
// 1. fan-out: the tenant's cursor row is locked (FOR UPDATE SKIP LOCKED, so one instance at a time),
//    the outbox events after it become one PENDING delivery per matching active subscription
//    (unique per subscription and event, so a repeated fan-out adds nothing), and the cursor moves;
//    events committed late behind the cursor (outbox ids follow insertion, not commit order) are
//    picked up by a look-back over recent ids that have no delivery yet;
// 2. attempts: due deliveries are claimed with FOR UPDATE SKIP LOCKED, their attempt counted and
//    leased (next_attempt_at moved past the attempt's timeout) in a short transaction, then POSTed
//    with no transaction open, then their outcome recorded. An instance that dies mid-attempt leaves
//    the delivery PENDING, due again when the lease ends: delivered at least once. A delivery waits
//    while an earlier event of the same contract to the same subscription is PENDING.
// Outcomes: 2xx SUCCEEDED; anything else (status, timeout, refused connection, private address)
// is retried after exponential backoff with jitter until webhookRetryLimit attempts, then FAILED.
import dns, { type LookupAddress, type LookupOptions } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { eventsAfter } from '../../platform/events/outbox.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import type { SettingsService } from '../settings/index.ts'
import * as repo from './webhooks.repository.ts'
import {
  backoffMs,
  contractIdOf,
  deliveryBody,
  isPrivateAddress,
  signature,
  takesEvent,
  webhookId,
} from './webhooks.rules.ts'
import { secretContext, type WebhookOptions } from './webhooks.service.ts'

export type DelivererOptions = WebhookOptions & {
  /** An attempt without a complete response within this is a failure. Default 5 s. */
  timeoutMs: number
  /** Idle wait between passes that found nothing to do. Default 1 s. */
  intervalMs: number
  /** Deliveries claimed (and sent concurrently) at once by one batch. Default 100. */
  batchSize: number
  /** Batches of a tenant in flight at once. Default 4. */
  concurrency: number
  /** Tenants worked at once in a pass. Default 4. */
  tenantConcurrency: number
  /** Source of jitter in [0, 1); tests fix it. */
  random: () => number
}

export type DelivererDeps = {
  db: Database
  clock: Clock
  secrets: SecretBox
  settings: Pick<SettingsService, 'get'>
  options: DelivererOptions
}

export type PassResult = { fannedOut: number; attempted: number; succeeded: number; failed: number }

const FAN_OUT_BATCH = 500
/** How far behind the cursor (ids, and time by the service clock) late-committed events are looked for. */
const LOOK_BACK_IDS = 1000
const LOOK_BACK_MS = 5 * 60_000
/** Passes of attempts per tenant in one deliverDue (each may free the next event of a contract). */
const MAX_ROUNDS = 50

type Outcome = { code: number | null; error: string | null; latencyMs: number }

export function createDeliverer(deps: DelivererDeps) {
  const { db, clock, secrets, settings, options } = deps
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  }

  /** Refuses private addresses a host name resolves to at connect time (no check-then-rebind gap). */
  function guardedLookup(
    hostname: string,
    opts: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) {
    dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      const list = addresses as LookupAddress[]
      if (list.some((a) => isPrivateAddress(a.address)))
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), [])
      if (opts.all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), [])
      callback(null, first.address, first.family)
    })
  }

  function post(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    return new Promise((resolve) => {
      let done = false
      let deadline: NodeJS.Timeout | undefined
      const finish = (code: number | null, error: string | null) => {
        if (done) return
        done = true
        clearTimeout(deadline)
        resolve({ code, error, latencyMs: elapsed() })
      }
      let target: URL
      try {
        target = new URL(url)
      } catch {
        return finish(null, 'the subscription URL does not parse')
      }
      const host = target.hostname.replace(/^\[|\]$/g, '')
      if (!options.allowPrivateReceivers && (host === 'localhost' || (isIP(host) !== 0 && isPrivateAddress(host))))
        return finish(null, 'the receiver address is private, which the operator does not allow')
      const secure = target.protocol === 'https:'
      const req = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? agents.https : agents.http,
          ...(options.allowPrivateReceivers ? {} : { lookup: guardedLookup as never }),
        },
        (res) => {
          // The answer's body is not kept: only its status counts.
          res.on('data', () => {})
          res.on('end', () => {
            const code = res.statusCode ?? null
            finish(code, code !== null && code >= 200 && code < 300 ? null : `receiver answered ${code}`)
          })
          res.on('error', (err) => finish(res.statusCode ?? null, err.message))
        },
      )
      deadline = setTimeout(() => {
        req.destroy(new Error(`no complete response within ${options.timeoutMs} ms`))
      }, options.timeoutMs)
      req.on('error', (err) => finish(null, err.message))
      req.end(body)
    })
  }

  /** Turns the tenant's new outbox events into deliveries; the number of deliveries made. */
  async function fanOut(tenantId: number): Promise<number> {
    let made = 0
    for (;;) {
      const now = clock.now()
      const more = await db.transaction(tenantId, async (tx) => {
        const cursor = await repo.lockCursor(tx, tenantId)
        if (cursor === undefined) return false
        const subs = await repo.activeSubscriptions(tx, tenantId)
        const late = await repo.lateEvents(tx, tenantId, cursor, LOOK_BACK_IDS, new Date(now.getTime() - LOOK_BACK_MS))
        const fresh = await eventsAfter(tx, tenantId, cursor, FAN_OUT_BATCH)
        const events = [
          ...late.map((e) => ({
            id: Number(e.id),
            type: e.type,
            payload: e.payload as Record<string, unknown>,
            createdAt: e.created_at,
          })),
          ...fresh,
        ]
        const rows: repo.NewDelivery[] = []
        // A subscription receives the events of changes made since it was created, never older ones.
        for (const e of events)
          for (const s of subs)
            if (takesEvent(s.event_types, e.type) && e.createdAt.getTime() >= s.created_at.getTime())
              rows.push({
                subscriptionId: Number(s.id),
                eventId: e.id,
                eventType: e.type,
                contractId: contractIdOf(e.payload),
              })
        await repo.insertDeliveries(tx, tenantId, rows, now)
        made += rows.length
        const last = fresh.at(-1)
        if (last) await repo.moveCursor(tx, tenantId, last.id, now)
        return fresh.length === FAN_OUT_BATCH
      })
      if (!more) return made
    }
  }

  /** Claims, sends and records one batch of the tenant's due deliveries. */
  async function attemptBatch(tenantId: number, limit: number, result: PassResult): Promise<number> {
    const now = clock.now()
    const leaseUntil = new Date(now.getTime() + options.timeoutMs + 30_000)
    const claimed = await db.transaction(tenantId, (tx) =>
      repo.claimDue(tx, tenantId, now, leaseUntil, options.batchSize),
    )
    if (claimed.length === 0) return 0
    const outcomes = await Promise.all(
      claimed.map(async (d) => {
        const body = deliveryBody({ id: d.eventId, type: d.type, createdAt: d.eventCreatedAt, payload: d.payload })
        const timestamp = Math.floor(clock.now().getTime() / 1000)
        let secret: string
        try {
          secret = secrets.open(d.secret, secretContext(tenantId, d.subscriptionId))
        } catch (err) {
          return { code: null, error: `the subscription secret does not open: ${(err as Error).message}`, latencyMs: 0 }
        }
        return post(
          d.url,
          {
            'content-type': 'application/json',
            'user-agent': 'vpp-webhooks/1',
            'webhook-id': webhookId(d.eventId),
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature(secret, timestamp, body),
          },
          body,
        )
      }),
    )
    const at = clock.now()
    const recorded = claimed.map((d, i): repo.AttemptOutcome => {
      const o = outcomes[i] as Outcome
      const ok = o.error === null
      const given = d.attempts - d.attemptsBeforeRedelivery
      const failed = !ok && given >= limit
      result.attempted++
      if (ok) result.succeeded++
      if (failed) result.failed++
      return {
        id: d.id,
        attempts: d.attempts,
        status: ok ? 'SUCCEEDED' : failed ? 'FAILED' : 'PENDING',
        nextAttemptAt: ok || failed ? null : new Date(at.getTime() + backoffMs(given, options.random())),
        responseCode: o.code,
        latencyMs: o.latencyMs,
        error: o.error,
      }
    })
    // One statement for the batch's outcomes.
    await db.transaction(tenantId, (tx) => repo.recordAttempts(tx, tenantId, recorded, at))
    return claimed.length
  }

  /**
   * One pass over every tenant: fan out new events, then make every attempt due now (and those an
   * attempt of this pass makes due: the next event of a contract). Deterministic under a manual clock.
   */
  async function deliverDue(): Promise<PassResult> {
    const result: PassResult = { fannedOut: 0, attempted: 0, succeeded: 0, failed: 0 }
    const tenants = await db.read(null, (x) => x.selectFrom('tenant').select('id').orderBy('id').execute())
    // Tenants are independent: a few at a time, so one tenant's backlog or slow receiver does not
    // hold the others' deliveries back.
    await eachConcurrently(
      tenants.map((t) => Number(t.id)),
      options.tenantConcurrency,
      async (tenantId) => {
        // A tenant that never had a subscription has no cursor, and nothing to deliver.
        const subscribed = await db.read(tenantId, (x) =>
          x.selectFrom('webhook_cursor').select('tenant_id').where('tenant_id', '=', tenantId).executeTakeFirst(),
        )
        if (!subscribed) return
        result.fannedOut += await fanOut(tenantId)
        const limit = await settings.get(tenantId, 'webhookRetryLimit')
        // Several batches in flight per tenant (one's POSTs while another is claimed or recorded).
        // Order per contract holds: a later event of a contract is not claimed while an earlier one
        // is PENDING, leased by another batch or not (claimDue); SKIP LOCKED and the lease keep the
        // batches apart.
        await Promise.all(
          Array.from({ length: options.concurrency }, async () => {
            for (let round = 0; round < MAX_ROUNDS; round++) {
              if ((await attemptBatch(tenantId, limit, result)) === 0) break
            }
          }),
        )
      },
    )
    return result
  }

  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let stopped = true
  let onError: (err: unknown) => void = () => {}

  function schedule(ms: number) {
    timer = setTimeout(() => void tick(), ms)
    // The loop never keeps a process alive by itself; the server's socket does.
    timer.unref()
  }
  async function tick() {
    timer = undefined
    let busy = false
    running = deliverDue().then(
      (r) => {
        busy = r.attempted > 0 || r.fannedOut > 0
      },
      (err: unknown) => onError(err),
    )
    await running
    running = undefined
    if (!stopped) schedule(busy ? 0 : options.intervalMs)
  }

  return {
    deliverDue,
    /** Starts the loop (the server, after it listens); errors of a pass go to `onError`, and the loop goes on. */
    start(handlers: { onError?: (err: unknown) => void } = {}) {
      if (!stopped) return
      stopped = false
      onError = handlers.onError ?? onError
      schedule(0)
    },
    /** Looks for due work now rather than at the next interval (a redelivery). */
    wake() {
      if (stopped || running || timer === undefined) return
      clearTimeout(timer)
      schedule(0)
    },
    /** Stops the loop: waits for the pass in progress, then closes kept-alive connections. */
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      await running
      agents.http.destroy()
      agents.https.destroy()
    },
    get running() {
      return !stopped
    },
  }
}

export type Deliverer = ReturnType<typeof createDeliverer>

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
}
