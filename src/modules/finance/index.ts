// Finance: the ledger core (accounts, balanced append-only journal entries; docs/ledger.md).
// Reached only through this file. Other modules post through `ledger` inside their own
// transaction: `db.transaction(tenantId, …)` joins it, so an entry commits with what it records.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { createLedgerService } from './ledger.service.ts'

export { ledgerErrors } from './ledger.errors.ts'
export type { JournalEntryView, JournalLineView } from './ledger.mapper.ts'
export {
  ACCOUNT_PURPOSES,
  ENTRY_KINDS,
  SOURCE_TYPES,
  balanceOf,
  checkEntry,
  deltaLine,
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

export type FinanceDeps = { db: Database; clock: Clock }

export function createFinanceModule(deps: FinanceDeps) {
  const ledger = createLedgerService(deps)
  return {
    ledger,
    /**
     * The ledger has no HTTP routes yet: /ledgers, /payReceiveLedgers, /cashtransactions and the
     * other views over the entries come with a later issue. Registers nothing.
     */
    async routes(_app: FastifyInstance) {},
  }
}

export type FinanceModule = ReturnType<typeof createFinanceModule>
