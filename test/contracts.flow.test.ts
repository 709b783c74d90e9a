// The digital-retailing workflow end to end through HTTP, on the demo tenant: quote → custom fields
// → draft PDF → POST /contracts → hold → resolve → finalize (balanced, linked journal entry; final
// PDF) → v2 lookup by contract number.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { DEMO, seedDemo, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, json, type TestApp } from './harness.ts'
import { extractPdfText } from './pdf-text.ts'
import type { RateQuote } from '../src/modules/rating/index.ts'

const NOW = new Date('2026-11-21T18:00:00Z')
const SALE_DATE = '2026-11-21'
const HONDA = `${DEMO.accordQuery}&saleDate=${SALE_DATE}`
const VIN = DEMO.vins.accord

let t: TestApp
let demo: DemoTestTenant
let headers: Record<string, string>

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
  headers = demo.headers
})
after(() => t.close())

/** The rate quote's reply, typed from its published schema. */
type QuoteReply = RateQuote

const inject = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  extra: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, ...extra },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })

test('quote → custom fields → draft PDF → contract → hold → finalize → journal entry → final PDF → v2 lookup', async () => {
  // 1. The quote.
  const quoteRes = await inject('GET', `/api/Rates/rateQuote/${DEMO.dealerNumber}?${HONDA}&productTypes=VSC`)
  assert.equal(quoteRes.statusCode, 200, quoteRes.body)
  const quote = json<QuoteReply>(quoteRes)
  const vsc = quote.products.find((p) => p.productCode === 'VSC')!
  const plan = vsc.programs.flatMap((g) => g.plans).find((p) => p.planCode === 'PLAT-USED')!
  const term = plan.terms.find((x) => x.termMonths === 48) ?? plan.terms[0]!
  const deductible = term.deductibles.find((d) => d.code === 'D100') ?? term.deductibles[0]!
  const rate = deductible.rate
  const roadside = deductible.options.find((o) => o.code === 'ROADSIDE')

  // 2. The plan's custom fields, from the quote's rate-book version.
  const fieldsRes = await inject(
    'GET',
    `/api/Rates/Products/${vsc.productId}/customfields?rateId=${rate.rateId}&quoteId=${encodeURIComponent(quote.quoteId)}`,
  )
  assert.equal(fieldsRes.statusCode, 200, fieldsRes.body)
  const fields = json<{ planId: number; fields: Array<{ key: string; required: boolean }> }>(fieldsRes)
  assert.equal(fields.planId, plan.planId)
  const required = fields.fields.filter((f) => f.required).map((f) => f.key)
  assert.deepEqual(required, ['financeManagerCode'])

  const deal = {
    quoteId: quote.quoteId,
    rateId: rate.rateId,
    selectedOptionIds: roadside ? [roadside.optionId] : [],
    retailPrice: rate.suggestedRetail,
    saleDate: SALE_DATE,
    saleOdometer: 42150,
    vehicle: { vin: VIN, condition: 'USED' },
    customer: {
      firstName: 'Sam',
      lastName: 'Buyer',
      emailAddress: 'sam@example.com',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
    },
    coBuyer: { firstName: 'Alex', lastName: 'Buyer' },
    lienHolder: { name: 'First Bank of Austin' },
    customFields: { financeManagerCode: 'FM7' },
  }

  // 3. The draft PDF, before any contract exists.
  const draftRes = await inject('POST', '/api/contracts/draftdocument', deal)
  assert.equal(draftRes.statusCode, 200, draftRes.body)
  assert.match(String(draftRes.headers['content-type']), /application\/pdf/)
  const draftPages = await extractPdfText(new Uint8Array(draftRes.rawPayload))
  assert.ok(
    draftPages.every((p) => p.includes('DRAFT')),
    'every page of the draft is marked DRAFT',
  )
  assert.ok(draftPages.join('\n').includes(VIN))
  assert.equal(
    json<unknown[]>(await inject('GET', `/api/contracts?vin=${VIN}`)).length,
    0,
    'a draft creates no contract',
  )

  // 4. The contract.
  const created = await inject('POST', '/api/contracts', deal)
  assert.equal(created.statusCode, 201, created.body)
  const contract = json<{
    id: number
    contractNumber: string
    status: string
    pricing: { dealerCost: number; retailPrice: number; lines: Array<{ amount: number; payeeAccountHolderId: number }> }
    options: unknown[]
  }>(created)
  assert.equal(created.headers.location, `/api/contracts/${contract.id}`)
  assert.equal(contract.status, 'PENDING')
  assert.match(contract.contractNumber, /^VSC-PLAT-U-0126-\d{8}$/)
  const lineCents = contract.pricing.lines.reduce((n, l) => n + Math.round(l.amount * 100), 0)
  assert.equal(lineCents, Math.round(contract.pricing.dealerCost * 100), 'the lines add up to the dealer cost')
  assert.equal(contract.pricing.retailPrice, rate.suggestedRetail)

  // 5. A hold blocks finalization until resolved.
  const hold = await inject('POST', `/api/contracts/${contract.id}/holds`, {
    reasonCode: 'MISSING_SIGNATURE',
    note: 'page 2',
  })
  assert.equal(hold.statusCode, 201, hold.body)
  const holdId = json<{ holdId: number }>(hold).holdId
  const blocked = await inject('POST', `/api/contracts/${contract.id}/finalize`, {})
  assert.equal(blocked.statusCode, 409, blocked.body)
  assert.equal(json<{ code: string }>(blocked).code, 'contract_on_hold')
  const resolved = await inject('POST', `/api/contracts/${contract.id}/holds/${holdId}/resolves`, {
    note: 'signed copy received',
  })
  assert.equal(resolved.statusCode, 201, resolved.body)

  // 6. Finalize: one balanced entry linked to the contract, the final document.
  // As many HTTP clients send a POST without a payload: a JSON content type and an empty body.
  const finalized = await inject('POST', `/api/contracts/${contract.id}/finalize`, '', {
    'content-type': 'application/json',
  })
  assert.equal(finalized.statusCode, 200, finalized.body)
  const posting = json<{
    contract: { status: string; remittance: { journalEntryIds: number[] } }
    journalEntry: {
      entryId: number
      totalDebit: number
      totalCredit: number
      lines: Array<{ debit: number; credit: number }>
    }
    document: { fileId: number }
  }>(finalized)
  assert.equal(posting.contract.status, 'ACTIVE', 'in effect from the sale date')
  assert.equal(posting.journalEntry.totalDebit, posting.journalEntry.totalCredit)
  assert.equal(posting.journalEntry.totalDebit, contract.pricing.dealerCost)
  assert.deepEqual(posting.contract.remittance.journalEntryIds, [posting.journalEntry.entryId])
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: contract.id })
  assert.equal(entries.length, 1)
  assert.equal(entries[0]!.entryId, posting.journalEntry.entryId)
  const debits = entries[0]!.lines.reduce((n, l) => n + Math.round(l.debit * 100), 0)
  const credits = entries[0]!.lines.reduce((n, l) => n + Math.round(l.credit * 100), 0)
  assert.equal(debits, credits)

  const finalPdf = await inject('GET', `/api/files/${posting.document.fileId}`)
  assert.equal(finalPdf.statusCode, 200)
  const finalText = (await extractPdfText(new Uint8Array(finalPdf.rawPayload))).join('\n')
  assert.ok(finalText.includes(contract.contractNumber))
  assert.ok(!finalText.includes('DRAFT'), 'the final document is not a draft')

  // Every change is in the audit trail, in order.
  const audited = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['action', 'entity_type', 'entity_id'])
      .where('tenant_id', '=', demo.tenantId)
      .where('request_id', '!=', 'demo-seed')
      .orderBy('id')
      .execute(),
  )
  const contractActions = audited
    .filter((a) => a.entity_type === 'contract' && a.entity_id === String(contract.id))
    .map((a) => a.action)
  assert.deepEqual(contractActions, [
    'contract.created',
    'contract.hold_placed',
    'contract.hold_resolved',
    'contract.finalized',
    'contract.activated',
  ])
  const actions = new Set(audited.map((a) => a.action))
  for (const action of ['customer.created', 'lien_holder.created', 'journal_entry.posted', 'document.created'])
    assert.ok(actions.has(action), action)

  // 7. Lookup by contract number (v2).
  const byNumber = await inject('GET', `/api/v2/contracts/${contract.contractNumber.toLowerCase()}`)
  assert.equal(byNumber.statusCode, 200, byNumber.body)
  assert.equal(json<{ id: number }>(byNumber).id, contract.id)
  const page = json<{ items: Array<{ id: number }>; totalCount: number }>(
    await inject('GET', `/api/v2/contracts?contractNumber=${contract.contractNumber}`),
  )
  assert.deepEqual(
    page.items.map((c) => c.id),
    [contract.id],
  )
})
