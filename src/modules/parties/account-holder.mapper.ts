// Rows → API shapes, per kind. The business key takes the kind's own name (dealerNumber,
// agentCode, ...); kind-specific data is flattened from `details`.
import type { KindDefinition } from './account-holder.kinds.ts'
import type { AccountHolderRow } from './account-holder.repository.ts'
import { isActiveAccountHolder, maskTaxId } from './contact.rules.ts'

type Representation = Record<string, unknown>

function detailsOf(def: KindDefinition, row: AccountHolderRow): Representation {
  const stored: Representation = row.details ?? {}
  const out: Representation = {}
  for (const key of Object.keys(def.details)) if (stored[key] !== undefined) out[key] = stored[key]
  return out
}

/** The full representation, tax id in clear: what a PATCH applies to. */
export function toEditable(def: KindDefinition, row: AccountHolderRow): Representation {
  return {
    id: row.id,
    kind: row.kind,
    ...(def.businessKeyField ? { [def.businessKeyField]: row.business_key } : {}),
    legalName: row.legal_name,
    displayName: row.display_name,
    status: row.status,
    expiredDate: row.expired_date ? row.expired_date.toISOString() : null,
    taxId: row.tax_id,
    w9OnFile: row.w9_on_file,
    addresses: row.addresses,
    phones: row.phones,
    emails: row.emails,
    ...(def.kind === 'DEALER' ? { dealerGroupId: row.dealer_group_id, agentIds: row.agent_ids.map(Number) } : {}),
    ...detailsOf(def, row),
    createdAt: row.created_at.toISOString(),
  }
}

export function toReply(def: KindDefinition, row: AccountHolderRow, now: Date, revealTaxId: boolean): Representation {
  const editable = toEditable(def, row)
  return {
    ...editable,
    taxId: revealTaxId ? row.tax_id : maskTaxId(row.tax_id),
    isActive: isActiveAccountHolder(row, now),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  }
}

export type SummaryRow = Pick<
  AccountHolderRow,
  'id' | 'kind' | 'business_key' | 'legal_name' | 'display_name' | 'status' | 'expired_date' | 'primary_state'
>

export function toSummary(row: SummaryRow, now: Date) {
  return {
    id: row.id,
    kind: row.kind,
    businessKey: row.business_key,
    legalName: row.legal_name,
    displayName: row.display_name,
    status: row.status,
    expiredDate: row.expired_date ? row.expired_date.toISOString() : null,
    isActive: isActiveAccountHolder(row, now),
    state: row.primary_state,
  }
}
