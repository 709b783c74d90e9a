// Finance: the ledger core (accounts, balanced append-only journal entries, closed periods;
// docs/ledger.md). Reached only through this file. Other modules post through `ledger` inside their
// own transaction: `db.transaction(tenantId, …)` joins it, so an entry commits with what it records.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DocumentService } from '../documents/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { cashRoutes } from './cash.routes.ts'
import { createCashService } from './cash.service.ts'
import { ledgerViewRoutes } from './ledger-views.routes.ts'
import { createLedgerViewsService } from './ledger-views.service.ts'
import { createLedgerService } from './ledger.service.ts'
import { paymentMethodRoutes } from './payment-method.routes.ts'
import { createPaymentMethodService } from './payment-method.service.ts'
import { payoutRoutes } from './payout.routes.ts'
import { createPayoutService } from './payout.service.ts'
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
export type { ItemizedPayablePort, OpenPayable, PayablePort, PayoutPayment, PayoutService } from './payout.service.ts'
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
  /** The administrator company: the holder of the CASH account (docs/cash.md). */
  administratorId(tenantId: number): Promise<number>
}

export function createFinanceModule(deps: FinanceDeps) {
  const ledger = createLedgerService(deps)
  const statements = createStatementService(deps)
  const cash = createCashService({ ...deps, ledger })
  const paymentMethods = createPaymentMethodService(deps)
  const ledgerViews = createLedgerViewsService({ db: deps.db, ledger })
  const payouts = createPayoutService({ ...deps, ledger, paymentMethods })
  return {
    ledger,
    /** Account-holder statements (docs/statements.md). */
    statements,
    /** Cash receipts, applications and returned payments (docs/cash.md). */
    cash,
    /** Payment methods of the tenant and account holders, and their resolution (docs/payment-methods.md). */
    paymentMethods,
    /** Read-only views over the journal lines (docs/ledgers.md). */
    ledgerViews,
    /** Payout runs (docs/payouts.md); other modules settle their records through registerPayablePort. */
    payouts,
    /**
     * The ledger's read views are ledgerViews' routes (/api/ledgers…, /api/ledgerSummary: docs/ledgers.md);
     * cash has its own (docs/cash.md). A contract's journal entries are a
     * route of the contracts module (contract-ledger.routes.ts), which knows who may see the contract.
     */
    async routes(app: FastifyInstance) {
      await app.register(statementRoutes, { service: statements })
      await app.register(cashRoutes, { service: cash })
      await app.register(paymentMethodRoutes, { service: paymentMethods })
      await app.register(ledgerViewRoutes, { service: ledgerViews })
      await app.register(payoutRoutes, { service: payouts })
    },
  }
}

export type FinanceModule = ReturnType<typeof createFinanceModule>
