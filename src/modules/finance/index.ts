// Finance: the ledger core (accounts, balanced append-only journal entries, closed periods;
// docs/ledger.md). Reached only through this file. Other modules post through `ledger` inside their
// own transaction: `db.transaction(tenantId, …)` joins it, so an entry commits with what it records.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SettingsService } from '../settings/index.ts'
import { createLedgerService } from './ledger.service.ts'

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

export type FinanceDeps = { db: Database; clock: Clock; settings: Pick<SettingsService, 'get'> }

export function createFinanceModule(deps: FinanceDeps) {
  const ledger = createLedgerService(deps)
  return {
    ledger,
    /**
     * The ledger has no routes of its own yet: /ledgers, /payReceiveLedgers, /cashtransactions and
     * the other views over the entries come with a later issue. A contract's journal entries are a
     * route of the contracts module (contract-ledger.routes.ts), which knows who may see the contract.
     */
    async routes(_app: FastifyInstance) {},
  }
}

export type FinanceModule = ReturnType<typeof createFinanceModule>
