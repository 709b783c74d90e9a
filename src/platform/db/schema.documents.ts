// Kysely table types of the documents tables (migrations/2026_11_22_0009_documents.ts). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'
import type { Json, JsonValue } from './schema.ts'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export type DocumentTable = {
  id: Generated<number>
  tenant_id: number
  owner_type: string
  owner_id: number
  kind: string
  title: string
  current_version: number
  created_at: Timestamp
  updated_at: Timestamp
  created_by: string
}

export type DocumentVersionTable = {
  id: Generated<number>
  tenant_id: number
  document_id: number
  version_no: number
  file_name: string
  content_type: string
  size_bytes: number
  sha256: string
  storage: 'DATABASE' | 'FILESYSTEM'
  storage_key: string
  /** What the owner module records about the version (a contract PDF's `draft`, ...). */
  metadata: Json<Record<string, JsonValue>>
  created_at: Timestamp
  created_by: string
}

export type DocumentBlobChunkTable = { tenant_id: number; storage_key: string; seq: number; data: Buffer }

/** `secret`: sealed (platform/secrets.ts sealBytes), or hex left by migration 0012 until sealed at start-up. */
export type DocumentLinkKeyTable = { tenant_id: number; secret: string; created_at: Timestamp }

export type DocumentTables = {
  document: DocumentTable
  document_version: DocumentVersionTable
  document_blob_chunk: DocumentBlobChunkTable
  document_link_key: DocumentLinkKeyTable
}
