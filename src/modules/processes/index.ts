// Automatic processes (docs/processes.md): runs of the contract processes (activation, expiry, void
// of old pending contracts, earnings, GAP auto-cancel, claims denial, monthly statements), scheduled
// per tenant or started on demand. Reached only through this file. The scheduler loop is started by the server and stopped when the app closes;
// tests drive it with `service.tick()`.
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { ProcessPorts } from './processes.catalog.ts'
import { processRoutes } from './processes.routes.ts'
import { createProcessService, createScheduler, type ProcessOptions } from './processes.service.ts'

export { processErrors } from './processes.errors.ts'
export { PROCESSES, type ProcessService, type RunView, type Scheduler, type TickResult } from './processes.service.ts'
export type {
  ProcessClaims,
  ProcessContracts,
  ProcessEarnings,
  ProcessGap,
  ProcessPorts,
  ProcessStatements,
} from './processes.catalog.ts'

export type ProcessesDeps = ProcessPorts & {
  db: Database
  clock: Clock
}

export function createProcessesModule(deps: ProcessesDeps) {
  /** Tunable after creation by tests (a second instance's owner, a short lease). */
  const options: ProcessOptions = {
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
    leaseMs: 5 * 60_000,
    // The embedded database has one connection: batches at once would only queue for it.
    parallelBatches: deps.db.engine === 'postgres' ? 4 : 1,
  }
  const service = createProcessService({ ...deps, options })
  const scheduler = createScheduler(service, 60_000)
  return {
    service,
    scheduler,
    options,
    async routes(app: FastifyInstance) {
      await app.register(processRoutes, { service, scheduler })
    },
  }
}

export type ProcessesModule = ReturnType<typeof createProcessesModule>
