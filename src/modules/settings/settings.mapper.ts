// Catalogue entry + stored row → the API's view of a setting (camelCase, JSON values).
import {
  SETTING_GROUPS,
  SETTINGS,
  type SettingDefinition,
  type SettingGroupCode,
  type SettingJson,
  type SettingType,
} from './settings.catalog.ts'
import type { StoredSetting } from './settings.repository.ts'
import { effectiveJson } from './settings.rules.ts'

export type SettingConstraints = {
  nullable: boolean
  minimum?: number | string
  maximum?: number | string
  minLength?: number
  maxLength?: number
  format?: string
  allowedValues?: string[]
}

export type SettingView = {
  id: number
  key: string
  name: string
  group: SettingGroupCode
  groupId: number
  type: SettingType
  description: string
  /** The value in effect for the tenant. */
  value: SettingJson
  defaultValue: SettingJson
  /** True when the tenant has not set a value of its own (or reset it). */
  isDefault: boolean
  constraints: SettingConstraints
  /** When and by whom the tenant's value was last set; null while the default applies. */
  updatedAt: string | null
  updatedBy: string | null
  /** Row version (the ETag); 0 while the default applies. */
  version: number
}

export type SettingGroupView = { id: number; code: string; name: string; description: string; settingIds: number[] }

const groupIds = new Map<string, number>(SETTING_GROUPS.map((g) => [g.code, g.id]))

export function constraintsOf(def: SettingDefinition): SettingConstraints {
  const c: SettingConstraints = { nullable: def.nullable === true }
  switch (def.type) {
    case 'integer':
    case 'decimal':
      c.minimum = def.minimum
      c.maximum = def.maximum
      break
    case 'string':
      c.minLength = def.minLength
      c.maxLength = def.maxLength
      if (def.format) c.format = def.format
      break
    case 'date':
    case 'duration':
      if (def.minimum !== undefined) c.minimum = def.minimum
      if (def.maximum !== undefined) c.maximum = def.maximum
      break
    case 'list':
      c.allowedValues = [...def.allowedValues]
      break
    case 'boolean':
      break
  }
  return c
}

export function toSettingView(def: SettingDefinition, stored: StoredSetting | undefined): SettingView {
  const effective = effectiveJson(def, stored)
  const own = effective.isDefault ? undefined : stored
  return {
    id: def.id,
    key: def.key,
    name: def.name,
    group: def.group,
    groupId: groupIds.get(def.group) ?? 0,
    type: def.type,
    description: def.description,
    value: effective.value,
    defaultValue: def.default,
    isDefault: effective.isDefault,
    constraints: constraintsOf(def),
    updatedAt: own ? own.updated_at.toISOString() : null,
    updatedBy: own ? own.updated_by : null,
    version: stored?.version ?? 0,
  }
}

export function settingGroupViews(): SettingGroupView[] {
  return SETTING_GROUPS.map((g) => ({
    id: g.id,
    code: g.code,
    name: g.name,
    description: g.description,
    settingIds: SETTINGS.filter((s) => s.group === g.code).map((s) => s.id),
  }))
}
