// A realistic tenant for the security suites (cross-tenant, authorization matrix, audit atomicity),
// built through the API wherever the API can build it: the demo parties and rate book, a dealer of
// its own, a user, a portal visibility group, a custom field definition and custom fields, a
// disbursement account, an account-holder disbursement, a finalized contract (quote → contract →
// hold → resolve → finalize, with its journal entry and PDF) and a pending one with a hold and an
// uploaded file. `OPERATION_REQUESTS` builds, for every operation of the OpenAPI document, a valid
// request against a world: its path parameters, query and body (fresh resources where the
// operation consumes one, such as a DELETE).
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { KINDS } from '../src/modules/parties/index.ts'
import { demoRateBook, type RateQuote } from '../src/modules/rating/index.ts'
import { appendEvent } from '../src/platform/events/outbox.ts'
import { systemContext } from '../src/platform/http/context.ts'
import { createTenant, groupIdByCode, roleIdByCode, uniqueEmail, type TestApp, type TestTenant } from './harness.ts'

export type Headers = Record<string, string>

/** The clock of the security suites: the demo rate book is in force and quotes at this date. */
export const NOW = new Date('2026-11-21T18:00:00Z')
const SALE_DATE = '2026-11-21'
export const VIN = '1HGCV1F37LA012345'

export type World = {
  tag: string
  tenant: TestTenant
  admin: Headers
  dealerId: number
  dealerNumber: string
  /** A dealer only this tenant has (its number is unique across the test's tenants). */
  ownDealerId: number
  ownDealerNumber: string
  dealerGroupId: number
  agentId: number
  customerId: number
  insurerId: number
  lienHolderId: number
  repairFacilityId: number
  inspectionCompanyId: number
  claimPayeeId: number
  reinsuranceCompanyId: number
  adminCompanyId: number
  userId: number
  staffGroupId: number
  readOnlyRoleId: number
  portalGroup: { id: number; code: string }
  definitionId: number
  dealerFieldId: number
  agentFieldId: number
  dealerGroupFieldId: number
  disbursementAccountId: number
  disbursementId: number
  disbursementAuditLogId: number
  productId: number
  planId: number
  factorTableId: number
  /** A cancel method and a cancel reason of the book in force (rating catalogue ids). */
  cancelMethodId: number
  cancelReasonId: number
  /** A cancel request on the finalized contract, and a processed cancel of a contract of its own (docs/cancellations.md). */
  cancelRequest: { id: number; requestNumber: string; documentId: number }
  cancelId: number
  /** A finalized contract sold 2026-10-01, past its waiting period: claims are taken against it (docs/claims.md). */
  claimable: { id: number; contractNumber: string }
  /** A claim on `claimable`. */
  claimId: number
  /** A note and a document of that claim (docs/claims.md "Notes and documents"). */
  claimNoteId: number
  claimDocumentId: number
  /** An inspection reason and a reject-inspection reason (claim lookups), and a REQUESTED inspection of a claim of its own (docs/claims.md "Inspections"). */
  inspectionReasonId: number
  rejectInspectionReasonId: number
  claimInspection: { claimId: number; id: number }
  rateBookVersion: number
  quoteId: string
  finalized: { id: number; contractNumber: string; documentId: number; fileId: number }
  pending: { id: number; contractNumber: string; holdId: number; documentId: number; fileId: number }
}

type Json = Record<string, unknown>

export async function call(
  t: TestApp,
  headers: Headers,
  method: string,
  url: string,
  payload?: unknown,
  contentType?: string,
): Promise<LightMyRequestResponse> {
  const raw = typeof payload === 'string' || Buffer.isBuffer(payload)
  const type = contentType ?? (payload !== undefined && !raw ? 'application/json' : undefined)
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
    ...(payload === undefined ? {} : { payload: raw ? payload : JSON.stringify(payload) }),
  })
}

async function ok<T = Json>(
  t: TestApp,
  headers: Headers,
  method: string,
  url: string,
  payload?: unknown,
  contentType?: string,
): Promise<T> {
  const res = await call(t, headers, method, url, payload, contentType)
  assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
  return (res.body.length > 0 && /json/.test(String(res.headers['content-type'])) ? res.json() : {}) as T
}

let seq = 0
/** A short unique token for codes and names. */
export const uniq = () => `${(++seq).toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase()

/** The rate quote's reply, typed from its published schema. */
type QuoteReply = RateQuote

const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
}
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
/** The demo 2020 Honda Accord with serial number `serial`, its check digit computed (ISO 3779). */
export function accordVin(serial: number): string {
  const vin = `1HGCV1F3_LA${String(serial).padStart(6, '0')}`
  const sum = [...vin].reduce(
    (n, ch, i) => n + (ch === '_' ? 0 : /\d/.test(ch) ? Number(ch) : TRANSLITERATION[ch]!) * WEIGHTS[i]!,
    0,
  )
  const check = sum % 11
  return vin.replace('_', check === 10 ? 'X' : String(check))
}

let serial = 100_000 + Math.floor(Math.random() * 800_000)
/**
 * A deal of the demo VSC plan at dealer `dealerNumber`, from a fresh quote. Each deal is for a
 * vehicle of its own (a new serial number), so no two are duplicates of each other.
 */
export async function freshDeal(
  t: TestApp,
  w: World,
  dealerNumber = w.dealerNumber,
  saleDate = SALE_DATE,
  /** The vehicle's purchase price, quoted and sold (the claimable contract's limit of liability). */
  purchasePrice?: number,
): Promise<Json> {
  const vin = accordVin(serial++)
  const q = await ok<QuoteReply>(
    t,
    w.admin,
    'GET',
    `/api/Rates/rateQuote/${dealerNumber}?vin=${vin}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${saleDate}&productTypes=VSC${purchasePrice === undefined ? '' : `&vehiclePurchasePrice=${purchasePrice}`}`,
  )
  const plan = q.products
    .find((p) => p.productCode === 'VSC')!
    .programs.flatMap((g) => g.plans)
    .find((p) => p.planCode === 'PLAT-USED')!
  const rate = (plan.terms.find((x) => x.termMonths === 48) ?? plan.terms[0]!).deductibles[0]!.rate
  return {
    quoteId: q.quoteId,
    rateId: rate.rateId,
    retailPrice: rate.suggestedRetail,
    saleDate,
    saleOdometer: 42150,
    vehicle: { vin, condition: 'USED', ...(purchasePrice === undefined ? {} : { purchasePrice }) },
    customer: {
      firstName: 'Sam',
      lastName: `Buyer${w.tag}`,
      emailAddress: 'sam@example.com',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
    },
    coBuyer: { firstName: 'Alex', lastName: 'Buyer' },
    lienHolder: { name: `Lender ${w.tag}` },
    customFields: { financeManagerCode: 'FM7' },
  }
}

/** A new PENDING contract of the world's dealer (with a co-buyer). */
export async function freshContract(t: TestApp, w: World): Promise<{ id: number; contractNumber: string }> {
  return ok(t, w.admin, 'POST', '/api/contracts', await freshDeal(t, w))
}

export async function freshHold(t: TestApp, w: World, contractId: number): Promise<number> {
  return (
    await ok<{ holdId: number }>(t, w.admin, 'POST', `/api/contracts/${contractId}/holds`, {
      reasonCode: 'NEEDS_REVIEW',
      note: 'check',
    })
  ).holdId
}

export async function upload(
  t: TestApp,
  w: World,
  contractId: number,
): Promise<{ documentId: number; fileId: number }> {
  const doc = await ok<{ documentId: number; versions: Array<{ fileId: number }> }>(
    t,
    w.admin,
    'POST',
    `/api/contracts/${contractId}/files?fileName=note-${w.tag}.txt`,
    `signed copy ${w.tag}`,
    'text/plain',
  )
  return { documentId: doc.documentId, fileId: doc.versions.at(-1)!.fileId }
}

export async function freshAccountHolder(
  t: TestApp,
  w: World,
  path = '/api/insurers',
  codeKey = 'insurerCode',
): Promise<number> {
  return (
    await ok<{ id: number }>(t, w.admin, 'POST', path, {
      [codeKey]: `XT-${w.tag}-${uniq()}`,
      legalName: `Fresh ${w.tag} holder`,
    })
  ).id
}

export async function freshDealerField(t: TestApp, w: World): Promise<number> {
  return (
    await ok<{ id: number }>(t, w.admin, 'POST', `/api/dealers/${w.dealerId}/customfields`, {
      name: `xt ${uniq()}`,
      type: 'STRING',
      value: `v ${w.tag}`,
    })
  ).id
}

export async function buildWorld(t: TestApp, tag: string): Promise<World> {
  const tenant = await createTenant(t, `Security ${tag}`)
  const admin = tenant.headers
  const tenantId = tenant.tenantId
  // The demo parties and rating set-up (what seedDemoTenant does, for a tenant of the harness).
  await t.modules.parties.seedDemo(tenantId)
  const ctx = systemContext(tenantId, 'demo-seed')
  const { rows: dealers } = await t.modules.parties.accountHolders.list(
    ctx,
    KINDS.DEALER,
    {},
    { limit: 1000, offset: 0 },
  )
  await t.modules.rating.seedDemo(
    tenantId,
    dealers.map((d) => ({ id: d.id, dealerNumber: d.business_key!, agentIds: d.agent_ids.map(Number) })),
  )

  const dealer = (
    await ok<Array<{ id: number; dealerGroupId: number | null; agentIds: number[] }>>(
      t,
      admin,
      'GET',
      '/api/dealers?dealerNumber=10001',
    )
  )[0]!
  assert.ok(dealer.dealerGroupId && dealer.agentIds.length > 0, 'demo dealer 10001 has a group and an agent')
  const firstId = async (url: string) => (await ok<Array<{ id: number }>>(t, admin, 'GET', url))[0]!.id
  const ownDealerNumber = `XT-${tag}-${uniq()}`
  const ownDealerId = (
    await ok<{ id: number }>(t, admin, 'POST', '/api/dealers', {
      dealerNumber: ownDealerNumber,
      legalName: `Own dealer ${tag} LLC`,
      dealerGroupId: dealer.dealerGroupId,
    })
  ).id
  const facilities = await ok<Array<{ id: number }>>(
    t,
    admin,
    'GET',
    `/api/repairfacilities/repairfacilityofdealer/${dealer.id}`,
  )
  assert.ok(facilities.length > 0, 'dealer 10001 has a repair facility')

  const userId = (
    await ok<{ id: number }>(t, admin, 'POST', '/api/v1/adminusers', {
      emailAddress: uniqueEmail(`xt-${tag}`),
      firstName: 'Una',
      lastName: `User${tag}`,
      roles: [],
      groups: [{ id: await groupIdByCode(t, tenant, 'STAFF') }],
    })
  ).id
  const portalGroup = await ok<{ id: number; code: string }>(t, admin, 'POST', '/api/portalvisibilitygroups', {
    code: `PORTAL-${tag}-${uniq()}`,
    name: `Portal ${tag}`,
    dealerIds: [dealer.id],
  })
  const definitionId = (
    await ok<{ id: number }>(t, admin, 'POST', '/api/customfielddefinitions', {
      appliesTo: 'DEALER',
      name: `region ${tag}`,
      type: 'STRING',
      maxLength: 40,
    })
  ).id
  const field = async (path: string) =>
    (await ok<{ id: number }>(t, admin, 'POST', path, { name: `note ${tag}`, type: 'STRING', value: `value ${tag}` }))
      .id
  const disbursementAccountId = (
    await ok<{ id: number }>(t, admin, 'POST', '/api/disbursementaccounts', {
      accountHolderId: dealer.id,
      name: `Operating ${tag}`,
      paymentMethod: 'ACH',
      bankName: 'First National Bank',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountType: 'CHECKING',
      isDefault: true,
    })
  ).id
  const codes = await ok<Array<{ code: string }>>(t, admin, 'GET', '/api/Rates/Disbursements/DisbursementsCodes')
  const disbursement = await ok<{ id: number; auditLogId: number }>(
    t,
    admin,
    'POST',
    `/api/Rates/Disbursements/AccountHolder/${dealer.id}`,
    { code: codes[0]!.code, basis: 'AMOUNT', amount: 1, effectiveFrom: '2027-01-01' },
  )
  const products = await ok<Array<{ id: number; code: string; factorTableIds: number[] }>>(
    t,
    admin,
    'GET',
    '/api/Rates/Products',
  )
  const product = products.find((p) => p.factorTableIds.length > 0) ?? products[0]!
  const factorTableId = products.flatMap((p) => p.factorTableIds)[0]!
  const planId = await firstId(`/api/Rates/Plans/${product.id}`)
  const versions = await ok<Array<{ version: number }>>(t, admin, 'GET', '/api/Rates/ratebooks')
  const cancelMethodId = await firstId('/api/cancelmethods')
  const cancelReasonId = await firstId('/api/cancelreasons')

  const world: World = {
    tag,
    tenant,
    admin,
    dealerId: dealer.id,
    dealerNumber: '10001',
    ownDealerId,
    ownDealerNumber,
    dealerGroupId: dealer.dealerGroupId!,
    agentId: dealer.agentIds[0]!,
    customerId: 0,
    insurerId: await firstId('/api/insurers'),
    lienHolderId: await firstId('/api/lienHolders'),
    repairFacilityId: facilities[0]!.id,
    inspectionCompanyId: await firstId('/api/inspectioncompanies'),
    claimPayeeId: await firstId('/api/claimpayees'),
    reinsuranceCompanyId: await firstId('/api/reinsurancecompanies'),
    adminCompanyId: await firstId('/api/accountholders?kind=ADMIN_COMPANY'),
    userId,
    staffGroupId: await groupIdByCode(t, tenant, 'STAFF'),
    readOnlyRoleId: await roleIdByCode(t, tenant, 'READ_ONLY'),
    portalGroup,
    definitionId,
    dealerFieldId: await field(`/api/dealers/${dealer.id}/customfields`),
    agentFieldId: await field(`/api/agents/${dealer.agentIds[0]}/customfields`),
    dealerGroupFieldId: await field(`/api/dealergroups/${dealer.dealerGroupId}/customfields`),
    disbursementAccountId,
    disbursementId: disbursement.id,
    disbursementAuditLogId: disbursement.auditLogId,
    productId: product.id,
    planId,
    factorTableId,
    cancelMethodId,
    cancelReasonId,
    cancelRequest: { id: 0, requestNumber: '', documentId: 0 },
    cancelId: 0,
    claimable: { id: 0, contractNumber: '' },
    claimId: 0,
    claimNoteId: 0,
    claimDocumentId: 0,
    inspectionReasonId: await firstId('/api/inspectionreasons'),
    rejectInspectionReasonId: await firstId('/api/rejectinspectionreasons'),
    claimInspection: { claimId: 0, id: 0 },
    rateBookVersion: versions[0]!.version,
    quoteId: '',
    finalized: { id: 0, contractNumber: '', documentId: 0, fileId: 0 },
    pending: { id: 0, contractNumber: '', holdId: 0, documentId: 0, fileId: 0 },
  }

  // The contract flow: a finalized contract with its journal entry and PDF.
  const deal = await freshDeal(t, world)
  world.quoteId = String(deal.quoteId)
  const first = await ok<{
    id: number
    contractNumber: string
    customerId?: number
    customer?: { id?: number; accountHolderId?: number }
  }>(t, admin, 'POST', '/api/contracts', deal)
  const hold = await freshHold(t, world, first.id)
  await ok(t, admin, 'POST', `/api/contracts/${first.id}/holds/${hold}/resolves`, { note: 'done' })
  const posting = await ok<{ document: { documentId: number; fileId: number } }>(
    t,
    admin,
    'POST',
    `/api/contracts/${first.id}/finalize`,
    {},
  )
  world.finalized = {
    id: first.id,
    contractNumber: first.contractNumber,
    documentId: posting.document.documentId,
    fileId: posting.document.fileId,
  }
  // A pending contract with an open hold and an uploaded file.
  const second = await freshContract(t, world)
  const file = await upload(t, world, second.id)
  world.pending = {
    id: second.id,
    contractNumber: second.contractNumber,
    holdId: await freshHold(t, world, second.id),
    ...file,
  }
  const customers = await ok<Array<{ id: number }>>(t, admin, 'GET', `/api/customers?name=Buyer${tag}`)
  assert.ok(customers.length > 0, 'the contract created its customer')
  world.customerId = customers[0]!.id
  const request = await freshCancelRequest(t, world)
  const requestDocument = await ok<{ documentId: number }>(
    t,
    admin,
    'POST',
    `/api/cancelrequests/${request.id}/documents?fileName=odometer-${tag}.txt`,
    `odometer statement ${tag}`,
    'text/plain',
  )
  world.cancelRequest = { ...request, documentId: requestDocument.documentId }
  world.cancelId = await freshCancel(t, world)
  // Claims: a contract sold 51 days ago (inside the sale-date look-back) is past the demo plan's
  // waiting period of 30 days and 1,000 miles.
  const claimable = await ok<{ id: number; contractNumber: string }>(
    t,
    admin,
    'POST',
    '/api/contracts',
    await freshDeal(t, world, world.dealerNumber, CLAIM_SALE_DATE, 21500),
  )
  await ok(t, admin, 'POST', `/api/contracts/${claimable.id}/finalize`, {})
  world.claimable = { id: claimable.id, contractNumber: claimable.contractNumber }
  world.claimId = (await ok<{ id: number }>(t, admin, 'POST', '/api/claims', claimBody(world))).id
  world.claimNoteId = (
    await ok<{ id: number }>(t, admin, 'POST', `/api/claims/${world.claimId}/notes`, { text: `note ${tag}` })
  ).id
  world.claimDocumentId = (
    await ok<{ documentId: number }>(
      t,
      admin,
      'POST',
      `/api/claims/${world.claimId}/documents?fileName=invoice-${tag}.txt`,
      `invoice ${tag}`,
      'text/plain',
    )
  ).documentId
  world.claimInspection = await freshInspection(t, world)
  return world
}

const CLAIM_SALE_DATE = '2026-10-01'
/** A claim on the world's claimable contract: a loss on 2026-11-15 at its repair facility, one job. */
export function claimBody(w: World): Json {
  return {
    contractId: w.claimable.id,
    lossDate: '2026-11-15',
    odometer: 45000,
    repairFacilityId: w.repairFacilityId,
    repairOrderNumber: `RO-${w.tag}`,
    taxRate: 0.0825,
  }
}

/**
 * A new claim on the world's claimable contract, a one-day rental authorized (40.00) and its payment
 * requested (docs/claims.md "Payment requests and payments"): the claim's and the request's ids.
 */
export async function freshPaymentRequest(t: TestApp, w: World): Promise<{ claimId: number; id: number }> {
  const claimId = (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id
  await ok(
    t,
    w.admin,
    'PATCH',
    `/api/claims/${claimId}`,
    { status: 'AUTHORIZED', benefits: [{ type: 'RENTAL', status: 'AUTHORIZED', days: 1, dailyRate: 40 }] },
    'application/merge-patch+json',
  )
  const request = await ok<{ id: number }>(t, w.admin, 'POST', `/api/claims/${claimId}/paymentrequests`, {
    invoiceNumber: `INV-${w.tag}`,
    invoiceDate: '2026-11-15',
    invoicedTotal: 40,
  })
  return { claimId, id: request.id }
}

/** A new claim on the world's claimable contract with a REQUESTED inspection of the world's inspection company. */
export async function freshInspection(t: TestApp, w: World): Promise<{ claimId: number; id: number }> {
  const claimId = (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id
  const inspection = await ok<{ inspectionId: number }>(t, w.admin, 'POST', `/api/claims/${claimId}/inspections`, {
    inspectionCompanyId: w.inspectionCompanyId,
    reasonId: w.inspectionReasonId,
  })
  return { claimId, id: inspection.inspectionId }
}

/** The adjuster's PUT of a claim's inspection: completed with its results. */
export function inspectionCompletion(w: World): Json {
  return {
    inspectionCompanyId: w.inspectionCompanyId,
    reasonId: w.inspectionReasonId,
    note: null,
    status: 'COMPLETED',
    findings: `findings ${uniq()}`,
    inspectedOdometer: 45100,
    inspectedOn: '2026-11-20',
    completedAt: '2026-11-20T18:00:00.000Z',
  }
}

/** The body of a cancel on the sale date: inside the free-look, a full refund. */
const CANCEL_BODY = { cancelDate: SALE_DATE, cancelOdometer: 42150, cancelReasonCode: 'CUSTOMER_REQUEST' }

const STATEMENT_BODY = { from: '2026-11-01', to: SALE_DATE, format: 'CSV' }

/** A reinsurance treaty of a year of its own, so that fresh treaties never overlap (docs/reporting.md). */
let treatyYear = 2100
export async function freshReinsuranceTreaty(t: TestApp, w: World): Promise<{ id: number }> {
  const year = ++treatyYear
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/reinsurance/treaties', {
    reinsuranceCompanyId: w.reinsuranceCompanyId,
    name: `Treaty ${uniq()}`,
    dealerIds: [w.ownDealerId],
    productIds: [w.productId],
    effectiveFrom: `${year}-01-01`,
    effectiveTo: `${year}-12-31`,
  })
}

/**
 * January 2026 closed (booksClosedThrough; nothing posts that long ago) and a reinsurance company of
 * its own, so that each report run over it is a new one (docs/reporting.md "Report runs").
 */
export async function reportRunScope(t: TestApp, w: World): Promise<{ period: string; riskBearerId: number }> {
  await t.modules.settings.service.update(systemContext(w.tenant.tenantId, 'security-world'), 'booksClosedThrough', {
    value: '2026-01-31',
  })
  const company = await ok<{ id: number }>(t, w.admin, 'POST', '/api/reinsurancecompanies', {
    companyCode: `RR-${w.tag}-${uniq()}`,
    legalName: `Report run reinsurer ${w.tag}`,
  })
  return { period: '2026-01', riskBearerId: company.id }
}

/** A report run of its own (queued), and its company. */
export async function freshReportRun(t: TestApp, w: World): Promise<{ id: number; riskBearerId: number }> {
  const { period, riskBearerId } = await reportRunScope(t, w)
  const run = await ok<{ id: number }>(t, w.admin, 'POST', '/api/reports/runs', {
    kind: 'REINSURANCE_STATEMENT',
    period,
    riskBearerIds: [riskBearerId],
  })
  return { id: run.id, riskBearerId }
}

/** A sales tax rule of a city of its own, so that fresh rules never overlap (docs/sales-tax.md). */
export async function freshSalesTaxRule(t: TestApp, w: World): Promise<{ salesTaxRuleId: number }> {
  return ok<{ salesTaxRuleId: number }>(t, w.admin, 'POST', '/api/salestax/rules', {
    ...SALES_TAX_RULE_BODY,
    city: `City ${uniq()}`,
  })
}
const SALES_TAX_RULE_BODY = {
  state: 'TX',
  rate: 0.01,
  taxableBase: 'RETAIL_PRICE',
  collectedBy: 'DEALER',
  effectiveFrom: '2026-01-01',
}

/** A statement request of the world's dealer (made at once: the world has few lines). */
export async function freshStatementRequest(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', `/api/accountholders/${w.dealerId}/statementrequests`, STATEMENT_BODY)
}

/** A receipt of the world's dealer (docs/cash.md): a small amount, applied oldest first. */
const CASH_BODY = { paymentMethod: 'CHECK', amount: 1, reference: 'W-1', receivedDate: '2026-01-02' }

/** A new cash transaction of the world's dealer. */
export async function freshCash(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/cashtransactions', { ...CASH_BODY, payerId: w.dealerId })
}

/** A custom field (STRING) of a new cash transaction of the world's dealer. */
export async function freshCashField(t: TestApp, w: World): Promise<{ cashTransactionId: number; fieldId: number }> {
  const cashTransactionId = (await freshCash(t, w)).id
  const field = await ok<{ id: number }>(
    t,
    w.admin,
    'POST',
    `/api/cashtransactions/${cashTransactionId}/customfields`,
    {
      name: `xt ${uniq()}`,
      type: 'STRING',
      value: 'v',
    },
  )
  return { cashTransactionId, fieldId: field.id }
}

/** A transfer of a new finalized (ACTIVE) contract to a new owner, asked for today (docs/contracts.md "Transfers"). */
const TRANSFER_BODY = {
  newOwner: {
    firstName: 'Jordan',
    lastName: 'Reyes',
    address: { line1: '88 Elm St', city: 'Austin', state: 'TX', postalCode: '78701' },
  },
  transferDate: SALE_DATE,
}

/** A REQUESTED transfer of a new finalized contract. */
export async function freshTransferRequest(
  t: TestApp,
  w: World,
): Promise<{ contractId: number; transferRequestId: number }> {
  const c = await freshFinalized(t, w)
  const r = await ok<{ id: number }>(t, w.admin, 'POST', `/api/contracts/${c.id}/transferrequest`, TRANSFER_BODY)
  return { contractId: c.id, transferRequestId: r.id }
}

/** A new in-process (PENDING) receipt of the world's dealer. */
/** A payment-method record of the world's dealer (docs/payment-methods.md): CHECK, needs no account. */
export async function freshPaymentMethod(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/availablePaymentMethods', {
    accountHolderId: w.dealerId,
    direction: 'PAY',
    paymentMethod: 'CHECK',
  })
}

/** A payout run of the world (docs/payouts.md); whatever is due is paid, possibly nothing. */
export async function freshPayoutRun(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/payoutruns', {})
}

export async function freshInProcessCash(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/inprocesscashtransactions', { ...CASH_BODY, payerId: w.dealerId })
}

/**
 * An inactive webhook subscription of the world (docs/webhooks.md) to a public documentation address
 * (TEST-NET-3): inactive, so that a deliverer run by another test file on the same database never
 * tries to reach it.
 */
export async function freshWebhookSubscription(t: TestApp, w: World): Promise<{ id: number }> {
  return ok<{ id: number }>(t, w.admin, 'POST', '/api/webhooks/subscriptions', {
    url: 'https://203.0.113.10/hook',
    eventTypes: ['*'],
    active: false,
  })
}

/** A QUEUED automatic process run of the world (docs/processes.md). */
export async function freshProcessRun(t: TestApp, w: World): Promise<{ guid: string }> {
  return ok<{ guid: string }>(t, w.admin, 'POST', '/api/automatic-process-runs', { process: 'VOID', parameters: {} })
}

/** A FAILED delivery of an event of the world to a fresh subscription, arranged in the tables (no deliverer runs). */
export async function freshWebhookDelivery(t: TestApp, w: World): Promise<{ id: number }> {
  const subscriptionId = (await freshWebhookSubscription(t, w)).id
  const tenantId = w.tenant.tenantId
  return t.db.transaction(tenantId, async (tx) => {
    const at = t.clock.now()
    const eventId = await appendEvent(tx, tenantId, at, { type: 'world.tested', payload: { n: 1 } })
    return tx
      .insertInto('webhook_delivery')
      .values({
        tenant_id: tenantId,
        subscription_id: subscriptionId,
        event_id: eventId,
        event_type: 'world.tested',
        contract_id: null,
        status: 'FAILED',
        attempts: 1,
        last_error: 'receiver answered 500',
        last_response_code: 500,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  })
}

/** A new cancel request on the world's finalized contract. */
export async function freshCancelRequest(t: TestApp, w: World): Promise<{ id: number; requestNumber: string }> {
  return ok<{ id: number; requestNumber: string }>(
    t,
    w.admin,
    'POST',
    `/api/contracts/${w.finalized.id}/cancelrequests`,
    CANCEL_BODY,
  )
}

/** A new finalized contract, cancelled: the cancel's id. */
export async function freshCancel(t: TestApp, w: World): Promise<number> {
  const c = await freshFinalized(t, w)
  return (await ok<{ id: number }>(t, w.admin, 'POST', `/api/contracts/${c.id}/cancels`, CANCEL_BODY)).id
}

/**
 * A new claimable contract with a claim (a loss on 2026-11-15), then cancelled as of 2026-11-10 with
 * its open claim included: POST /api/contracts/denyClaims denies that claim (docs/claims.md "Denying
 * the claims of ended contracts"). The contract's id.
 */
export async function freshEndedContract(t: TestApp, w: World): Promise<number> {
  const c = await ok<{ id: number }>(
    t,
    w.admin,
    'POST',
    '/api/contracts',
    await freshDeal(t, w, w.dealerNumber, CLAIM_SALE_DATE),
  )
  await ok(t, w.admin, 'POST', `/api/contracts/${c.id}/finalize`, {})
  await ok(t, w.admin, 'POST', '/api/claims', { ...claimBody(w), contractId: c.id })
  await ok(t, w.admin, 'POST', `/api/contracts/${c.id}/cancels`, {
    cancelDate: '2026-11-10',
    cancelOdometer: 44000,
    cancelReasonCode: 'CUSTOMER_REQUEST',
    includeOpenClaims: true,
  })
  return c.id
}

/**
 * A finalized GAP contract due for cancellation today: a one-payment loan whose payment falls on the
 * sale date, so that the loan has matured before the GAP term ends (docs/cancellations.md "GAP").
 */
async function freshMaturedGap(t: TestApp, w: World): Promise<{ id: number; contractNumber: string }> {
  const vin = accordVin(serial++)
  const q = await ok<QuoteReply>(
    t,
    w.admin,
    'GET',
    `/api/Rates/rateQuote/${w.dealerNumber}?vin=${vin}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${SALE_DATE}&productTypes=GAP&vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=1&apr=6.99`,
  )
  const rate = q.products
    .find((p) => p.productCode === 'GAP')!
    .programs.flatMap((g) => g.plans)
    .find((p) => p.planCode === 'GAP-STD')!.terms[0]!.deductibles[0]!.rate
  const c = await ok<{ id: number; contractNumber: string }>(t, w.admin, 'POST', '/api/contracts', {
    quoteId: q.quoteId,
    rateId: rate.rateId,
    retailPrice: rate.suggestedRetail,
    saleDate: SALE_DATE,
    vehicle: { vin },
    customer: { firstName: 'Gale', lastName: `Gap${w.tag}` },
    finance: { firstPaymentDate: SALE_DATE },
    customFields: { lenderLoanNumber: `LN-${uniq()}` },
  })
  await ok(t, w.admin, 'POST', `/api/contracts/${c.id}/finalize`, {})
  return c
}

async function freshFinalized(t: TestApp, w: World): Promise<{ id: number; contractNumber: string }> {
  const c = await freshContract(t, w)
  await ok(t, w.admin, 'POST', `/api/contracts/${c.id}/finalize`, {})
  return c
}

/**
 * A finalized contract due to expire by mileage (docs/contracts.md "Automatic expiry and voiding"):
 * a claim refused past its expiration odometer reported the reading.
 */
async function freshDueToExpire(t: TestApp, w: World): Promise<{ id: number; contractNumber: string }> {
  const c = await freshFinalized(t, w)
  const res = await call(t, w.admin, 'POST', '/api/claims', {
    ...claimBody(w),
    contractId: c.id,
    lossDate: SALE_DATE,
    odometer: 2_000_000,
  })
  assert.equal(res.statusCode, 422, res.body)
  assert.match(res.body, /at_or_above_expiration_odometer/)
  return c
}

/** A PENDING contract written more than pendingContractVoidAfterDays (90) days ago: its creation moved back. */
async function freshVoidable(t: TestApp, w: World): Promise<{ id: number; contractNumber: string }> {
  const c = await freshContract(t, w)
  await t.db.transaction(w.tenant.tenantId, (tx) =>
    tx
      .updateTable('contract')
      .set({ created_at: new Date(NOW.getTime() - 91 * 86_400_000) })
      .where('tenant_id', '=', w.tenant.tenantId)
      .where('id', '=', c.id)
      .execute(),
  )
  return c
}

/** A request of one operation: its path parameters, and optionally a query string, body and content type. */
export type OperationRequest = {
  params: Record<string, string | number>
  query?: string
  payload?: unknown
  contentType?: string
}

type Builder = (t: TestApp, w: World) => Promise<OperationRequest> | OperationRequest

export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    assert.ok(params[name] !== undefined, `no value for {${name}} in ${path}`)
    return encodeURIComponent(String(params[name]))
  })
}

const MERGE = 'application/merge-patch+json'
const SCIM = 'application/scim+json'
const none = (): OperationRequest => ({ params: {} })
const accountHolderRoutes = (
  path: string,
  param: string,
  id: (w: World) => number,
  codeKey: string | null,
): Record<string, Builder> => ({
  [`GET ${path}`]: none,
  ...(codeKey
    ? {
        [`POST ${path}`]: (_t, w) => ({
          params: {},
          payload: { [codeKey]: `XT-${w.tag}-${uniq()}`, legalName: `New ${w.tag} ${codeKey}` },
        }),
      }
    : {}),
  [`GET ${path}/{${param}}`]: (_t, w) => ({ params: { [param]: id(w) } }),
  [`PATCH ${path}/{${param}}`]: (_t, w) => ({
    params: { [param]: id(w) },
    payload: { displayName: `Renamed ${w.tag} ${uniq()}` },
    contentType: MERGE,
  }),
})
const customFieldRoutes = (
  path: string,
  param: string,
  id: (w: World) => number,
  fieldId: (w: World) => number,
): Record<string, Builder> => ({
  [`GET ${path}/{${param}}/customfields`]: (_t, w) => ({ params: { [param]: id(w) } }),
  [`POST ${path}/{${param}}/customfields`]: (_t, w) => ({
    params: { [param]: id(w) },
    payload: { name: `xt ${uniq()}`, type: 'STRING', value: 'v' },
  }),
  [`GET ${path}/{${param}}/customfields/{fieldId}`]: (_t, w) => ({ params: { [param]: id(w), fieldId: fieldId(w) } }),
  [`PATCH ${path}/{${param}}/customfields/{fieldId}`]: (_t, w) => ({
    params: { [param]: id(w), fieldId: fieldId(w) },
    payload: { value: `changed ${uniq()}` },
    contentType: MERGE,
  }),
  [`DELETE ${path}/{${param}}/customfields/{fieldId}`]: async (t, w) => {
    const fresh = (
      await ok<{ id: number }>(t, w.admin, 'POST', `${path}/${id(w)}/customfields`, {
        name: `xt ${uniq()}`,
        type: 'STRING',
        value: 'v',
      })
    ).id
    return { params: { [param]: id(w), fieldId: fresh } }
  },
})
const catalogue = (name: string) => ({ [`GET /api/Rates/${name}`]: none })

/**
 * A valid request for every operation of the OpenAPI document, keyed "METHOD path". Operations that
 * consume what they act on (DELETE, finalize, resolve, lock) get a fresh resource each time.
 */
export const OPERATION_REQUESTS: Record<string, Builder> = {
  'GET /health/live': none,
  'GET /health/ready': none,
  'POST /api/auth/token': (_t, w) => ({
    params: {},
    payload: { grant_type: 'password', username: w.tenant.adminEmail, password: w.tenant.adminPassword },
  }),

  // Users v1 and SCIM.
  'GET /api/v1/adminusers': none,
  'POST /api/v1/adminusers': (_t, w) => ({
    params: {},
    payload: { emailAddress: uniqueEmail(`new-${w.tag}`), roles: [], groups: [{ id: w.staffGroupId }] },
  }),
  'GET /api/v1/adminusers/{userId}': (_t, w) => ({ params: { userId: w.userId } }),
  'PUT /api/v1/adminusers/{userId}': async (t, w) => {
    const { id: _id, ...current } = await ok<Json>(t, w.admin, 'GET', `/api/v1/adminusers/${w.userId}`)
    return { params: { userId: w.userId }, payload: { ...current, firstName: `Una${uniq()}` } }
  },
  'GET /api/v2/Users': none,
  'POST /api/v2/Users': (_t, w) => ({
    params: {},
    payload: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: uniqueEmail(`scim-${w.tag}`) },
    contentType: SCIM,
  }),
  'GET /api/v2/Users/{id}': (_t, w) => ({ params: { id: w.userId } }),
  'PUT /api/v2/Users/{id}': async (t, w) => {
    const current = await ok<{ emailAddress: string }>(t, w.admin, 'GET', `/api/v1/adminusers/${w.userId}`)
    return {
      params: { id: w.userId },
      payload: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: current.emailAddress,
        name: { givenName: `Una${uniq()}`, familyName: `User${w.tag}` },
      },
      contentType: SCIM,
    }
  },
  'PATCH /api/v2/Users/{id}': (_t, w) => ({
    params: { id: w.userId },
    payload: {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'name.givenName', value: `Una${uniq()}` }],
    },
    contentType: SCIM,
  }),
  'GET /api/v2/ServiceProviderConfig': none,
  'GET /api/v2/Schemas': none,
  'GET /api/v2/Schemas/{id}': () => ({ params: { id: 'urn:ietf:params:scim:schemas:core:2.0:User' } }),
  'GET /api/v2/ResourceTypes': none,
  'GET /api/v2/ResourceTypes/{id}': () => ({ params: { id: 'User' } }),

  // Membership and portal visibility groups.
  'GET /api/MembershipRoles': none,
  'GET /api/MembershipGroups': none,
  'GET /api/MembershipRoles/{membershipRoleId}': (_t, w) => ({ params: { membershipRoleId: w.readOnlyRoleId } }),
  'GET /api/MembershipRoles/Search/{id}': (_t, w) => ({ params: { id: w.userId } }),
  'GET /api/MembershipGroups/{membershipGroupId}': (_t, w) => ({ params: { membershipGroupId: w.portalGroup.id } }),
  'GET /api/MembershipGroups/Search/{id}': (_t, w) => ({ params: { id: w.userId } }),
  'GET /api/portalvisibilitygroups': none,
  'POST /api/portalvisibilitygroups': (_t, w) => ({
    params: {},
    payload: { code: `P-${w.tag}-${uniq()}`, name: 'New portal', dealerIds: [w.dealerId] },
  }),
  'PATCH /api/portalvisibilitygroups': (_t, w) => ({
    params: {},
    payload: [{ id: w.portalGroup.id, description: `changed ${uniq()}` }],
  }),
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}': (_t, w) => ({
    params: { portalVisibilityGroupId: w.portalGroup.id },
  }),
  'DELETE /api/portalvisibilitygroups/{portalVisibilityGroupId}': async (t, w) => {
    const fresh = await ok<{ id: number }>(t, w.admin, 'POST', '/api/portalvisibilitygroups', {
      code: `D-${w.tag}-${uniq()}`,
      name: 'To delete',
      dealerIds: [w.dealerId],
    })
    return { params: { portalVisibilityGroupId: fresh.id } }
  },
  'GET /api/portalvisibilitygroups/{portalVisibilityGroupId}/dealers': (_t, w) => ({
    params: { portalVisibilityGroupId: w.portalGroup.id },
  }),
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}': (_t, w) => ({
    params: { portalVisibilityGroupCode: w.portalGroup.code },
  }),
  'GET /api/portalvisibilitygroups/code/{portalVisibilityGroupCode}/dealers': (_t, w) => ({
    params: { portalVisibilityGroupCode: w.portalGroup.code },
  }),

  // Settings (ids name the global setting definitions; the values are the tenant's).
  'GET /api/generalsettings': none,
  'GET /api/generalsettings/settinggroups': none,
  'GET /api/generalsettings/settingtypes': none,
  'GET /api/generalsettings/{generalSettingId}': () => ({ params: { generalSettingId: 6 } }),
  'PUT /api/generalsettings/{generalSettingId}': () => ({ params: { generalSettingId: 6 }, payload: { value: 31 } }),
  'DELETE /api/generalsettings/{generalSettingId}': () => ({ params: { generalSettingId: 6 } }),

  // Account holders.
  ...accountHolderRoutes('/api/dealers', 'dealerId', (w) => w.dealerId, null),
  'POST /api/dealers': (_t, w) => ({
    params: {},
    payload: { dealerNumber: `XT-${w.tag}-${uniq()}`, legalName: `New dealer ${w.tag}` },
  }),
  ...accountHolderRoutes('/api/dealergroups', 'dealerGroupId', (w) => w.dealerGroupId, 'groupCode'),
  ...accountHolderRoutes('/api/agents', 'agentId', (w) => w.agentId, 'agentCode'),
  ...accountHolderRoutes('/api/customers', 'customerId', (w) => w.customerId, null),
  ...accountHolderRoutes('/api/insurers', 'insurerId', (w) => w.insurerId, 'insurerCode'),
  ...accountHolderRoutes('/api/lienHolders', 'lienHolderId', (w) => w.lienHolderId, 'lienHolderCode'),
  ...accountHolderRoutes('/api/repairfacilities', 'repairFacilityId', (w) => w.repairFacilityId, 'facilityCode'),
  ...accountHolderRoutes(
    '/api/inspectioncompanies',
    'inspectionCompanyId',
    (w) => w.inspectionCompanyId,
    'companyCode',
  ),
  ...accountHolderRoutes('/api/claimpayees', 'claimPayeeId', (w) => w.claimPayeeId, 'payeeCode'),
  ...accountHolderRoutes(
    '/api/reinsurancecompanies',
    'reinsuranceCompanyId',
    (w) => w.reinsuranceCompanyId,
    'companyCode',
  ),
  'GET /api/accountholders': none,
  'GET /api/admincompanies/{adminCompanyId}': (_t, w) => ({ params: { adminCompanyId: w.adminCompanyId } }),
  'GET /api/v2/lienHolders': none,
  'GET /api/repairfacilities/{repairFacilityId}/dealers': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
  }),
  'PATCH /api/repairfacilities/{repairFacilityId}/dealers': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
    payload: { add: [w.dealerId] },
  }),
  'DELETE /api/repairfacilities/{repairFacilityId}/dealers': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
    query: `ids=${w.ownDealerId}`,
  }),
  'GET /api/repairfacilities/{repairFacilityId}/dealergroups': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
  }),
  'PATCH /api/repairfacilities/{repairFacilityId}/dealergroups': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
    payload: { add: [w.dealerGroupId] },
  }),
  'DELETE /api/repairfacilities/{repairFacilityId}/dealergroups': (_t, w) => ({
    params: { repairFacilityId: w.repairFacilityId },
    query: `ids=${w.insurerId}`,
  }),
  'GET /api/repairfacilities/repairfacilityofdealer/{dealerId}': (_t, w) => ({ params: { dealerId: w.dealerId } }),
  'POST /api/accountholders/autoexpirerequests': async (t, w) => ({
    params: {},
    payload: { accountHolderIds: [await freshAccountHolder(t, w)] },
  }),
  'GET /api/disbursementaccounts': none,
  'POST /api/disbursementaccounts': (_t, w) => ({
    params: {},
    payload: { accountHolderId: w.dealerId, name: `Check ${uniq()}`, paymentMethod: 'CHECK' },
  }),
  'GET /api/disbursementaccounts/{disbursementAccountId}': (_t, w) => ({
    params: { disbursementAccountId: w.disbursementAccountId },
  }),
  'PATCH /api/disbursementaccounts/{disbursementAccountId}': (_t, w) => ({
    params: { disbursementAccountId: w.disbursementAccountId },
    payload: { name: `Operating ${uniq()}` },
    contentType: MERGE,
  }),
  ...customFieldRoutes(
    '/api/agents',
    'agentId',
    (w) => w.agentId,
    (w) => w.agentFieldId,
  ),
  ...customFieldRoutes(
    '/api/dealergroups',
    'dealerGroupId',
    (w) => w.dealerGroupId,
    (w) => w.dealerGroupFieldId,
  ),
  ...customFieldRoutes(
    '/api/dealers',
    'dealerId',
    (w) => w.dealerId,
    (w) => w.dealerFieldId,
  ),
  'GET /api/customfielddefinitions': none,
  'POST /api/customfielddefinitions': () => ({
    params: {},
    payload: { appliesTo: 'AGENT', name: `def ${uniq()}`, type: 'STRING' },
  }),
  'GET /api/customfielddefinitions/{definitionId}': (_t, w) => ({ params: { definitionId: w.definitionId } }),
  'PATCH /api/customfielddefinitions/{definitionId}': (_t, w) => ({
    params: { definitionId: w.definitionId },
    payload: { label: `Region ${uniq()}` },
    contentType: MERGE,
  }),
  'DELETE /api/customfielddefinitions/{definitionId}': async (t, w) => {
    const fresh = await ok<{ id: number }>(t, w.admin, 'POST', '/api/customfielddefinitions', {
      appliesTo: 'AGENT',
      name: `gone ${uniq()}`,
      type: 'STRING',
    })
    return { params: { definitionId: fresh.id } }
  },

  // Rating.
  'POST /api/Rates/criteria/evaluate': () => ({
    params: {},
    payload: { criteria: 'odometer < 100000', facts: { odometer: 42150 } },
  }),
  'POST /api/Rates/ratebooks': () => ({ params: {}, query: 'dryRun=true', payload: demoRateBook('2026-01-01') }),
  'GET /api/Rates/ratebooks': none,
  'GET /api/Rates/ratebooks/{version}': (_t, w) => ({ params: { version: w.rateBookVersion } }),
  'GET /api/Rates/ratebooks/{version}/document': (_t, w) => ({ params: { version: w.rateBookVersion } }),
  'GET /api/Rates/Disbursements/DisbursementsCodes': none,
  'GET /api/Rates/Disbursements/DisbursementsLabels': none,
  'GET /api/Rates/Disbursements/DisbursementsGroups': none,
  'GET /api/Rates/Disbursements/AuditLog/{auditLogId}': (_t, w) => ({
    params: { auditLogId: w.disbursementAuditLogId },
  }),
  'GET /api/Rates/Disbursements/AccountHolder/{accountHolderId}': (_t, w) => ({
    params: { accountHolderId: w.dealerId },
  }),
  'POST /api/Rates/Disbursements/AccountHolder/{accountHolderId}': async (t, w) => {
    const codes = await ok<Array<{ code: string }>>(t, w.admin, 'GET', '/api/Rates/Disbursements/DisbursementsCodes')
    return {
      params: { accountHolderId: w.dealerId },
      payload: { code: codes[0]!.code, basis: 'AMOUNT', amount: 2, effectiveFrom: '2027-02-01' },
    }
  },
  'GET /api/Rates/Disbursements/{disbursementId}': (_t, w) => ({ params: { disbursementId: w.disbursementId } }),
  'PATCH /api/Rates/Disbursements/{disbursementId}': (_t, w) => ({
    params: { disbursementId: w.disbursementId },
    payload: { amount: 1 + (seq++ % 50) },
    contentType: MERGE,
  }),
  'GET /api/dealers/ratevisibilities': none,
  'GET /api/dealers/{dealerId}/ratevisibilities': (_t, w) => ({ params: { dealerId: w.dealerId } }),
  'PUT /api/dealers/{dealerId}/ratevisibilities': async (t, w) => {
    const current = await ok<Array<Record<string, unknown>>>(
      t,
      w.admin,
      'GET',
      `/api/dealers/${w.dealerId}/ratevisibilities`,
    )
    const body = current.map((e) =>
      Object.fromEntries(
        Object.entries(e).filter(([k]) =>
          ['productId', 'programId', 'planId', 'effectiveFrom', 'effectiveTo'].includes(k),
        ),
      ),
    )
    return { params: { dealerId: w.dealerId }, payload: body }
  },
  'GET /api/Rates/rateQuote/{dealerNumber}': (_t, w) => ({
    params: { dealerNumber: w.dealerNumber },
    query: `vin=${VIN}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${SALE_DATE}&productTypes=VSC`,
  }),
  'GET /api/Rates/quotes/{quoteId}': (_t, w) => ({ params: { quoteId: w.quoteId } }),
  ...catalogue('AssetTypes'),
  ...catalogue('Products'),
  ...catalogue('Programs'),
  'GET /api/Rates/Plans/{productId}': (_t, w) => ({ params: { productId: w.productId } }),
  'GET /api/Rates/Products/{productId}/customfields': (_t, w) => ({
    params: { productId: w.productId },
    query: `planId=${w.planId}`,
  }),
  'GET /api/Rates/Terms/Plan/{planId}': (_t, w) => ({ params: { planId: w.planId } }),
  'GET /api/Rates/DeductiblesByProduct/{productId}': (_t, w) => ({ params: { productId: w.productId } }),
  'GET /api/Rates/VehicleMakes': none,
  'GET /api/Rates/VehicleModels': () => ({ params: {}, query: 'make=Honda' }),
  'GET /api/Rates/VehicleSeries': () => ({ params: {}, query: 'make=Honda&model=Accord' }),
  'GET /api/Rates/VehicleTrims': () => ({ params: {}, query: 'make=Honda&model=Accord' }),
  'GET /api/Rates/VehicleBodyStyles': () => ({ params: {}, query: 'make=Honda&model=Accord' }),
  'GET /api/Rates/VehicleSegmentations': () => ({ params: {}, query: 'make=Honda&model=Accord' }),
  'GET /api/factorTables/{factorTableId}': (_t, w) => ({ params: { factorTableId: w.factorTableId } }),
  'GET /api/cancelmethods': none,
  'GET /api/cancelmethods/{cancelMethodId}': (_t, w) => ({ params: { cancelMethodId: w.cancelMethodId } }),
  'GET /api/v2/cancelmethods': none,
  'GET /api/v2/cancelmethods/{identifier}': (_t, w) => ({ params: { identifier: w.cancelMethodId } }),
  'GET /api/cancelreasons': none,
  'GET /api/cancelreasons/{cancelReasonId}': (_t, w) => ({ params: { cancelReasonId: w.cancelReasonId } }),
  'GET /api/v2/cancelreasons': none,
  'GET /api/v2/cancelreasons/{identifier}': (_t, w) => ({ params: { identifier: w.cancelReasonId } }),

  // Documents and contracts.
  'GET /api/documents/{documentId}': (_t, w) => ({ params: { documentId: w.pending.documentId } }),
  'GET /api/files/{fileId}': (_t, w) => ({ params: { fileId: w.pending.fileId } }),
  'POST /api/contracts': async (t, w) => ({ params: {}, payload: await freshDeal(t, w) }),
  'GET /api/contracts': none,
  'POST /api/contracts/draftdocument': async (t, w) => ({ params: {}, payload: await freshDeal(t, w) }),
  'GET /api/v2/contracts': none,
  'GET /api/v2/contracts/{identifier}': (_t, w) => ({ params: { identifier: w.finalized.contractNumber } }),
  'GET /api/contracts/holdreasons': none,
  'GET /api/contracts/{contractId}': (_t, w) => ({ params: { contractId: w.pending.id } }),
  'PATCH /api/contracts/{contractId}': (_t, w) => ({
    params: { contractId: w.pending.id },
    payload: { saleOdometer: 42150 },
    contentType: MERGE,
  }),
  'POST /api/contracts/{contractId}/finalize': async (t, w) => ({
    params: { contractId: (await freshContract(t, w)).id },
    payload: {},
  }),
  'POST /api/contracts/{contractId}/refinalize': (_t, w) => ({ params: { contractId: w.finalized.id }, payload: {} }),
  'GET /api/contracts/{contractId}/holds': (_t, w) => ({ params: { contractId: w.pending.id } }),
  'POST /api/contracts/{contractId}/holds': (_t, w) => ({
    params: { contractId: w.pending.id },
    payload: { reasonCode: 'MISSING_DOCUMENTS' },
  }),
  'GET /api/contracts/{contractId}/holds/{holdId}/resolves': (_t, w) => ({
    params: { contractId: w.pending.id, holdId: w.pending.holdId },
  }),
  'POST /api/contracts/{contractId}/holds/{holdId}/resolves': async (t, w) => ({
    params: { contractId: w.pending.id, holdId: await freshHold(t, w, w.pending.id) },
    payload: { note: 'ok' },
  }),
  'GET /api/contracts/{contractId}/lock': (_t, w) => ({ params: { contractId: w.pending.id } }),
  'POST /api/contracts/{contractId}/lock': async (t, w) => ({
    params: { contractId: (await freshContract(t, w)).id },
    payload: {},
  }),
  'DELETE /api/contracts/{contractId}/lock': async (t, w) => {
    const c = await freshContract(t, w)
    return { params: { contractId: c.id } }
  },
  'POST /api/contracts/{contractId}/cobuyer': (_t, w) => ({
    params: { contractId: w.pending.id },
    payload: { firstName: 'Alex', lastName: `Co${uniq()}` },
  }),
  'DELETE /api/contracts/{contractId}/cobuyer': async (t, w) => ({
    params: { contractId: (await freshContract(t, w)).id },
  }),
  'GET /api/contracts/{contractId}/documents': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'POST /api/contracts/{contractId}/documents': (_t, w) => ({ params: { contractId: w.pending.id }, payload: {} }),
  'GET /api/contracts/{contractId}/coveragegroups': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/contracts/{contractId}/coveragecomponents': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/contracts/{contractId}/ppmservices': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/contracts/{contractId}/statushistory': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  // Transfers (docs/contracts.md "Transfers"): each write on a new finalized contract of its own.
  'POST /api/contracts/{contractId}/transferrequest': async (t, w) => ({
    params: { contractId: (await freshFinalized(t, w)).id },
    payload: TRANSFER_BODY,
  }),
  'GET /api/contracts/{contractId}/transferrequests': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/contracts/{contractId}/transferrequests/{transferRequestId}': async (t, w) => ({
    params: await freshTransferRequest(t, w),
  }),
  'PATCH /api/contracts/{contractId}/transferrequests/{transferRequestId}': async (t, w) => ({
    params: await freshTransferRequest(t, w),
    payload: { status: 'APPROVED' },
    contentType: MERGE,
  }),
  // Rerates (docs/contracts.md "Rerating"): a new finalized contract's odometer corrected into the next band.
  'POST /api/contracts/{contractId}/rerateRequests': async (t, w) => ({
    params: { contractId: (await freshFinalized(t, w)).id },
    payload: { saleOdometer: 52150, reason: 'Odometer misread at the sale' },
  }),
  'GET /api/contracts/{contractId}/rerateRequests': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/contracts/{contractId}/journalentries': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  // Statements (docs/statements.md): of the world's dealer; the read of a request made for it.
  'POST /api/accountholders/{accountHolderId}/statementrequests': (_t, w) => ({
    params: { accountHolderId: w.dealerId },
    payload: STATEMENT_BODY,
  }),
  'GET /api/accountholders/{accountHolderId}/statementrequests/{statementRequestId}': async (t, w) => ({
    params: { accountHolderId: w.dealerId, statementRequestId: (await freshStatementRequest(t, w)).id },
  }),
  // Payment methods (docs/payment-methods.md): records of the world's dealer.
  'GET /api/availablePaymentMethods': none,
  'POST /api/availablePaymentMethods': (_t, w) => ({
    params: {},
    payload: { accountHolderId: w.dealerId, direction: 'RECEIVE', paymentMethod: 'CHECK' },
  }),
  'DELETE /api/availablePaymentMethods/{availablePaymentMethodId}': async (t, w) => ({
    params: { availablePaymentMethodId: (await freshPaymentMethod(t, w)).id },
  }),
  'POST /api/availablePaymentMethods/paymentMethod': (_t, w) => ({
    params: {},
    payload: { accountHolderId: w.dealerId, direction: 'PAY' },
  }),
  // Ledger views (docs/ledgers.md): read only, over the world's dealer.
  'GET /api/ledgers': (_t, w) => ({ params: {}, query: `accountHolderId=${w.dealerId}` }),
  'GET /api/ledgers/payReceiveLedgers': none,
  'GET /api/ledgers/unpaidLedgersProducts': none,
  'GET /api/ledgerSummary': none,
  // Cash (docs/cash.md): receipts of the world's dealer; in-process rows of their own.
  'GET /api/inprocesscashtransactions': none,
  'POST /api/inprocesscashtransactions': (_t, w) => ({ params: {}, payload: { ...CASH_BODY, payerId: w.dealerId } }),
  'GET /api/inprocesscashtransactions/{inProcessCashTransactionId}': async (t, w) => ({
    params: { inProcessCashTransactionId: (await freshInProcessCash(t, w)).id },
  }),
  'DELETE /api/inprocesscashtransactions/{inProcessCashTransactionId}': async (t, w) => ({
    params: { inProcessCashTransactionId: (await freshInProcessCash(t, w)).id },
  }),
  'POST /api/inprocesscashtransactions/{inProcessCashTransactionId}/processrequests': async (t, w) => ({
    params: { inProcessCashTransactionId: (await freshInProcessCash(t, w)).id },
    payload: {},
  }),
  'GET /api/cashtransactions': none,
  'GET /api/v2/cashtransactions': none,
  'POST /api/cashtransactions': (_t, w) => ({ params: {}, payload: { ...CASH_BODY, payerId: w.dealerId } }),
  'GET /api/cashtransactions/{cashTransactionId}': async (t, w) => ({
    params: { cashTransactionId: (await freshCash(t, w)).id },
  }),
  'PATCH /api/cashtransactions/{cashTransactionId}': async (t, w) => ({
    params: { cashTransactionId: (await freshCash(t, w)).id },
    payload: { memo: 'checked' },
    contentType: MERGE,
  }),
  // Custom fields of cash transactions (docs/cash.md "Custom fields"): a fresh receipt and field each.
  'GET /api/cashtransactions/{cashTransactionId}/customfields': async (t, w) => ({
    params: { cashTransactionId: (await freshCash(t, w)).id },
  }),
  'POST /api/cashtransactions/{cashTransactionId}/customfields': async (t, w) => ({
    params: { cashTransactionId: (await freshCash(t, w)).id },
    payload: { name: `xt ${uniq()}`, type: 'STRING', value: 'v' },
  }),
  'GET /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': async (t, w) => ({
    params: await freshCashField(t, w),
  }),
  'PATCH /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': async (t, w) => ({
    params: await freshCashField(t, w),
    payload: { value: `changed ${uniq()}` },
    contentType: MERGE,
  }),
  'DELETE /api/cashtransactions/{cashTransactionId}/customfields/{fieldId}': async (t, w) => ({
    params: await freshCashField(t, w),
  }),
  // Payout runs (docs/payouts.md): a run with nothing due still writes its row.
  'POST /api/payoutruns': () => ({ params: {}, payload: {} }),
  'GET /api/payoutruns': none,
  'GET /api/payoutruns/{payoutRunId}': async (t, w) => ({ params: { payoutRunId: (await freshPayoutRun(t, w)).id } }),
  // Webhooks (docs/webhooks.md): subscriptions of their own; a FAILED delivery arranged in the tables.
  'GET /api/webhooks/subscriptions': none,
  'POST /api/webhooks/subscriptions': () => ({
    params: {},
    payload: { url: 'https://203.0.113.10/hook', eventTypes: ['contract.finalized'], active: false },
  }),
  'GET /api/webhooks/subscriptions/{subscriptionId}': async (t, w) => ({
    params: { subscriptionId: (await freshWebhookSubscription(t, w)).id },
  }),
  'PATCH /api/webhooks/subscriptions/{subscriptionId}': async (t, w) => ({
    params: { subscriptionId: (await freshWebhookSubscription(t, w)).id },
    payload: { description: 'checked' },
    contentType: MERGE,
  }),
  'DELETE /api/webhooks/subscriptions/{subscriptionId}': async (t, w) => ({
    params: { subscriptionId: (await freshWebhookSubscription(t, w)).id },
  }),
  'POST /api/webhooks/subscriptions/{subscriptionId}/secret': async (t, w) => ({
    params: { subscriptionId: (await freshWebhookSubscription(t, w)).id },
    payload: {},
  }),
  'GET /api/webhooks/deliveries': none,
  'GET /api/webhooks/deliveries/{deliveryId}': async (t, w) => ({
    params: { deliveryId: (await freshWebhookDelivery(t, w)).id },
  }),
  'POST /api/webhooks/deliveries/{deliveryId}/redeliveries': async (t, w) => ({
    params: { deliveryId: (await freshWebhookDelivery(t, w)).id },
    payload: {},
  }),
  // Automatic processes (docs/processes.md): a fresh VOID run of their own, QUEUED (no runner works it here).
  'GET /api/automatic-process-runs': none,
  'POST /api/automatic-process-runs': () => ({ params: {}, payload: { process: 'VOID', parameters: {} } }),
  'GET /api/automatic-process-runs/{guid}': async (t, w) => ({ params: { guid: (await freshProcessRun(t, w)).guid } }),
  'PATCH /api/automatic-process-runs/{guid}': async (t, w) => ({
    params: { guid: (await freshProcessRun(t, w)).guid },
    payload: { status: 'CANCELLED' },
  }),
  // Sales tax (docs/sales-tax.md): rules of a city of their own; a calculation; a contract's recalculation.
  // Reinsurance treaties and insurer bordereaux (docs/reporting.md).
  'GET /api/reinsurance/treaties': none,
  'POST /api/reinsurance/treaties': (_t, w) => {
    const year = ++treatyYear
    return {
      params: {},
      payload: {
        reinsuranceCompanyId: w.reinsuranceCompanyId,
        name: `Treaty ${uniq()}`,
        dealerIds: [w.ownDealerId],
        productIds: [w.productId],
        effectiveFrom: `${year}-01-01`,
        effectiveTo: `${year}-12-31`,
      },
    }
  },
  'GET /api/reinsurance/treaties/{treatyId}': async (t, w) => ({
    params: { treatyId: (await freshReinsuranceTreaty(t, w)).id },
  }),
  'PATCH /api/reinsurance/treaties/{treatyId}': async (t, w) => ({
    params: { treatyId: (await freshReinsuranceTreaty(t, w)).id },
    payload: { cedingFeeBps: 250 },
    contentType: MERGE,
  }),
  'DELETE /api/reinsurance/treaties/{treatyId}': async (t, w) => ({
    params: { treatyId: (await freshReinsuranceTreaty(t, w)).id },
  }),
  'GET /api/reports/insurers/{insurerId}/bordereaux/premium': (_t, w) => ({
    params: { insurerId: w.insurerId },
    query: 'month=2026-11',
  }),
  'GET /api/reports/insurers/{insurerId}/bordereaux/claims': (_t, w) => ({
    params: { insurerId: w.insurerId },
    query: 'month=2026-11',
  }),
  'GET /api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement': (_t, w) => ({
    params: { reinsuranceCompanyId: w.reinsuranceCompanyId },
    query: 'month=2026-11',
  }),
  'GET /api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement/lines': (_t, w) => ({
    params: { reinsuranceCompanyId: w.reinsuranceCompanyId },
    query: 'month=2026-11&figure=writtenPremium',
  }),
  'GET /api/reports/lossratios': () => ({ params: {}, query: 'groupBy=dealer,vintage' }),
  'POST /api/reports/runs': async (t, w) => {
    const { period, riskBearerId } = await reportRunScope(t, w)
    return { params: {}, payload: { kind: 'REINSURANCE_STATEMENT', period, riskBearerIds: [riskBearerId] } }
  },
  'GET /api/reports/runs': () => ({ params: {}, query: 'kind=REINSURANCE_STATEMENT&status=QUEUED' }),
  'GET /api/reports/runs/{reportRunId}': async (t, w) => ({ params: { reportRunId: (await freshReportRun(t, w)).id } }),
  'GET /api/reports/runs/{reportRunId}/documents/{riskBearerId}': async (t, w) => {
    const run = await freshReportRun(t, w)
    await t.modules.reporting.runs.work(w.tenant.tenantId)
    return { params: { reportRunId: run.id, riskBearerId: run.riskBearerId } }
  },
  'GET /api/reports/reconciliation': () => ({ params: {}, query: 'month=2026-11' }),
  'GET /api/salestax/rules': none,
  'POST /api/salestax/rules': () => ({ params: {}, payload: { ...SALES_TAX_RULE_BODY, city: `City ${uniq()}` } }),
  'GET /api/salestax/rules/{salesTaxRuleId}': async (t, w) => ({
    params: { salesTaxRuleId: (await freshSalesTaxRule(t, w)).salesTaxRuleId },
  }),
  'PATCH /api/salestax/rules/{salesTaxRuleId}': async (t, w) => ({
    params: { salesTaxRuleId: (await freshSalesTaxRule(t, w)).salesTaxRuleId },
    payload: { rate: 0.02 },
    contentType: MERGE,
  }),
  'DELETE /api/salestax/rules/{salesTaxRuleId}': async (t, w) => ({
    params: { salesTaxRuleId: (await freshSalesTaxRule(t, w)).salesTaxRuleId },
  }),
  'POST /api/salestax/calculations': () => ({
    params: {},
    payload: { state: 'TX', city: 'Austin', productType: 'VSC', retailPrice: 2695, dealerCost: 876.4 },
  }),
  'GET /api/contracts/{contractId}/recalculatepurchasesalestax': (_t, w) => ({
    params: { contractId: w.finalized.id },
  }),
  // Cancellations (docs/cancellations.md).
  'POST /api/contracts/{contractId}/cancelrequests': (_t, w) => ({
    params: { contractId: w.finalized.id },
    payload: CANCEL_BODY,
  }),
  'GET /api/contracts/{contractId}/cancelrequests': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'POST /api/v2/contracts/{identifier}/cancelrequests': (_t, w) => ({
    params: { identifier: w.finalized.contractNumber },
    query: 'quoteOnly=true',
    payload: CANCEL_BODY,
  }),
  'GET /api/v2/cancelrequests': none,
  'GET /api/v2/contracts/{identifier}/cancelrequests': (_t, w) => ({
    params: { identifier: w.finalized.contractNumber },
  }),
  'GET /api/cancelrequests/{cancelRequestId}': (_t, w) => ({ params: { cancelRequestId: w.cancelRequest.id } }),
  'GET /api/v2/cancelrequests/{identifier}': (_t, w) => ({ params: { identifier: w.cancelRequest.requestNumber } }),
  'POST /api/cancelrequests/{cancelRequestId}': async (t, w) => ({
    params: { cancelRequestId: (await freshCancelRequest(t, w)).id },
    payload: { action: 'WITHDRAW' },
  }),
  'POST /api/v2/cancelrequests/{identifier}': async (t, w) => ({
    params: { identifier: (await freshCancelRequest(t, w)).requestNumber },
    payload: { action: 'WITHDRAW' },
  }),
  'POST /api/contracts/{contractId}/cancels': async (t, w) => ({
    params: { contractId: (await freshFinalized(t, w)).id },
    payload: CANCEL_BODY,
  }),
  'GET /api/contracts/{contractId}/cancels': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  // GAP auto-cancel: a GAP contract whose loan has matured, cancelled by each request that is allowed.
  'GET /api/contracts/autocancelgap': () => ({ params: {} }),
  'POST /api/contracts/autocancelgap/{contractId}': async (t, w) => ({
    params: { contractId: (await freshMaturedGap(t, w)).id },
    payload: {},
  }),
  // Automatic expiry and voiding (docs/contracts.md): each POST on a fresh contract due for it.
  'GET /api/contracts/autoexpire': () => ({ params: {} }),
  'POST /api/contracts/autoexpire/{contractId}': async (t, w) => ({
    params: { contractId: (await freshDueToExpire(t, w)).id },
    payload: {},
  }),
  'GET /api/contracts/autovoidable': () => ({ params: {} }),
  'POST /api/contracts/autovoidable/{contractId}': async (t, w) => ({
    params: { contractId: (await freshVoidable(t, w)).id },
    payload: {},
  }),
  'GET /api/cancels/{cancelId}': (_t, w) => ({ params: { cancelId: w.cancelId } }),
  'POST /api/cancels/{cancelId}': async (t, w) => ({
    params: { cancelId: await freshCancel(t, w) },
    payload: { action: 'REVERSE', reason: 'reinstated' },
  }),
  'GET /api/cancelrequests/{cancelRequestId}/cancelpayments': (_t, w) => ({
    params: { cancelRequestId: w.cancelRequest.id },
  }),
  'GET /api/v2/cancelrequests/{identifier}/cancelpayments': (_t, w) => ({
    params: { identifier: w.cancelRequest.requestNumber },
  }),
  'GET /api/cancels/{cancelId}/cancelpayments': (_t, w) => ({ params: { cancelId: w.cancelId } }),
  'GET /api/contracts/{contractId}/cancelpayments': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'GET /api/v2/contracts/{identifier}/cancelpayments': (_t, w) => ({
    params: { identifier: w.finalized.contractNumber },
  }),
  'GET /api/cancelrequests/{cancelRequestId}/documents': (_t, w) => ({
    params: { cancelRequestId: w.cancelRequest.id },
  }),
  'POST /api/cancelrequests/{cancelRequestId}/documents': (_t, w) => ({
    params: { cancelRequestId: w.cancelRequest.id },
    query: 'fileName=odometer.txt',
    payload: `odometer ${uniq()}`,
    contentType: 'text/plain',
  }),
  'GET /api/cancelrequests/{cancelRequestId}/documents/{documentId}': (_t, w) => ({
    params: { cancelRequestId: w.cancelRequest.id, documentId: w.cancelRequest.documentId },
  }),
  'GET /api/contracts/{contractId}/earningdetails': (_t, w) => ({ params: { contractId: w.finalized.id } }),
  'POST /api/contracts/{contractId}/syncEarnings': (_t, w) => ({ params: { contractId: w.finalized.id }, payload: {} }),
  'POST /api/contracts/updateEarnings': (_t, w) => ({ params: {}, payload: { contractIds: [w.finalized.id] } }),
  'GET /api/contracts/{contractId}/files': (_t, w) => ({ params: { contractId: w.pending.id } }),
  'POST /api/contracts/{contractId}/files': (_t, w) => ({
    params: { contractId: w.pending.id },
    query: 'fileName=scan.txt',
    payload: `scan ${uniq()}`,
    contentType: 'text/plain',
  }),
  'GET /api/contracts/{contractId}/files/{contractFileId}': (_t, w) => ({
    params: { contractId: w.pending.id, contractFileId: w.pending.documentId },
  }),
  // Claim lookups.
  'GET /api/claims/complaints': none,
  'GET /api/claims/causes': none,
  'GET /api/claims/corrections': none,
  'GET /api/claims/complaintcausecorrections': none,
  'GET /api/claims/complaintscausescorrectionstypes': none,
  'GET /api/claims/deniedReasons': none,
  'GET /api/claims/holdReasons': none,
  'GET /api/inspectionreasons': none,
  'GET /api/rejectinspectionreasons': none,
  // Claims (docs/claims.md "Claims: intake, read, index").
  'POST /api/claims': (_t, w) => ({ params: {}, payload: claimBody(w) }),
  'GET /api/claims': (_t, w) => ({ params: {}, query: `contractId=${w.claimable.id}` }),
  'GET /api/claims/{claimId}': (_t, w) => ({ params: { claimId: w.claimId } }),
  // Benefits, payment requests and payments (docs/claims.md "Deciding a claim", "Payment requests and payments").
  'GET /api/claims/{claimId}/claimbenefits': (_t, w) => ({ params: { claimId: w.claimId } }),
  // The adjuster's edit lock (docs/claims.md "Deciding a claim"): each on a fresh claim.
  'GET /api/claims/{claimId}/lock': (_t, w) => ({ params: { claimId: w.claimId } }),
  'POST /api/claims/{claimId}/lock': async (t, w) => ({
    params: { claimId: (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id },
  }),
  'DELETE /api/claims/{claimId}/lock': async (t, w) => ({
    params: { claimId: (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id },
  }),
  'POST /api/claims/{claimId}/paymentrequests': async (t, w) => {
    const claimId = (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id
    await ok(
      t,
      w.admin,
      'PATCH',
      `/api/claims/${claimId}`,
      { status: 'AUTHORIZED', benefits: [{ type: 'TOWING', status: 'AUTHORIZED', amount: 60 }] },
      'application/merge-patch+json',
    )
    return {
      params: { claimId },
      payload: { invoiceNumber: `INV-${w.tag}`, invoiceDate: '2026-11-15', invoicedTotal: 60 },
    }
  },
  'POST /api/claims/{claimId}/paymentrequests/{paymentRequestId}/payments': async (t, w) => {
    const request = await freshPaymentRequest(t, w)
    return {
      params: { claimId: request.claimId, paymentRequestId: request.id },
      payload: { method: 'CHECK', amount: 40, paidAt: '2026-11-15', reference: `CHK ${w.tag}` },
    }
  },
  // PPM services (docs/claims.md "PPM services"): the claimable contract is a VSC, so its claim's list is [].
  'GET /api/claims/{claimId}/ppmservices': (_t, w) => ({ params: { claimId: w.claimId } }),
  // Denying the claims of ended contracts: a fresh cancelled contract with a claim to deny.
  'POST /api/contracts/denyClaims': async (t, w) => ({
    params: {},
    payload: { contractIds: [await freshEndedContract(t, w)] },
  }),
  'PUT /api/claims/{claimId}': (_t, w) => ({
    params: { claimId: w.claimId },
    payload: { repairOrderNumber: `RO-${uniq()}`, taxRate: 0.0825, contact: null, jobs: [] },
  }),
  'PATCH /api/claims/{claimId}': (_t, w) => ({
    params: { claimId: w.claimId },
    payload: { repairOrderNumber: `RO-${uniq()}` },
  }),
  // Claim notes and documents (docs/claims.md "Notes and documents").
  'POST /api/claims/{claimId}/notes': (_t, w) => ({
    params: { claimId: w.claimId },
    payload: { text: `note ${uniq()}` },
  }),
  'GET /api/claims/{claimId}/notes/all': (_t, w) => ({ params: { claimId: w.claimId } }),
  'GET /api/claims/{claimId}/notes/{noteId}': (_t, w) => ({ params: { claimId: w.claimId, noteId: w.claimNoteId } }),
  'GET /api/claims/{claimId}/documents': (_t, w) => ({ params: { claimId: w.claimId } }),
  'POST /api/claims/{claimId}/documents': (_t, w) => ({
    params: { claimId: w.claimId },
    query: 'fileName=invoice.txt',
    payload: `invoice ${uniq()}`,
    contentType: 'text/plain',
  }),
  'GET /api/claims/{claimId}/documents/{claimDocumentId}': (_t, w) => ({
    params: { claimId: w.claimId, claimDocumentId: w.claimDocumentId },
  }),
  // Claim inspections (docs/claims.md "Inspections"): each change on a fresh claim and inspection.
  'POST /api/claims/{claimId}/inspections': async (t, w) => ({
    params: { claimId: (await ok<{ id: number }>(t, w.admin, 'POST', '/api/claims', claimBody(w))).id },
    payload: { inspectionCompanyId: w.inspectionCompanyId, reasonId: w.inspectionReasonId, note: 'Verify.' },
  }),
  'PUT /api/claims/{claimId}/inspections': async (t, w) => ({
    params: { claimId: (await freshInspection(t, w)).claimId },
    payload: inspectionCompletion(w),
  }),
  'POST /api/claims/{claimId}/inspections/takereject/{claimInspectionId}': async (t, w) => {
    const fresh = await freshInspection(t, w)
    return { params: { claimId: fresh.claimId, claimInspectionId: fresh.id }, payload: { action: 'TAKE' } }
  },
  'POST /api/claims/{claimId}/inspectionfiles/{inspectionId}': (_t, w) => ({
    params: { claimId: w.claimInspection.claimId, inspectionId: w.claimInspection.id },
    query: 'fileName=photo.txt',
    payload: `photo ${uniq()}`,
    contentType: 'text/plain',
  }),
  'GET /api/claims/inspections': (_t, w) => ({ params: {}, query: `claimId=${w.claimInspection.claimId}` }),
  'GET /api/claims/inspections/{claimInspectionId}': (_t, w) => ({
    params: { claimInspectionId: w.claimInspection.id },
  }),
  'PATCH /api/claims/inspections/syncinspection': async (t, w) => ({
    params: {},
    payload: { claimInspectionId: (await freshInspection(t, w)).id, status: 'TAKEN' },
  }),
  'PUT /api/claims/inspections/syncpostputinspection': async (t, w) => {
    const { inspectionCompanyId: _c, reasonId: _r, status: _s, ...results } = inspectionCompletion(w)
    return {
      params: {},
      payload: {
        claimInspectionId: (await freshInspection(t, w)).id,
        status: 'COMPLETED',
        rejectReasonId: null,
        ...results,
      },
    }
  },
}

/** The operations of the app's OpenAPI document, as "METHOD path". */
/** Every row of the tenant, in every table with a tenant_id, as sorted text: equal snapshots mean nothing changed. */
export async function tenantSnapshot(t: TestApp, tenantId: number): Promise<string> {
  return t.db.read(tenantId, async (x) => {
    const tables = await sql<{
      table_name: string
    }>`select table_name from information_schema.columns where column_name = 'tenant_id' and table_schema = 'public' order by table_name`.execute(
      x,
    )
    const parts: string[] = []
    for (const { table_name } of tables.rows) {
      const rows = await sql<{
        r: unknown
      }>`select to_jsonb(x) as r from ${sql.table(table_name)} x where tenant_id = ${tenantId}`.execute(x)
      parts.push(
        `${table_name}: ${rows.rows
          .map((r) => JSON.stringify(r.r))
          .toSorted()
          .join('\n')}`,
      )
    }
    return parts.join('\n')
  })
}

export async function documentedOperations(
  t: TestApp,
): Promise<
  Array<{ key: string; method: string; path: string; description: string; security: Array<Record<string, unknown>> }>
> {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
  assert.equal(res.statusCode, 200)
  const doc = res.json() as {
    paths: Record<string, Record<string, { description?: string; security?: Array<Record<string, unknown>> }>>
  }
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({
        key: `${m.toUpperCase()} ${path}`,
        method: m.toUpperCase(),
        path,
        description: op.description ?? '',
        security: op.security ?? [],
      })),
  )
}

/** Sends `request` for operation `key` ("METHOD path") with `headers`. */
export function send(
  t: TestApp,
  key: string,
  request: OperationRequest,
  headers: Headers,
): Promise<LightMyRequestResponse> {
  const [method, path] = key.split(' ') as [string, string]
  const url = fillPath(path, request.params) + (request.query ? `?${request.query}` : '')
  return call(
    t,
    headers,
    method,
    url,
    request.payload,
    request.contentType ?? (request.payload === undefined ? undefined : 'application/json'),
  )
}
