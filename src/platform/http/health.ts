import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { InvalidationBus } from '../cache.ts'
import type { Database } from '../db/database.ts'
import { platformErrors } from './errors.ts'
import { problemResponse } from './schemas.ts'

const Status = Type.Object({ status: Type.String() }, { examples: [{ status: 'ok' }] })

/** A database that does not answer within this is as good as down for a readiness probe. */
const PING_TIMEOUT_MS = 3_000

async function pingWithin(db: Database, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      db.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Liveness says only that the process answers (a database outage must not get it restarted: it
 * recovers by itself). Readiness says whether it can serve: the database answers and the
 * invalidation bus is listening (without it this instance's caches can go stale unnoticed), so a
 * load balancer sends traffic elsewhere while either is away (docs/operations.md).
 */
export async function healthRoutes(
  app: FastifyInstance,
  { db, bus }: { db: Database; bus: InvalidationBus },
): Promise<void> {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['Health'],
        operationId: 'getHealthLive',
        summary: 'The process is up',
        response: { 200: Status },
      },
      config: { auth: 'none' },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['Health'],
        operationId: 'getHealthReady',
        summary: 'The service can reach its database and hears cache invalidations',
        description:
          '503 `service_unavailable` while the database does not answer or the invalidation bus is reconnecting; `checks` in the problem says which.',
        response: { 200: Status, 503: problemResponse(503) },
      },
      config: { auth: 'none' },
    },
    async (req) => {
      let database = 'up'
      try {
        await pingWithin(db, PING_TIMEOUT_MS)
      } catch (err) {
        database = 'down'
        req.log.warn({ err: (err as Error).message }, 'readiness: the database is not reachable')
      }
      const busStatus = bus.status()
      const invalidationBus = busStatus.state === 'listening' ? 'up' : 'down'
      if (database === 'up' && invalidationBus === 'up') return { status: 'ready' }
      const down = [
        database === 'down' ? 'the database is not reachable' : '',
        invalidationBus === 'down'
          ? `the cache invalidation bus is ${busStatus.state} (since ${busStatus.since.toISOString()})`
          : '',
      ]
      throw platformErrors.create('service_unavailable', `Not ready: ${down.filter(Boolean).join('; ')}`, {
        headers: { 'retry-after': '2' },
        extensions: { checks: { database, invalidationBus } },
      })
    },
  )
}
