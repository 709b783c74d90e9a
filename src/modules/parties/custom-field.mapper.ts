// Rows → API shapes of custom fields and definitions. The reply is also the representation a
// PATCH applies to (its read-only members are refused by name when they change).
import type { CustomFieldType } from '../../platform/db/schema.ts'
import type { CustomFieldKind, CustomFieldValue } from './custom-field.rules.ts'
import type { DefinitionRow, FieldRow } from './custom-field.repository.ts'

export type CustomFieldDto = {
  id: number
  name: string
  type: CustomFieldType
  value: CustomFieldValue
  label?: string
  createdAt: string
  updatedAt: string
  version: number
}

export type CustomFieldDefinitionDto = {
  id: number
  appliesTo: CustomFieldKind
  name: string
  label: string
  type: CustomFieldType
  required: boolean
  allowedValues: string[] | null
  maxLength: number | null
  createdAt: string
  updatedAt: string
  version: number
}

export function toFieldDto(row: FieldRow): CustomFieldDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    value: row.value,
    ...(row.label !== null ? { label: row.label } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  }
}

export function toDefinitionDto(row: DefinitionRow): CustomFieldDefinitionDto {
  return {
    id: row.id,
    appliesTo: row.applies_to,
    name: row.name,
    label: row.label,
    type: row.type,
    required: row.required,
    allowedValues: row.allowed_values,
    maxLength: row.max_length,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  }
}
