// Account-holder disbursement use cases: list, read, create, patch, the audit-log entry of a change,
// the code/label/group look-ups of the active rate book, and forQuote, the rate quote's cached
// read. One transaction per change with its audit record; after it commits, an invalidation on the
// bus drops the holder's cached rules on every instance.
import { writeAudit } from '../../../platform/audit.ts'
import { createTtlCache, type InvalidationBus } from '../../../platform/cache.ts'
import type { Clock } from '../../../platform/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { isForeignKeyViolation } from '../../../platform/db/errors.ts'
import type { AuthenticatedContext } from '../../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../../platform/http/errors.ts'
import { mergeFieldErrors } from '../../../platform/http/field-errors.ts'
import type { Window } from '../../../platform/http/pagination.ts'
import { applyPatch, patchErrors } from '../../../platform/http/patch.ts'
import { compileSchemaValidator } from '../../../platform/http/validation.ts'
import { isStorableId } from '../../../platform/ids.ts'
import { toStoredDecimal } from '../../../platform/money.ts'
import { disbursementErrors } from './disbursement.errors.ts'
import * as repo from './disbursement.repository.ts'
import { catalogueKinds } from '../ratebook/index.ts'
import {
  AMOUNT_PLACES,
  changedFields,
  disbursementViolations,
  fingerprintOf,
  GROUP_DESCRIPTIONS,
  HOLDER_KINDS,
  PERCENT_PLACES,
  type DisbursementGroup,
  type HolderKind,
} from './disbursement.rules.ts'
import {
  CreateDisbursementBody,
  IMMUTABLE_FIELDS,
  PatchedDisbursementSchema,
  type Disbursement,
  type DisbursementAuditEntry,
} from './disbursement.schemas.ts'

/**
 * One disbursement as the rate quote applies it (docs/disbursements.md). amount and percent are the
 * `numeric` columns' decimal strings ("150.00", "2.5000"), which the quote's Decimal arithmetic reads.
 */
export type AppliedDisbursementRule = {
  id: number
  accountHolderId: number
  accountHolderKind: 'DEALER' | 'DEALER_GROUP' | 'AGENT'
  code: string
  label: string
  group: string
  basis: 'AMOUNT' | 'PERCENT'
  amount: string | null
  percent: string | null
  productId: number | null
  programId: number | null
  planId: number | null
  termId: number | null
  effectiveFrom: string
  effectiveTo: string | null
}

/** The account holders of a sale whose disbursements the quote applies. */
export type QuoteHolders = { dealerId: number; dealerGroupId: number | null; agentIds: number[] }

export type DisbursementCode = { code: string; label: string; group: string }

/** The active rate book's disbursement codes (the rate-book store). */
export type DisbursementCodesPort = { disbursementCodes(tenantId: number): Promise<DisbursementCode[]> }

/** Account-holder kinds by id, for every account holder of the tenant (parties' directory). */
export type HolderDirectory = {
  accountHolderKinds(tenantId: number, ids: number[]): Promise<ReadonlyMap<number, string>>
}

/** Bus topic; the key is `<tenantId>:<accountHolderId>`, the holder whose disbursements changed. */
export const DISBURSEMENTS_TOPIC = 'rating.disbursements'

type Deps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  directory: HolderDirectory
  codes: DisbursementCodesPort
}

type Input = Record<string, unknown>

type Holder = { id: number; kind: HolderKind }

const CATALOGUE_REFERENCES = [
  { member: 'productId', kind: 'PRODUCT' },
  { member: 'programId', kind: 'PROGRAM' },
  { member: 'planId', kind: 'PLAN' },
  { member: 'termId', kind: 'TERM' },
] as const

export function toDisbursement(row: repo.DisbursementRow): Disbursement {
  return {
    id: row.id,
    accountHolderId: row.account_holder_id,
    accountHolderKind: row.account_holder_kind,
    code: row.code,
    label: row.label,
    group: row.disbursement_group as DisbursementGroup,
    basis: row.basis,
    // numeric(12,2) and numeric(9,4) as JSON numbers: Number() of a decimal of at most 15 digits is
    // the double whose shortest rendering is that decimal, so the reply writes it exactly.
    amount: row.amount === null ? null : Number(row.amount),
    percent: row.percent === null ? null : Number(row.percent),
    target: { productId: row.product_id, programId: row.program_id, planId: row.plan_id, termId: row.term_id },
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
    auditLogId: row.audit_log_id,
  }
}

function toRule(row: repo.RuleRow): AppliedDisbursementRule {
  return Object.freeze({
    id: row.id,
    accountHolderId: row.account_holder_id,
    accountHolderKind: row.account_holder_kind,
    code: row.code,
    label: row.label,
    group: row.disbursement_group,
    basis: row.basis,
    amount: row.amount,
    percent: row.percent,
    productId: row.product_id,
    programId: row.program_id,
    planId: row.plan_id,
    termId: row.term_id,
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
  })
}

/** What the audit trail keeps of a disbursement: the reply without the bookkeeping members that say where it is kept. */
function snapshot(d: Disbursement): Input {
  const { updatedAt: _updatedAt, auditLogId: _auditLogId, ...rest } = d
  return rest
}

const validateCreateSchema = compileSchemaValidator(CreateDisbursementBody)
const validatePatchedSchema = compileSchemaValidator(PatchedDisbursementSchema)

/** Schema errors and rule violations in one list; for a field both judge, the rule's (more specific) errors replace the schema's. */
function violations(validateSchema: (value: unknown) => FieldError[], value: unknown): FieldError[] {
  const errors = validateSchema(value)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return errors
  return mergeFieldErrors(errors, disbursementViolations(value as Input))
}

function targetOf(input: Input): Record<string, number | null> {
  const target = (input.target ?? {}) as Record<string, unknown>
  const id = (v: unknown) => (typeof v === 'number' ? v : null)
  return {
    productId: id(target.productId),
    programId: id(target.programId),
    planId: id(target.planId),
    termId: id(target.termId),
  }
}

/** Valid input → row values; `code` is the book's entry for the input's code. */
function toWrite(input: Input, code: DisbursementCode): repo.DisbursementWrite {
  const target = targetOf(input)
  return {
    code: code.code,
    label: code.label,
    disbursement_group: code.group,
    basis: input.basis as 'AMOUNT' | 'PERCENT',
    amount: input.basis === 'AMOUNT' ? toStoredDecimal(input.amount, AMOUNT_PLACES) : null,
    percent: input.basis === 'PERCENT' ? toStoredDecimal(input.percent, PERCENT_PLACES) : null,
    product_id: target.productId ?? null,
    program_id: target.programId ?? null,
    plan_id: target.planId ?? null,
    term_id: target.termId ?? null,
    effective_from: input.effectiveFrom as string,
    effective_to: typeof input.effectiveTo === 'string' ? input.effectiveTo : null,
  }
}

/** Dealer-side callers see the disbursements of their own dealers only; staff see every one. */
function maySee(ctx: AuthenticatedContext, holderId: number, kind: string): boolean {
  const visible = ctx.principal.visibleAccountHolderIds
  return visible === null || (kind === 'DEALER' && visible.has(holderId))
}

export function createDisbursementService({ db, clock, bus, directory, codes }: Deps) {
  // The rules of each account holder, for the rate quote. The bus makes changes visible at once on
  // every instance; the TTL only bounds staleness should a notification be lost.
  type Cached = { rules: readonly AppliedDisbursementRule[]; versions: ReadonlyArray<{ id: number; version: number }> }
  const cache = createTtlCache<Cached>({ ttlMs: 5 * 60_000, maxEntries: 100_000, clock })
  // What forQuote answers for a dealer's set of holders, kept whole (the quote asks per request);
  // any change of the tenant's disbursements drops the tenant's sets.
  type ForQuote = { fingerprint: string; rules: AppliedDisbursementRule[] }
  const sets = createTtlCache<ForQuote>({ ttlMs: 5 * 60_000, maxEntries: 100_000, clock })
  bus.subscribe(DISBURSEMENTS_TOPIC, (key) => {
    cache.delete(key)
    sets.deletePrefix(`${key.slice(0, key.indexOf(':'))}:`)
  })

  const cacheKey = (tenantId: number, holderId: number) => `${tenantId}:${holderId}`

  // Announced once the change is committed, also when the request's own transaction holds it (Idempotency-Key).
  const invalidate = (tenantId: number, holderId: number) =>
    db.afterCommit(() => bus.publish(DISBURSEMENTS_TOPIC, cacheKey(tenantId, holderId)))

  function rulesOf(tenantId: number, holderId: number): Promise<Cached | undefined> {
    return cache.getOrLoad(cacheKey(tenantId, holderId), async () => {
      const rows = await db.read(tenantId, (x) => repo.rulesOfHolder(x, tenantId, holderId))
      return { rules: Object.freeze(rows.map(toRule)), versions: rows.map((r) => ({ id: r.id, version: r.version })) }
    })
  }

  /** The rules of a sale's holders (see forQuote), read through the per-holder cache. */
  async function holderSet(tenantId: number, holders: QuoteHolders): Promise<ForQuote> {
    const slots: Holder[] = [{ id: holders.dealerId, kind: 'DEALER' }]
    if (holders.dealerGroupId !== null) slots.push({ id: holders.dealerGroupId, kind: 'DEALER_GROUP' })
    for (const agentId of holders.agentIds) slots.push({ id: agentId, kind: 'AGENT' })
    const seen = new Set<string>()
    const wanted = slots.filter(
      (s) => isStorableId(s.id) && !seen.has(`${s.kind}:${s.id}`) && seen.add(`${s.kind}:${s.id}`),
    )
    const loaded = await Promise.all(wanted.map((s) => rulesOf(tenantId, s.id)))
    const rules: AppliedDisbursementRule[] = []
    const versions: Array<{ id: number; version: number }> = []
    loaded.forEach((entry, i) => {
      if (!entry) return
      entry.rules.forEach((rule, k) => {
        if (rule.accountHolderKind !== wanted[i]!.kind) return
        rules.push(rule)
        versions.push(entry.versions[k]!)
      })
    })
    return { fingerprint: fingerprintOf(versions), rules }
  }

  const notFound = (id: number) => disbursementErrors.create('disbursement_not_found', `No disbursement with id ${id}`)

  /** The account holder of a path id: 404 when unknown or not visible to the caller, 422 when of a kind that has no disbursements. */
  async function holderFor(ctx: AuthenticatedContext, id: number): Promise<Holder> {
    const kind = isStorableId(id) ? (await directory.accountHolderKinds(ctx.tenantId, [id])).get(id) : undefined
    if (kind === undefined || !maySee(ctx, id, kind)) {
      throw disbursementErrors.create('account_holder_not_found', `No account holder with id ${id}`)
    }
    if (!(HOLDER_KINDS as readonly string[]).includes(kind)) {
      throw disbursementErrors.create(
        'disbursement_holder_kind_not_allowed',
        `Account holder ${id} is a ${kind}; disbursements belong to dealers, dealer groups and agents`,
        {
          errors: [
            {
              field: 'accountHolderId',
              code: 'not_allowed',
              message: `is a ${kind}, not a DEALER, DEALER_GROUP or AGENT`,
            },
          ],
        },
      )
    }
    return { id, kind: kind as HolderKind }
  }

  /**
   * The book's entry for the input's code (looked up only when it differs from `current`, the
   * stored one), and the kinds of the target's catalogue ids: every problem listed at once, 422
   * unknown_reference.
   */
  async function resolveReferences(
    ctx: AuthenticatedContext,
    input: Input,
    current: DisbursementCode | null,
  ): Promise<DisbursementCode> {
    const errors: FieldError[] = []
    let code = current
    if (!code || code.code !== input.code) {
      code = (await codes.disbursementCodes(ctx.tenantId)).find((c) => c.code === input.code) ?? null
      if (!code)
        errors.push({
          field: 'code',
          code: 'unknown_reference',
          message: `${String(input.code)} is not a disbursement code of the active rate book`,
        })
    }
    const target = targetOf(input)
    const ids = CATALOGUE_REFERENCES.map((r) => target[r.member]).filter(
      (v): v is number => typeof v === 'number' && isStorableId(v),
    )
    const kinds = await db.read(ctx.tenantId, (x) => catalogueKinds(x, ctx.tenantId, ids))
    for (const ref of CATALOGUE_REFERENCES) {
      const id = target[ref.member]
      if (id === null || id === undefined) continue
      const kind = isStorableId(id) ? kinds.get(id) : undefined
      if (kind === undefined)
        errors.push({
          field: `target.${ref.member}`,
          code: 'unknown_reference',
          message: `catalogue item ${id} does not exist`,
        })
      else if (kind !== ref.kind)
        errors.push({
          field: `target.${ref.member}`,
          code: 'unknown_reference',
          message: `catalogue item ${id} is a ${kind}, not a ${ref.kind}`,
        })
    }
    if (errors.length > 0 || !code) {
      throw disbursementErrors.create('unknown_reference', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors,
      })
    }
    return code
  }

  /** A foreign-key failure means a referenced row vanished meanwhile; answered like a reference that never existed. */
  function referenceRace(err: unknown): never {
    if (isForeignKeyViolation(err)) {
      throw disbursementErrors.create(
        'unknown_reference',
        'A referenced account holder or catalogue item does not exist',
        {
          errors: [
            { field: 'target', code: 'unknown_reference', message: 'a referenced catalogue item does not exist' },
          ],
        },
      )
    }
    throw err
  }

  return {
    async list(ctx: AuthenticatedContext, accountHolderId: number, filter: repo.DisbursementFilter, window: Window) {
      const holder = await holderFor(ctx, accountHolderId)
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.listDisbursements(x, ctx.tenantId, holder.id, filter, window),
      )
      return { items: result.rows.map(toDisbursement), totalCount: result.total }
    },

    async get(ctx: AuthenticatedContext, id: number): Promise<Disbursement> {
      const row = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => repo.findDisbursement(x, ctx.tenantId, id))
        : undefined
      if (!row || !maySee(ctx, row.account_holder_id, row.account_holder_kind)) throw notFound(id)
      return toDisbursement(row)
    },

    /** Creates a disbursement on an account holder from an unvalidated body: schema and rules together, every bad field listed (400). */
    async create(ctx: AuthenticatedContext, accountHolderId: number, body: unknown): Promise<Disbursement> {
      const errors = violations(validateCreateSchema, body)
      if (errors.length > 0) {
        throw platformErrors.create(
          'validation_failed',
          `${errors.length} invalid field(s) in the body: ${errors.map((e) => e.field).join(', ')}`,
          { errors },
        )
      }
      const input = body as Input
      const holder = await holderFor(ctx, accountHolderId)
      const code = await resolveReferences(ctx, input, null)
      const now = clock.now()
      let created: Disbursement
      try {
        created = await db.transaction(ctx.tenantId, async (tx) => {
          const id = await repo.insertDisbursement(tx, ctx.tenantId, holder, toWrite(input, code), now)
          const inserted = toDisbursement((await repo.findDisbursement(tx, ctx.tenantId, id)) as repo.DisbursementRow)
          await writeAudit(tx, ctx, now, {
            action: `${repo.AUDIT_ENTITY}.created`,
            entityType: repo.AUDIT_ENTITY,
            entityId: id,
            changes: { accountHolderId: holder.id, before: null, after: snapshot(inserted) },
          })
          return { ...inserted, auditLogId: await repo.latestAuditLogId(tx, ctx.tenantId, id) }
        })
      } catch (err) {
        referenceRace(err)
      }
      await invalidate(ctx.tenantId, holder.id)
      return created
    },

    /**
     * JSON Patch or merge patch applied to the reply representation. id, accountHolderId, the kind,
     * label and group (which follow the code) and the bookkeeping members cannot change; the result
     * is validated as a whole (422 listing every field). A changed code must be one of the active
     * book; an unchanged one stays valid even if the book has dropped it, so it can still be ended.
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ): Promise<Disbursement> {
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      let result: { disbursement: Disbursement; holderId: number }
      try {
        result = await db.transaction(ctx.tenantId, async (tx) => {
          const locked = await repo.lockDisbursement(tx, ctx.tenantId, id)
          if (!locked || !maySee(ctx, locked.account_holder_id, locked.account_holder_kind)) throw notFound(id)
          checkVersion(locked.version)
          const before = toDisbursement((await repo.findDisbursement(tx, ctx.tenantId, id)) as repo.DisbursementRow)
          const patched = applyPatch(before, body, contentType, IMMUTABLE_FIELDS)
          const errors = violations(validatePatchedSchema, patched)
          if (errors.length > 0) {
            throw patchErrors.create(
              'patched_resource_invalid',
              `The patched resource has ${errors.length} invalid field(s): ${errors.map((e) => e.field).join(', ')}`,
              { errors },
            )
          }
          const code = await resolveReferences(ctx, patched, {
            code: before.code,
            label: before.label,
            group: before.group,
          })
          await repo.updateDisbursement(tx, ctx.tenantId, id, toWrite(patched, code), now)
          const changed = toDisbursement((await repo.findDisbursement(tx, ctx.tenantId, id)) as repo.DisbursementRow)
          await writeAudit(tx, ctx, now, {
            action: `${repo.AUDIT_ENTITY}.updated`,
            entityType: repo.AUDIT_ENTITY,
            entityId: id,
            changes: { accountHolderId: locked.account_holder_id, before: snapshot(before), after: snapshot(changed) },
          })
          return {
            disbursement: { ...changed, auditLogId: await repo.latestAuditLogId(tx, ctx.tenantId, id) },
            holderId: locked.account_holder_id,
          }
        })
      } catch (err) {
        referenceRace(err)
      }
      await invalidate(ctx.tenantId, result.holderId)
      return result.disbursement
    },

    /** One audit-log entry of a disbursement change; 404 for any other entry, or one of a disbursement the caller may not see. */
    async auditEntry(ctx: AuthenticatedContext, auditLogId: number): Promise<DisbursementAuditEntry> {
      const row = isStorableId(auditLogId)
        ? await db.read(ctx.tenantId, (x) => repo.findAuditEntry(x, ctx.tenantId, auditLogId))
        : undefined
      if (!row || !maySee(ctx, row.account_holder_id, row.account_holder_kind)) {
        throw disbursementErrors.create(
          'disbursement_audit_log_not_found',
          `No disbursement audit-log entry with id ${auditLogId}`,
        )
      }
      const changes = (row.changes ?? {}) as { before?: Input | null; after?: Input }
      const before = changes.before ?? null
      const after = changes.after ?? {}
      return {
        id: row.id,
        disbursementId: row.disbursement_id,
        accountHolderId: row.account_holder_id,
        action: row.action.endsWith('.created') ? 'CREATED' : 'UPDATED',
        occurredAt: row.occurred_at.toISOString(),
        actor: { userId: row.actor_user_id, label: row.actor_label },
        requestId: row.request_id,
        changedFields: changedFields(before, after),
        before,
        after,
      }
    },

    /** The active rate book's disbursement codes, by code. */
    async codes(ctx: AuthenticatedContext): Promise<Array<{ code: string; label: string; group: DisbursementGroup }>> {
      const list = await codes.disbursementCodes(ctx.tenantId)
      return list
        .map((c) => ({ code: c.code, label: c.label, group: c.group as DisbursementGroup }))
        .toSorted((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    },

    /** The labels of the active book's codes, each with the codes carrying it, by label. */
    async labels(ctx: AuthenticatedContext): Promise<Array<{ label: string; codes: string[] }>> {
      const byLabel = new Map<string, string[]>()
      for (const c of await codes.disbursementCodes(ctx.tenantId))
        byLabel.set(c.label, [...(byLabel.get(c.label) ?? []), c.code])
      return [...byLabel.entries()]
        .map(([label, list]) => ({ label, codes: list.toSorted() }))
        .toSorted((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    },

    /** The fixed groups of disbursement codes, with what each stands for. */
    groups(): Array<{ group: DisbursementGroup; description: string }> {
      return (Object.entries(GROUP_DESCRIPTIONS) as Array<[DisbursementGroup, string]>).map(([group, description]) => ({
        group,
        description,
      }))
    },

    /**
     * The disbursements of the sale's dealer, dealer group and agents (each only if the account
     * holder has that kind), dealer first, then the group, then the agents in the order given, each
     * by id; including those not yet effective or already ended (the caller filters by sale date).
     * `fingerprint` changes whenever any returned rule does. Served from memory; every change
     * invalidates it on every instance.
     */
    async forQuote(tenantId: number, holders: QuoteHolders): Promise<ForQuote> {
      const key = `${tenantId}:${holders.dealerId}:${holders.dealerGroupId ?? ''}:${holders.agentIds.join(',')}`
      return (await sets.getOrLoad(key, () => holderSet(tenantId, holders)))!
    },
  }
}

export type DisbursementService = ReturnType<typeof createDisbursementService>
