// Account-holder use cases shared by every kind: create, read, list, patch, search; plus the
// administrator-company record each tenant gets at creation. One transaction per change, audited.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import type { AccountHolderKind, DB } from '../../platform/db/schema.ts'
import { hasPermission, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import { isStorableId } from '../../platform/ids.ts'
import { ADMIN_COMPANY, type KindDefinition } from './account-holder.kinds.ts'
import { toEditable } from './account-holder.mapper.ts'
import * as repo from './account-holder.repository.ts'
import { patchedSchema, READ_ONLY_FIELDS } from './account-holder.schemas.ts'
import { partiesErrors } from './parties.errors.ts'

type Input = Record<string, unknown>

type Deps = { db: Database; clock: Clock; bus: InvalidationBus }

export function visibilityOf(ctx: AuthenticatedContext): repo.Visibility {
  return ctx.principal.visibleAccountHolderIds
}

/** Callers holding bankdetails:read see tax ids in clear; everyone else the last four digits. */
export function mayRevealSensitive(ctx: AuthenticatedContext): boolean {
  return hasPermission(ctx.principal.permissions, 'bankdetails:read')
}

function toWrite(def: KindDefinition, input: Input): repo.AccountHolderWrite {
  const addresses: Input[] = ((input.addresses as Input[] | undefined) ?? []).map((a) => ({
    type: 'MAILING',
    ...a,
    country: 'US',
  }))
  const phones = ((input.phones as Input[] | undefined) ?? []).map((p) => ({ type: 'OFFICE', ...p }))
  const emails = ((input.emails as Input[] | undefined) ?? []).map((e) => ({ type: 'PRIMARY', ...e }))
  const details: Input = {}
  for (const key of Object.keys(def.details))
    if (input[key] !== undefined && input[key] !== null) details[key] = input[key]
  const legalName = String(input.legalName).trim()
  return {
    business_key: def.businessKeyField ? String(input[def.businessKeyField]) : null,
    legal_name: legalName,
    display_name:
      typeof input.displayName === 'string' && input.displayName.trim() ? input.displayName.trim() : legalName,
    status: input.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE',
    expired_date: typeof input.expiredDate === 'string' ? new Date(input.expiredDate) : null,
    tax_id: typeof input.taxId === 'string' ? input.taxId : null,
    w9_on_file: input.w9OnFile === true,
    addresses: JSON.stringify(addresses),
    phones: JSON.stringify(phones),
    emails: JSON.stringify(emails),
    primary_state: (addresses[0]?.state as string | undefined) ?? null,
    details: JSON.stringify(details),
    dealer_group_id: typeof input.dealerGroupId === 'number' ? input.dealerGroupId : null,
  }
}

/** Published (key `<tenantId>:`) after any account holder of the tenant changed; caches of account-holder data drop the tenant's entries. */
export const ACCOUNT_HOLDER_TOPIC = 'parties.account_holder'

export function createAccountHolderService({ db, clock, bus }: Deps) {
  const patchedValidators = new Map<AccountHolderKind, (value: unknown) => void>()
  const validatePatched = (def: KindDefinition, value: unknown) => {
    let validate = patchedValidators.get(def.kind)
    if (!validate) {
      validate = createPatchedValidator(patchedSchema(def))
      patchedValidators.set(def.kind, validate)
    }
    validate(value)
  }

  const notFound = (def: KindDefinition, id: number) =>
    partiesErrors.create('account_holder_not_found', `No ${def.noun} with id ${id}`)

  /** Referenced account holders must exist in the tenant, with the right kind. */
  async function assertReferences(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    def: KindDefinition,
    input: Input,
  ): Promise<void> {
    const checks: Array<{ field: string; id: number; kind: AccountHolderKind | null; noun: string }> = []
    if (typeof input.dealerGroupId === 'number')
      checks.push({ field: 'dealerGroupId', id: input.dealerGroupId, kind: 'DEALER_GROUP', noun: 'dealer group' })
    if (Array.isArray(input.agentIds)) {
      ;(input.agentIds as number[]).forEach((id, i) =>
        checks.push({ field: `agentIds[${i}]`, id, kind: 'AGENT', noun: 'agent' }),
      )
    }
    if (def.kind === 'CUSTOMER' && typeof input.dealerId === 'number')
      checks.push({ field: 'dealerId', id: input.dealerId, kind: 'DEALER', noun: 'dealer' })
    if (def.kind === 'CLAIM_PAYEE' && typeof input.relatedAccountHolderId === 'number') {
      checks.push({
        field: 'relatedAccountHolderId',
        id: input.relatedAccountHolderId,
        kind: null,
        noun: 'account holder',
      })
    }
    const errors: FieldError[] = []
    for (const c of checks) {
      const found = isStorableId(c.id) ? await repo.existingOfKind(tx, ctx.tenantId, c.kind, [c.id]) : new Set<number>()
      if (!found.has(c.id))
        errors.push({ field: c.field, code: 'unknown_reference', message: `${c.noun} ${c.id} does not exist` })
    }
    if (errors.length > 0)
      throw partiesErrors.create('unknown_reference', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors,
      })
  }

  function conflict(def: KindDefinition, err: unknown, write: repo.AccountHolderWrite): never {
    if (isUniqueViolation(err, 'account_holder_business_key_uq') && def.businessKeyField) {
      throw partiesErrors.create(
        'business_key_taken',
        `Another ${def.noun} already has ${def.businessKeyField} ${write.business_key}`,
        {
          errors: [{ field: def.businessKeyField, code: 'taken', message: `is already used by another ${def.noun}` }],
        },
      )
    }
    throw err
  }

  async function load(
    ctx: AuthenticatedContext,
    def: KindDefinition,
    id: number,
    exec?: Transaction<DB>,
  ): Promise<repo.AccountHolderRow> {
    const row = isStorableId(id)
      ? await (exec
          ? repo.findAccountHolder(exec, ctx.tenantId, def.kind, id, visibilityOf(ctx))
          : db.read(ctx.tenantId, (x) => repo.findAccountHolder(x, ctx.tenantId, def.kind, id, visibilityOf(ctx))))
      : undefined
    if (!row) throw notFound(def, id)
    return row
  }

  return {
    get: (ctx: AuthenticatedContext, def: KindDefinition, id: number) => load(ctx, def, id),

    async list(
      ctx: AuthenticatedContext,
      def: KindDefinition | null,
      filter: repo.AccountHolderFilter,
      window: Window,
    ) {
      const effective = def ? { ...filter, kind: def.kind } : filter
      return db.reportRead(ctx.tenantId, (x) =>
        repo.listAccountHolders(x, ctx.tenantId, effective, visibilityOf(ctx), clock.now(), window),
      )
    },

    async create(ctx: AuthenticatedContext, def: KindDefinition, input: Input): Promise<repo.AccountHolderRow> {
      const now = clock.now()
      const write = toWrite(def, input)
      try {
        const created = await db.transaction(ctx.tenantId, async (tx) => {
          await assertReferences(tx, ctx, def, input)
          const id = await repo.insertAccountHolder(tx, ctx.tenantId, def.kind, write, now)
          if (def.kind === 'DEALER')
            await repo.replaceDealerAgents(tx, ctx.tenantId, id, (input.agentIds as number[] | undefined) ?? [])
          const row = (await repo.findAccountHolder(tx, ctx.tenantId, def.kind, id, null)) as repo.AccountHolderRow
          await writeAudit(tx, ctx, now, {
            action: `${def.kind.toLowerCase()}.created`,
            entityType: 'account_holder',
            entityId: id,
            changes: { after: auditable(toEditable(def, row)) },
          })
          return row
        })
        await db.afterCommit(() => bus.publish(ACCOUNT_HOLDER_TOPIC, `${ctx.tenantId}:`))
        return created
      } catch (err) {
        conflict(def, err, write)
      }
    },

    /**
     * Applies a JSON Patch or merge patch to the record's full representation; identity, kind and
     * timestamps cannot change; the result is validated as a whole before it is saved.
     */
    async patch(
      ctx: AuthenticatedContext,
      def: KindDefinition,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ): Promise<repo.AccountHolderRow> {
      if (!isStorableId(id)) throw notFound(def, id)
      const now = clock.now()
      let write: repo.AccountHolderWrite | undefined
      try {
        const updated = await db.transaction(ctx.tenantId, async (tx) => {
          const locked = await repo.lockAccountHolder(tx, ctx.tenantId, def.kind, id, visibilityOf(ctx))
          if (!locked) throw notFound(def, id)
          checkVersion(locked.version)
          const before = await load(ctx, def, id, tx)
          const current = toEditable(def, before)
          const patched = applyPatch(current, body, contentType, [...READ_ONLY_FIELDS])
          validatePatched(def, patched)
          await assertReferences(tx, ctx, def, patched)
          write = toWrite(def, patched)
          await repo.updateAccountHolder(tx, ctx.tenantId, id, write, now)
          if (def.kind === 'DEALER')
            await repo.replaceDealerAgents(tx, ctx.tenantId, id, (patched.agentIds as number[] | undefined) ?? [])
          const after = (await repo.findAccountHolder(tx, ctx.tenantId, def.kind, id, null)) as repo.AccountHolderRow
          await writeAudit(tx, ctx, now, {
            action: `${def.kind.toLowerCase()}.updated`,
            entityType: 'account_holder',
            entityId: id,
            changes: { before: auditable(current), after: auditable(toEditable(def, after)) },
          })
          return after
        })
        await db.afterCommit(() => bus.publish(ACCOUNT_HOLDER_TOPIC, `${ctx.tenantId}:`))
        return updated
      } catch (err) {
        if (write) conflict(def, err, write)
        throw err
      }
    },

    async adminCompany(ctx: AuthenticatedContext, id: number) {
      return load(ctx, ADMIN_COMPANY, id)
    },

    /** Creates the tenant's administrator-company record (the obligor) inside tenant creation. */
    async initializeTenant(tx: Transaction<DB>, tenant: { id: number; name: string }, now: Date): Promise<void> {
      await repo.insertAccountHolder(
        tx,
        tenant.id,
        'ADMIN_COMPANY',
        toWrite(ADMIN_COMPANY, { companyCode: 'ADMIN', legalName: tenant.name }),
        now,
      )
    },
  }
}

/** The audit trail keeps what changed, but never a tax id in clear. */
function auditable(rep: Input): Input {
  return { ...rep, taxId: rep.taxId ? '[set]' : null }
}

export type AccountHolderService = ReturnType<typeof createAccountHolderService>
