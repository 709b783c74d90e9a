// Kysely table types: the single description of the database shape, kept in step with migrations/.
// Snake_case here; modules map rows to camelCase at their boundary.
import type { JWK } from 'jose'
import type { ColumnType, Generated } from 'kysely'
import type { CancellationTables } from './schema.cancellations.ts'
import type { CashTables } from './schema.cash.ts'
import type { PayoutTables } from './schema.payouts.ts'
import type { WebhookTables } from './schema.webhooks.ts'
import type { ProcessTables } from './schema.processes.ts'
import type { ClaimTables } from './schema.claims.ts'
import type { ContractTables } from './schema.contracts.ts'
import type { DocumentTables } from './schema.documents.ts'
import type { PaymentMethodTables } from './schema.payment-methods.ts'
import type { LedgerTables } from './schema.ledger.ts'
import type { StatementTables } from './schema.statements.ts'
import type { SalesTaxTables } from './schema.salestax.ts'
import type { ReportingTables } from './schema.reporting.ts'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * A jsonb column whose documents have the shape `T`: read as `T` (the driver parses the JSON),
 * written as JSON text. `T` is the shape this code writes; the database does not check it, so a
 * change of `T` comes with a migration of the stored documents, or with readers of both shapes.
 */
export type Json<T> = ColumnType<T, string, string>

/** An address of an account holder, as parties' AddressSchema admits it. */
export type StoredAddress = {
  type: 'MAILING' | 'PHYSICAL' | 'BILLING' | 'REMIT'
  line1: string
  line2?: string | null
  city: string
  state: string
  postalCode: string
  country?: 'US'
}
export type StoredPhone = { type: 'OFFICE' | 'MOBILE' | 'FAX' | 'TOLL_FREE'; number: string }
export type StoredEmail = { type: 'PRIMARY' | 'BILLING' | 'CLAIMS' | 'CONTRACTS'; address: string }

export type TenantTable = {
  id: Generated<number>
  name: string
  created_at: Timestamp
  /** Still holds secrets stored before they were sealed (migrations 0011, 0012); sealed at the next start. */
  plaintext_secrets: Generated<boolean>
}

export type TenantSigningKeyTable = {
  id: Generated<number>
  tenant_id: number
  kid: string
  alg: string
  /** Sealed private JWK (platform/secrets.ts); plaintext JSON only until its tenant is sealed. */
  private_key: string
  public_jwk: Json<JWK>
  created_at: Timestamp
  retired_at: Date | null
}

export type ApiKeyTable = {
  id: Generated<number>
  tenant_id: number
  name: string
  key_prefix: string
  key_hash: string
  created_at: Timestamp
  revoked_at: Date | null
}

export type IdentityProviderTable = {
  id: Generated<number>
  tenant_id: number
  issuer: string
  audience: string
  jwks_url: string
  identity_claim: string
  algorithms: string[]
  created_at: Timestamp
  updated_at: Timestamp
}

export type AppUserTable = {
  id: Generated<number>
  tenant_id: number
  email_address: string
  external_identity: string | null
  first_name: string | null
  last_name: string | null
  phone_number: string | null
  password_hash: string | null
  expired_date: Date | null
  account_holder_id: number | null
  /** lower(email_address), generated: the case-insensitive key (see migration 0003). */
  email_address_key: Generated<string>
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

export type MembershipRoleTable = {
  id: Generated<number>
  tenant_id: number
  code: string
  name: string
  description: string
  permissions: string[]
  created_at: Timestamp
}

export type MembershipGroupTable = {
  id: Generated<number>
  tenant_id: number
  code: string
  name: string
  description: string
  kind: 'STAFF' | 'DEALER'
  created_at: Timestamp
}

export type MembershipGroupAccountHolderTable = { tenant_id: number; group_id: number; account_holder_id: number }
export type UserRoleTable = { tenant_id: number; user_id: number; role_id: number }
export type UserGroupTable = { tenant_id: number; user_id: number; group_id: number }

export type AuditLogTable = {
  id: Generated<number>
  tenant_id: number
  occurred_at: Timestamp
  actor_user_id: number | null
  actor_api_key_id: number | null
  actor_label: string
  request_id: string | null
  action: string
  entity_type: string
  entity_id: string
  /** What changed; its members vary by action (platform/audit.ts AuditRecord). */
  changes: Json<Record<string, unknown>>
}

/** An event announced by a committed change (platform/events/outbox.ts); never updated. */
export type EventOutboxTable = {
  tenant_id: number
  id: Generated<number>
  type: string
  payload: Json<{ [key: string]: JsonValue }>
  created_at: Timestamp
}

/** An earnings run (docs/earnings.md): the source of the EARNINGS_RECOGNIZED entries it posts. */
export type EarningsRunTable = {
  tenant_id: number
  id: Generated<number>
  scope: 'CONTRACT' | 'BATCH'
  status: 'RUNNING' | 'COMPLETED'
  as_of: string
  filters: Json<{ [key: string]: JsonValue }>
  cursor_contract_id: number | null
  examined: ColumnType<number, number | undefined, number>
  posted: ColumnType<number, number | undefined, number>
  nothing_due: ColumnType<number, number | undefined, number>
  failed: ColumnType<number, number | undefined, number>
  errors: ColumnType<JsonValue[], string | undefined, string>
  started_at: Timestamp
  updated_at: Timestamp
  finished_at: Timestamp | null
  started_by: string
}

export type IdempotencyKeyTable = {
  tenant_id: number
  scope_key: string
  request_hash: string
  status_code: number
  response_headers: Json<Record<string, string>>
  /** The reply replayed as it was sent: any JSON. */
  response_body: Json<JsonValue> | null
  created_at: Timestamp
  expires_at: Timestamp
}

export type GeneralSettingTable = {
  tenant_id: number
  setting_key: string
  /** Checked against the setting's definition when read (settings.rules.ts effectiveJson). */
  value: Json<JsonValue>
  updated_at: Timestamp
  updated_by: string
  version: Generated<number>
}

export type AccountHolderKind =
  | 'ADMIN_COMPANY'
  | 'DEALER'
  | 'DEALER_GROUP'
  | 'AGENT'
  | 'CUSTOMER'
  | 'INSURER'
  | 'LIEN_HOLDER'
  | 'REPAIR_FACILITY'
  | 'INSPECTION_COMPANY'
  | 'CLAIM_PAYEE'
  | 'REINSURANCE_COMPANY'

export type AccountHolderTable = {
  id: Generated<number>
  tenant_id: number
  kind: AccountHolderKind
  business_key: string | null
  /** lower(business_key), generated: the case-insensitive key (see migration 0003). */
  business_key_key: Generated<string | null>
  /** lower(legal_name), generated: the name customers and lien holders are matched by (migration 0010). */
  legal_name_key: Generated<string>
  legal_name: string
  display_name: string
  status: 'ACTIVE' | 'INACTIVE'
  expired_date: Date | null
  tax_id: string | null
  w9_on_file: boolean
  addresses: Json<StoredAddress[]>
  phones: Json<StoredPhone[]>
  emails: Json<StoredEmail[]>
  primary_state: string | null
  /** The kind's own fields (parties' account-holder.kinds.ts), by their API names. */
  details: Json<Record<string, JsonValue>>
  dealer_group_id: number | null
  last_contract_date: string | null
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

export type DealerAgentTable = { tenant_id: number; dealer_id: number; agent_id: number }

export type CustomFieldType = 'STRING' | 'INTEGER' | 'DECIMAL' | 'DATE' | 'BOOLEAN' | 'LIST'

export type CustomFieldDefinitionTable = {
  id: Generated<number>
  tenant_id: number
  applies_to: 'AGENT' | 'DEALER_GROUP' | 'DEALER' | 'CASH_TRANSACTION'
  name: string
  label: string
  type: CustomFieldType
  required: boolean
  allowed_values: string[] | null
  max_length: number | null
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

export type AccountHolderCustomFieldTable = {
  id: Generated<number>
  tenant_id: number
  account_holder_id: number
  name: string
  type: CustomFieldType
  value: Json<string | number | boolean>
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

/** A custom field of a cash transaction (migration 0036): shaped as an account holder's. */
export type CashTransactionCustomFieldTable = Omit<AccountHolderCustomFieldTable, 'account_holder_id'> & {
  cash_transaction_id: number
}

export type DisbursementAccountTable = {
  id: Generated<number>
  tenant_id: number
  account_holder_id: number
  name: string
  payment_method: 'ACH' | 'WIRE' | 'CHECK'
  bank_name: string | null
  routing_number: string | null
  account_number: string | null
  account_type: 'CHECKING' | 'SAVINGS' | null
  is_default: boolean
  status: 'ACTIVE' | 'INACTIVE'
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

export type RepairFacilityLinkTable = {
  tenant_id: number
  repair_facility_id: number
  linked_id: number
  created_at: Timestamp
}

export type RateBookTable = {
  id: Generated<number>
  tenant_id: number
  version: number
  effective_date: string
  description: string | null
  checksum: string
  document: Buffer
  /** Counts of what the version holds (products, plans, rates, ...). */
  summary: Json<Record<string, number>>
  imported_at: Timestamp
  imported_by: string
}

export type RatingCatalogueItemTable = {
  id: Generated<number>
  tenant_id: number
  kind:
    | 'PRODUCT'
    | 'PROGRAM'
    | 'PLAN'
    | 'TERM'
    | 'DEDUCTIBLE'
    | 'OPTION'
    | 'FACTOR_TABLE'
    | 'CANCEL_METHOD'
    | 'CANCEL_REASON'
  code: string
  first_version: number
  created_at: Timestamp
}

/** `secret`: sealed (platform/secrets.ts sealBytes), or hex left by migration 0012 until sealed at start-up. */
export type RateQuoteKeyTable = { tenant_id: number; secret: string; created_at: Timestamp }

export type RateDisbursementTable = {
  id: Generated<number>
  tenant_id: number
  account_holder_id: number
  account_holder_kind: 'DEALER' | 'DEALER_GROUP' | 'AGENT'
  code: string
  label: string
  disbursement_group: string
  basis: 'AMOUNT' | 'PERCENT'
  /** numeric(12,2), as a string */
  amount: string | null
  /** numeric(9,4), as a string */
  percent: string | null
  product_id: number | null
  program_id: number | null
  plan_id: number | null
  term_id: number | null
  effective_from: string
  effective_to: string | null
  created_at: Timestamp
  updated_at: Timestamp
  version: Generated<number>
}

export type DealerRateVisibilitySetTable = {
  tenant_id: number
  dealer_id: number
  version: number
  updated_at: Timestamp
}

export type DealerRateVisibilityTable = {
  id: Generated<number>
  tenant_id: number
  dealer_id: number
  product_id: number
  program_id: number | null
  plan_id: number | null
  max_markup_amount: string | null
  max_markup_percent: string | null
}

/** Every table. Contracts, the ledger and documents describe theirs in schema.<area>.ts. */
export type DB = ContractTables &
  CancellationTables &
  ClaimTables &
  StatementTables &
  SalesTaxTables &
  ReportingTables &
  CashTables &
  PayoutTables &
  WebhookTables &
  ProcessTables &
  PaymentMethodTables &
  LedgerTables &
  DocumentTables & {
    tenant: TenantTable
    tenant_signing_key: TenantSigningKeyTable
    api_key: ApiKeyTable
    identity_provider: IdentityProviderTable
    app_user: AppUserTable
    membership_role: MembershipRoleTable
    membership_group: MembershipGroupTable
    membership_group_account_holder: MembershipGroupAccountHolderTable
    user_role: UserRoleTable
    user_group: UserGroupTable
    audit_log: AuditLogTable
    event_outbox: EventOutboxTable
    earnings_run: EarningsRunTable
    idempotency_key: IdempotencyKeyTable
    general_setting: GeneralSettingTable
    account_holder: AccountHolderTable
    dealer_agent: DealerAgentTable
    custom_field_definition: CustomFieldDefinitionTable
    account_holder_custom_field: AccountHolderCustomFieldTable
    cash_transaction_custom_field: CashTransactionCustomFieldTable
    disbursement_account: DisbursementAccountTable
    repair_facility_link: RepairFacilityLinkTable
    rate_book: RateBookTable
    rating_catalogue_item: RatingCatalogueItemTable
    rate_quote_key: RateQuoteKeyTable
    rate_disbursement: RateDisbursementTable
    dealer_rate_visibility_set: DealerRateVisibilitySetTable
    dealer_rate_visibility: DealerRateVisibilityTable
  }
