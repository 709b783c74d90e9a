// Idempotency-Key on POST (engineering guide §3). Scope: tenant + credential + route + key. The key
// row is written in the same transaction as the effect: the handler runs inside a transaction that
// services join (Database.withAmbient), and a 2xx result is stored before that transaction
// commits. Same key and body → the stored response is replayed; same key, different body → 422;
// the first request still running → 409. Failed requests store nothing, so they can be retried.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import { authModeOf } from '../auth/authenticate.ts'
import type { Clock } from '../clock.ts'
import { canonicalJson } from '../canonical-json.ts'
import { tryAdvisoryLock } from '../db/advisory-lock.ts'
import type { Database } from '../db/database.ts'
import { platformErrors } from './errors.ts'

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
const REPLAYED_HEADERS = ['location', 'etag', 'content-type'] as const

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set false on POST routes that must not take part in idempotency (token issuance). */
    idempotent?: boolean
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}

type Outcome =
  | { kind: 'fresh'; result: unknown }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: unknown }

export function installIdempotency(app: FastifyInstance, deps: { db: Database; clock: Clock }): void {
  const { db, clock } = deps
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (
      !methods.includes('POST') ||
      authModeOf(route.config, route.url) === 'none' ||
      route.config?.idempotent === false
    )
      return
    const original = route.handler as RouteHandlerMethod
    const routeUrl = route.url

    route.handler = async function idempotentHandler(
      this: FastifyInstance,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const key = request.headers['idempotency-key']
      if (key === undefined) return original.call(this, request, reply)
      if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
        throw platformErrors.create(
          'invalid_idempotency_key',
          'Idempotency-Key must be 1 to 255 visible ASCII characters',
        )
      }
      const ctx = request.ctx
      const scopeKey = sha256(`${ctx.apiKeyId}|${ctx.principal?.userId ?? ''}|POST ${routeUrl.toLowerCase()}|${key}`)
      const requestHash = sha256(`${request.url.split('?')[1] ?? ''}|${canonicalJson(request.body)}`)
      const now = clock.now()

      const outcome = await db.transaction<Outcome>(ctx.tenantId, async (tx) => {
        if (!(await tryAdvisoryLock(tx, 'idempotency_key', [ctx.tenantId, scopeKey]))) {
          throw platformErrors.create(
            'idempotency_in_progress',
            'A request with this Idempotency-Key is still being processed; retry shortly',
          )
        }
        const existing = await tx
          .selectFrom('idempotency_key')
          .selectAll()
          .where('tenant_id', '=', ctx.tenantId)
          .where('scope_key', '=', scopeKey)
          .executeTakeFirst()
        if (existing && existing.expires_at.getTime() > now.getTime()) {
          if (existing.request_hash !== requestHash) {
            throw platformErrors.create(
              'idempotency_key_reused',
              'This Idempotency-Key was used with a different request body',
            )
          }
          return {
            kind: 'replay',
            status: existing.status_code,
            headers: existing.response_headers,
            body: existing.response_body,
          }
        }
        if (existing) {
          await tx
            .deleteFrom('idempotency_key')
            .where('tenant_id', '=', ctx.tenantId)
            .where('scope_key', '=', scopeKey)
            .execute()
        }
        const result = await db.withAmbient(ctx.tenantId, tx, () =>
          Promise.resolve(original.call(this, request, reply)),
        )
        if (reply.statusCode >= 200 && reply.statusCode < 300) {
          const headers: Record<string, string> = {}
          for (const h of REPLAYED_HEADERS) {
            const v = reply.getHeader(h)
            if (typeof v === 'string') headers[h] = v
          }
          await tx
            .insertInto('idempotency_key')
            .values({
              tenant_id: ctx.tenantId,
              scope_key: scopeKey,
              request_hash: requestHash,
              status_code: reply.statusCode,
              response_headers: JSON.stringify(headers),
              response_body: result === undefined ? null : JSON.stringify(result),
              created_at: now,
              expires_at: new Date(now.getTime() + KEY_LIFETIME_MS),
            })
            .execute()
        }
        return { kind: 'fresh', result }
      })
      if (outcome.kind === 'fresh') return outcome.result
      reply.code(outcome.status).headers({ ...outcome.headers, 'idempotent-replayed': 'true' })
      return outcome.body
    }
  })
}
