// Finance: the ledger core (accounts, balanced append-only journal entries, closed periods;
// docs/ledger.md). Reached only through this file. Other modules post through `ledger` inside their
// own transaction: `db.transaction(tenantId, …)` joins it, so an entry commits with what it records.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DocumentService } from '../documents/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createLedgerService } from './ledger.service.ts'
import { statementRoutes } from './statement.routes.ts'
import { createStatementService } from './statement.service.ts'

export { ledgerErrors } from './ledger.errors.ts'
export type {
  ContractJournalEntryView,
  ContractJournalLineView,
  JournalEntryView,
  JournalLineView,
} from './ledger.mapper.ts'
export { JournalEntrySchema } from './ledger.schemas.ts'
export {
  ACCOUNT_PURPOSES,
  ENTRY_KINDS,
  ENTRY_KIND_RULES,
  SOURCE_TYPES,
  balanceOf,
  checkEntry,
  deltaLine,
  kindRecords,
  oppositeSide,
  reversalLines,
  totals,
  type AccountPurpose,
  type EntryKind,
  type EntrySource,
  type LedgerLineInput,
  type PostEntryInput,
  type Side,
  type SourceType,
} from './ledger.rules.ts'
export type { AccountBalance, LedgerService } from './ledger.service.ts'
// Earnings as pure rules (money.md "Earnings", decision 0012): earned fractions, schedules, what a sync or a cancel posts.
export {
  earnedFraction,
  earnedToDate,
  earningsAsOf,
  earningsAtCancel,
  earningsDue,
  earningsSchedule,
  fractionFactor,
  type CancelEarnings,
  type EarningsAsOf,
  type EarningsDates,
  type EarningsDue,
  type EarningsLineInput,
  type EarningsPeriod,
  type EarningsTerms,
  type Fraction,
  type LineEarnings,
} from './earnings.rules.ts'

export type FinanceDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  /** Stores statements (docs/statements.md) and signs their download links. */
  documents: Pick<DocumentService, 'stage' | 'store' | 'get' | 'registerOwner'>
}

export function createFinanceModule(deps: FinanceDeps) {
  const ledger = createLedgerService(deps)
  const statements = createStatementService(deps)
  return {
    ledger,
    /** Account-holder statements (docs/statements.md). */
    statements,
    /**
     * The ledger has no routes of its own yet: /ledgers, /payReceiveLedgers, /cashtransactions and
     * the other views over the entries come with a later issue. A contract's journal entries are a
     * route of the contracts module (contract-ledger.routes.ts), which knows who may see the contract.
     */
    async routes(app: FastifyInstance) {
      await app.register(statementRoutes, { service: statements })
    },
  }
}

export type FinanceModule = ReturnType<typeof createFinanceModule>
