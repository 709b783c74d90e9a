// The ordered list of migrations. Each file is frozen once released: add a new file, never edit one.
import type { Migration } from 'kysely/migration'
import * as foundation from './2026_11_21_0001_foundation.ts'
import * as parties from './2026_11_22_0002_parties.ts'
import * as rlsFriendlyKeys from './2026_11_22_0003_rls_friendly_keys.ts'
import * as rateBooks from './2026_11_22_0004_rate_books.ts'
import * as disbursements from './2026_11_22_0005_disbursements.ts'
import * as quoteKeys from './2026_11_22_0006_quote_keys.ts'
import * as contracts from './2026_11_22_0007_contracts.ts'
import * as ledger from './2026_11_22_0008_ledger.ts'
import * as documents from './2026_11_22_0009_documents.ts'
import * as contractLookups from './2026_11_22_0010_contract_lookups.ts'
import * as sealedSecrets from './2026_11_22_0011_sealed_secrets.ts'
import * as sealedQuoteAndLinkKeys from './2026_11_22_0012_sealed_quote_and_link_keys.ts'
import * as tenantPrimaryKeys from './2026_11_26_0013_tenant_primary_keys.ts'
import * as cancelCatalogueKinds from './2026_11_26_0014_cancel_catalogue_kinds.ts'
import * as contractStatusHistory from './2026_11_26_0015_contract_status_history.ts'
import * as eventOutbox from './2026_11_26_0016_event_outbox.ts'
import * as cancellations from './2026_11_26_0017_cancellations.ts'
import * as earningsRuns from './2026_11_26_0018_earnings_runs.ts'
import * as gapEndings from './2026_11_26_0019_gap_endings.ts'
import * as claimLookups from './2026_11_26_0020_claim_lookups.ts'
import * as claims from './2026_11_26_0021_claims.ts'
import * as claimNotes from './2026_11_26_0022_claim_notes.ts'
import * as claimPayments from './2026_11_26_0023_claim_payments.ts'
import * as claimInspections from './2026_11_26_0024_claim_inspections.ts'
import * as ledgerStatementBalance from './2026_11_26_0025_ledger_statement_balance.ts'
import * as cash from './2026_11_26_0026_cash.ts'
import * as paymentMethods from './2026_11_26_0028_payment_methods.ts'
import * as salesTax from './2026_11_26_0029_sales_tax.ts'
import * as statements from './2026_11_26_0030_statements.ts'
import * as payouts from './2026_11_27_0031_payouts.ts'
import * as webhooks from './2026_11_27_0033_webhooks.ts'
import * as processes from './2026_11_27_0034_processes.ts'
import * as ledgerItems from './2026_11_27_0035_ledger_items.ts'
import * as cashCustomFields from './2026_11_27_0036_cash_custom_fields.ts'
import * as contractTransfers from './2026_11_27_0037_contract_transfers.ts'
import * as contractOdometer from './2026_11_27_0038_contract_odometer.ts'
import * as contractRerates from './2026_11_27_0039_contract_rerates.ts'
import * as processRunState from './2026_11_27_0040_process_run_state.ts'
import * as payoutClaims from './2026_11_27_0041_payout_claims.ts'
import * as reinsurance from './2026_11_27_0042_reinsurance.ts'
import * as reportRuns from './2026_11_27_0043_report_runs.ts'
import * as reportingIndexes from './2026_11_27_0044_reporting_indexes.ts'
import * as ledgerTotals from './2026_11_27_0045_ledger_totals.ts'
import * as reportingBook from './2026_11_27_0046_reporting_book.ts'
import * as ledgerItemPrevSums from './2026_11_27_0047_ledger_item_prev_sums.ts'
import * as reportingMonthSums from './2026_11_27_0048_reporting_month_sums.ts'

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_22_0002_parties': parties,
  '2026_11_22_0003_rls_friendly_keys': rlsFriendlyKeys,
  '2026_11_22_0004_rate_books': rateBooks,
  '2026_11_22_0005_disbursements': disbursements,
  '2026_11_22_0006_quote_keys': quoteKeys,
  '2026_11_22_0007_contracts': contracts,
  '2026_11_22_0008_ledger': ledger,
  '2026_11_22_0009_documents': documents,
  '2026_11_22_0010_contract_lookups': contractLookups,
  '2026_11_22_0011_sealed_secrets': sealedSecrets,
  '2026_11_22_0012_sealed_quote_and_link_keys': sealedQuoteAndLinkKeys,
  '2026_11_26_0013_tenant_primary_keys': tenantPrimaryKeys,
  '2026_11_26_0014_cancel_catalogue_kinds': cancelCatalogueKinds,
  '2026_11_26_0015_contract_status_history': contractStatusHistory,
  '2026_11_26_0016_event_outbox': eventOutbox,
  '2026_11_26_0017_cancellations': cancellations,
  '2026_11_26_0018_earnings_runs': earningsRuns,
  '2026_11_26_0019_gap_endings': gapEndings,
  '2026_11_26_0020_claim_lookups': claimLookups,
  '2026_11_26_0021_claims': claims,
  '2026_11_26_0022_claim_notes': claimNotes,
  '2026_11_26_0023_claim_payments': claimPayments,
  '2026_11_26_0024_claim_inspections': claimInspections,
  '2026_11_26_0025_ledger_statement_balance': ledgerStatementBalance,
  '2026_11_26_0026_cash': cash,
  '2026_11_26_0028_payment_methods': paymentMethods,
  '2026_11_26_0029_sales_tax': salesTax,
  '2026_11_26_0030_statements': statements,
  '2026_11_27_0031_payouts': payouts,
  '2026_11_27_0033_webhooks': webhooks,
  '2026_11_27_0034_processes': processes,
  '2026_11_27_0035_ledger_items': ledgerItems,
  '2026_11_27_0036_cash_custom_fields': cashCustomFields,
  '2026_11_27_0037_contract_transfers': contractTransfers,
  '2026_11_27_0038_contract_odometer': contractOdometer,
  '2026_11_27_0039_contract_rerates': contractRerates,
  '2026_11_27_0040_process_run_state': processRunState,
  '2026_11_27_0041_payout_claims': payoutClaims,
  '2026_11_27_0042_reinsurance': reinsurance,
  '2026_11_27_0043_report_runs': reportRuns,
  '2026_11_27_0044_reporting_indexes': reportingIndexes,
  '2026_11_27_0045_ledger_totals': ledgerTotals,
  '2026_11_27_0046_reporting_book': reportingBook,
  '2026_11_27_0047_ledger_item_prev_sums': ledgerItemPrevSums,
  '2026_11_27_0048_reporting_month_sums': reportingMonthSums,
}
