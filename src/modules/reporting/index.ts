// Risk-bearer reporting (issue 21, docs/reporting.md): reinsurance treaties and the cession of a sale
// (the port the contracts module calls at every sale, wired in src/modules.ts); insurer bordereaux,
// reinsurance statements, loss ratios and the reconciliation, read from the journal; the month close
// (reports of a closed month frozen) and report runs (every report of a month, a job with a lease).
// Other modules are read through the narrow ports src/modules.ts passes, or by read-only queries of
// this module's repositories. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { bordereauRoutes } from './bordereau.routes.ts'
import { createReportDocuments } from './report-document.service.ts'
import { createBordereauService } from './bordereau.service.ts'
import { statementRoutes } from './statement.routes.ts'
import { reportRunRoutes } from './report-run.routes.ts'
import { createReportRunLoop, createReportRunService } from './report-run.service.ts'
import { createStatementService } from './statement.service.ts'
import { treatyRoutes } from './treaty.routes.ts'
import { createTreatyService, type TreatyPartiesPort } from './treaty.service.ts'

export type { Cession } from './treaty.rules.ts'
export type { TreatyPartiesPort, TreatyService } from './treaty.service.ts'
export type { BordereauService } from './bordereau.service.ts'
export type { StatementService } from './statement.service.ts'
export type { ReportRunService } from './report-run.service.ts'

export type ReportingDeps = {
  db: Database
  clock: Clock
  parties: TreatyPartiesPort
  /** The tenant's time zone (settings). */
  timeZone(tenantId: number): Promise<string>
  /** The tenant's booksClosedThrough (settings): the reports of a month through it are frozen (month close). */
  booksClosedThrough?: ((tenantId: number) => Promise<string | null>) | undefined
}

export function createReportingModule(deps: ReportingDeps) {
  const treaties = createTreatyService(deps)
  const bordereaux = createBordereauService(deps)
  const statements = createStatementService(deps)
  const runs = createReportRunService({ ...deps, statements, bordereaux })
  /** Works the report runs in the background: started by the server, stopped when the app closes. */
  const runLoop = createReportRunLoop(runs, 60_000)
  const documents = createReportDocuments({ db: deps.db, statements })
  return {
    treaties,
    bordereaux,
    statements,
    runs,
    runLoop,
    /** The contracts module's cession port (CessionPort): the treaty of a sale and what it cedes. */
    cessionAtSale: treaties.cessionAtSale,
    async routes(app: FastifyInstance) {
      await app.register(treatyRoutes, { service: treaties })
      await app.register(bordereauRoutes, { service: bordereaux })
      await app.register(statementRoutes, { service: statements, documents })
      await app.register(reportRunRoutes, { service: runs, wake: () => runLoop.wake() })
      app.addHook('onClose', async () => runLoop.stop())
    },
  }
}

export type ReportingModule = ReturnType<typeof createReportingModule>
