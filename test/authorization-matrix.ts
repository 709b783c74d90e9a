// The authorization matrix (OWASP Authorization Testing Automation format): rows are the operations
// of the OpenAPI document, columns the subjects calling them, each cell the answer expected.
//
// Where the expectations come from, independently of the code under test:
// - ROUTE_PERMISSIONS below: each operation's permission, written down by hand from the permission
//   meanings in docs/permissions.md ("Read users", "Upload documents and files", …) and the route
//   tables of docs/portal-visibility.md, docs/disbursement-accounts.md, docs/documents.md,
//   docs/rate-visibility.md, docs/settings.md and docs/custom-fields.md;
// - which permissions each default role holds: parsed at test time from the "Default roles" table
//   of docs/permissions.md (so the doc and the service cannot drift apart unnoticed);
// - the authentication rules of docs/errors.md and the README: every /api call needs X-Api-Key and a
//   bearer token (401 otherwise); the token endpoint needs only the API key; the SCIM routes also
//   accept a service-issued bearer token alone (docs/decisions/0002-tenant-binding.md);
// - docs/portal-visibility.md: a dealer-side user holds what its roles grant, sees only its dealers
//   and what hangs off them (404 otherwise), and can change no portal visibility group.
//
// Cells: '2xx' (the request the test builds succeeds), '401', '403', '404'. For the operations in
// LOOSE_2XX a '2xx' cell is checked as "neither 401 nor 403" (the reason is given there).
// test/authorization-matrix.md is this matrix rendered as a table; the test keeps it up to date.
import fs from 'node:fs'

export const SUBJECTS = [
  'anonymous',
  'apiKeyOnly',
  'tokenOnly',
  'ADMINISTRATOR',
  'USER_ADMINISTRATOR',
  'CONTRACT_ADMINISTRATOR',
  'CLAIMS_ADJUSTER',
  'ACCOUNTING',
  'DEALER_USER',
  'READ_ONLY',
  'dealerSide',
] as const
export type Subject = (typeof SUBJECTS)[number]
export const DEFAULT_ROLES = SUBJECTS.slice(3, 10) as unknown as readonly string[]
export type Cell = '2xx' | '401' | '403' | '404'

/** 'none': no credentials (health); 'apiKey': the API key only (token endpoint); 'scim': user routes that also take a bearer token alone. */
type Auth = 'none' | 'apiKey' | 'user' | 'scim'
/** `signedLink`: a signed download link (docs/documents.md) is an alternative to the credentials. */
type Row = { auth: Auth; permission?: string; signedLink?: true }

const user = (permission: string): Row => ({ auth: 'user', permission })
const scim = (permission: string): Row => ({ auth: 'scim', permission })
const accountHolders = (path: string, param: string, create: boolean): Record<string, Row> => ({
  [`GET ${path}`]: user('accountholders:read'),
  ...(create ? { [`POST ${path}`]: user('accountholders:write') } : {}),
  [`GET ${path}/{${param}}`]: user('accountholders:read'),
  [`PATCH ${path}/{${param}}`]: user('accountholders:write'),
})
const customFields = (path: string, param: string): Record<string, Row> => ({
  [`GET ${path}/{${param}}/customfields`]: user('accountholders:read'),
  [`POST ${path}/{${param}}/customfields`]: user('accountholders:write'),
  [`GET ${path}/{${param}}/customfields/{fieldId}`]: user('accountholders:read'),
  [`PATCH ${path}/{${param}}/customfields/{fieldId}`]: user('accountholders:write'),
  [`DELETE ${path}/{${param}}/customfields/{fieldId}`]: user('accountholders:write'),
})

/** Every operation and the permission docs/permissions.md gives it. */
export const ROUTE_PERMISSIONS: Record<string, Row> = {
  'GET /health/live': { auth: 'none' },
  'GET /health/ready': { auth: 'none' },
  'POST /api/auth/token': { auth: 'apiKey' },
  // users:read "Read users (v1 and SCIM)"; users:write "Create and change users".
  'GET /api/v1/adminusers': user('users:read'),
  'POST /api/v1/adminusers': user('users:write'),
  'GET /api/v1/adminusers/{userId}': user('users:read'),
  'PUT /api/v1/adminusers/{userId}': user('users:write'),
  'GET /api/v2/Users': scim('users:read'),
  'POST /api/v2/Users': scim('users:write'),
  'GET /api/v2/Users/{id}': scim('users:read'),
  'PUT /api/v2/Users/{id}': scim('users:write'),
  'PATCH /api/v2/Users/{id}': scim('users:write'),
  'GET /api/v2/ServiceProviderConfig': scim('users:read'),
  'GET /api/v2/Schemas': scim('users:read'),
  'GET /api/v2/Schemas/{id}': scim('users:read'),
  'GET /api/v2/ResourceTypes': scim('users:read'),
  'GET /api/v2/ResourceTypes/{id}': scim('users:read'),
  // membership:read "Read membership roles and groups"; group changes are user administration (docs/portal-visibility.md).
  'GET /api/MembershipRoles': user('membership:read'),
  'GET /api/MembershipGroups': user('membership:read'),
  'GET /api/MembershipRoles/{membershipRoleId}': user('membership:read'),
  'GET /api/MembershipRoles/Search/{id}': user('membership:read'),
  'GET /api/MembershipGroups/{membershipGroupId}': user('membership:read'),
  'GET /api/MembershipGroups/Search/{id}': user('membership:read'),
  'GET /api/portalvisibilitygroups': user('membership:read'),
  'POST /api/portalvisibilitygroups': user('users:write'),
  'PATCH /api/portalvisibilitygroups': user('users:write'),
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}': user('membership:read'),
  'DELETE /api/portalvisibilitygroups/{portalVisibilityGroupId}': user('users:write'),
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}/dealers': user('membership:read'),
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}': user('membership:read'),
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}/dealers': user('membership:read'),
  // settings:read / settings:write (docs/settings.md).
  'GET /api/generalsettings': user('settings:read'),
  'GET /api/generalsettings/settinggroups': user('settings:read'),
  'GET /api/generalsettings/settingtypes': user('settings:read'),
  'GET /api/generalsettings/{generalSettingId}': user('settings:read'),
  'PUT /api/generalsettings/{generalSettingId}': user('settings:write'),
  'DELETE /api/generalsettings/{generalSettingId}': user('settings:write'),
  // accountholders:read / accountholders:write "Read / Create and change account holders".
  ...accountHolders('/api/dealers', 'dealerId', true),
  ...accountHolders('/api/dealergroups', 'dealerGroupId', true),
  ...accountHolders('/api/agents', 'agentId', true),
  ...accountHolders('/api/customers', 'customerId', false),
  ...accountHolders('/api/insurers', 'insurerId', true),
  ...accountHolders('/api/lienHolders', 'lienHolderId', true),
  ...accountHolders('/api/repairfacilities', 'repairFacilityId', true),
  ...accountHolders('/api/inspectioncompanies', 'inspectionCompanyId', true),
  ...accountHolders('/api/claimpayees', 'claimPayeeId', true),
  ...accountHolders('/api/reinsurancecompanies', 'reinsuranceCompanyId', true),
  'GET /api/accountholders': user('accountholders:read'),
  'GET /api/admincompanies/{adminCompanyId}': user('accountholders:read'),
  'GET /api/v2/lienHolders': user('accountholders:read'),
  'GET /api/repairfacilities/{repairFacilityId}/dealers': user('accountholders:read'),
  'PATCH /api/repairfacilities/{repairFacilityId}/dealers': user('accountholders:write'),
  'DELETE /api/repairfacilities/{repairFacilityId}/dealers': user('accountholders:write'),
  'GET /api/repairfacilities/{repairFacilityId}/dealergroups': user('accountholders:read'),
  'PATCH /api/repairfacilities/{repairFacilityId}/dealergroups': user('accountholders:write'),
  'DELETE /api/repairfacilities/{repairFacilityId}/dealergroups': user('accountholders:write'),
  'GET /api/repairfacilities/repairfacilityofdealer/{dealerId}': user('accountholders:read'),
  'POST /api/accountholders/autoexpirerequests': user('accountholders:write'),
  // docs/disbursement-accounts.md route table.
  'GET /api/disbursementaccounts': user('accountholders:read'),
  'POST /api/disbursementaccounts': user('accountholders:write'),
  'GET /api/disbursementaccounts/{disbursementAccountId}': user('accountholders:read'),
  'PATCH /api/disbursementaccounts/{disbursementAccountId}': user('accountholders:write'),
  // docs/custom-fields.md: accountholders:read (GET) or accountholders:write (POST, PATCH, DELETE).
  ...customFields('/api/agents', 'agentId'),
  ...customFields('/api/dealergroups', 'dealerGroupId'),
  ...customFields('/api/dealers', 'dealerId'),
  'GET /api/customfielddefinitions': user('accountholders:read'),
  'POST /api/customfielddefinitions': user('accountholders:write'),
  'GET /api/customfielddefinitions/{definitionId}': user('accountholders:read'),
  'PATCH /api/customfielddefinitions/{definitionId}': user('accountholders:write'),
  'DELETE /api/customfielddefinitions/{definitionId}': user('accountholders:write'),
  // rates:read "Read the rate catalogue and request rate quotes"; rates:write "Import rate books;
  // change disbursements and dealer rate visibility".
  'POST /api/Rates/criteria/evaluate': user('rates:read'),
  'POST /api/Rates/ratebooks': user('rates:write'),
  'GET /api/Rates/ratebooks': user('rates:read'),
  'GET /api/Rates/ratebooks/{version}': user('rates:read'),
  'GET /api/Rates/ratebooks/{version}/document': user('rates:read'),
  'GET /api/Rates/Disbursements/DisbursementsCodes': user('rates:read'),
  'GET /api/Rates/Disbursements/DisbursementsLabels': user('rates:read'),
  'GET /api/Rates/Disbursements/DisbursementsGroups': user('rates:read'),
  'GET /api/Rates/Disbursements/AuditLog/{auditLogId}': user('rates:read'),
  'GET /api/Rates/Disbursements/AccountHolder/{accountHolderId}': user('rates:read'),
  'POST /api/Rates/Disbursements/AccountHolder/{accountHolderId}': user('rates:write'),
  'GET /api/Rates/Disbursements/{disbursementId}': user('rates:read'),
  'PATCH /api/Rates/Disbursements/{disbursementId}': user('rates:write'),
  'GET /api/dealers/ratevisibilities': user('rates:read'),
  'GET /api/dealers/{dealerId}/ratevisibilities': user('rates:read'),
  'PUT /api/dealers/{dealerId}/ratevisibilities': user('rates:write'),
  'GET /api/Rates/rateQuote/{dealerNumber}': user('rates:read'),
  'GET /api/Rates/quotes/{quoteId}': user('rates:read'),
  'GET /api/Rates/AssetTypes': user('rates:read'),
  'GET /api/Rates/Products': user('rates:read'),
  'GET /api/Rates/Programs': user('rates:read'),
  'GET /api/Rates/Plans/{productId}': user('rates:read'),
  'GET /api/Rates/Products/{productId}/customfields': user('rates:read'),
  'GET /api/Rates/Terms/Plan/{planId}': user('rates:read'),
  'GET /api/Rates/DeductiblesByProduct/{productId}': user('rates:read'),
  'GET /api/Rates/VehicleMakes': user('rates:read'),
  'GET /api/Rates/VehicleModels': user('rates:read'),
  'GET /api/Rates/VehicleSeries': user('rates:read'),
  'GET /api/Rates/VehicleTrims': user('rates:read'),
  'GET /api/Rates/VehicleBodyStyles': user('rates:read'),
  'GET /api/Rates/VehicleSegmentations': user('rates:read'),
  'GET /api/factorTables/{factorTableId}': user('rates:read'),
  // Cancel methods and reasons are rate-book content, read like the rest of the catalogue (docs/rate-catalogue.md).
  'GET /api/cancelmethods': user('rates:read'),
  'GET /api/cancelmethods/{cancelMethodId}': user('rates:read'),
  'GET /api/v2/cancelmethods': user('rates:read'),
  'GET /api/v2/cancelmethods/{identifier}': user('rates:read'),
  'GET /api/cancelreasons': user('rates:read'),
  'GET /api/cancelreasons/{cancelReasonId}': user('rates:read'),
  'GET /api/v2/cancelreasons': user('rates:read'),
  'GET /api/v2/cancelreasons/{identifier}': user('rates:read'),
  // documents:read "Download documents and files" (docs/documents.md).
  'GET /api/documents/{documentId}': user('documents:read'),
  'GET /api/files/{fileId}': { ...user('documents:read'), signedLink: true },
  // contracts:read "Read contracts and their documents"; contracts:write "Create and change pending
  // contracts"; contracts:finalize "Finalize and refinalize contracts"; documents:write "Upload documents and files".
  'POST /api/contracts': user('contracts:write'),
  'GET /api/contracts': user('contracts:read'),
  'POST /api/contracts/draftdocument': user('contracts:write'),
  'GET /api/v2/contracts': user('contracts:read'),
  'GET /api/v2/contracts/{identifier}': user('contracts:read'),
  'GET /api/contracts/holdreasons': user('contracts:read'),
  'GET /api/contracts/{contractId}': user('contracts:read'),
  'PATCH /api/contracts/{contractId}': user('contracts:write'),
  'POST /api/contracts/{contractId}/finalize': user('contracts:finalize'),
  'POST /api/contracts/{contractId}/refinalize': user('contracts:finalize'),
  'GET /api/contracts/{contractId}/holds': user('contracts:read'),
  'POST /api/contracts/{contractId}/holds': user('contracts:write'),
  'GET /api/contracts/{contractId}/holds/{holdId}/resolves': user('contracts:read'),
  'POST /api/contracts/{contractId}/holds/{holdId}/resolves': user('contracts:write'),
  'GET /api/contracts/{contractId}/lock': user('contracts:read'),
  'POST /api/contracts/{contractId}/lock': user('contracts:write'),
  'DELETE /api/contracts/{contractId}/lock': user('contracts:write'),
  'POST /api/contracts/{contractId}/cobuyer': user('contracts:write'),
  'DELETE /api/contracts/{contractId}/cobuyer': user('contracts:write'),
  'GET /api/contracts/{contractId}/documents': user('contracts:read'),
  'POST /api/contracts/{contractId}/documents': user('contracts:write'),
  'GET /api/contracts/{contractId}/coveragegroups': user('contracts:read'),
  'GET /api/contracts/{contractId}/coveragecomponents': user('contracts:read'),
  'GET /api/contracts/{contractId}/ppmservices': user('contracts:read'),
  'GET /api/contracts/{contractId}/statushistory': user('contracts:read'),
  'POST /api/contracts/{contractId}/transferrequest': user('contracts:write'),
  'GET /api/contracts/{contractId}/transferrequests': user('contracts:read'),
  'GET /api/contracts/{contractId}/transferrequests/{transferRequestId}': user('contracts:read'),
  'PATCH /api/contracts/{contractId}/transferrequests/{transferRequestId}': user('contracts:finalize'),
  'POST /api/contracts/{contractId}/rerateRequests': user('contracts:finalize'),
  'GET /api/contracts/{contractId}/rerateRequests': user('contracts:read'),
  // finance:read "Read cash transactions and ledgers" (the route also checks contracts:read, which
  // every default role holding finance:read holds too; src/modules/contracts/contract-ledger.routes.ts).
  'GET /api/contracts/{contractId}/journalentries': user('finance:read'),
  // finance:write "Record and apply cash; request statements"; reading a request's status and link is
  // reading ledgers (finance:read). docs/statements.md.
  'POST /api/accountholders/{accountHolderId}/statementrequests': user('finance:write'),
  'GET /api/accountholders/{accountHolderId}/statementrequests/{statementRequestId}': user('finance:read'),
  'GET /api/contracts/{contractId}/earningdetails': user('contracts:read'),
  // Payment methods (docs/payment-methods.md): reads and the resolution finance:read; records finance:write.
  'GET /api/availablePaymentMethods': user('finance:read'),
  'POST /api/availablePaymentMethods': user('finance:write'),
  'DELETE /api/availablePaymentMethods/{availablePaymentMethodId}': user('finance:write'),
  'POST /api/availablePaymentMethods/paymentMethod': user('finance:read'),
  // Ledger views (docs/ledgers.md): read only, finance:read.
  'GET /api/ledgers': user('finance:read'),
  'GET /api/ledgers/payReceiveLedgers': user('finance:read'),
  'GET /api/ledgers/unpaidLedgersProducts': user('finance:read'),
  'GET /api/ledgerSummary': user('finance:read'),
  // Cash (docs/cash.md): reads finance:read; recording, processing, applying, returning finance:write.
  'GET /api/inprocesscashtransactions': user('finance:read'),
  'POST /api/inprocesscashtransactions': user('finance:write'),
  'GET /api/inprocesscashtransactions/{inProcessCashTransactionId}': user('finance:read'),
  'DELETE /api/inprocesscashtransactions/{inProcessCashTransactionId}': user('finance:write'),
  'POST /api/inprocesscashtransactions/{inProcessCashTransactionId}/processrequests': user('finance:write'),
  'GET /api/cashtransactions': user('finance:read'),
  'GET /api/v2/cashtransactions': user('finance:read'),
  'POST /api/cashtransactions': user('finance:write'),
  'GET /api/cashtransactions/{cashTransactionId}': user('finance:read'),
  'PATCH /api/cashtransactions/{cashTransactionId}': user('finance:write'),
  'GET /api/cashtransactions/{cashTransactionId}/customfields': user('finance:read'),
  'POST /api/cashtransactions/{cashTransactionId}/customfields': user('finance:write'),
  'GET /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': user('finance:read'),
  'PATCH /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': user('finance:write'),
  'DELETE /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': user('finance:write'),
  // Payout runs (docs/payouts.md): runs finance:write, reads finance:read.
  'POST /api/payoutruns': user('finance:write'),
  'GET /api/payoutruns': user('finance:read'),
  'GET /api/payoutruns/{payoutRunId}': user('finance:read'),
  // Webhooks (docs/webhooks.md): reads webhooks:read, subscription changes and redeliveries webhooks:write.
  'GET /api/webhooks/subscriptions': user('webhooks:read'),
  'POST /api/webhooks/subscriptions': user('webhooks:write'),
  'GET /api/webhooks/subscriptions/{subscriptionId}': user('webhooks:read'),
  'PATCH /api/webhooks/subscriptions/{subscriptionId}': user('webhooks:write'),
  'DELETE /api/webhooks/subscriptions/{subscriptionId}': user('webhooks:write'),
  'POST /api/webhooks/subscriptions/{subscriptionId}/secret': user('webhooks:write'),
  'GET /api/webhooks/deliveries': user('webhooks:read'),
  'GET /api/webhooks/deliveries/{deliveryId}': user('webhooks:read'),
  'POST /api/webhooks/deliveries/{deliveryId}/redeliveries': user('webhooks:write'),
  // Automatic processes (docs/processes.md): reads processes:read, starting and cancelling processes:run.
  'GET /api/automatic-process-runs': user('processes:read'),
  'POST /api/automatic-process-runs': user('processes:run'),
  'GET /api/automatic-process-runs/{guid}': user('processes:read'),
  'PATCH /api/automatic-process-runs/{guid}': user('processes:run'),
  // Sales tax (docs/sales-tax.md): the rules are the tenant's configuration (settings:read / settings:write);
  // the calculation is what a dealer menu system asks beside the rate quote (rates:read); a contract's
  // recalculation reads the contract (contracts:read).
  // reinsurance:read / reinsurance:write (docs/reporting.md; staff only).
  'GET /api/reinsurance/treaties': user('reinsurance:read'),
  'POST /api/reinsurance/treaties': user('reinsurance:write'),
  'GET /api/reinsurance/treaties/{treatyId}': user('reinsurance:read'),
  'PATCH /api/reinsurance/treaties/{treatyId}': user('reinsurance:write'),
  'DELETE /api/reinsurance/treaties/{treatyId}': user('reinsurance:write'),
  'GET /api/reports/insurers/{insurerId}/bordereaux/premium': user('reinsurance:read'),
  'GET /api/reports/insurers/{insurerId}/bordereaux/claims': user('reinsurance:read'),
  'GET /api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement': user('reinsurance:read'),
  'GET /api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement/lines': user('reinsurance:read'),
  'GET /api/reports/lossratios': user('reinsurance:read'),
  'GET /api/reports/reconciliation': user('reinsurance:read'),
  'POST /api/reports/runs': user('reinsurance:write'),
  'GET /api/reports/runs': user('reinsurance:read'),
  'GET /api/reports/runs/{reportRunId}': user('reinsurance:read'),
  'GET /api/reports/runs/{reportRunId}/documents/{riskBearerId}': user('reinsurance:read'),
  'GET /api/salestax/rules': user('settings:read'),
  'POST /api/salestax/rules': user('settings:write'),
  'GET /api/salestax/rules/{salesTaxRuleId}': user('settings:read'),
  'PATCH /api/salestax/rules/{salesTaxRuleId}': user('settings:write'),
  'DELETE /api/salestax/rules/{salesTaxRuleId}': user('settings:write'),
  'POST /api/salestax/calculations': user('rates:read'),
  'GET /api/contracts/{contractId}/recalculatepurchasesalestax': user('contracts:read'),
  // cancellations:read "Read cancel requests and cancels"; cancellations:write "Quote and request
  // cancellations" (a request's actions: APPROVE and REJECT also need cancellations:approve, checked
  // in the service: the matrix's request withdraws); cancellations:approve "Approve and process
  // cancellations" (a direct cancel, a reversal). docs/cancellations.md.
  'POST /api/contracts/{contractId}/cancelrequests': user('cancellations:write'),
  'GET /api/contracts/{contractId}/cancelrequests': user('cancellations:read'),
  'POST /api/v2/contracts/{identifier}/cancelrequests': user('cancellations:write'),
  'GET /api/v2/contracts/{identifier}/cancelrequests': user('cancellations:read'),
  'GET /api/v2/cancelrequests': user('cancellations:read'),
  'GET /api/cancelrequests/{cancelRequestId}': user('cancellations:read'),
  'POST /api/cancelrequests/{cancelRequestId}': user('cancellations:write'),
  'GET /api/v2/cancelrequests/{identifier}': user('cancellations:read'),
  'POST /api/v2/cancelrequests/{identifier}': user('cancellations:write'),
  'POST /api/contracts/{contractId}/cancels': user('cancellations:approve'),
  'GET /api/contracts/{contractId}/cancels': user('cancellations:read'),
  'GET /api/cancels/{cancelId}': user('cancellations:read'),
  'POST /api/cancels/{cancelId}': user('cancellations:approve'),
  'GET /api/cancelrequests/{cancelRequestId}/cancelpayments': user('cancellations:read'),
  'GET /api/v2/cancelrequests/{identifier}/cancelpayments': user('cancellations:read'),
  'GET /api/cancels/{cancelId}/cancelpayments': user('cancellations:read'),
  'GET /api/contracts/{contractId}/cancelpayments': user('cancellations:read'),
  'GET /api/v2/contracts/{identifier}/cancelpayments': user('cancellations:read'),
  // GAP auto-cancel: the due list reads cancellations; a cancel is processed (docs/cancellations.md "GAP").
  'GET /api/contracts/autocancelgap': user('cancellations:read'),
  'POST /api/contracts/autocancelgap/{contractId}': user('cancellations:approve'),
  // A cancel request's documents: read with the request, uploaded by whoever may request.
  'GET /api/cancelrequests/{cancelRequestId}/documents': user('cancellations:read'),
  'POST /api/cancelrequests/{cancelRequestId}/documents': user('cancellations:write'),
  'GET /api/cancelrequests/{cancelRequestId}/documents/{documentId}': user('cancellations:read'),
  // processes:run "Start automatic processes": the earnings process, for one contract or a run
  // (docs/earnings.md). A dealer-side user holding it would still see only its dealers' contracts.
  'POST /api/contracts/{contractId}/syncEarnings': user('processes:run'),
  'POST /api/contracts/updateEarnings': user('processes:run'),
  // Automatic expiry and voiding (docs/contracts.md): the due lists read contracts; expiring or voiding
  // one is what the EXPIRY / VOID processes do (processes:run). A dealer-side user sees its dealers only.
  'GET /api/contracts/autoexpire': user('contracts:read'),
  'POST /api/contracts/autoexpire/{contractId}': user('processes:run'),
  'GET /api/contracts/autovoidable': user('contracts:read'),
  'POST /api/contracts/autovoidable/{contractId}': user('processes:run'),
  'GET /api/contracts/{contractId}/files': user('contracts:read'),
  'POST /api/contracts/{contractId}/files': user('documents:write'),
  'GET /api/contracts/{contractId}/files/{contractFileId}': user('contracts:read'),
  // claims:read "Read claims": the claim lookups (docs/claims.md "Lookups").
  'GET /api/claims/complaints': user('claims:read'),
  'GET /api/claims/causes': user('claims:read'),
  'GET /api/claims/corrections': user('claims:read'),
  'GET /api/claims/complaintcausecorrections': user('claims:read'),
  'GET /api/claims/complaintscausescorrectionstypes': user('claims:read'),
  'GET /api/claims/deniedReasons': user('claims:read'),
  'GET /api/claims/holdReasons': user('claims:read'),
  'GET /api/inspectionreasons': user('claims:read'),
  'GET /api/rejectinspectionreasons': user('claims:read'),
  // Claims: intake, read, index (docs/claims.md). claims:write "Open and work claims".
  'POST /api/claims': user('claims:write'),
  'GET /api/claims': user('claims:read'),
  'GET /api/claims/{claimId}': user('claims:read'),
  'GET /api/claims/{claimId}/claimbenefits': user('claims:read'),
  'GET /api/claims/{claimId}/lock': user('claims:read'),
  'POST /api/claims/{claimId}/lock': user('claims:write'),
  'DELETE /api/claims/{claimId}/lock': user('claims:write'),
  'POST /api/claims/{claimId}/paymentrequests': user('claims:approve'),
  'POST /api/claims/{claimId}/paymentrequests/{paymentRequestId}/payments': user('claims:approve'),
  'PUT /api/claims/{claimId}': user('claims:write'),
  'PATCH /api/claims/{claimId}': user('claims:write'),
  // A claim's notes and documents (docs/claims.md "Notes and documents"): read with the claim, added by whoever works it.
  'POST /api/claims/{claimId}/notes': user('claims:write'),
  'GET /api/claims/{claimId}/notes/all': user('claims:read'),
  'GET /api/claims/{claimId}/notes/{noteId}': user('claims:read'),
  'GET /api/claims/{claimId}/documents': user('claims:read'),
  'POST /api/claims/{claimId}/documents': user('claims:write'),
  'GET /api/claims/{claimId}/documents/{claimDocumentId}': user('claims:read'),
  // PPM services (docs/claims.md "PPM services"): a claim's with the claim; the contract's keeps contracts:read.
  'GET /api/claims/{claimId}/ppmservices': user('claims:read'),
  // Denying the claims of ended contracts: claims:write "Open and work claims".
  'POST /api/contracts/denyClaims': user('claims:approve'),
  // Claim inspections (docs/claims.md "Inspections"): requested and worked by whoever works claims; the
  // inspection company's users (claims:write) take, reject and report on their own.
  'POST /api/claims/{claimId}/inspections': user('claims:write'),
  'PUT /api/claims/{claimId}/inspections': user('claims:write'),
  'POST /api/claims/{claimId}/inspections/takereject/{claimInspectionId}': user('claims:write'),
  'POST /api/claims/{claimId}/inspectionfiles/{inspectionId}': user('claims:write'),
  'GET /api/claims/inspections': user('claims:read'),
  'GET /api/claims/inspections/{claimInspectionId}': user('claims:read'),
  'PATCH /api/claims/inspections/syncinspection': user('claims:write'),
  'PUT /api/claims/inspections/syncpostputinspection': user('claims:write'),
}

/**
 * Cells the dealer-side user (DEALER_USER in a portal visibility group holding the world's dealer
 * 10001 only) answers differently from what its permissions alone say, per docs/portal-visibility.md.
 * The matrix's requests name the world's dealer, its group, agent, customer and contracts, all
 * visible to it, so only what a dealer-side user may never do differs.
 */
export const DEALER_SIDE_OVERRIDES: Record<string, Cell> = {
  // Rate books are the administrator staff's: a dealer-side user quotes but reads no book, whatever
  // its roles (src/modules/rating/ratebook/ratebook.routes.ts; not yet said in docs/rate-books.md).
  'GET /api/Rates/ratebooks': '403',
  'GET /api/Rates/ratebooks/{version}': '403',
  'GET /api/Rates/ratebooks/{version}/document': '403',
  // Reinsurance companies are not reference data to a dealer (docs/parties.md "Visibility"): 404 as a missing id.
  'GET /api/reinsurancecompanies/{reinsuranceCompanyId}': '404',
}

/**
 * Operations whose '2xx' cells are checked as "neither 401 nor 403", with the reason. Empty when
 * every allowed request the test builds is expected to succeed.
 */
export const LOOSE_2XX: Record<string, string> = {}

/** role code → its permissions, read from the "Default roles" table of docs/permissions.md. */
export function rolesFromDocs(docPath = new URL('../docs/permissions.md', import.meta.url)): Map<string, Set<string>> {
  const text = fs.readFileSync(docPath, 'utf8')
  const permissionRows = [...text.matchAll(/^\| `([a-z]+:[a-z]+)` \|/gm)].map((m) => m[1]!)
  const roles = new Map<string, Set<string>>()
  for (const m of text.matchAll(/^\| `([A-Z_]+)` \| [^|]+ \| ([^|]+) \|$/gm)) {
    const cell = m[2]!.trim()
    const granted = new Set<string>()
    if (cell === '`*`') granted.add('*')
    else if (/^every `:read` permission except ([a-z:]+)$/.test(cell)) {
      const except = /except ([a-z:]+)$/.exec(cell)![1]!
      for (const p of permissionRows) if (p.endsWith(':read') && p !== except) granted.add(p)
    } else {
      for (const item of cell.split(',').map((s) => s.trim())) {
        const [resource, actions] = item.split(':') as [string, string]
        for (const action of actions.split('/')) granted.add(`${resource}:${action}`)
      }
    }
    for (const p of granted)
      if (p !== '*' && !permissionRows.includes(p))
        throw new Error(`docs/permissions.md: role ${m[1]} names unknown permission ${p}`)
    roles.set(m[1]!, granted)
  }
  return roles
}

const holds = (granted: Set<string> | undefined, permission: string | undefined) =>
  permission === undefined || (granted !== undefined && (granted.has('*') || granted.has(permission)))

/** The expected cell of `operation` for `subject`. */
export function expectedCell(operation: string, subject: Subject, roles: Map<string, Set<string>>): Cell {
  const row = ROUTE_PERMISSIONS[operation]
  if (!row) throw new Error(`${operation} is not in the authorization matrix`)
  if (row.auth === 'none') return '2xx'
  if (subject === 'anonymous') return '401'
  if (row.auth === 'apiKey') return subject === 'tokenOnly' ? '401' : '2xx'
  if (subject === 'apiKeyOnly') return '401'
  // The token-only subject carries the administrator's token.
  if (subject === 'tokenOnly') return row.auth === 'scim' ? '2xx' : '401'
  const role = subject === 'dealerSide' ? 'DEALER_USER' : subject
  if (!holds(roles.get(role), row.permission)) return '403'
  if (subject === 'dealerSide' && DEALER_SIDE_OVERRIDES[operation]) return DEALER_SIDE_OVERRIDES[operation]
  return '2xx'
}

/** The matrix as a Markdown table (test/authorization-matrix.md). */
export function renderMatrix(operations: string[], roles: Map<string, Set<string>>): string {
  const header = `| operation | permission | ${SUBJECTS.join(' | ')} |\n|---|---|${SUBJECTS.map(() => '---').join('|')}|\n`
  const rows = operations.map((op) => {
    const row = ROUTE_PERMISSIONS[op]!
    const permission = row.auth === 'none' ? '(none)' : row.auth === 'apiKey' ? '(API key)' : `\`${row.permission}\``
    return `| \`${op}\`${LOOSE_2XX[op] ? ' ¹' : ''} | ${permission} | ${SUBJECTS.map((s) => expectedCell(op, s, roles)).join(' | ')} |`
  })
  return [
    '# Authorization matrix',
    '',
    'Generated by test/authorization-matrix.test.ts from test/authorization-matrix.ts and the default roles of',
    'docs/permissions.md (run the test with `UPDATE_AUTHORIZATION_MATRIX=1` to rewrite it); the test sends every cell.',
    '',
    "Subjects: `anonymous` (no credentials), `apiKeyOnly` (X-Api-Key, no token), `tokenOnly` (the administrator's",
    'bearer token without X-Api-Key), a user holding each default role (member of the `STAFF` group), and',
    "`dealerSide`: a `DEALER_USER` in a portal visibility group holding one dealer. Requests name that dealer's",
    'records, so a dealer-side cell differs from `DEALER_USER` only on the rows of `DEALER_SIDE_OVERRIDES`',
    '(test/authorization-matrix.ts): rate books, which dealer-side users may not read whatever their roles.',
    '`2xx`: the valid request built for the operation succeeds.',
    ...(Object.keys(LOOSE_2XX).length > 0
      ? [
          '',
          ...Object.entries(LOOSE_2XX).map(([op, why]) => `¹ \`${op}\`: 2xx checked as "neither 401 nor 403": ${why}`),
        ]
      : []),
    '',
    `${operations.length} operations × ${SUBJECTS.length} subjects = ${operations.length * SUBJECTS.length} cells.`,
    '',
    header + rows.join('\n'),
    '',
  ].join('\n')
}
