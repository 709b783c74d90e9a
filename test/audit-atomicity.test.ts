// Audit atomicity: the audit row of a change is written in the change's own transaction. A
// mutation forced to fail at commit, after every write of the request (its audit row included) has
// been made, answers a clean 5xx and leaves nothing behind: no audit row, no other row of the
// tenant changed. The same mutation committed leaves exactly its audit rows (one per change).
//
// The failure is a deferred constraint trigger created here on audit_log: it raises at COMMIT for
// rows whose request id carries this file's random prefix (the X-Request-Id header names it), so
// nothing else running on the same database is affected; it is dropped when the file ends.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { before, test } from 'node:test'
import { sql } from 'kysely'
import { closeAtEnd, createTestApp, type TestApp } from './harness.ts'
import { demoRateBook } from '../src/modules/rating/index.ts'
import {
  buildWorld,
  NOW,
  tenantSnapshot,
  OPERATION_REQUESTS,
  send,
  type OperationRequest,
  type World,
} from './security-world.ts'

const PREFIX = `xtfail-${randomBytes(6).toString('hex')}`
const FN = `xt_fail_${randomBytes(6).toString('hex')}`

/**
 * The mutations checked, each with the audit actions its committed request writes, in order
 * (one per change; a finalization posts its journal entry and files its PDF besides).
 */
const MUTATIONS: Record<string, string[]> = {
  'POST /api/v1/adminusers': ['user.created'],
  'PUT /api/v1/adminusers/{userId}': ['user.replaced'],
  'PATCH /api/v2/Users/{id}': ['user.replaced'],
  'POST /api/portalvisibilitygroups': ['portal_visibility_group.created'],
  'DELETE /api/portalvisibilitygroups/{portalVisibilityGroupId}': ['portal_visibility_group.deleted'],
  'PUT /api/generalsettings/{generalSettingId}': ['setting.updated'],
  'POST /api/dealers': ['dealer.created'],
  'PATCH /api/dealers/{dealerId}': ['dealer.updated'],
  'PATCH /api/insurers/{insurerId}': ['insurer.updated'],
  'POST /api/dealers/{dealerId}/customfields': ['custom_field.created'],
  'DELETE /api/dealers/{dealerId}/customfields/{fieldId}': ['custom_field.deleted'],
  'POST /api/cashtransactions/{cashTransactionId}/customfields': ['custom_field.created'],
  'PATCH /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': ['custom_field.updated'],
  'DELETE /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': ['custom_field.deleted'],
  'POST /api/payoutruns': ['journal_entry.posted', 'payout_run.completed'],
  'POST /api/customfielddefinitions': ['custom_field_definition.created'],
  'POST /api/disbursementaccounts': ['disbursement_account.created'],
  'PATCH /api/repairfacilities/{repairFacilityId}/dealers': ['repair_facility.links_changed'],
  'POST /api/Rates/Disbursements/AccountHolder/{accountHolderId}': ['rate_disbursement.created'],
  'PUT /api/dealers/{dealerId}/ratevisibilities': ['dealer_rate_visibility.replaced'],
  'POST /api/contracts': ['contract.created'],
  'POST /api/contracts/{contractId}/holds': ['contract.hold_placed'],
  'POST /api/contracts/{contractId}/finalize': [
    'journal_entry.posted',
    'contract.finalized',
    'contract.activated',
    'document.created',
  ],
  'POST /api/Rates/ratebooks': ['rate_book.imported'],
  'POST /api/contracts/{contractId}/files': ['document.created'],
  // A run is many transactions (one per contract): the run row with its start, then its completion.
  // The world's contract was sold today, so nothing is due and no contract entry is posted.
  'POST /api/contracts/updateEarnings': ['earnings_run.started', 'earnings_run.completed'],
  'POST /api/contracts/autoexpire/{contractId}': ['contract.expired'],
  'POST /api/contracts/autovoidable/{contractId}': ['contract.voided'],
  // Cancellations (docs/cancellations.md): a request; a direct cancel (its entry, the contract's
  // status, the cancel); a reversal.
  'POST /api/contracts/{contractId}/cancelrequests': ['cancel_request.created'],
  'POST /api/contracts/{contractId}/transferrequest': ['contract.transfer_requested'],
  // The new owner is a new customer record; the fee is posted (TRANSFER_FEE).
  'PATCH /api/contracts/{contractId}/transferrequests/{transferRequestId}': [
    'customer.created',
    'journal_entry.posted',
    'contract.transferred',
  ],
  // A rerate of a finalized contract: its difference posted (CONTRACT_RERATED), the final document again.
  'POST /api/contracts/{contractId}/rerateRequests': [
    'journal_entry.posted',
    'document.version_added',
    'contract.rerated',
  ],
  'POST /api/contracts/{contractId}/cancels': ['journal_entry.posted', 'contract.cancelled', 'cancel.processed'],
  'POST /api/cancels/{cancelId}': ['journal_entry.posted', 'contract.reinstated', 'cancel.reversed'],
  'POST /api/cancelrequests/{cancelRequestId}/documents': ['document.created'],
  // Claims (docs/claims.md): intake writes the claim, its audit row and its event together; an edit
  // its changes and its audit row.
  // The claim's repair-order odometer becomes the contract's latest known one (expiry by mileage).
  'POST /api/claims': ['contract.odometer_recorded', 'claim.created'],
  'PUT /api/claims/{claimId}': ['claim.updated'],
  'PATCH /api/claims/{claimId}': ['claim.updated'],
  // A payment request posts CLAIM_APPROVED with its audit row; a payment CLAIM_PAID (docs/claims.md).
  'POST /api/claims/{claimId}/paymentrequests': ['journal_entry.posted', 'claim.payment_requested'],
  'POST /api/claims/{claimId}/lock': ['claim.locked'],
  'POST /api/claims/{claimId}/paymentrequests/{paymentRequestId}/payments': ['journal_entry.posted', 'claim.paid'],
  // A claim's note is appended with its audit row; a document as any owner's (docs/claims.md "Notes and documents").
  'POST /api/claims/{claimId}/notes': ['claim_note.created'],
  'POST /api/claims/{claimId}/documents': ['document.created'],
  // Denying the claims of ended contracts: each claim denied with its audit row (docs/claims.md).
  'POST /api/contracts/denyClaims': ['claim.denied'],
  // Sales tax rules (docs/sales-tax.md): each change with its audit row.
  'POST /api/reinsurance/treaties': ['reinsurance_treaty.created'],
  'PATCH /api/reinsurance/treaties/{treatyId}': ['reinsurance_treaty.updated'],
  'DELETE /api/reinsurance/treaties/{treatyId}': ['reinsurance_treaty.deleted'],
  'POST /api/reinsurancecompanies': ['reinsurance_company.created'],
  // Report runs (docs/reporting.md): the run queued; its documents are frozen by the worker.
  'POST /api/reports/runs': ['report_run.created'],
  'POST /api/salestax/rules': ['sales_tax_rule.created'],
  'PATCH /api/salestax/rules/{salesTaxRuleId}': ['sales_tax_rule.updated'],
  'DELETE /api/salestax/rules/{salesTaxRuleId}': ['sales_tax_rule.deleted'],
  // Payment methods (docs/payment-methods.md): a record and its removal, each with its audit row.
  'POST /api/availablePaymentMethods': ['payment_method.created'],
  'DELETE /api/availablePaymentMethods/{availablePaymentMethodId}': ['payment_method.deleted'],
  // Cash (docs/cash.md): a receipt posts CASH_RECEIVED, then CASH_APPLIED to the world's sale (oldest
  // first), each with its audit row; processing an in-process receipt does the same and marks it.
  'POST /api/cashtransactions': [
    'journal_entry.posted',
    'cash_transaction.received',
    'journal_entry.posted',
    'cash_transaction.applied',
  ],
  'PATCH /api/cashtransactions/{cashTransactionId}': ['cash_transaction.updated'],
  'POST /api/inprocesscashtransactions': ['in_process_cash_transaction.created'],
  'DELETE /api/inprocesscashtransactions/{inProcessCashTransactionId}': ['in_process_cash_transaction.deleted'],
  'POST /api/inprocesscashtransactions/{inProcessCashTransactionId}/processrequests': [
    'journal_entry.posted',
    'cash_transaction.received',
    'journal_entry.posted',
    'cash_transaction.applied',
    'in_process_cash_transaction.processed',
  ],
  // Webhooks (docs/webhooks.md): subscription writes and redeliveries, each with its audit row.
  'POST /api/webhooks/subscriptions': ['webhook_subscription.created'],
  'PATCH /api/webhooks/subscriptions/{subscriptionId}': ['webhook_subscription.updated'],
  'DELETE /api/webhooks/subscriptions/{subscriptionId}': ['webhook_subscription.deleted'],
  'POST /api/webhooks/subscriptions/{subscriptionId}/secret': ['webhook_subscription.secret_rotated'],
  'POST /api/webhooks/deliveries/{deliveryId}/redeliveries': ['webhook_delivery.redelivery_requested'],
  // Automatic processes (docs/processes.md): a run started, a queued run cancelled.
  'POST /api/automatic-process-runs': ['automatic_process_run.started'],
  'PATCH /api/automatic-process-runs/{guid}': ['automatic_process_run.cancelled'],
  // A statement request of a small statement: the request, then its document, with the statement (docs/statements.md).
  'POST /api/accountholders/{accountHolderId}/statementrequests': ['statement.requested', 'document.created'],
  // Claim inspections (docs/claims.md "Inspections"): each change of an inspection (and of its claim's
  // status) with its audit row; its files as any owner's.
  'POST /api/claims/{claimId}/inspections': ['claim_inspection.requested'],
  'PUT /api/claims/{claimId}/inspections': ['claim_inspection.completed'],
  'POST /api/claims/{claimId}/inspections/takereject/{claimInspectionId}': ['claim_inspection.taken'],
  'POST /api/claims/{claimId}/inspectionfiles/{inspectionId}': ['document.created'],
  'PATCH /api/claims/inspections/syncinspection': ['claim_inspection.taken'],
  'PUT /api/claims/inspections/syncpostputinspection': ['claim_inspection.completed'],
}

/** Requests other than the matrix's valid ones: a real import (the matrix's is a dry run). */
const REQUESTS: Record<string, () => OperationRequest> = {
  'POST /api/Rates/ratebooks': () => ({ params: {}, payload: demoRateBook('2027-06-01') }),
  // One payee, so the run posts exactly one CASH_DISBURSED entry whatever else the world has due.
  'POST /api/payoutruns': () => ({ params: {}, payload: { payeeIds: [w.agentId] } }),
}

let t: TestApp
let w: World

async function auditOf(requestId: string): Promise<string[]> {
  const rows = await t.db.read(w.tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select('action')
      .where('tenant_id', '=', w.tenant.tenantId)
      .where('request_id', '=', requestId)
      .orderBy('id')
      .execute(),
  )
  return rows.map((r) => r.action)
}

before(async () => {
  t = await createTestApp({ now: NOW })
  // Dropped before the app and the database close (the harness runs closers newest first).
  closeAtEnd(() =>
    t.db.transaction(null, async (tx) => {
      await sql.raw(`drop trigger if exists ${FN} on audit_log`).execute(tx)
      await sql.raw(`drop function if exists ${FN}()`).execute(tx)
    }),
  )
  w = await buildWorld(t, 'AUDIT')
  await t.db.transaction(null, async (tx) => {
    await sql
      .raw(
        `create function ${FN}() returns trigger language plpgsql as $$ begin raise exception 'forced failure at commit'; end $$`,
      )
      .execute(tx)
    await sql
      .raw(
        `create constraint trigger ${FN} after insert on audit_log deferrable initially deferred for each row when (new.request_id like '${PREFIX}%') execute function ${FN}()`,
      )
      .execute(tx)
  })
})
let n = 0
for (const [operation, actions] of Object.entries(MUTATIONS)) {
  test(`${operation}: failed at commit → no audit row, nothing changed; committed → ${actions.join(', ')}`, async () => {
    // The failing run.
    const failing = REQUESTS[operation]?.() ?? (await OPERATION_REQUESTS[operation]!(t, w))
    const failId = `${PREFIX}-${++n}`
    const before_ = await tenantSnapshot(t, w.tenant.tenantId)
    const res = await send(t, operation, failing, { ...w.admin, 'x-request-id': failId })
    assert.ok(res.statusCode >= 500, `${operation} answered ${res.statusCode} ${res.body}`)
    assert.match(String(res.headers['content-type']), /problem\+json|scim\+json/)
    assert.doesNotMatch(res.body, /forced failure|audit_log|constraint trigger/, 'the reply shows no internals')
    assert.deepEqual(await auditOf(failId), [])
    assert.equal(await tenantSnapshot(t, w.tenant.tenantId), before_, "a failed mutation changed the tenant's rows")

    // The committed run.
    const committed = REQUESTS[operation]?.() ?? (await OPERATION_REQUESTS[operation]!(t, w))
    const okId = `xtok-${PREFIX}-${n}`
    const done = await send(t, operation, committed, { ...w.admin, 'x-request-id': okId })
    assert.ok(done.statusCode >= 200 && done.statusCode < 300, `${operation}: ${done.statusCode} ${done.body}`)
    const written = await auditOf(okId)
    assert.deepEqual(written, actions, `${operation}: the audit rows of the committed request`)
  })
}
