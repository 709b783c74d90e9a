// Cash received from account holders (docs/cash.md; money.md "Postings"). A receipt posts
// CASH_RECEIVED (Dr CASH of the administrator company, Cr UNAPPLIED_CASH of the payer), then applies
// what it can: one CASH_APPLIED entry (Dr UNAPPLIED_CASH, Cr DEALER_RECEIVABLE per contract item) and
// one cash_application row per item. A returned payment (NSF) reverses those entries; the items
// reopen because they are derived from the receivable's lines. Everything of one change commits in
// one transaction with its audit rows and events. The payer's row is locked while cash is applied,
// so two applications to one payer cannot both take the same open amount.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { CashPaymentMethodColumn, StoredCashApplication } from '../../platform/db/schema.cash.ts'
import type { DB } from '../../platform/db/schema.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext, type RequestContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { centsToDecimal, centsToNumber, Decimal, decimalProblem, toCents } from '../../platform/money.ts'
import { cashErrors } from './cash.errors.ts'
import * as repo from './cash.repository.ts'
import type { ApplicationRow, CashRow, InProcessRow } from './cash.repository.ts'
import { allocate, openItems } from './cash.rules.ts'
import type { LedgerService } from './ledger.service.ts'

export type ApplicationBody = { contractId: number; amount: number | string }
export type CashBody = {
  payerId: number
  paymentMethod: CashPaymentMethodColumn
  amount: number | string
  reference: string
  receivedDate: string
  memo?: string | null | undefined
  applications?: ApplicationBody[] | undefined
}
export type CashPatch = {
  memo?: string | null
  reference?: string
  applications?: ApplicationBody[]
  status?: 'RETURNED'
  returnReason?: string
}
export type CashListQuery = {
  payerId?: number | undefined
  status?: string | undefined
  receivedFrom?: string | undefined
  receivedTo?: string | undefined
}

export type CashDeps = {
  db: Database
  clock: Clock
  ledger: Pick<LedgerService, 'post' | 'postMany' | 'reverse' | 'postingDate'>
  /** The administrator company: the holder of the CASH account. */
  administratorId(tenantId: number): Promise<number>
}

const MAX_AMOUNT = new Decimal('999999999.99')
const stored = (c: number) => centsToDecimal(c).toFixed(2)
const cents = (text: string) => toCents(new Decimal(text))
const ENTITY = 'cash_transaction'
const IN_PROCESS_ENTITY = 'in_process_cash_transaction'

export function cashView(r: CashRow, applications: readonly ApplicationRow[]) {
  const mine = applications.filter((a) => Number(a.cash_transaction_id) === Number(r.id))
  const amount = cents(r.amount)
  const applied = r.status === 'RETURNED' ? 0 : cents(r.applied_amount)
  return {
    id: Number(r.id),
    payerId: Number(r.payer_id),
    paymentMethod: r.payment_method,
    amount: centsToNumber(amount),
    appliedAmount: centsToNumber(applied),
    unappliedAmount: r.status === 'RETURNED' ? 0 : centsToNumber(amount - applied),
    reference: r.reference,
    memo: r.memo,
    receivedDate: r.received_date,
    accountingDate: r.accounting_date,
    status: r.status,
    returnReason: r.return_reason,
    applications: mine.map((a) => ({
      contractId: Number(a.contract_id),
      contractNumber: a.contract_number ?? undefined,
      amount: Number(a.amount),
      appliedAt: a.applied_at.toISOString(),
      reversed: a.reversed_at !== null,
    })),
    entryIds: [
      ...new Set([
        ...(r.received_entry_id === null ? [] : [Number(r.received_entry_id)]),
        ...mine.map((a) => Number(a.journal_entry_id)),
      ]),
    ],
    createdAt: r.created_at.toISOString(),
    version: r.version,
  }
}
export type CashView = ReturnType<typeof cashView>

export function inProcessView(r: InProcessRow) {
  return {
    id: Number(r.id),
    payerId: Number(r.payer_id),
    paymentMethod: r.payment_method,
    amount: Number(r.amount),
    reference: r.reference,
    receivedDate: r.received_date,
    memo: r.memo,
    applications: (r.applications ?? []).map((a) => ({
      contractId: a.contractId,
      amount: centsToNumber(a.amountCents),
    })),
    status: r.status,
    cashTransactionId: r.cash_transaction_id === null ? null : Number(r.cash_transaction_id),
    createdAt: r.created_at.toISOString(),
  }
}

const invalid = (errors: FieldError[]) =>
  cashErrors.create('cash_invalid', `Invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, { errors })

function amountOf(field: string, value: unknown, errors: FieldError[]): number | null {
  const p = decimalProblem(value, { places: 2, min: new Decimal(0), max: MAX_AMOUNT, minExclusive: true })
  if (p) {
    errors.push({ field, code: p.code, message: p.message })
    return null
  }
  return toCents(new Decimal(value as number | string))
}

/** The applications of a body in cents, their problems pushed to `errors`. */
function applicationsOf(
  list: readonly ApplicationBody[] | undefined,
  errors: FieldError[],
): StoredCashApplication[] | undefined {
  if (list === undefined) return undefined
  const out: StoredCashApplication[] = []
  list.forEach((a, i) => {
    const c = amountOf(`applications[${i}].amount`, a.amount, errors)
    if (c !== null) out.push({ contractId: a.contractId, amountCents: c })
  })
  return out
}

export function createCashService(deps: CashDeps) {
  const { db, clock, ledger } = deps

  const visibleSet = (ctx: RequestContext) => ctx.principal?.visibleAccountHolderIds ?? null
  const canSee = (ctx: RequestContext, payerId: number) => {
    const v = visibleSet(ctx)
    return v === null || v.has(Number(payerId))
  }
  const notFound = (id: number) => cashErrors.create('cash_transaction_not_found', `No cash transaction ${id}`)
  const inProcessNotFound = (id: number) =>
    cashErrors.create('in_process_cash_not_found', `No in-process cash transaction ${id}`)

  /** The body checked in full; the payer must exist and be visible to the caller. */
  async function checked(tx: Transaction<DB>, ctx: RequestContext, body: CashBody) {
    const errors: FieldError[] = []
    const amount = amountOf('amount', body.amount, errors)
    if (!isIsoDate(body.receivedDate))
      errors.push({ field: 'receivedDate', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
    if (!canSee(ctx, body.payerId) || !(await repo.payerExists(tx, ctx.tenantId, body.payerId)))
      errors.push({
        field: 'payerId',
        code: 'unknown_reference',
        message: `account holder ${body.payerId} does not exist`,
      })
    const applications = applicationsOf(body.applications, errors)
    if (errors.length > 0 || amount === null) throw invalid(errors)
    return { amount, applications }
  }

  /**
   * Applies up to the unapplied balance of `cash` (locked by the caller), to `chosen` or oldest first.
   * One CASH_APPLIED entry and one multi-row insert, whatever the number of items.
   */
  async function apply(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    cash: CashRow,
    chosen: StoredCashApplication[] | undefined,
    effectiveDate: string,
  ): Promise<CashRow> {
    const tenantId = ctx.tenantId
    const payerId = Number(cash.payer_id)
    await repo.lockPayer(tx, tenantId, payerId)
    const available = cents(cash.amount) - cents(cash.applied_amount)
    const items = openItems(await repo.receivableByContract(tx, tenantId, payerId))
    const allocation = allocate(items, available, chosen)
    if (!allocation.ok) throw invalid(allocation.errors)
    if (allocation.applications.length === 0) return cash
    const [entryId] = await ledger.postMany(ctx, [
      {
        kind: 'CASH_APPLIED',
        source: { type: 'CASH', id: Number(cash.id) },
        effectiveDate,
        memo: `cash ${cash.id} applied: ${cash.reference}`,
        lines: [
          {
            accountHolderId: payerId,
            purpose: 'UNAPPLIED_CASH',
            side: 'DEBIT',
            amount: stored(allocation.appliedCents),
          },
          ...allocation.applications.map((a) => ({
            accountHolderId: payerId,
            purpose: 'DEALER_RECEIVABLE' as const,
            side: 'CREDIT' as const,
            amount: stored(a.amountCents),
            contractId: a.contractId,
          })),
        ],
      },
    ])
    const now = clock.now()
    await repo.insertApplications(
      tx,
      tenantId,
      allocation.applications.map((a) => ({
        cash_transaction_id: Number(cash.id),
        contract_id: a.contractId,
        amount: stored(a.amountCents),
        journal_entry_id: entryId!,
        applied_at: now,
        applied_by: actorLabel(ctx),
        reversed_at: null,
      })),
    )
    const updated = await repo.updateCash(tx, tenantId, Number(cash.id), {
      applied_amount: stored(cents(cash.applied_amount) + allocation.appliedCents),
      updated_at: now,
    })
    await writeAudit(tx, ctx, now, {
      action: 'cash_transaction.applied',
      entityType: ENTITY,
      entityId: Number(cash.id),
      changes: {
        after: {
          entryId,
          applied: centsToNumber(allocation.appliedCents),
          items: allocation.applications.length,
        },
      },
    })
    await appendEvent(tx, tenantId, now, {
      type: 'cash.applied',
      payload: {
        cashTransactionId: Number(cash.id),
        payerId,
        entryId: entryId!,
        amount: stored(allocation.appliedCents),
        contractIds: allocation.applications.slice(0, 100).map((a) => a.contractId),
        items: allocation.applications.length,
      },
    })
    return updated
  }

  /** Records and posts a receipt, then applies it: the body already checked. */
  async function receiveIn(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    body: Omit<CashBody, 'amount' | 'applications'>,
    amount: number,
    applications: StoredCashApplication[] | undefined,
  ): Promise<CashRow> {
    const tenantId = ctx.tenantId
    const accountingDate = await ledger.postingDate(tenantId)
    const now = clock.now()
    const row = await repo.insertCash(tx, tenantId, {
      payer_id: body.payerId,
      payment_method: body.paymentMethod,
      amount: stored(amount),
      reference: body.reference,
      received_date: body.receivedDate,
      accounting_date: accountingDate,
      memo: body.memo ?? null,
      status: 'POSTED',
      return_reason: null,
      returned_at: null,
      received_entry_id: null,
      created_at: now,
      created_by: actorLabel(ctx),
      updated_at: now,
    })
    const entry = await ledger.post(ctx, {
      kind: 'CASH_RECEIVED',
      source: { type: 'CASH', id: Number(row.id) },
      effectiveDate: accountingDate,
      memo: `cash ${row.id} received: ${body.paymentMethod} ${body.reference}`,
      lines: [
        {
          accountHolderId: await deps.administratorId(tenantId),
          purpose: 'CASH',
          side: 'DEBIT',
          amount: stored(amount),
        },
        { accountHolderId: body.payerId, purpose: 'UNAPPLIED_CASH', side: 'CREDIT', amount: stored(amount) },
      ],
    })
    // Written back without a version bump: the row is not yet visible to anyone.
    const posted = await tx
      .updateTable('cash_transaction')
      .set({ received_entry_id: entry.entryId })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', Number(row.id))
      .returningAll()
      .executeTakeFirstOrThrow()
    await writeAudit(tx, ctx, now, {
      action: 'cash_transaction.received',
      entityType: ENTITY,
      entityId: Number(row.id),
      changes: {
        after: { payerId: body.payerId, amount: stored(amount), reference: body.reference, entryId: entry.entryId },
      },
    })
    await appendEvent(tx, tenantId, now, {
      type: 'cash.received',
      payload: {
        cashTransactionId: Number(row.id),
        payerId: body.payerId,
        amount: stored(amount),
        paymentMethod: body.paymentMethod,
        entryId: entry.entryId,
      },
    })
    return apply(tx, ctx, posted, applications, accountingDate)
  }

  async function viewOf(x: Parameters<typeof repo.applicationsOf>[0], tenantId: number, row: CashRow) {
    return cashView(row, await repo.applicationsOf(x, tenantId, [Number(row.id)]))
  }

  async function visibleCash(tx: Transaction<DB>, ctx: RequestContext, id: number): Promise<CashRow> {
    const row = await repo.findCash(tx, ctx.tenantId, id, true)
    if (!row || !canSee(ctx, row.payer_id)) throw notFound(id)
    return row
  }

  return {
    /** POST /cashtransactions: records and processes a receipt in one step. */
    async receive(ctx: AuthenticatedContext, body: CashBody): Promise<CashView> {
      return db.transaction(ctx.tenantId, async (tx) => {
        const { amount, applications } = await checked(tx, ctx, body)
        const row = await receiveIn(tx, ctx, body, amount, applications)
        return viewOf(tx, ctx.tenantId, row)
      })
    },

    /** 404 cash_transaction_not_found unless the cash transaction exists and the caller may see it (custom fields). */
    async assertVisible(ctx: RequestContext, id: number): Promise<void> {
      const row = await db.read(ctx.tenantId, (x) => repo.findCash(x, ctx.tenantId, id))
      if (!row || !canSee(ctx, row.payer_id)) throw notFound(id)
    },

    async get(ctx: RequestContext, id: number): Promise<CashView> {
      return db.read(ctx.tenantId, async (x) => {
        const row = await repo.findCash(x, ctx.tenantId, id)
        if (!row || !canSee(ctx, row.payer_id)) throw notFound(id)
        return viewOf(x, ctx.tenantId, row)
      })
    },

    async list(ctx: RequestContext, query: CashListQuery, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        const { rows, totalCount } = await repo.listCash(
          x,
          ctx.tenantId,
          { ...query, visible: visibleSet(ctx) },
          window,
        )
        const apps = await repo.applicationsOf(
          x,
          ctx.tenantId,
          rows.map((r) => Number(r.id)),
        )
        return { items: rows.map((r) => cashView(r, apps)), totalCount }
      })
    },

    /**
     * PATCH /cashtransactions/{id}: memo, reference; more applications of the unapplied balance; or
     * status RETURNED (NSF): every entry of the receipt reversed, dated the posting date.
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      patch: CashPatch,
      expectVersion: (current: number) => void,
    ): Promise<CashView> {
      const tenantId = ctx.tenantId
      return db.transaction(tenantId, async (tx) => {
        let row = await visibleCash(tx, ctx, id)
        expectVersion(row.version)
        const errors: FieldError[] = []
        const chosen = applicationsOf(patch.applications, errors)
        if (patch.status === 'RETURNED' && !patch.returnReason)
          errors.push({ field: 'returnReason', code: 'required', message: 'is required to return a payment' })
        if (patch.returnReason !== undefined && patch.status !== 'RETURNED')
          errors.push({ field: 'returnReason', code: 'not_allowed', message: 'only with status RETURNED' })
        if (patch.status === 'RETURNED' && chosen !== undefined)
          errors.push({ field: 'applications', code: 'not_allowed', message: 'cannot apply and return at once' })
        if (errors.length > 0) throw invalid(errors)
        if (row.status === 'RETURNED' && (patch.status === 'RETURNED' || chosen !== undefined))
          throw cashErrors.create('cash_already_returned', `Cash transaction ${id} is already returned`)
        const now = clock.now()
        const before = { memo: row.memo, reference: row.reference }
        if (patch.memo !== undefined || patch.reference !== undefined) {
          row = await repo.updateCash(tx, tenantId, id, {
            ...(patch.memo !== undefined ? { memo: patch.memo } : {}),
            ...(patch.reference !== undefined ? { reference: patch.reference } : {}),
            updated_at: now,
          })
          await writeAudit(tx, ctx, now, {
            action: 'cash_transaction.updated',
            entityType: ENTITY,
            entityId: id,
            changes: { before, after: { memo: row.memo, reference: row.reference } },
          })
        }
        if (chosen !== undefined) row = await apply(tx, ctx, row, chosen, await ledger.postingDate(tenantId))
        if (patch.status === 'RETURNED') {
          const effectiveDate = await ledger.postingDate(tenantId)
          const apps = await repo.applicationsOf(tx, tenantId, [id])
          const entryIds = [
            ...new Set(apps.filter((a) => a.reversed_at === null).map((a) => Number(a.journal_entry_id))),
          ]
          const reversals: number[] = []
          for (const entryId of [...entryIds, Number(row.received_entry_id)]) {
            const r = await ledger.reverse(ctx, entryId, { effectiveDate, memo: `cash ${id} returned` })
            reversals.push(r.entryId)
          }
          await repo.reverseApplications(tx, tenantId, id, now)
          row = await repo.updateCash(tx, tenantId, id, {
            status: 'RETURNED',
            return_reason: patch.returnReason ?? null,
            returned_at: now,
            updated_at: now,
          })
          await writeAudit(tx, ctx, now, {
            action: 'cash_transaction.returned',
            entityType: ENTITY,
            entityId: id,
            changes: { after: { status: 'RETURNED', returnReason: patch.returnReason, reversalEntryIds: reversals } },
          })
          await appendEvent(tx, tenantId, now, {
            type: 'cash.returned',
            payload: {
              cashTransactionId: id,
              payerId: Number(row.payer_id),
              amount: row.amount,
              returnReason: patch.returnReason ?? null,
              reversalEntryIds: reversals,
            },
          })
        }
        return viewOf(tx, tenantId, row)
      })
    },

    /** A payer's open items (for the docs and tests; derived from the receivable's lines). */
    async openItems(ctx: RequestContext, payerId: number) {
      return db.read(ctx.tenantId, async (x) => openItems(await repo.receivableByContract(x, ctx.tenantId, payerId)))
    },

    inProcess: {
      async create(ctx: AuthenticatedContext, body: CashBody) {
        return db.transaction(ctx.tenantId, async (tx) => {
          const { amount, applications } = await checked(tx, ctx, body)
          // Checked now for an early answer, and again when processed (items change meanwhile).
          if (applications !== undefined) {
            const items = openItems(await repo.receivableByContract(tx, ctx.tenantId, body.payerId))
            const allocation = allocate(items, amount, applications)
            if (!allocation.ok) throw invalid(allocation.errors)
          }
          const now = clock.now()
          const row = await repo.insertInProcess(tx, ctx.tenantId, {
            payer_id: body.payerId,
            payment_method: body.paymentMethod,
            amount: stored(amount),
            reference: body.reference,
            received_date: body.receivedDate,
            memo: body.memo ?? null,
            applications: applications === undefined ? null : JSON.stringify(applications),
            status: 'PENDING',
            cash_transaction_id: null,
            created_at: now,
            created_by: actorLabel(ctx),
            updated_at: now,
          })
          await writeAudit(tx, ctx, now, {
            action: 'in_process_cash_transaction.created',
            entityType: IN_PROCESS_ENTITY,
            entityId: Number(row.id),
            changes: { after: inProcessView(row) },
          })
          return inProcessView(row)
        })
      },

      async get(ctx: RequestContext, id: number) {
        const row = await db.read(ctx.tenantId, (x) => repo.findInProcess(x, ctx.tenantId, id))
        if (!row || !canSee(ctx, row.payer_id)) throw inProcessNotFound(id)
        return inProcessView(row)
      },

      async list(ctx: RequestContext, query: CashListQuery, window: Window) {
        const { rows, totalCount } = await db.read(ctx.tenantId, (x) =>
          repo.listInProcess(x, ctx.tenantId, { ...query, visible: visibleSet(ctx) }, window),
        )
        return { items: rows.map(inProcessView), totalCount }
      },

      /** Only while PENDING: a processed receipt is in the books (409, nothing written). */
      async remove(ctx: AuthenticatedContext, id: number): Promise<void> {
        await db.transaction(ctx.tenantId, async (tx) => {
          const row = await repo.findInProcess(tx, ctx.tenantId, id, true)
          if (!row || !canSee(ctx, row.payer_id)) throw inProcessNotFound(id)
          if (row.status === 'PROCESSED')
            throw cashErrors.create('cash_already_processed', `In-process cash transaction ${id} is processed`)
          await repo.deleteInProcess(tx, ctx.tenantId, id)
          await writeAudit(tx, ctx, clock.now(), {
            action: 'in_process_cash_transaction.deleted',
            entityType: IN_PROCESS_ENTITY,
            entityId: id,
            changes: { before: inProcessView(row) },
          })
        })
      },

      /** POST /inprocesscashtransactions/{id}/processrequests: the cash transaction, posted and applied. */
      async process(ctx: AuthenticatedContext, id: number): Promise<CashView> {
        return db.transaction(ctx.tenantId, async (tx) => {
          const row = await repo.findInProcess(tx, ctx.tenantId, id, true)
          if (!row || !canSee(ctx, row.payer_id)) throw inProcessNotFound(id)
          if (row.status === 'PROCESSED')
            throw cashErrors.create(
              'cash_already_processed',
              `In-process cash transaction ${id} is already processed`,
              {
                extensions: { cashTransactionId: Number(row.cash_transaction_id) },
              },
            )
          const cash = await receiveIn(
            tx,
            ctx,
            {
              payerId: Number(row.payer_id),
              paymentMethod: row.payment_method,
              reference: row.reference,
              receivedDate: row.received_date,
              memo: row.memo,
            },
            cents(row.amount),
            row.applications ?? undefined,
          )
          const now = clock.now()
          await repo.markProcessed(tx, ctx.tenantId, id, Number(cash.id), now)
          await writeAudit(tx, ctx, now, {
            action: 'in_process_cash_transaction.processed',
            entityType: IN_PROCESS_ENTITY,
            entityId: id,
            changes: { after: { status: 'PROCESSED', cashTransactionId: Number(cash.id) } },
          })
          return viewOf(tx, ctx.tenantId, cash)
        })
      },
    },
  }
}

export type CashService = ReturnType<typeof createCashService>
