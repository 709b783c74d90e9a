// The cross-tenant matrix: two tenants with realistic data (test/security-world.ts). Every operation
// of the OpenAPI document with a path id, called by tenant B's administrator with tenant A's ids,
// answers 404 exactly like an id that does not exist (same status, code and body members), and
// leaves every row of tenant A as it was; every list and search as tenant B shows none of A's rows.
// Every operation must be classified below, so a new route cannot be forgotten.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { createTestApp, type TestApp } from './harness.ts'
import {
  buildWorld,
  call,
  documentedOperations,
  NOW,
  OPERATION_REQUESTS,
  send,
  tenantSnapshot,
  type OperationRequest,
  type World,
} from './security-world.ts'

/**
 * How each operation is checked:
 * - 'owned': its path ids name tenant-owned records; tenant B with A's ids → 404 like a missing id;
 * - { list: table }: a list or search; as tenant B its items are B's rows of `table` (null: not
 *   tenant-owned data) and nothing in it is A's;
 * - { skip: reason }: neither (creations without path ids, health, global reference data).
 */
type Classification = 'owned' | { list: string | null } | { skip: string }
const owned = 'owned' as const
const list = (table: string | null) => ({ list: table })
const GLOBAL_ID = { skip: "the path id names global reference data (the same for every tenant), not a tenant's record" }
const CREATE = {
  skip: 'a creation without a path id: its references are checked by the search cases below and the module tests',
}

const CLASSIFICATION: Record<string, Classification> = {
  'GET /health/live': { skip: 'no tenant' },
  'GET /health/ready': { skip: 'no tenant' },
  'POST /api/auth/token': { skip: 'the API key names the tenant; covered by test/users.test.ts' },
  'GET /api/v1/adminusers': list('app_user'),
  'POST /api/v1/adminusers': CREATE,
  'GET /api/v1/adminusers/{userId}': owned,
  'PUT /api/v1/adminusers/{userId}': owned,
  'GET /api/v2/Users': list('app_user'),
  'POST /api/v2/Users': CREATE,
  'GET /api/v2/Users/{id}': owned,
  'PUT /api/v2/Users/{id}': owned,
  'PATCH /api/v2/Users/{id}': owned,
  'GET /api/v2/ServiceProviderConfig': list(null),
  'GET /api/v2/Schemas': list(null),
  'GET /api/v2/Schemas/{id}': GLOBAL_ID,
  'GET /api/v2/ResourceTypes': list(null),
  'GET /api/v2/ResourceTypes/{id}': GLOBAL_ID,
  'GET /api/MembershipRoles': list('membership_role'),
  'GET /api/MembershipGroups': list('membership_group'),
  'GET /api/MembershipRoles/{membershipRoleId}': owned,
  'GET /api/MembershipRoles/Search/{id}': owned,
  'GET /api/MembershipGroups/{membershipGroupId}': owned,
  'GET /api/MembershipGroups/Search/{id}': owned,
  'GET /api/portalvisibilitygroups': list('membership_group'),
  'POST /api/portalvisibilitygroups': CREATE,
  'PATCH /api/portalvisibilitygroups': owned,
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}': owned,
  'DELETE /api/portalvisibilitygroups/{portalVisibilityGroupId}': owned,
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}/dealers': owned,
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}': owned,
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}/dealers': owned,
  'GET /api/generalsettings': list(null),
  'GET /api/generalsettings/settinggroups': list(null),
  'GET /api/generalsettings/settingtypes': list(null),
  'GET /api/generalsettings/{generalSettingId}': {
    skip: "setting ids name the global setting definitions; B reads and writes its own value (A's value is checked unchanged)",
  },
  'PUT /api/generalsettings/{generalSettingId}': {
    skip: "setting ids name the global setting definitions; B writes its own value (A's value is checked unchanged)",
  },
  'DELETE /api/generalsettings/{generalSettingId}': {
    skip: "setting ids name the global setting definitions; B resets its own value (A's value is checked unchanged)",
  },
  'GET /api/dealers': list('account_holder'),
  'POST /api/dealers': CREATE,
  // Sales tax (docs/sales-tax.md): rules are tenant rows; the calculation reads B's rules only.
  'GET /api/reinsurance/treaties': list('reinsurance_treaty'),
  'POST /api/reinsurance/treaties': CREATE,
  // Reports over the tenant's book (docs/reporting.md): no record ids of their own; every id they name is tenant B's.
  'GET /api/reports/lossratios': list('account_holder'),
  'GET /api/reports/reconciliation': list('account_holder'),
  'GET /api/reports/runs': list('report_run'),
  'POST /api/reports/runs': CREATE,
  'GET /api/salestax/rules': list('sales_tax_rule'),
  'POST /api/salestax/rules': CREATE,
  'GET /api/salestax/rules/{salesTaxRuleId}': owned,
  'PATCH /api/salestax/rules/{salesTaxRuleId}': owned,
  'DELETE /api/salestax/rules/{salesTaxRuleId}': owned,
  'POST /api/salestax/calculations': {
    skip: 'no path id: it names a location and a product type, and reads only the caller’s rules',
  },
  'GET /api/contracts/{contractId}/recalculatepurchasesalestax': owned,
  // Payment methods (docs/payment-methods.md): records are tenant rows.
  'GET /api/availablePaymentMethods': list('available_payment_method'),
  'POST /api/availablePaymentMethods': CREATE,
  'DELETE /api/availablePaymentMethods/{availablePaymentMethodId}': owned,
  'POST /api/availablePaymentMethods/paymentMethod': {
    skip: "no path id: the body's holder is checked like a creation's reference (a holder not the caller's is a 422)",
  },
  // Ledger views (docs/ledgers.md): derived from B's journal lines only.
  'GET /api/ledgers': list('journal_line'),
  'GET /api/ledgers/payReceiveLedgers': list('journal_line'),
  'GET /api/ledgers/unpaidLedgersProducts': list('journal_line'),
  'GET /api/ledgerSummary': list('journal_line'),
  // Cash (docs/cash.md): cash and in-process receipts are tenant rows.
  'GET /api/inprocesscashtransactions': list('in_process_cash_transaction'),
  'POST /api/inprocesscashtransactions': CREATE,
  'GET /api/inprocesscashtransactions/{inProcessCashTransactionId}': owned,
  'DELETE /api/inprocesscashtransactions/{inProcessCashTransactionId}': owned,
  'POST /api/inprocesscashtransactions/{inProcessCashTransactionId}/processrequests': owned,
  'GET /api/cashtransactions': list('cash_transaction'),
  'GET /api/v2/cashtransactions': list('cash_transaction'),
  'POST /api/cashtransactions': CREATE,
  'GET /api/cashtransactions/{cashTransactionId}': owned,
  'PATCH /api/cashtransactions/{cashTransactionId}': owned,
  // Payout runs (docs/payouts.md): runs are the tenant's.
  'GET /api/payoutruns': list('payout_run'),
  'POST /api/payoutruns': CREATE,
  'GET /api/payoutruns/{payoutRunId}': owned,
  // Webhooks (docs/webhooks.md): subscriptions and deliveries are the tenant's.
  // Automatic processes (docs/processes.md): runs are the tenant's.
  'GET /api/automatic-process-runs': list('automatic_process_run'),
  'POST /api/automatic-process-runs': CREATE,
  'GET /api/automatic-process-runs/{guid}': owned,
  'PATCH /api/automatic-process-runs/{guid}': owned,
  'GET /api/webhooks/subscriptions': list('webhook_subscription'),
  'POST /api/webhooks/subscriptions': CREATE,
  'GET /api/webhooks/subscriptions/{subscriptionId}': owned,
  'PATCH /api/webhooks/subscriptions/{subscriptionId}': owned,
  'DELETE /api/webhooks/subscriptions/{subscriptionId}': owned,
  'POST /api/webhooks/subscriptions/{subscriptionId}/secret': owned,
  'GET /api/webhooks/deliveries': list('webhook_delivery'),
  'GET /api/webhooks/deliveries/{deliveryId}': owned,
  'POST /api/webhooks/deliveries/{deliveryId}/redeliveries': owned,
  // Statements (docs/statements.md): the path names the account holder (and its request).
  'POST /api/accountholders/{accountHolderId}/statementrequests': owned,
  'GET /api/accountholders/{accountHolderId}/statementrequests/{statementRequestId}': owned,
  'GET /api/dealergroups': list('account_holder'),
  'POST /api/dealergroups': CREATE,
  'GET /api/agents': list('account_holder'),
  'POST /api/agents': CREATE,
  'GET /api/customers': list('account_holder'),
  'GET /api/insurers': list('account_holder'),
  'POST /api/insurers': CREATE,
  'GET /api/lienHolders': list('account_holder'),
  'POST /api/lienHolders': CREATE,
  'GET /api/repairfacilities': list('account_holder'),
  'POST /api/repairfacilities': CREATE,
  'GET /api/inspectioncompanies': list('account_holder'),
  'POST /api/inspectioncompanies': CREATE,
  'GET /api/claimpayees': list('account_holder'),
  'POST /api/claimpayees': CREATE,
  'GET /api/reinsurancecompanies': list('account_holder'),
  'POST /api/reinsurancecompanies': CREATE,
  'GET /api/accountholders': list('account_holder'),
  'GET /api/v2/lienHolders': list('account_holder'),
  'POST /api/accountholders/autoexpirerequests': owned,
  'GET /api/disbursementaccounts': list('disbursement_account'),
  'POST /api/disbursementaccounts': owned,
  'GET /api/customfielddefinitions': list('custom_field_definition'),
  'POST /api/customfielddefinitions': CREATE,
  'POST /api/Rates/criteria/evaluate': { skip: 'pure evaluation, no tenant data' },
  'POST /api/Rates/ratebooks': { skip: 'an import (dry run here) of a whole book: no path id' },
  'GET /api/Rates/ratebooks': list('rate_book'),
  'GET /api/Rates/ratebooks/{version}': {
    skip: "version numbers count per tenant (A's version 1 is B's version 1), so they name B's own book",
  },
  'GET /api/Rates/ratebooks/{version}/document': {
    skip: "version numbers count per tenant (A's version 1 is B's version 1), so they name B's own book",
  },
  'GET /api/Rates/Disbursements/DisbursementsCodes': list(null),
  'GET /api/Rates/Disbursements/DisbursementsLabels': list(null),
  'GET /api/Rates/Disbursements/DisbursementsGroups': list(null),
  'GET /api/dealers/ratevisibilities': list('dealer_rate_visibility'),
  'GET /api/Rates/AssetTypes': list(null),
  'GET /api/Rates/Products': list('rating_catalogue_item'),
  'GET /api/Rates/Programs': list('rating_catalogue_item'),
  'GET /api/Rates/VehicleMakes': list(null),
  'GET /api/Rates/VehicleModels': list(null),
  'GET /api/Rates/VehicleSeries': list(null),
  'GET /api/Rates/VehicleTrims': list(null),
  'GET /api/Rates/VehicleBodyStyles': list(null),
  'GET /api/Rates/VehicleSegmentations': list(null),
  'GET /api/contracts/autocancelgap': list('contract'),
  'GET /api/contracts/autoexpire': list('contract'),
  'GET /api/contracts/autovoidable': list('contract'),
  'GET /api/cancelmethods': list('rating_catalogue_item'),
  'GET /api/v2/cancelmethods': list('rating_catalogue_item'),
  'GET /api/cancelreasons': list('rating_catalogue_item'),
  'GET /api/v2/cancelreasons': list('rating_catalogue_item'),
  'POST /api/contracts': { skip: 'the quote id carries the tenant: covered by "a quote of tenant A" below' },
  'POST /api/contracts/draftdocument': {
    skip: 'the quote id carries the tenant: covered by "a quote of tenant A" below',
  },
  'GET /api/contracts': list('contract'),
  'GET /api/v2/contracts': list('contract'),
  'GET /api/v2/cancelrequests': list('cancel_request'),
  'GET /api/contracts/holdreasons': list(null),
  'POST /api/contracts/updateEarnings': {
    skip: "a run over the caller's own contracts: A's ids in B's filters select nothing (examined 0), checked by test/contracts.earnings.test.ts",
  },
  'GET /api/claims/complaints': list('claim_lookup'),
  'GET /api/claims/causes': list('claim_lookup'),
  'GET /api/claims/corrections': list('claim_lookup'),
  'GET /api/claims/complaintscausescorrectionstypes': list('claim_lookup'),
  'GET /api/claims/deniedReasons': list('claim_lookup'),
  'GET /api/claims/holdReasons': list('claim_lookup'),
  'GET /api/inspectionreasons': list('claim_lookup'),
  'GET /api/rejectinspectionreasons': list('claim_lookup'),
  'GET /api/claims/complaintcausecorrections': list('claim_lookup_combination'),
  // Claims: tenant B naming A's contract in the body is a 404 like a missing one (test/claims.test.ts).
  'POST /api/claims': CREATE,
  'GET /api/claims': list('claim'),
  // Denying the claims of ended contracts: the body names the contracts; A's are a 404 like missing ones.
  'POST /api/contracts/denyClaims': owned,
  // Claim inspections (docs/claims.md "Inspections"): the work queue lists B's inspections only; the
  // sync routes name the inspection in the body.
  'GET /api/claims/inspections': list('claim_inspection'),
  'PATCH /api/claims/inspections/syncinspection': owned,
  'PUT /api/claims/inspections/syncpostputinspection': owned,
}

/** An inspection company's full report (PUT syncpostputinspection), of no inspection yet. */
const SYNC_REPORT = {
  status: 'COMPLETED',
  rejectReasonId: null,
  note: null,
  findings: 'B was here',
  inspectedOdometer: 45100,
  inspectedOn: '2026-11-20',
  completedAt: '2026-11-20T18:00:00.000Z',
}

/** Operations whose body (not path) names A's records: A's ids go into the body instead. */
const BODY_IDS: Record<string, (a: World, b: World) => unknown> = {
  'PATCH /api/portalvisibilitygroups': (a) => [{ id: a.portalGroup.id, description: 'B was here' }],
  'POST /api/accountholders/autoexpirerequests': (a) => ({ accountHolderIds: [a.insurerId] }),
  'POST /api/disbursementaccounts': (a) => ({
    accountHolderId: a.dealerId,
    name: 'B was here',
    paymentMethod: 'CHECK',
  }),
  'POST /api/contracts/denyClaims': (a) => ({ contractIds: [a.claimable.id] }),
  'PATCH /api/claims/inspections/syncinspection': (a) => ({ claimInspectionId: a.claimInspection.id, status: 'TAKEN' }),
  'PUT /api/claims/inspections/syncpostputinspection': (a) => ({
    ...SYNC_REPORT,
    claimInspectionId: a.claimInspection.id,
  }),
}
const BODY_MISSING: Record<string, unknown> = {
  'PATCH /api/portalvisibilitygroups': [{ id: 987654321, description: 'B was here' }],
  'POST /api/accountholders/autoexpirerequests': { accountHolderIds: [987654321] },
  'POST /api/disbursementaccounts': { accountHolderId: 987654321, name: 'B was here', paymentMethod: 'CHECK' },
  'POST /api/contracts/denyClaims': { contractIds: [987654321] },
  'PATCH /api/claims/inspections/syncinspection': { claimInspectionId: 987654321, status: 'TAKEN' },
  'PUT /api/claims/inspections/syncpostputinspection': { ...SYNC_REPORT, claimInspectionId: 987654321 },
}

/** v2 routes whose `{identifier}` is a rating catalogue id or code, not a contract's. */
const CATALOGUE_IDENTIFIER = /\/v2\/cancel(methods|reasons)\//
/** v2 routes whose `{identifier}` is a cancel request's id or number, not a contract's. */
const CANCEL_REQUEST_IDENTIFIER = /\/v2\/cancelrequests\//

/** A value of each path parameter that names nothing in any tenant. */
function missing(param: string, b: World): string | number {
  if (param === 'dealerNumber') return 'NO-SUCH-DEALER'
  if (param === 'portalVisibilityGroupCode') return 'NO-SUCH-GROUP'
  if (param === 'quoteId') return b.quoteId.slice(0, -4) + (b.quoteId.endsWith('AAAA') ? 'BBBB' : 'AAAA')
  return 987654321
}

/** Operations with a path id are 'owned' unless classified otherwise. */
const isOwned = (key: string) => CLASSIFICATION[key] === owned || (!CLASSIFICATION[key] && /\{/.test(key))

let t: TestApp
let a: World
let b: World
let operations: Awaited<ReturnType<typeof documentedOperations>>
/** Every path-id operation's request against A (built before A's rows are snapshotted). */
const aRequests = new Map<string, OperationRequest>()
let before_: string

async function idsOf(world: World, table: string): Promise<Set<number>> {
  const rows = await t.db.read(world.tenant.tenantId, (x) =>
    sql<{ id: string | number }>`select id from ${sql.table(table)} where tenant_id = ${world.tenant.tenantId}`.execute(
      x,
    ),
  )
  return new Set(rows.rows.map((r) => Number(r.id)))
}

async function allIds(world: World): Promise<Set<number>> {
  const tables = await t.db.read(world.tenant.tenantId, (x) =>
    sql<{ table_name: string }>`
    select c.table_name from information_schema.columns c join information_schema.columns i on i.table_name = c.table_name and i.table_schema = c.table_schema and i.column_name = 'id'
    where c.column_name = 'tenant_id' and c.table_schema = 'public'`.execute(x),
  )
  const ids = new Set<number>()
  for (const { table_name } of tables.rows) for (const id of await idsOf(world, table_name)) ids.add(id)
  return ids
}

before(async () => {
  t = await createTestApp({ now: NOW })
  a = await buildWorld(t, 'ALPHA')
  b = await buildWorld(t, 'BRAVO')
  operations = await documentedOperations(t)
  // A's value of a setting that B must not see.
  assert.equal((await call(t, a.admin, 'PUT', '/api/generalsettings/6', { value: 44 })).statusCode, 200)
  for (const op of operations) if (isOwned(op.key)) aRequests.set(op.key, await OPERATION_REQUESTS[op.key]!(t, a))
  before_ = await tenantSnapshot(t, a.tenant.tenantId)
})
after(() => t.close())

test('every operation of the OpenAPI document is classified: every operation with a path id is checked', () => {
  const keys = operations.map((o) => o.key)
  const unclassified = keys.filter((k) => !CLASSIFICATION[k] && !/\{/.test(k))
  assert.deepEqual(unclassified, [], 'operations without a path id missing from CLASSIFICATION')
  assert.deepEqual(
    Object.keys(CLASSIFICATION).filter((k) => !keys.includes(k)),
    [],
    'classified operations that do not exist',
  )
})

/** A's marker strings: its tag (in the names of what the world created) and its unique keys. */
const markers = () => [a.tag, a.ownDealerNumber, a.portalGroup.code, a.tenant.adminEmail]
/** A reply without its request id and with the ids a body named (A's or the missing one) blanked. */
function normalized(body: string): string {
  const parsed = JSON.parse(body) as Record<string, unknown>
  delete parsed.requestId
  return JSON.stringify(parsed).replace(/\b(987654321|\d+)\b/g, '#')
}

type Problem = { status?: number | string; code?: string; scimType?: string }
const shape = (body: string) => {
  const parsed = JSON.parse(body) as Problem
  return {
    status: Number(parsed.status),
    code: parsed.code ?? `scim:${parsed.scimType ?? ''}`,
    members: Object.keys(parsed).toSorted(),
  }
}

test("tenant B with tenant A's ids: 404 like a missing id, on every operation with a path id", async (ctx) => {
  const wrong: string[] = []
  let cases = 0
  const owners = operations.filter((o) => isOwned(o.key))
  for (const op of owners) {
    const aReq = aRequests.get(op.key) ?? (await OPERATION_REQUESTS[op.key]!(t, a))
    const bReq = await OPERATION_REQUESTS[op.key]!(t, b)
    const names = Object.keys(bReq.params)
    // Case 0: every id is A's; then, for paths with several ids, B's ids with one of A's.
    const variants: Array<{ label: string; foreign: OperationRequest; absent: OperationRequest }> = []
    if (BODY_IDS[op.key]) {
      variants.push({
        label: "A's id in the body",
        foreign: { ...bReq, payload: BODY_IDS[op.key]!(a, b) },
        absent: { ...bReq, payload: BODY_MISSING[op.key] },
      })
    } else {
      const foreignAll = {
        ...bReq,
        params: {
          ...aReq.params,
          ...(names.includes('dealerNumber') ? { dealerNumber: a.ownDealerNumber } : {}),
          // A contract or cancel request number may be B's too (numbers are per tenant), so A's record
          // is named by its id: a cancel request's under /v2/cancelrequests/, else A's contract's. A cancel
          // method's or reason's identifier is A's catalogue id already (codes are the same in every tenant).
          ...(names.includes('identifier') && !CATALOGUE_IDENTIFIER.test(op.key)
            ? { identifier: CANCEL_REQUEST_IDENTIFIER.test(op.key) ? a.cancelRequest.id : a.finalized.id }
            : {}),
        },
      }
      variants.push({
        label: "A's ids",
        foreign: foreignAll,
        absent: { ...bReq, params: { ...bReq.params, [names[0]!]: missing(names[0]!, b) } },
      })
      if (names.length > 1) {
        for (const name of names) {
          variants.push({
            label: `B's ids but A's ${name}`,
            foreign: { ...bReq, params: { ...bReq.params, [name]: aReq.params[name]! } },
            absent: { ...bReq, params: { ...bReq.params, [name]: missing(name, b) } },
          })
        }
      }
    }
    for (const v of variants) {
      cases++
      const res = await send(t, op.key, v.foreign, b.admin)
      const ref = await send(t, op.key, v.absent, b.admin)
      const where = `${op.key} (${v.label})`
      const sent = JSON.stringify(v.foreign)
      // The caller's own input echoed back (an unknown code in `detail`) is no leak; anything else of A's is.
      for (const m of markers())
        if (res.body.includes(m) && !sent.includes(m))
          wrong.push(`${where}: the reply names tenant A's ${m}: ${res.body.slice(0, 200)}`)
      if (BODY_IDS[op.key]) {
        // A's id in a body is an unknown reference, exactly like a missing one.
        if (res.statusCode !== ref.statusCode || normalized(res.body) !== normalized(ref.body))
          wrong.push(
            `${where}: ${res.statusCode} ${res.body.slice(0, 200)} where a missing id gives ${ref.statusCode} ${ref.body.slice(0, 200)}`,
          )
        continue
      }
      if (res.statusCode !== 404) {
        wrong.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`)
        continue
      }
      if (ref.statusCode !== 404) {
        wrong.push(`${where}: a missing id answers ${ref.statusCode} ${ref.body.slice(0, 200)}`)
        continue
      }
      const got = shape(res.body)
      const expected = shape(ref.body)
      if (JSON.stringify(got) !== JSON.stringify(expected))
        wrong.push(`${where}: ${JSON.stringify(got)} where a missing id gives ${JSON.stringify(expected)}`)
    }
  }
  ctx.diagnostic(
    `cross-tenant path ids: ${owners.length} operations, ${cases} cases (each against a missing id: ${cases * 2} requests)`,
  )
  assert.deepEqual(wrong, [])
  assert.equal(await tenantSnapshot(t, a.tenant.tenantId), before_, "tenant A's rows changed")
})

/** Every id-like value in a reply: members named `id` or ending in `Id`/`Ids`. */
function idValues(
  value: unknown,
  into: Array<{ key: string; id: number }> = [],
  key = '',
): Array<{ key: string; id: number }> {
  if (Array.isArray(value)) for (const v of value) idValues(v, into, key)
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) idValues(v, into, k)
  else if (
    (key === 'id' || /Ids?$/.test(key)) &&
    (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))
  )
    into.push({ key, id: Number(value) })
  return into
}
function items(body: unknown): unknown[] {
  if (Array.isArray(body)) return body
  const o = body as Record<string, unknown>
  return (Array.isArray(o.items) ? o.items : Array.isArray(o.Resources) ? o.Resources : [body]) as unknown[]
}

test("every list and search as tenant B shows none of tenant A's rows", async (ctx) => {
  const aIds = await allIds(a)
  const bIds = await allIds(b)
  const onlyA = new Set([...aIds].filter((id) => !bIds.has(id)))
  const lists = operations.filter(
    (o) => typeof CLASSIFICATION[o.key] === 'object' && 'list' in (CLASSIFICATION[o.key] as object),
  )
  const searches: Array<[string, string]> = [
    ['GET /api/dealers', `dealerNumber=${a.ownDealerNumber}`],
    ['GET /api/dealers', `dealerGroupId=${a.dealerGroupId}`],
    ['GET /api/dealers', `agentId=${a.agentId}`],
    ['GET /api/accountholders', `businessKey=${a.ownDealerNumber}`],
    ['GET /api/customers', 'name=BuyerALPHA'],
    ['GET /api/disbursementaccounts', `accountHolderId=${a.dealerId}`],
    ['GET /api/dealers/ratevisibilities', `dealerId=${a.dealerId}`],
    ['GET /api/portalvisibilitygroups', `dealerId=${a.dealerId}`],
    ['GET /api/portalvisibilitygroups', `name=Portal ALPHA`],
    ['GET /api/contracts', `dealerId=${a.dealerId}`],
    ['GET /api/contracts', 'customerName=BuyerALPHA'],
    ['GET /api/v2/contracts', `dealerId=${a.dealerId}`],
    ['GET /api/v2/cancelrequests', `dealerId=${a.dealerId}`],
    ['GET /api/ledgers', `accountHolderId=${a.dealerId}`],
    ['GET /api/ledgers/payReceiveLedgers', `accountHolderId=${a.dealerId}`],
    ['GET /api/ledgers/unpaidLedgersProducts', `dealerId=${a.dealerId}`],
    ['GET /api/ledgerSummary', `accountHolderId=${a.dealerId}`],
    ['GET /api/v1/adminusers', `searchData.id=${a.userId}`],
    ['GET /api/v1/adminusers', `searchData.emailAddress=${encodeURIComponent(a.tenant.adminEmail)}`],
    ['GET /api/v2/Users', `filter=${encodeURIComponent(`id eq "${a.userId}"`)}`],
    ['GET /api/v2/Users', `filter=${encodeURIComponent(`userName eq "${a.tenant.adminEmail}"`)}`],
    ['GET /api/Rates/Programs', `productId=${a.productId}`],
    ['GET /api/customfielddefinitions', 'name=region ALPHA'],
  ]
  const wrong: string[] = []
  const cases: Array<{ key: string; query: string | undefined }> = [
    ...(await Promise.all(
      lists.map(async (o) => ({ key: o.key, query: (await OPERATION_REQUESTS[o.key]!(t, b)).query })),
    )),
    ...searches.map(([key, query]) => ({ key, query })),
  ]
  const tableIds = new Map<string, Set<number>>()
  for (const c of cases) {
    const res = await send(t, c.key, { params: {}, ...(c.query ? { query: c.query } : {}) }, b.admin)
    const where = `${c.key}${c.query ? `?${c.query}` : ''}`
    if (res.statusCode >= 500 || (res.statusCode >= 300 && !searches.some(([k, q]) => k === c.key && q === c.query))) {
      wrong.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`)
      continue
    }
    for (const m of markers())
      if (res.body.includes(m) && !(c.query ?? '').includes(encodeURIComponent(m)) && !(c.query ?? '').includes(m))
        wrong.push(`${where}: names ${m}`)
    if (!/json/.test(String(res.headers['content-type']))) continue
    const body: unknown = res.json()
    const table = (CLASSIFICATION[c.key] as { list: string | null }).list
    // Lists of global reference data (setting definitions, SCIM schemas, vehicle makes) carry global ids.
    if (table)
      for (const { key, id } of idValues(body)) if (onlyA.has(id)) wrong.push(`${where}: ${key} ${id} is tenant A's`)
    if (table && res.statusCode === 200) {
      if (!tableIds.has(table)) tableIds.set(table, await idsOf(b, table))
      for (const item of items(body)) {
        if ((item as { id?: unknown }).id === undefined) continue
        const id = Number((item as { id?: unknown }).id)
        if (!tableIds.get(table)!.has(id)) wrong.push(`${where}: item ${id} is no ${table} row of tenant B`)
      }
    }
  }
  // A's value of a setting never shows in B.
  const setting = await call(t, b.admin, 'GET', '/api/generalsettings/6')
  assert.notEqual((setting.json() as { value: unknown }).value, 44)
  ctx.diagnostic(
    `cross-tenant lists: ${lists.length} list operations + ${searches.length} searches naming A's records = ${cases.length} cases`,
  )
  assert.deepEqual(wrong, [])
  assert.equal(await tenantSnapshot(t, a.tenant.tenantId), before_, "tenant A's rows changed")
})

test('a quote of tenant A is unknown to tenant B: replay, contract, draft document and custom fields', async () => {
  const b404 = await call(t, b.admin, 'GET', `/api/Rates/quotes/${encodeURIComponent(a.quoteId)}`)
  assert.equal(b404.statusCode, 404, b404.body)
  assert.equal((b404.json() as { code: string }).code, 'quote_not_found')
  const deal = { ...((await OPERATION_REQUESTS['POST /api/contracts']!(t, a)).payload as Record<string, unknown>) }
  for (const url of ['/api/contracts', '/api/contracts/draftdocument']) {
    const res = await call(t, b.admin, 'POST', url, deal)
    assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
    assert.equal((res.json() as { code: string }).code, 'quote_unknown')
  }
  const fields = await call(
    t,
    b.admin,
    'GET',
    `/api/Rates/Products/${b.productId}/customfields?planId=${b.planId}&quoteId=${encodeURIComponent(a.quoteId)}`,
  )
  assert.ok([404, 422].includes(fields.statusCode), fields.body)
  assert.equal(await tenantSnapshot(t, a.tenant.tenantId), before_, "tenant A's rows changed")
})
