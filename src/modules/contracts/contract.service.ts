// Contract use cases (docs/contracts.md): create from a quote, read and search, PATCH while
// pending. The lifecycle (holds, lock, co-buyer, finalize) is in contract-lifecycle.service.ts;
// both share the loading and guarding done here.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import { localDate, type Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { centsToDecimal } from '../../platform/money.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { ContractParties, DealerDirectory, LienHolderInput } from '../parties/index.ts'
import type { QuoteService } from '../rating/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { formatContractNumber } from '../settings/index.ts'
import { createDealChecker, personSnapshot, type CheckedDeal, type DealInput } from './contract.deal.ts'
import { createStatusRecorder, recordedContract } from './contract-history.ts'
import { contractErrors } from './contract.errors.ts'
import {
  customerNameKey,
  lienHolderSnapshot,
  toContractEdit,
  toContractUpdate,
  toContractView,
  toSummary,
  type ContractDocumentRef,
  type CoverageSnapshot,
  type DealData,
  type PricingSnapshot,
} from './contract.mapper.ts'
import * as repo from './contract.repository.ts'
import {
  changedMembers,
  checkEdit,
  editedParties,
  IMMUTABLE_ON_EDIT,
  lockedAgainst,
  statusForEvent,
  transition,
  uniqueClaims,
  type ContractEdit,
  type ContractEvent,
  type TransitionFacts,
} from './contract.rules.ts'
import { PatchedContractSchema, type ContractSortField } from './contract.schemas.ts'
import { sortOrder } from '../../platform/http/schemas.ts'
import {
  resolveContractTerms,
  saleTaxOf,
  termsSubjectOf,
  toTermsView,
  type CessionPort,
  type ContractTerms,
  type TermsPorts,
} from './contract-terms.ts'

/** What the caller of a change states about it: the day it takes effect (today when absent), an odometer reading. */
export type ChangeFacts = { effectiveDate?: string | undefined; odometer?: number | null | undefined }

/** An identical submission (dealer, VIN, plan, sale date) within this window is a duplicate, not a new sale. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000

export type ContractPorts = {
  db: Database
  clock: Clock
  settings: SettingsService
  quotes: Pick<QuoteService, 'quotedRate'>
  directory: Pick<DealerDirectory, 'idsByBusinessKey'>
  parties: ContractParties
  /** The documents of a contract, newest first (the documents module). */
  documentsOf(tenantId: number, contractId: number): Promise<ContractDocumentRef[]>
  /** The rating module's terms resolution and the settings that stand in for what a book leaves out. */
  terms: TermsPorts
  /** The reinsurance treaty of a sale (the reporting module's port, src/modules.ts); absent: no cessions. */
  cession?: CessionPort | undefined
}

export function createContractCore(ports: ContractPorts) {
  const { db, clock, settings } = ports
  const today = async (tenantId: number) => localDate(clock.now(), await settings.get(tenantId, 'timeZone'))
  const deals = createDealChecker({
    quotes: ports.quotes,
    directory: ports.directory,
    administratorId: (tenantId) => ports.parties.administratorId(tenantId),
    lookBackDays: (tenantId) => settings.get(tenantId, 'saleDateLookBackDays'),
    today,
  })
  const recorder = createStatusRecorder(ports.parties)
  const notFound = (id: number | string) => contractErrors.create('contract_not_found', `no contract ${id}`)
  const visibleOf = (ctx: AuthenticatedContext) => ctx.principal.visibleAccountHolderIds

  /** The terms the contract is sold under: as stored, or resolved (not written) for a contract sold before snapshots. */
  async function termsOf(tenantId: number, row: repo.ContractRow): Promise<ContractTerms> {
    return row.terms !== null
      ? (row.terms as ContractTerms)
      : resolveContractTerms(ports.terms, tenantId, termsSubjectOf(row), clock.now(), 'FIRST_USE')
  }

  /**
   * The terms of a contract locked in `tx`, written back on this first use when it has none yet (a
   * contract sold before snapshots): from then on it keeps them, whatever its settings become.
   */
  async function ensureTerms(tx: Transaction<DB>, tenantId: number, row: repo.ContractRow): Promise<ContractTerms> {
    if (row.terms !== null) return row.terms as ContractTerms
    const terms = await resolveContractTerms(ports.terms, tenantId, termsSubjectOf(row), clock.now(), 'FIRST_USE')
    await repo.writeTerms(tx, tenantId, row.id, JSON.stringify(terms))
    return terms
  }

  async function view(ctx: AuthenticatedContext, row: repo.ContractRow) {
    const [day, documents, terms] = await Promise.all([
      today(ctx.tenantId),
      ports.documentsOf(ctx.tenantId, row.id),
      termsOf(ctx.tenantId, row),
    ])
    return toContractView(row, day, clock.now(), documents, toTermsView(terms))
  }

  /** The contract row, locked until `tx` ends; 404 when unknown or not visible to the caller. */
  async function lockRow(tx: Transaction<DB>, ctx: AuthenticatedContext, id: number) {
    const row = isStorableId(id) ? await repo.lockContract(tx, ctx.tenantId, id, visibleOf(ctx)) : undefined
    if (!row) throw notFound(id)
    return row
  }

  /** The contract row as the caller may see it; 404 when unknown or not visible. */
  async function readRow(ctx: AuthenticatedContext, id: number) {
    const row = isStorableId(id)
      ? await db.read(ctx.tenantId, (x) => repo.findContract(x, ctx.tenantId, id, visibleOf(ctx)))
      : undefined
    if (!row) throw notFound(id)
    return row
  }

  /**
   * The contract locked for a change inside `tx`: 404 when unknown or invisible, 423 when another
   * user holds its edit lock, 409 when the state machine refuses `event`. `from` is the status the
   * event is judged from (statusForEvent): ACTIVE for a finalized contract in effect, whose
   * activation the caller then records first (row.status !== from).
   */
  async function forChange(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    id: number,
    event: ContractEvent,
    given: ChangeFacts = {},
  ) {
    return judgeChange(tx, ctx, await lockRow(tx, ctx, id), event, given)
  }

  /**
   * forChange's checks of a row the caller already locked in `tx` (lockRow, or a forChange of the
   * same transaction): the servicing port locks a contract once and judges each step on that row.
   */
  async function judgeChange(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    row: repo.ContractRow,
    event: ContractEvent,
    given: ChangeFacts = {},
  ) {
    const now = clock.now()
    if (lockedAgainst({ holder: row.lock_user_id, expiresAt: row.lock_expires_at }, ctx.principal.userId, now)) {
      throw contractErrors.create(
        'contract_locked',
        `contract ${row.contract_number} is locked by ${row.lock_user_label} until ${row.lock_expires_at!.toISOString()}`,
        {
          extensions: { lockedBy: row.lock_user_label, lockExpiresAt: row.lock_expires_at!.toISOString() },
        },
      )
    }
    const facts: TransitionFacts = {
      openHolds: row.open_holds,
      effectiveDate: row.effective_date,
      expirationDate: row.expiration_date,
      today: await today(ctx.tenantId),
      eventDate: given.effectiveDate,
      odometer: given.odometer,
      expirationOdometer: row.expiration_odometer,
      // Read only when needed: what a reinstatement returns the contract to.
      statusBeforeCancel:
        event === 'REINSTATE' ? await repo.statusBeforeLastCancel(tx, ctx.tenantId, row.id) : undefined,
    }
    const from = statusForEvent(row.status, event, row.effective_date, facts.today)
    const step = transition(from, event, facts)
    if (!step.ok) throw contractErrors.create(step.code, `contract ${row.contract_number}: ${step.message}`)
    return { row, from, to: step.to, now, facts }
  }

  async function lienHolderFor(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    id: number | null | undefined,
    inline: LienHolderInput | null | undefined,
    now: Date,
  ) {
    if (id !== null && id !== undefined) {
      const found = await ports.parties.lienHolder(tx, ctx.tenantId, id)
      if (!found)
        throw contractErrors.create('contract_invalid', `lienHolderId ${id} is not a lien holder`, {
          errors: [{ field: 'lienHolderId', code: 'not_found', message: `no lien holder ${id}` }],
        })
      return found
    }
    if (!inline) return null
    const newId = await ports.parties.matchOrCreateLienHolder(tx, ctx, inline, now)
    return (await ports.parties.lienHolder(tx, ctx.tenantId, newId))!
  }

  async function insertDeal(ctx: AuthenticatedContext, deal: CheckedDeal, body: DealInput): Promise<repo.ContractRow> {
    const q = deal.quoted
    const vin = String(deal.vehicle.vin)
    const [format, day, saleTerms, salesTax, cession] = await Promise.all([
      settings.get(ctx.tenantId, 'contractNumberFormat'),
      today(ctx.tenantId),
      resolveContractTerms(
        ports.terms,
        ctx.tenantId,
        {
          contractId: null,
          rateBookId: q.book.bookId,
          quoteId: q.quoteId,
          productCode: q.product.code,
          planCode: q.plan.code,
          termCode: q.term.code,
          lineCodes: deal.lines.map((l) => l.code),
          customerState: body.customer.address?.state ?? null,
          // Named inside the transaction (it may be created there); set on the snapshot below.
          lienHolderId: null,
        },
        clock.now(),
        'SALE',
        // The state the quote priced for: the customer's, else the dealer's (quote.service.ts).
        q.inputs.customerState ?? null,
      ),
      // The tax of the sale under the rules in force on the sale date (docs/sales-tax.md "At sale").
      saleTaxOf(ports.terms, ctx.tenantId, {
        address: body.customer.address,
        taxExempt: body.taxExempt === true,
        productType: q.product.type,
        date: deal.saleDate,
        retailCents: deal.retailCents,
        dealerCostCents: deal.dealerCostCents,
      }),
      // The treaty in force on the sale date cedes a share of the reserve (docs/reporting.md), fixed here.
      ports.cession
        ? ports.cession(ctx.tenantId, {
            dealerId: q.dealer.id,
            dealerGroupId: q.dealer.dealerGroupId,
            productId: q.product.id,
            programId: q.program.id,
            saleDate: deal.saleDate,
            reserveCents: deal.lines.filter((l) => l.group === 'RESERVE').reduce((n, l) => n + l.cents, 0),
          })
        : null,
    ])
    return db.transaction(ctx.tenantId, async (tx) => {
      const now = clock.now()
      // The same deal submitted twice at once: the second waits here, then finds the first.
      const dealKey: repo.DealKey = { dealerId: q.dealer.id, vin, planId: q.plan.id, saleDate: deal.saleDate }
      await repo.lockDeal(tx, ctx.tenantId, dealKey)
      const duplicate = await repo.findRecentDuplicate(
        tx,
        ctx.tenantId,
        dealKey,
        new Date(now.getTime() - DUPLICATE_WINDOW_MS),
      )
      if (duplicate) {
        throw contractErrors.create(
          'duplicate_contract',
          `contract ${duplicate.contract_number} was created for the same dealer, VIN, plan and sale date moments ago`,
          {
            headers: { location: `/api/contracts/${duplicate.id}` },
            extensions: { contractId: duplicate.id, contractNumber: duplicate.contract_number },
          },
        )
      }
      const lien = await lienHolderFor(tx, ctx, body.lienHolderId, body.lienHolder, now)
      const customerId = await ports.parties.matchOrCreateCustomer(tx, ctx, body.customer, q.dealer.id, now)
      const sequence = await repo.nextContractSequence(tx, ctx.tenantId)
      const coverage: CoverageSnapshot = {
        rateBookVersion: q.book.version,
        product: q.product,
        program: q.program,
        plan: { id: q.plan.id, code: q.plan.code, name: q.plan.name, formNumber: q.plan.formNumber },
        term: q.term,
        deductible: q.deductible,
        coverageGroups: (q.plan.coverageGroups ?? []).map((g) => ({
          code: g.code,
          name: g.name,
          components: g.components.map((c) => ({ code: c.code, name: c.name })),
        })),
        ppmServices: (q.plan.ppmServices ?? []).map((s) => ({
          code: s.code,
          name: s.name,
          intervalMonths: s.intervalMonths ?? null,
          intervalMiles: s.intervalMiles ?? null,
          count: s.count,
        })),
        customFieldRules: q.plan.customFields.map(({ level: _level, order: _order, ...rule }) => rule),
      }
      const pricing: PricingSnapshot = {
        retailCents: deal.retailCents,
        optionsRetailCents: deal.optionsRetailCents,
        dealerCostCents: deal.dealerCostCents,
        lines: deal.lines,
        options: q.options.map((o) => ({
          id: o.id,
          code: o.code,
          name: o.name,
          kind: o.kind,
          required: o.required,
          dealerCostCents: o.dealerCostCents,
          retailCents: o.retailCents,
        })),
        retailBounds: {
          suggestedRetailCents: q.price.suggestedRetailCents,
          minRetailCents: q.price.minRetailCents,
          maxRetailCents: q.price.maxRetailCents,
          retailLocked: q.price.retailLocked,
        },
      }
      const dealData: DealData = {
        dealer: { dealerNumber: q.dealer.dealerNumber, name: q.dealer.name },
        dealNumber: body.dealNumber?.trim() || null,
        salesPerson: body.salesPerson
          ? {
              firstName: body.salesPerson.firstName ?? null,
              lastName: body.salesPerson.lastName ?? null,
              code: body.salesPerson.code ?? null,
            }
          : null,
        financeManager: body.financeManager
          ? { name: body.financeManager.name ?? null, code: body.financeManager.code ?? null }
          : null,
        taxExempt: body.taxExempt === true,
      }
      const inserted = await repo.insertContract(tx, ctx.tenantId, {
        contract_number: formatContractNumber(format, { formPrefix: q.plan.formNumber, sequence, date: day }),
        status: 'PENDING',
        dealer_id: q.dealer.id,
        customer_id: customerId,
        lien_holder_id: lien?.id ?? null,
        quote_id: q.quoteId,
        rate_id: q.rateId,
        rate_book_id: q.book.bookId,
        product_id: q.product.id,
        program_id: q.program.id,
        plan_id: q.plan.id,
        term_id: q.term.id,
        deductible_id: q.deductible.id,
        product_type: q.product.type,
        vin,
        customer_name: customerNameKey(body.customer),
        sale_date: deal.saleDate,
        effective_date: deal.effectiveDate,
        expiration_date: deal.expirationDate,
        sale_odometer: q.inputs.odometer ?? null,
        expiration_odometer: deal.expirationOdometer,
        dealer_cost: centsToDecimal(deal.dealerCostCents).toFixed(2),
        retail_price: centsToDecimal(deal.retailCents).toFixed(2),
        coverage: JSON.stringify(coverage),
        pricing: JSON.stringify(pricing),
        vehicle: JSON.stringify(deal.vehicle),
        customer: JSON.stringify(personSnapshot(body.customer)),
        co_buyer: body.coBuyer ? JSON.stringify(personSnapshot(body.coBuyer)) : null,
        lien_holder: lien ? JSON.stringify(lienHolderSnapshot(lien)) : null,
        finance: deal.finance ? JSON.stringify(deal.finance) : null,
        custom_fields: JSON.stringify(deal.customFields),
        deal_data: JSON.stringify(dealData),
        terms: JSON.stringify({
          ...saleTerms,
          salesTax,
          lien: lien === null ? null : { lienHolderId: lien.id, released: false, releasedOn: null },
          cession,
        } satisfies ContractTerms),
        created_at: now,
        updated_at: now,
        created_by: ctx.principal.emailAddress,
      })
      const taken = await repo.claimUniqueValues(tx, ctx.tenantId, inserted.id, deal.uniqueValues)
      if (taken.length > 0) throw valueTaken(taken)
      await ports.parties.recordContractSale(
        tx,
        ctx.tenantId,
        [q.dealer.id, customerId, ...q.dealer.agentIds.slice(0, 1)],
        deal.saleDate,
      )
      // The creation is the first row of the status history (with the audit record and contract.created).
      await recorder.record(tx, ctx, {
        contract: recordedContract(inserted),
        event: 'CREATE',
        from: null,
        to: inserted.status,
        effectiveDate: inserted.sale_date,
        source: { type: 'CONTRACT' },
        at: now,
        audit: {
          after: {
            contractNumber: inserted.contract_number,
            status: inserted.status,
            quoteId: q.quoteId,
            rateId: q.rateId,
            dealerCost: inserted.dealer_cost,
            retailPrice: inserted.retail_price,
            customerId,
          },
        },
      })
      return inserted
    })
  }

  const valueTaken = (taken: Array<{ key: string; value: string; contractId: number }>) =>
    contractErrors.create(
      'custom_field_value_taken',
      taken.map((t) => `${t.key} ${t.value} is already used by contract ${t.contractId}`).join('; '),
      {
        errors: taken.map((t) => ({
          field: `customFields/${t.key}`,
          code: 'taken',
          message: `already used by contract ${t.contractId}`,
        })),
      },
    )

  const validatePatched = createPatchedValidator(PatchedContractSchema)

  return {
    today,
    recorder,
    forChange,
    judgeChange,
    lockRow,
    readRow,
    view,
    termsOf,
    ensureTerms,
    deals,

    async create(ctx: AuthenticatedContext, body: DealInput) {
      const deal = await deals.check(ctx, body)
      const row = await insertDeal(ctx, deal, body)
      // A new contract has no documents yet; its terms were taken at creation.
      return toContractView(row, await today(ctx.tenantId), clock.now(), [], toTermsView(row.terms as ContractTerms))
    },

    async get(ctx: AuthenticatedContext, id: number) {
      // The row and its documents side by side (two connections on PostgreSQL, not two round trips in
      // a row); the documents are shown only with a row the caller may see, else readRow's 404.
      const [row, day, documents] = await Promise.all([
        readRow(ctx, id),
        today(ctx.tenantId),
        ports.documentsOf(ctx.tenantId, id),
      ])
      return toContractView(row, day, clock.now(), documents, toTermsView(await termsOf(ctx.tenantId, row)))
    },

    /** By id (digits) or contract number (any case). */
    async getByIdentifier(ctx: AuthenticatedContext, identifier: string) {
      const trimmed = identifier.trim()
      const row = await db.read(
        ctx.tenantId,
        async (x) =>
          (/^\d{1,15}$/.test(trimmed) && isStorableId(Number(trimmed))
            ? await repo.findContract(x, ctx.tenantId, Number(trimmed), visibleOf(ctx))
            : undefined) ?? repo.findContractByNumber(x, ctx.tenantId, trimmed, visibleOf(ctx)),
      )
      if (!row) throw notFound(identifier)
      return view(ctx, row)
    },

    async search(
      ctx: AuthenticatedContext,
      filter: Omit<repo.ContractFilter, 'today' | 'dealerIds' | 'sort'> & {
        dealerNumber?: string | undefined
        sort?: ContractSortField | `-${ContractSortField}` | undefined
      },
      window: Window,
    ) {
      const { dealerNumber, sort, ...rest } = filter
      const day = await today(ctx.tenantId)
      let f: repo.ContractFilter = {
        ...rest,
        today: day,
        sort: sortOrder(sort, { field: 'createdAt', direction: 'desc' }),
      }
      if (dealerNumber !== undefined) {
        const ids = await ports.directory.idsByBusinessKey(ctx.tenantId, [
          { kind: 'DEALER', businessKey: dealerNumber },
        ])
        f = { ...f, dealerIds: [...ids.values()] }
      }
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.searchContracts(x, ctx.tenantId, f, visibleOf(ctx), window),
      )
      return { items: result.rows.map((r) => toSummary(r, day)), totalCount: result.totalCount }
    },

    /**
     * PATCH of a pending contract (JSON Patch or merge patch over its editable representation).
     * What the price rests on (quote, rate, VIN, odometer, dates of sale) cannot change: a new quote
     * and contract are the way. A changed retail price must still fit the rate; custom fields are
     * checked again as a whole.
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ) {
      const changed = await db.transaction(ctx.tenantId, async (tx) => {
        const { row, now } = await forChange(tx, ctx, id, 'EDIT')
        checkVersion(row.version)
        const current = toContractEdit(row)
        const patched = applyPatch(current, body, contentType, IMMUTABLE_ON_EDIT)
        validatePatched(patched)
        const next = patched as unknown as ContractEdit
        const checked = checkEdit(next, {
          saleDate: row.sale_date,
          termMonths: row.coverage.term.months,
          retailBounds: row.pricing.retailBounds,
          customFieldRules: row.coverage.customFieldRules,
          financed: row.finance !== null,
        })
        if (!checked.ok)
          throw contractErrors.create(
            'contract_invalid',
            `${checked.errors.length} problem(s): ${checked.errors.map((e) => e.message).join('; ')}`,
            { errors: checked.errors },
          )
        const uniques = uniqueClaims(row.coverage.customFieldRules, checked.customFields)
        const taken = await repo.claimUniqueValues(tx, ctx.tenantId, row.id, uniques)
        if (taken.length > 0) throw valueTaken(taken)
        await repo.releaseUniqueValues(tx, ctx.tenantId, row.id, uniques)
        const edited = editedParties(current, next)
        const customerId = edited.customer
          ? await ports.parties.matchOrCreateCustomer(tx, ctx, next.customer, row.dealer_id, now)
          : row.customer_id
        const lienHolder =
          edited.lienHolder === 'unchanged'
            ? undefined
            : edited.lienHolder === 'byId'
              ? await lienHolderFor(tx, ctx, next.lienHolderId, null, now)
              : await lienHolderFor(tx, ctx, null, next.lienHolder, now)
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          toContractUpdate(row, next, checked, { customerId, lienHolder }),
          now,
        )
        // A PENDING contract is still being sold: a new price, address or exemption reprices its sales tax
        // (rules of the sale date). Once finalized the kept tax is what was posted and stays.
        if (row.status === 'PENDING') {
          const terms = await ensureTerms(tx, ctx.tenantId, row)
          const salesTax = await saleTaxOf(ports.terms, ctx.tenantId, {
            address: next.customer.address,
            taxExempt: next.taxExempt === true,
            productType: row.product_type,
            date: row.sale_date,
            retailCents: checked.retailCents,
            dealerCostCents: row.pricing.dealerCostCents,
          })
          if (JSON.stringify(salesTax) !== JSON.stringify(terms.salesTax ?? null))
            await repo.rewritePendingTerms(tx, ctx.tenantId, row.id, JSON.stringify({ ...terms, salesTax }))
        }
        const fields = changedMembers(current, next)
        await writeAudit(tx, ctx, now, {
          action: 'contract.updated',
          entityType: 'contract',
          entityId: row.id,
          changes: { fields, before: pick(current, fields), after: pick(next, fields) },
        })
        // The reply is built inside the transaction: a change that cannot be shown is not kept.
        return view(ctx, (await repo.findContract(tx, ctx.tenantId, row.id, null))!)
      })
      return changed
    },
  }
}

export type ContractCore = ReturnType<typeof createContractCore>

function pick(o: object, keys: readonly string[]): Record<string, unknown> {
  const r = o as Record<string, unknown>
  return Object.fromEntries(keys.map((k) => [k, r[k] ?? null]))
}
