// Custom fields on agents, dealer groups and dealers, and the per-tenant definitions that govern
// them (docs/custom-fields.md). The parent account holder is resolved through the account-holder
// service, so a missing, other-kind or invisible parent is its 404. One transaction per change,
// audited inside it; field writes and definition writes of one name are serialised
// (repo.lockFieldName), so a definition never commits beside a field that contradicts it.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { KindDefinition } from './account-holder.kinds.ts'
import type { AccountHolderService } from './account-holder.service.ts'
import { customFieldErrors } from './custom-field.errors.ts'
import { toDefinitionDto, toFieldDto } from './custom-field.mapper.ts'
import * as repo from './custom-field.repository.ts'
import {
  checkCustomField,
  CUSTOM_FIELD_KINDS,
  definitionProblems,
  type CustomFieldKind,
  type CustomFieldValue,
} from './custom-field.rules.ts'
import {
  CUSTOM_FIELD_DEFINITION_READ_ONLY,
  CUSTOM_FIELD_READ_ONLY,
  PatchedCustomFieldDefinitionSchema,
  PatchedCustomFieldSchema,
  type AddCustomFieldInput,
  type CreateCustomFieldDefinitionInput,
} from './custom-field.schemas.ts'

type Deps = { db: Database; clock: Clock; accountHolders: Pick<AccountHolderService, 'get'> }

type VersionCheck = (current: number) => void

const NOUNS: Record<CustomFieldKind, string> = {
  AGENT: 'agent',
  DEALER_GROUP: 'dealer group',
  DEALER: 'dealer',
  CASH_TRANSACTION: 'cash transaction',
}

/**
 * What a field belongs to: an account holder of a kind with fields, or a cash transaction (the
 * finance module registers how one is found: registerCashTransactions). Fields of every owner follow
 * the same rules and the tenant's definitions of the owner's kind.
 */
export type FieldOwner = {
  kind: CustomFieldKind
  noun: string
  id: number
  /** The member naming the owner in audit records and conflict reports. */
  key: 'accountHolderId' | 'cashTransactionId'
  /** Throws the owner's 404 unless it exists in the tenant and the caller may see it. */
  check(ctx: AuthenticatedContext): Promise<unknown>
}

function kindOf(def: KindDefinition): CustomFieldKind {
  const kind = CUSTOM_FIELD_KINDS.find((k) => k === def.kind)
  if (!kind) throw new Error(`${def.kind} account holders have no custom fields`)
  return kind
}

function rulesOf(row: repo.DefinitionRow | undefined) {
  return row && { name: row.name, type: row.type, allowedValues: row.allowed_values, maxLength: row.max_length }
}

function describe(errors: FieldError[]): string {
  return errors.map((e) => `${e.field} ${e.message}`).join('; ')
}

export function createCustomFieldService({ db, clock, accountHolders }: Deps) {
  const validatePatchedField = createPatchedValidator(PatchedCustomFieldSchema)
  const validatePatchedDefinition = createPatchedValidator(PatchedCustomFieldDefinitionSchema)

  const fieldNotFound = (owner: FieldOwner, fieldId: number) =>
    customFieldErrors.create(
      'custom_field_not_found',
      `No custom field with id ${fieldId} on ${owner.noun} ${owner.id}`,
    )
  const definitionNotFound = (id: number) =>
    customFieldErrors.create('custom_field_definition_not_found', `No custom field definition with id ${id}`)
  const nameTaken = (owner: FieldOwner, name: string) =>
    customFieldErrors.create(
      'custom_field_name_taken',
      `${owner.noun} ${owner.id} already has a custom field named ${name}`,
      {
        errors: [
          {
            field: 'name',
            code: 'taken',
            message: `is already used by another custom field of this ${owner.noun} (names ignore case)`,
          },
        ],
      },
    )
  const definitionNameTaken = (kind: CustomFieldKind, name: string) =>
    customFieldErrors.create(
      'custom_field_definition_name_taken',
      `A ${NOUNS[kind]} custom field named ${name} is already defined`,
      {
        errors: [{ field: 'name', code: 'taken', message: `is already defined for ${kind} (names ignore case)` }],
      },
    )

  function checkValue(
    type: repo.FieldRow['type'],
    value: unknown,
    definition: repo.DefinitionRow | undefined,
  ): CustomFieldValue {
    const checked = checkCustomField(type, value, rulesOf(definition))
    if (!checked.ok)
      throw customFieldErrors.create(
        'invalid_custom_field_value',
        `The custom field is not valid: ${describe(checked.errors)}`,
        { errors: checked.errors },
      )
    return checked.value
  }

  function checkDefinition(shape: Parameters<typeof definitionProblems>[0]): void {
    const errors = definitionProblems(shape)
    if (errors.length > 0)
      throw customFieldErrors.create(
        'invalid_custom_field_definition',
        `The definition is not valid: ${describe(errors)}`,
        { errors },
      )
  }

  /**
   * Refuses a definition (or, with `rules` null, the removal of one) that fields already stored
   * under its name would contradict.
   */
  async function assertNoConflicts(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    key: { applies_to: CustomFieldKind; name: string },
    rules: Parameters<typeof repo.conflictingFields>[3],
  ): Promise<void> {
    const found = await repo.conflictingFields(tx, ctx.tenantId, key, rules)
    if (found.total === 0) return
    const noun = NOUNS[key.applies_to]
    const detail =
      rules === null
        ? `${found.total} ${noun} LIST custom field(s) named ${key.name} need this definition; delete them first`
        : `${found.total} existing ${noun} custom field(s) named ${key.name} do not satisfy the definition; change or delete them first`
    const members = [...new Set(found.rows.map((r) => r.reason))]
    throw customFieldErrors.create('custom_field_definition_conflict', detail, {
      errors: members.map((field) => ({
        field,
        code: 'conflict',
        message: `contradicts existing ${noun} custom fields named ${key.name}`,
      })),
      extensions: {
        conflictingFields: found.rows.map((r) => ({
          [key.applies_to === 'CASH_TRANSACTION' ? 'cashTransactionId' : 'accountHolderId']: Number(r.owner_id),
          fieldId: r.id,
          member: r.reason,
        })),
      },
    })
  }

  async function lockedField(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    owner: FieldOwner,
    fieldId: number,
    checkVersion: VersionCheck,
  ) {
    await owner.check(ctx)
    const locked = isStorableId(fieldId)
      ? await repo.lockField(tx, ctx.tenantId, owner.kind, owner.id, fieldId)
      : undefined
    if (!locked) throw fieldNotFound(owner, fieldId)
    checkVersion(locked.version)
    await repo.lockFieldName(tx, ctx.tenantId, owner.kind, locked.name, 'shared')
    return (await repo.findField(tx, ctx.tenantId, owner.kind, owner.id, fieldId)) as repo.FieldRow
  }

  let cashTransactionCheck: ((ctx: AuthenticatedContext, id: number) => Promise<unknown>) | undefined

  async function lockedDefinition(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    id: number,
    checkVersion: VersionCheck,
  ): Promise<repo.DefinitionRow> {
    const found = isStorableId(id) ? await repo.findDefinition(tx, ctx.tenantId, id) : undefined
    if (!found) throw definitionNotFound(id)
    // appliesTo and name never change, so the name lock taken from this read is the right one.
    await repo.lockFieldName(tx, ctx.tenantId, found.applies_to, found.name, 'exclusive')
    const locked = await repo.lockDefinition(tx, ctx.tenantId, id)
    if (!locked) throw definitionNotFound(id)
    checkVersion(locked.version)
    return locked
  }

  return {
    // -------------------------------------------------------------------------------------------
    // Fields

    /** An account holder of a kind with fields as a field owner (its 404 is the account holder's). */
    accountHolder(def: KindDefinition, holderId: number): FieldOwner {
      return {
        kind: kindOf(def),
        noun: def.noun,
        id: holderId,
        key: 'accountHolderId',
        check: (ctx) => accountHolders.get(ctx, def, holderId),
      }
    },

    /** A cash transaction as a field owner; the finance module registers how one is found. */
    cashTransaction(id: number): FieldOwner {
      return {
        kind: 'CASH_TRANSACTION',
        noun: NOUNS.CASH_TRANSACTION,
        id,
        key: 'cashTransactionId',
        check: (ctx) => {
          if (!cashTransactionCheck) throw new Error('cash transactions are not registered with custom fields')
          return cashTransactionCheck(ctx, id)
        },
      }
    },

    /** How a cash transaction is found for the caller (the finance module's 404), set once at start. */
    registerCashTransactions(check: (ctx: AuthenticatedContext, id: number) => Promise<unknown>): void {
      cashTransactionCheck = check
    },

    /** A page of the owner's fields, and the required definitions it has no field for. */
    async listFields(ctx: AuthenticatedContext, owner: FieldOwner, filter: { name?: string }, window: Window) {
      await owner.check(ctx)
      return db.read(ctx.tenantId, async (x) => ({
        ...(await repo.listFields(x, ctx.tenantId, owner.kind, owner.id, filter, window)),
        missingRequired: await repo.missingRequired(x, ctx.tenantId, owner.kind, owner.id),
      }))
    },

    async getField(ctx: AuthenticatedContext, owner: FieldOwner, fieldId: number): Promise<repo.FieldRow> {
      await owner.check(ctx)
      const row = isStorableId(fieldId)
        ? await db.read(ctx.tenantId, (x) => repo.findField(x, ctx.tenantId, owner.kind, owner.id, fieldId))
        : undefined
      if (!row) throw fieldNotFound(owner, fieldId)
      return row
    },

    /** Adds a field; with a definition of its name, the definition's type, constraints and spelling apply. */
    async addField(ctx: AuthenticatedContext, owner: FieldOwner, input: AddCustomFieldInput): Promise<repo.FieldRow> {
      const { kind } = owner
      const now = clock.now()
      try {
        return await db.transaction(ctx.tenantId, async (tx) => {
          await owner.check(ctx)
          await repo.lockFieldName(tx, ctx.tenantId, kind, input.name, 'shared')
          const definition = await repo.findDefinitionByName(tx, ctx.tenantId, kind, input.name)
          const value = checkValue(input.type, input.value, definition)
          const name = definition?.name ?? input.name
          if (await repo.fieldNameTaken(tx, ctx.tenantId, kind, owner.id, name)) throw nameTaken(owner, name)
          const id = await repo.insertField(tx, ctx.tenantId, kind, owner.id, { name, type: input.type, value }, now)
          const row = (await repo.findField(tx, ctx.tenantId, kind, owner.id, id)) as repo.FieldRow
          await writeAudit(tx, ctx, now, {
            action: 'custom_field.created',
            entityType: 'custom_field',
            entityId: id,
            changes: { [owner.key]: owner.id, kind, after: toFieldDto(row) },
          })
          return row
        })
      } catch (err) {
        // Two concurrent adds of one name: the unique index decides.
        if (
          isUniqueViolation(err, 'account_holder_custom_field_name_uq') ||
          isUniqueViolation(err, 'cash_transaction_custom_field_name_uq')
        )
          throw nameTaken(owner, input.name)
        throw err
      }
    },

    /**
     * Applies a JSON Patch or merge patch to the field's representation. Only `value` may change;
     * the result is validated as a whole, then against the type and the definition.
     */
    async patchField(
      ctx: AuthenticatedContext,
      owner: FieldOwner,
      fieldId: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: VersionCheck,
    ): Promise<repo.FieldRow> {
      const { kind } = owner
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const before = await lockedField(tx, ctx, owner, fieldId, checkVersion)
        const current = toFieldDto(before)
        const patched = applyPatch(current, body, contentType, CUSTOM_FIELD_READ_ONLY)
        validatePatchedField(patched)
        const definition = await repo.findDefinitionByName(tx, ctx.tenantId, kind, before.name)
        const value = checkValue(before.type, patched.value, definition)
        await repo.updateFieldValue(tx, ctx.tenantId, kind, fieldId, value, now)
        const after = (await repo.findField(tx, ctx.tenantId, kind, owner.id, fieldId)) as repo.FieldRow
        await writeAudit(tx, ctx, now, {
          action: 'custom_field.updated',
          entityType: 'custom_field',
          entityId: fieldId,
          changes: { [owner.key]: owner.id, kind, before: current, after: toFieldDto(after) },
        })
        return after
      })
    },

    /** Deletes a field, unless a required definition governs its name (409). */
    async deleteField(
      ctx: AuthenticatedContext,
      owner: FieldOwner,
      fieldId: number,
      checkVersion: VersionCheck,
    ): Promise<void> {
      const { kind } = owner
      const now = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const before = await lockedField(tx, ctx, owner, fieldId, checkVersion)
        const definition = await repo.findDefinitionByName(tx, ctx.tenantId, kind, before.name)
        if (definition?.required) {
          throw customFieldErrors.create(
            'custom_field_required',
            `${before.name} is required on every ${owner.noun} (custom field definition ${definition.id}); change its value instead, or make the definition optional first`,
          )
        }
        await repo.deleteField(tx, ctx.tenantId, kind, fieldId)
        await writeAudit(tx, ctx, now, {
          action: 'custom_field.deleted',
          entityType: 'custom_field',
          entityId: fieldId,
          changes: { [owner.key]: owner.id, kind, before: toFieldDto(before) },
        })
      })
    },

    // -------------------------------------------------------------------------------------------
    // Definitions

    async listDefinitions(ctx: AuthenticatedContext, filter: repo.DefinitionFilter, window: Window) {
      return db.reportRead(ctx.tenantId, (x) => repo.listDefinitions(x, ctx.tenantId, filter, window))
    },

    async getDefinition(ctx: AuthenticatedContext, id: number): Promise<repo.DefinitionRow> {
      const row = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => repo.findDefinition(x, ctx.tenantId, id))
        : undefined
      if (!row) throw definitionNotFound(id)
      return row
    },

    /** Creates a definition; fields already stored under its name must satisfy it (409 otherwise). */
    async createDefinition(
      ctx: AuthenticatedContext,
      input: CreateCustomFieldDefinitionInput,
    ): Promise<repo.DefinitionRow> {
      checkDefinition(input)
      const now = clock.now()
      const key = { applies_to: input.appliesTo, name: input.name, type: input.type }
      const write: repo.DefinitionWrite = {
        label: input.label ?? input.name,
        required: input.required ?? false,
        allowed_values: input.allowedValues ?? null,
        max_length: input.maxLength ?? null,
      }
      try {
        return await db.transaction(ctx.tenantId, async (tx) => {
          await repo.lockFieldName(tx, ctx.tenantId, input.appliesTo, input.name, 'exclusive')
          if (await repo.findDefinitionByName(tx, ctx.tenantId, input.appliesTo, input.name))
            throw definitionNameTaken(input.appliesTo, input.name)
          await assertNoConflicts(tx, ctx, key, { type: key.type, ...write })
          const id = await repo.insertDefinition(tx, ctx.tenantId, key, write, now)
          const row = (await repo.findDefinition(tx, ctx.tenantId, id)) as repo.DefinitionRow
          await writeAudit(tx, ctx, now, {
            action: 'custom_field_definition.created',
            entityType: 'custom_field_definition',
            entityId: id,
            changes: { after: toDefinitionDto(row) },
          })
          return row
        })
      } catch (err) {
        if (isUniqueViolation(err, 'custom_field_definition_name_uq'))
          throw definitionNameTaken(input.appliesTo, input.name)
        throw err
      }
    },

    /**
     * Applies a JSON Patch or merge patch to the definition. label, required, allowedValues and
     * maxLength may change; stored fields must satisfy the result (409 otherwise).
     */
    async patchDefinition(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: VersionCheck,
    ): Promise<repo.DefinitionRow> {
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const locked = await lockedDefinition(tx, ctx, id, checkVersion)
        const current = toDefinitionDto(locked)
        const patched = applyPatch(current, body, contentType, CUSTOM_FIELD_DEFINITION_READ_ONLY)
        validatePatchedDefinition(patched)
        const next = patched as {
          label: string
          required: boolean
          allowedValues?: string[] | null
          maxLength?: number | null
        }
        const write: repo.DefinitionWrite = {
          label: next.label,
          required: next.required,
          allowed_values: next.allowedValues ?? null,
          max_length: next.maxLength ?? null,
        }
        checkDefinition({ type: locked.type, allowedValues: write.allowed_values, maxLength: write.max_length })
        await assertNoConflicts(tx, ctx, locked, { type: locked.type, ...write })
        await repo.updateDefinition(tx, ctx.tenantId, locked.id, write, now)
        const after = (await repo.findDefinition(tx, ctx.tenantId, locked.id)) as repo.DefinitionRow
        await writeAudit(tx, ctx, now, {
          action: 'custom_field_definition.updated',
          entityType: 'custom_field_definition',
          entityId: locked.id,
          changes: { before: current, after: toDefinitionDto(after) },
        })
        return after
      })
    },

    /**
     * Deletes a definition; fields of its name stay, under their type's own rules from then on.
     * LIST fields cannot outlive their definition (409 while any exists).
     */
    async deleteDefinition(ctx: AuthenticatedContext, id: number, checkVersion: VersionCheck): Promise<void> {
      const now = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const locked = await lockedDefinition(tx, ctx, id, checkVersion)
        await assertNoConflicts(tx, ctx, locked, null)
        await repo.deleteDefinition(tx, ctx.tenantId, locked.id)
        await writeAudit(tx, ctx, now, {
          action: 'custom_field_definition.deleted',
          entityType: 'custom_field_definition',
          entityId: locked.id,
          changes: { before: toDefinitionDto(locked) },
        })
      })
    },
  }
}

export type CustomFieldService = ReturnType<typeof createCustomFieldService>
