// Risk-bearer reporting (issue 21, docs/reporting.md), part 1: reinsurance treaties, the cession of a
// sale (the port the contracts module calls at every sale, wired in src/modules.ts), and insurer
// bordereaux read from the journal. Other modules are read through the narrow ports src/modules.ts
// passes, or by read-only queries of this module's repositories. Other code reaches this module
// only through what is exported here.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { bordereauRoutes } from './bordereau.routes.ts'
import { createBordereauService } from './bordereau.service.ts'
import { statementRoutes } from './statement.routes.ts'
import { createStatementService } from './statement.service.ts'
import { treatyRoutes } from './treaty.routes.ts'
import { createTreatyService, type TreatyPartiesPort } from './treaty.service.ts'

export type { Cession } from './treaty.rules.ts'
export type { TreatyPartiesPort, TreatyService } from './treaty.service.ts'
export type { BordereauService } from './bordereau.service.ts'
export type { StatementService } from './statement.service.ts'

export type ReportingDeps = {
  db: Database
  clock: Clock
  parties: TreatyPartiesPort
  /** The tenant's time zone (settings). */
  timeZone(tenantId: number): Promise<string>
}

export function createReportingModule(deps: ReportingDeps) {
  const treaties = createTreatyService(deps)
  const bordereaux = createBordereauService(deps)
  const statements = createStatementService(deps)
  return {
    treaties,
    bordereaux,
    statements,
    /** The contracts module's cession port (CessionPort): the treaty of a sale and what it cedes. */
    cessionAtSale: treaties.cessionAtSale,
    async routes(app: FastifyInstance) {
      await app.register(treatyRoutes, { service: treaties })
      await app.register(bordereauRoutes, { service: bordereaux })
      await app.register(statementRoutes, { service: statements })
    },
  }
}

export type ReportingModule = ReturnType<typeof createReportingModule>
