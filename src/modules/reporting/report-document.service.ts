// Report documents (docs/reporting.md "Formats"): a reinsurance statement as a PDF, the statement
// service's figures (the same as its JSON) under the administrator's letterhead. Nothing is stored.
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { administratorName } from './report-document.repository.ts'
import { reinsuranceStatementPdf } from './reinsurance-statement.pdf.ts'
import type { StatementService } from './statement.service.ts'

export type ReportDocumentDeps = { db: Database; statements: Pick<StatementService, 'statement'> }

export function createReportDocuments({ db, statements }: ReportDocumentDeps) {
  return {
    /** The statement (as its JSON, for the file name) and its PDF; the same 404s and 422s. */
    async statementPdf(ctx: AuthenticatedContext, companyId: number, month: string) {
      const statement = await statements.statement(ctx, companyId, month)
      const name = await db.reportRead(ctx.tenantId, (x) => administratorName(x, ctx.tenantId))
      const bytes = await reinsuranceStatementPdf({ administratorName: name ?? 'Administrator', statement })
      return { statement, bytes }
    },
  }
}

export type ReportDocuments = ReturnType<typeof createReportDocuments>
