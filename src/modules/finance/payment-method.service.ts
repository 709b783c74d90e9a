// Payment methods (docs/payment-methods.md): which method the tenant and each account holder use to
// pay or be paid, tied to disbursement accounts by id only (bank details stay there). The resolution
// rule is pure (payment-method.rules.ts); this file loads what it needs and writes records with their
// audit rows in one transaction. Dealer-side users see their holders' records and the tenant's.
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { actorLabel, type AuthenticatedContext, type RequestContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { paymentMethodErrors } from './payment-method.errors.ts'
import * as repo from './payment-method.repository.ts'
import type { PaymentMethodRow } from './payment-method.repository.ts'
import {
  paymentMethodViolations,
  resolvePaymentMethod,
  type PaymentDirection,
  type PaymentMethod,
  type PaymentMethodRecord,
} from './payment-method.rules.ts'

export type PaymentMethodBody = {
  accountHolderId?: number | null | undefined
  direction: PaymentDirection
  paymentMethod: PaymentMethod
  disbursementAccountId?: number | null | undefined
  isDefault?: boolean | undefined
}
export type PaymentMethodQuery = {
  accountHolderId?: number | undefined
  direction?: string | undefined
  paymentMethod?: string | undefined
}

const ENTITY = 'available_payment_method'

export function paymentMethodView(r: PaymentMethodRow) {
  return {
    id: Number(r.id),
    accountHolderId: r.account_holder_id === null ? null : Number(r.account_holder_id),
    direction: r.direction,
    paymentMethod: r.payment_method,
    disbursementAccountId: r.disbursement_account_id === null ? null : Number(r.disbursement_account_id),
    isDefault: r.is_default,
    createdAt: new Date(r.created_at).toISOString(),
  }
}
export type PaymentMethodView = ReturnType<typeof paymentMethodView>

const asRecord = (r: PaymentMethodRow): PaymentMethodRecord => ({
  accountHolderId: r.account_holder_id === null ? null : String(r.account_holder_id),
  direction: r.direction,
  paymentMethod: r.payment_method,
  disbursementAccountId: r.disbursement_account_id === null ? null : String(r.disbursement_account_id),
  isDefault: r.is_default,
})

export function createPaymentMethodService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps
  const visibleSet = (ctx: RequestContext) => ctx.principal?.visibleAccountHolderIds ?? null
  const canSee = (ctx: RequestContext, holderId: number | null) => {
    const v = visibleSet(ctx)
    return v === null || holderId === null || v.has(Number(holderId))
  }
  const notFound = (id: number) => paymentMethodErrors.create('payment_method_not_found', `No payment method ${id}`)
  const invalid = (errors: FieldError[]) =>
    paymentMethodErrors.create('payment_method_invalid', errors.map((e) => `${e.field} ${e.message}`).join('; '), {
      errors,
    })
  const unknownHolder = (id: number): FieldError => ({
    field: 'accountHolderId',
    code: 'unknown_reference',
    message: `account holder ${id} does not exist`,
  })

  /** The resolution for a holder and direction (used by payout runs too). */
  async function resolveIn(x: Executor, tenantId: number, accountHolderId: number, direction: PaymentDirection) {
    const [records, accounts] = await Promise.all([
      repo.recordsFor(x, tenantId, accountHolderId),
      repo.accountsOf(x, tenantId, accountHolderId),
    ])
    const r = resolvePaymentMethod({
      accountHolderId: String(accountHolderId),
      direction,
      records: records.map(asRecord),
      accounts,
    })
    return {
      paymentMethod: r.paymentMethod,
      ...(r.disbursementAccountId !== undefined ? { disbursementAccountId: Number(r.disbursementAccountId) } : {}),
      source: r.source,
    }
  }

  return {
    async list(ctx: RequestContext, query: PaymentMethodQuery, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        const { rows, totalCount } = await repo.listPaymentMethods(
          x,
          ctx.tenantId,
          { ...query, visible: visibleSet(ctx) },
          window,
        )
        return { items: rows.map(paymentMethodView), totalCount }
      })
    },

    async create(ctx: AuthenticatedContext, body: PaymentMethodBody): Promise<PaymentMethodView> {
      const holderId = body.accountHolderId ?? null
      // A tenant rule is the administrator's own setting: dealer-side users write only their holders'.
      if (holderId === null && visibleSet(ctx) !== null) throw invalid([unknownHolder(0)])
      return db.transaction(ctx.tenantId, async (tx) => {
        if (holderId !== null && (!canSee(ctx, holderId) || !(await repo.holderExists(tx, ctx.tenantId, holderId))))
          throw invalid([unknownHolder(holderId)])
        const accountId = body.disbursementAccountId ?? null
        const accounts = holderId === null ? [] : await repo.accountsOf(tx, ctx.tenantId, holderId)
        const account = accounts.find((a) => a.id === String(accountId)) ?? null
        const errors = paymentMethodViolations(
          {
            accountHolderId: holderId === null ? null : String(holderId),
            direction: body.direction,
            paymentMethod: body.paymentMethod,
            disbursementAccountId: accountId === null ? null : String(accountId),
          },
          account,
        )
        if (errors.length > 0) throw invalid(errors)
        const isDefault = body.isDefault ?? false
        if (isDefault) {
          await advisoryLock(tx, 'payment_method_default', [ctx.tenantId, holderId ?? 0, body.direction])
          await repo.clearDefault(tx, ctx.tenantId, holderId, body.direction)
        }
        const now = clock.now()
        const row = await repo.insertPaymentMethod(tx, {
          tenant_id: ctx.tenantId,
          account_holder_id: holderId,
          direction: body.direction,
          payment_method: body.paymentMethod,
          disbursement_account_id: accountId,
          is_default: isDefault,
          created_at: now,
          created_by: actorLabel(ctx),
        })
        const view = paymentMethodView(row)
        await writeAudit(tx, ctx, now, {
          action: 'payment_method.created',
          entityType: ENTITY,
          entityId: view.id,
          changes: { after: view },
        })
        return view
      })
    },

    async remove(ctx: AuthenticatedContext, id: number): Promise<void> {
      await db.transaction(ctx.tenantId, async (tx) => {
        const row = await repo.findPaymentMethod(tx, ctx.tenantId, id)
        if (!row || !canSee(ctx, row.account_holder_id)) throw notFound(id)
        // Dealer-side users may read the tenant's rule but not remove it.
        if (row.account_holder_id === null && visibleSet(ctx) !== null) throw notFound(id)
        await repo.deletePaymentMethod(tx, ctx.tenantId, id)
        await writeAudit(tx, ctx, clock.now(), {
          action: 'payment_method.deleted',
          entityType: ENTITY,
          entityId: id,
          changes: { before: paymentMethodView(row) },
        })
      })
    },

    /** POST /availablePaymentMethods/paymentMethod: which method and account a payment uses. Writes nothing. */
    async resolve(ctx: RequestContext, body: { accountHolderId: number; direction: PaymentDirection }) {
      return db.read(ctx.tenantId, async (x) => {
        if (!canSee(ctx, body.accountHolderId) || !(await repo.holderExists(x, ctx.tenantId, body.accountHolderId)))
          throw invalid([unknownHolder(body.accountHolderId)])
        return resolveIn(x, ctx.tenantId, body.accountHolderId, body.direction)
      })
    },

    resolveIn,
  }
}

export type PaymentMethodService = ReturnType<typeof createPaymentMethodService>
