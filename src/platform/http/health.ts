import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { Database } from '../db/database.ts'
import { platformErrors } from './errors.ts'

const Status = Type.Object({ status: Type.String() }, { examples: [{ status: 'ok' }] })

export async function healthRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get('/health/live', {
    schema: { tags: ['Health'], summary: 'The process is up', response: { 200: Status } },
    config: { auth: 'none' },
  }, async () => ({ status: 'ok' }))

  app.get('/health/ready', {
    schema: { tags: ['Health'], summary: 'The service can reach its database', response: { 200: Status } },
    config: { auth: 'none' },
  }, async (req) => {
    try {
      await db.ping()
    } catch (err) {
      req.log.error({ err }, 'readiness check failed')
      throw platformErrors.create('service_unavailable', 'The database is not reachable')
    }
    return { status: 'ready' }
  })
}
