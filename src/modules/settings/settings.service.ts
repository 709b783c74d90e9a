// General settings use cases: reading (API, other modules, operators) and changing (API, CLI).
// Writes run in one transaction with their audit record, then publish an invalidation so every
// instance drops its cached values for the tenant at once.
import { writeAudit } from '../../platform/audit.ts'
import { createTtlCache, type InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { actorLabel, type RequestContext } from '../../platform/http/context.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import {
  SETTING_GROUPS,
  SETTING_TYPE_INFO,
  SETTINGS,
  type SettingDefinition,
  type SettingJson,
  type SettingKey,
  type SettingTypeInfo,
} from './settings.catalog.ts'
import { settingsErrors, SettingsOperatorError } from './settings.errors.ts'
import { settingGroupViews, toSettingView, type SettingGroupView, type SettingView } from './settings.mapper.ts'
import * as repo from './settings.repository.ts'
import {
  definitionOf,
  effectiveJson,
  findDefinition,
  parseOperatorInput,
  toTypedValue,
  validateSettingValue,
  type SettingValue,
  type Validated,
} from './settings.rules.ts'

/** Bus topic; the key is `<tenantId>:`, the tenant whose values changed. */
export const SETTINGS_TOPIC = 'settings.tenant'

/** Called with the current row version (0 when the default applies); throws to refuse (If-Match). */
export type VersionCheck = (current: number) => void

export type SettingsListFilter = { group?: string }

type Deps = { db: Database; clock: Clock; bus: InvalidationBus }

type TypedValues = ReadonlyMap<string, unknown>

export function createSettingsService({ db, clock, bus }: Deps) {
  // Effective typed values per tenant. The bus makes changes visible at once; the TTL only bounds
  // staleness if a notification is ever lost.
  const cache = createTtlCache<TypedValues>({ ttlMs: 5 * 60_000, maxEntries: 10_000, clock })
  bus.subscribe(SETTINGS_TOPIC, (key) => cache.delete(key))

  const cacheKey = (tenantId: number) => `${tenantId}:`

  async function loadTyped(tenantId: number): Promise<TypedValues> {
    const stored = new Map(
      (await db.read(tenantId, (x) => repo.listStored(x, tenantId))).map((r) => [r.setting_key, r]),
    )
    const values = new Map<string, unknown>()
    for (const def of SETTINGS) values.set(def.key, toTypedValue(def, effectiveJson(def, stored.get(def.key)).value))
    return values
  }

  function definitionFor(idOrKey: string): SettingDefinition {
    const def = findDefinition(idOrKey)
    if (!def) throw settingsErrors.create('setting_not_found', `No general setting has the id or key '${idOrKey}'`)
    return def
  }

  function refuse(def: SettingDefinition, checked: Validated & { ok: false }): never {
    throw settingsErrors.create('invalid_setting_value', `${def.key}: value ${checked.problem.message}`, {
      errors: [{ field: 'value', code: checked.problem.code, message: checked.problem.message }],
    })
  }

  async function write(
    ctx: RequestContext,
    def: SettingDefinition,
    value: SettingJson,
    checkVersion: VersionCheck,
  ): Promise<SettingView> {
    const now = clock.now()
    const by = actorLabel(ctx)
    const view = await db.transaction(ctx.tenantId, async (tx) => {
      let current = await repo.lockStored(tx, ctx.tenantId, def.key)
      checkVersion(current?.version ?? 0)
      const before = toSettingView(def, current)
      let row = current
        ? await repo.updateStored(tx, ctx.tenantId, def.key, value, by, now)
        : await repo.insertStored(tx, ctx.tenantId, def.key, value, by, now)
      if (!row) {
        // Another transaction stored the first value while we looked; check against it instead.
        current = await repo.lockStored(tx, ctx.tenantId, def.key)
        checkVersion(current?.version ?? 0)
        row = await repo.updateStored(tx, ctx.tenantId, def.key, value, by, now)
      }
      const after = toSettingView(def, row)
      await writeAudit(tx, ctx, now, {
        action: 'setting.updated',
        entityType: 'general_setting',
        entityId: def.id,
        changes: {
          key: def.key,
          before: { value: before.value, isDefault: before.isDefault, version: before.version },
          after: { value: after.value, isDefault: after.isDefault, version: after.version },
        },
      })
      return after
    })
    await bus.publish(SETTINGS_TOPIC, cacheKey(ctx.tenantId))
    return view
  }

  async function reset(ctx: RequestContext, def: SettingDefinition, checkVersion: VersionCheck): Promise<SettingView> {
    const now = clock.now()
    const changed = await db.transaction(ctx.tenantId, async (tx) => {
      const current = await repo.lockStored(tx, ctx.tenantId, def.key)
      checkVersion(current?.version ?? 0)
      if (!current) return false
      const before = toSettingView(def, current)
      await repo.deleteStored(tx, ctx.tenantId, def.key)
      await writeAudit(tx, ctx, now, {
        action: 'setting.reset',
        entityType: 'general_setting',
        entityId: def.id,
        changes: {
          key: def.key,
          before: { value: before.value, isDefault: before.isDefault, version: before.version },
          after: { value: def.default, isDefault: true, version: 0 },
        },
      })
      return true
    })
    if (changed) await bus.publish(SETTINGS_TOPIC, cacheKey(ctx.tenantId))
    return toSettingView(def, undefined)
  }

  async function views(tenantId: number, defs: readonly SettingDefinition[]): Promise<SettingView[]> {
    if (defs.length === 0) return []
    const stored = new Map(
      (await db.read(tenantId, (x) => repo.listStored(x, tenantId))).map((r) => [r.setting_key, r]),
    )
    return defs.map((def) => toSettingView(def, stored.get(def.key)))
  }

  async function assertTenant(tenantId: number): Promise<void> {
    const exists = isStorableId(tenantId) && (await db.read(null, (x) => repo.tenantExists(x, tenantId)))
    if (!exists) throw new SettingsOperatorError(`Tenant ${tenantId} does not exist`)
  }

  function operatorDefinition(key: string): SettingDefinition {
    const def = findDefinition(key)
    if (!def)
      throw new SettingsOperatorError(
        `Unknown setting '${key}'. Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`,
      )
    return def
  }

  return {
    /**
     * The typed value in effect for the tenant: the tenant's own value or the catalogue default.
     * Served from a per-tenant cache that writes invalidate on every instance.
     */
    async get<K extends SettingKey>(tenantId: number, key: K): Promise<SettingValue<K>> {
      const def = definitionOf(key)
      if (!def) throw new Error(`unknown setting key ${key}`)
      const values = await cache.getOrLoad(cacheKey(tenantId), () => loadTyped(tenantId))
      return values?.get(def.key) as SettingValue<K>
    },

    /** Every setting of the tenant (catalogue order), optionally of one group (code or id). */
    async list(
      ctx: RequestContext,
      filter: SettingsListFilter,
      window: Window,
    ): Promise<{ items: SettingView[]; totalCount: number }> {
      const group = filter.group?.trim().toLowerCase()
      const groupCode =
        group === undefined
          ? undefined
          : SETTING_GROUPS.find((g) => g.code.toLowerCase() === group || String(g.id) === group)?.code
      const matching = group === undefined ? SETTINGS : SETTINGS.filter((s) => s.group === groupCode)
      const items = await views(ctx.tenantId, matching.slice(window.offset, window.offset + window.limit))
      return { items, totalCount: matching.length }
    },

    /** One setting by integer id or key (ignoring case). */
    async view(ctx: RequestContext, idOrKey: string): Promise<SettingView> {
      const def = definitionFor(idOrKey)
      const stored = await db.read(ctx.tenantId, (x) => repo.findStored(x, ctx.tenantId, def.key))
      return toSettingView(def, stored)
    },

    groups(): SettingGroupView[] {
      return settingGroupViews()
    },

    types(): SettingTypeInfo[] {
      return [...SETTING_TYPE_INFO]
    },

    /**
     * Sets the tenant's value from a JSON value (the API). `id` and `key`, when given, must name the
     * same setting (400 otherwise); a value that does not fit is 422.
     */
    async update(
      ctx: RequestContext,
      idOrKey: string,
      input: { value: unknown; id?: number; key?: string },
      checkVersion: VersionCheck = () => {},
    ): Promise<SettingView> {
      const def = definitionFor(idOrKey)
      const wrong =
        input.id !== undefined && input.id !== def.id
          ? 'id'
          : input.key !== undefined && input.key.toLowerCase() !== def.key.toLowerCase()
            ? 'key'
            : undefined
      if (wrong) {
        throw platformErrors.create(
          'id_mismatch',
          `The body's ${wrong} ${String(input[wrong])} does not name setting ${def.id} (${def.key}) of the path`,
          {
            errors: [{ field: wrong, code: 'mismatch', message: 'must name the setting in the path' }],
          },
        )
      }
      const checked = validateSettingValue(def, input.value)
      if (!checked.ok) refuse(def, checked)
      return write(ctx, def, checked.value, checkVersion)
    },

    /** Drops the tenant's value so the default applies again. */
    async reset(ctx: RequestContext, idOrKey: string, checkVersion: VersionCheck = () => {}): Promise<SettingView> {
      return reset(ctx, definitionFor(idOrKey), checkVersion)
    },

    /**
     * Operator CLI: sets a setting (by key or id) from command-line text ('75', 'true', '49.99',
     * '2026-01-01', 'PT30M', a list value ignoring case, 'null' for nullable settings), in the
     * tenant of `ctx`, the operator's system context. Throws SettingsOperatorError with a readable
     * message on any invalid input.
     */
    async setForOperator(ctx: RequestContext, key: string, rawValue: string): Promise<SettingView> {
      const def = operatorDefinition(key)
      const checked = parseOperatorInput(def, rawValue)
      if (!checked.ok)
        throw new SettingsOperatorError(`Invalid value for ${def.key} (${def.type}): ${checked.problem.message}`)
      await assertTenant(ctx.tenantId)
      return write(ctx, def, checked.value, () => {})
    },

    /** Operator CLI: resets a setting to its default, in the tenant of `ctx` (the operator's system context). */
    async resetForOperator(ctx: RequestContext, key: string): Promise<SettingView> {
      const def = operatorDefinition(key)
      await assertTenant(ctx.tenantId)
      return reset(ctx, def, () => {})
    },

    /** Operator CLI: every setting of the tenant with its effective value. */
    async listForOperator(tenantId: number): Promise<SettingView[]> {
      await assertTenant(tenantId)
      return views(tenantId, SETTINGS)
    },
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
