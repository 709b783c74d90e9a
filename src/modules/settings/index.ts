// Placeholder removed by the settings work; see createSettingsModule.
import type { FastifyInstance } from 'fastify'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'

export function createSettingsModule(_deps: { db: Database; clock: Clock; bus: InvalidationBus }) {
  return { async routes(_app: FastifyInstance) {} }
}
