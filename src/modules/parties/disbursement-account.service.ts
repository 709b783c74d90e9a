// Disbursement-account use cases: list, read, reveal, create, patch. One transaction per change,
// audited inside it. Bank numbers leave this service masked, except from reveal(), which needs
// bankdetails:read and is itself audited; the audit trail only ever holds masked numbers.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { AppError, platformErrors, type FieldError } from '../../platform/http/errors.ts'
import { mergeFieldErrors } from '../../platform/http/field-errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { applyPatch, patchErrors } from '../../platform/http/patch.ts'
import { compileSchemaValidator } from '../../platform/http/validation.ts'
import { isStorableId } from '../../platform/ids.ts'
import { mayRevealSensitive, visibilityOf } from './account-holder.service.ts'
import { disbursementAccountErrors } from './disbursement-account.errors.ts'
import * as repo from './disbursement-account.repository.ts'
import {
  disbursementAccountViolations,
  maskBankNumber,
  SENSITIVE_FIELDS,
  type AccountType,
  type PaymentMethod,
} from './disbursement-account.rules.ts'
import {
  CreateDisbursementAccountBody,
  IMMUTABLE_FIELDS,
  PatchedDisbursementAccountSchema,
  type DisbursementAccount,
} from './disbursement-account.schemas.ts'
import { partiesErrors } from './parties.errors.ts'

type Deps = { db: Database; clock: Clock }

type Input = Record<string, unknown>

/** The reply; bank numbers masked unless `reveal`. */
export function toDisbursementAccount(row: repo.DisbursementAccountRow, reveal = false): DisbursementAccount {
  return {
    id: row.id,
    accountHolderId: row.account_holder_id,
    name: row.name,
    paymentMethod: row.payment_method,
    bankName: row.bank_name,
    routingNumber: reveal ? row.routing_number : maskBankNumber(row.routing_number),
    accountNumber: reveal ? row.account_number : maskBankNumber(row.account_number),
    accountType: row.account_type,
    isDefault: row.is_default,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  }
}

/** What the audit trail keeps of an account: the masked reply, without the bookkeeping members. */
function auditable(row: repo.DisbursementAccountRow): Input {
  const { updatedAt: _updatedAt, version: _version, ...rest } = toDisbursementAccount(row)
  return rest
}

const validateCreateSchema = compileSchemaValidator(CreateDisbursementAccountBody)
const validatePatchedSchema = compileSchemaValidator(PatchedDisbursementAccountSchema)

/** Schema errors and rule violations in one list (the precedence is mergeFieldErrors'). */
function violations(validateSchema: (value: unknown) => FieldError[], value: unknown): FieldError[] {
  const errors = validateSchema(value)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return errors
  return mergeFieldErrors(errors, disbursementAccountViolations(value as Input))
}

/** Valid input → row values. Bank fields are dropped for CHECK (the rules refuse them anyway). */
function toWrite(input: Input): repo.DisbursementAccountWrite {
  const method = input.paymentMethod as PaymentMethod
  const bank = method !== 'CHECK'
  const text = (v: unknown) => (typeof v === 'string' ? v : null)
  return {
    name: String(input.name).trim(),
    payment_method: method,
    bank_name: bank ? (text(input.bankName)?.trim() ?? null) : null,
    routing_number: bank ? text(input.routingNumber) : null,
    account_number: bank ? text(input.accountNumber) : null,
    account_type: bank ? (text(input.accountType) as AccountType | null) : null,
    is_default: input.isDefault === true,
    status: input.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE',
  }
}

/**
 * Database errors can carry the failing row in their detail, bank numbers included; they are
 * re-thrown without it, so that the 500 log line of an unexpected failure never holds them.
 */
function withoutRowData(err: unknown): unknown {
  const e = err as { code?: unknown; constraint?: unknown }
  if (
    err instanceof Error &&
    !(err instanceof AppError) &&
    typeof e.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(e.code)
  ) {
    return new Error(
      `disbursement account write failed: SQLSTATE ${e.code}${typeof e.constraint === 'string' ? ` (${e.constraint})` : ''}`,
    )
  }
  return err
}

export function createDisbursementAccountService({ db, clock }: Deps) {
  const notFound = (id: number) =>
    disbursementAccountErrors.create('disbursement_account_not_found', `No disbursement account with id ${id}`)

  const unknownAccountHolder = (id: number) =>
    partiesErrors.create('unknown_reference', `accountHolderId: account holder ${id} does not exist`, {
      errors: [{ field: 'accountHolderId', code: 'unknown_reference', message: `account holder ${id} does not exist` }],
    })

  /** Makes `accountId` (or the new account, null) the holder's only default; audits the account it replaces. */
  async function takeDefault(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    accountHolderId: number,
    accountId: number | null,
    now: Date,
  ) {
    const cleared = await repo.clearDefault(tx, ctx.tenantId, accountHolderId, accountId, now)
    for (const id of cleared) {
      await writeAudit(tx, ctx, now, {
        action: 'disbursement_account.updated',
        entityType: 'disbursement_account',
        entityId: id,
        changes: {
          before: { isDefault: true },
          after: { isDefault: false },
          reason: 'another account of the account holder became the default',
        },
      })
    }
  }

  return {
    async list(ctx: AuthenticatedContext, filter: repo.DisbursementAccountFilter, window: Window) {
      if (filter.accountHolderId !== undefined && !isStorableId(filter.accountHolderId))
        return { items: [], totalCount: 0 }
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.listDisbursementAccounts(x, ctx.tenantId, filter, visibilityOf(ctx), window),
      )
      return { items: result.rows.map((r) => toDisbursementAccount(r)), totalCount: result.total }
    },

    async get(ctx: AuthenticatedContext, id: number): Promise<DisbursementAccount> {
      const row = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => repo.findDisbursementAccount(x, ctx.tenantId, id, visibilityOf(ctx)))
        : undefined
      if (!row) throw notFound(id)
      return toDisbursementAccount(row)
    },

    /** The account with bank numbers in clear, for holders of bankdetails:read; who saw them is audited. */
    async reveal(ctx: AuthenticatedContext, id: number): Promise<DisbursementAccount> {
      if (!mayRevealSensitive(ctx)) {
        throw platformErrors.create('permission_denied', 'Revealing bank details requires permission bankdetails:read')
      }
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const row = await repo.findDisbursementAccount(tx, ctx.tenantId, id, visibilityOf(ctx))
        if (!row) throw notFound(id)
        await writeAudit(tx, ctx, now, {
          action: 'disbursement_account.bank_details_revealed',
          entityType: 'disbursement_account',
          entityId: id,
          changes: { fields: [...SENSITIVE_FIELDS], accountHolderId: row.account_holder_id },
        })
        return toDisbursementAccount(row, true)
      })
    },

    /** Creates an account from an unvalidated body: schema and rules are checked together, every bad field listed (400). */
    async create(ctx: AuthenticatedContext, body: unknown): Promise<DisbursementAccount> {
      const errors = violations(validateCreateSchema, body)
      if (errors.length > 0) {
        throw platformErrors.create(
          'validation_failed',
          `${errors.length} invalid field(s) in the body: ${errors.map((e) => e.field).join(', ')}`,
          { errors },
        )
      }
      const input = body as Input
      const accountHolderId = input.accountHolderId as number
      if (!isStorableId(accountHolderId)) throw unknownAccountHolder(accountHolderId)
      const write = toWrite(input)
      const now = clock.now()
      try {
        return await db.transaction(ctx.tenantId, async (tx) => {
          if (!(await repo.lockVisibleAccountHolder(tx, ctx.tenantId, accountHolderId, visibilityOf(ctx))))
            throw unknownAccountHolder(accountHolderId)
          if (write.is_default) await takeDefault(tx, ctx, accountHolderId, null, now)
          const row = await repo.insertDisbursementAccount(tx, ctx.tenantId, accountHolderId, write, now)
          await writeAudit(tx, ctx, now, {
            action: 'disbursement_account.created',
            entityType: 'disbursement_account',
            entityId: row.id,
            changes: { after: auditable(row) },
          })
          return toDisbursementAccount(row)
        })
      } catch (err) {
        throw withoutRowData(err)
      }
    },

    /**
     * Applies a JSON Patch or merge patch to the masked representation. A masked number left as it
     * is keeps the stored number; any other value replaces it and must be a full, valid number. The
     * patch never sees clear numbers, so neither `copy` nor `test` operations can disclose them.
     * id, accountHolderId and the bookkeeping members cannot change; the result is validated as a
     * whole (422 listing every field).
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ): Promise<DisbursementAccount> {
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      try {
        return await db.transaction(ctx.tenantId, async (tx) => {
          // account_holder_id never changes, so reading it before taking the locks is safe.
          const seen = await repo.findDisbursementAccount(tx, ctx.tenantId, id, visibilityOf(ctx))
          if (!seen) throw notFound(id)
          if (!(await repo.lockVisibleAccountHolder(tx, ctx.tenantId, seen.account_holder_id, visibilityOf(ctx))))
            throw notFound(id)
          const before = await repo.lockDisbursementAccount(tx, ctx.tenantId, id)
          if (!before) throw notFound(id)
          checkVersion(before.version)

          const current: Input = toDisbursementAccount(before)
          const patched = applyPatch(current, body, contentType, IMMUTABLE_FIELDS)
          for (const field of SENSITIVE_FIELDS) {
            if (patched[field] !== null && patched[field] !== undefined && patched[field] === current[field]) {
              patched[field] = field === 'routingNumber' ? before.routing_number : before.account_number
            }
          }
          const errors = violations(validatePatchedSchema, patched)
          if (errors.length > 0) {
            throw patchErrors.create(
              'patched_resource_invalid',
              `The patched resource has ${errors.length} invalid field(s): ${errors.map((e) => e.field).join(', ')}`,
              { errors },
            )
          }

          const write = toWrite(patched)
          if (write.is_default && !before.is_default) await takeDefault(tx, ctx, before.account_holder_id, id, now)
          const after = await repo.updateDisbursementAccount(tx, ctx.tenantId, id, write, now)
          const bankDetailsChanged = [
            ...(after.routing_number !== before.routing_number ? ['routingNumber'] : []),
            ...(after.account_number !== before.account_number ? ['accountNumber'] : []),
          ]
          await writeAudit(tx, ctx, now, {
            action: 'disbursement_account.updated',
            entityType: 'disbursement_account',
            entityId: id,
            // The masked numbers can look unchanged when only leading digits changed; say which changed.
            changes: { before: auditable(before), after: auditable(after), bankDetailsChanged },
          })
          return toDisbursementAccount(after)
        })
      } catch (err) {
        throw withoutRowData(err)
      }
    },
  }
}

export type DisbursementAccountService = ReturnType<typeof createDisbursementAccountService>
