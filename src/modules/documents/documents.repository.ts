// Documents, their versions, blob chunks and the (sealed) link-signing key. Executor first, tenant always.
import { sql, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import { precompile } from '../../platform/db/precompiled.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { DocumentTable, DocumentVersionTable } from '../../platform/db/schema.documents.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type DocumentRow = Selectable<DocumentTable>
export type VersionRow = Selectable<DocumentVersionTable>

export async function insertDocument(
  tx: Transaction<DB>,
  tenantId: number,
  values: {
    ownerType: string
    ownerId: number
    kind: string
    title: string
    createdBy: string
    at: Date
  },
): Promise<DocumentRow> {
  return tx
    .insertInto('document')
    .values({
      tenant_id: tenantId,
      owner_type: values.ownerType,
      owner_id: values.ownerId,
      kind: values.kind,
      title: values.title,
      current_version: 1,
      created_at: values.at,
      updated_at: values.at,
      created_by: values.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The document, locked until the transaction ends: versions are numbered one after another. */
export async function lockDocument(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<DocumentRow | undefined> {
  return tx
    .selectFrom('document')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function setCurrentVersion(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  versionNo: number,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('document')
    .set({ current_version: versionNo, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export async function insertVersion(
  tx: Transaction<DB>,
  tenantId: number,
  values: {
    documentId: number
    versionNo: number
    fileName: string
    contentType: string
    sizeBytes: number
    sha256: string
    storage: 'DATABASE' | 'FILESYSTEM'
    storageKey: string
    metadata: Record<string, unknown>
    createdBy: string
    at: Date
  },
): Promise<VersionRow> {
  return tx
    .insertInto('document_version')
    .values({
      tenant_id: tenantId,
      document_id: values.documentId,
      version_no: values.versionNo,
      file_name: values.fileName,
      content_type: values.contentType,
      size_bytes: values.sizeBytes,
      sha256: values.sha256,
      storage: values.storage,
      storage_key: values.storageKey,
      metadata: JSON.stringify(values.metadata),
      created_at: values.at,
      created_by: values.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findDocument(db: Executor, tenantId: number, id: number): Promise<DocumentRow | undefined> {
  return db.selectFrom('document').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()
}

/** The versions of the documents, oldest first within each document. */
export async function versionsOf(
  db: Executor,
  tenantId: number,
  documentIds: readonly number[],
): Promise<VersionRow[]> {
  if (documentIds.length === 0) return []
  return db
    .selectFrom('document_version')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('document_id', 'in', documentIds)
    .orderBy('document_id')
    .orderBy('version_no')
    .execute()
}

export async function findVersion(
  db: Executor,
  tenantId: number,
  id: number,
): Promise<(VersionRow & { owner_type: string; owner_id: number }) | undefined> {
  return db
    .selectFrom('document_version as v')
    .innerJoin('document as d', (j) => j.onRef('d.tenant_id', '=', 'v.tenant_id').onRef('d.id', '=', 'v.document_id'))
    .selectAll('v')
    .select(['d.owner_type', 'd.owner_id'])
    .where('v.tenant_id', '=', tenantId)
    .where('v.id', '=', id)
    .executeTakeFirst()
}

export type OwnerFilter = { ownerType: string; ownerId: number; kinds?: readonly string[] | undefined }

function ownerDocuments(db: Executor, tenantId: number, filter: OwnerFilter) {
  let query = db
    .selectFrom('document')
    .where('tenant_id', '=', tenantId)
    .where('owner_type', '=', filter.ownerType)
    .where('owner_id', '=', filter.ownerId)
  if (filter.kinds && filter.kinds.length > 0) query = query.where('kind', 'in', filter.kinds)
  return query
}

/** The owner's documents in id order, within the window. */
export async function listOwnerDocuments(
  db: Executor,
  tenantId: number,
  filter: OwnerFilter,
  window: Window,
): Promise<DocumentRow[]> {
  return windowed(ownerDocuments(db, tenantId, filter).selectAll().orderBy('id'), window).execute()
}

/** The owner's documents with their current version's labels, in id order: a summary without the version list. */
function summaries(db: Executor, tenantId: number, ownerType: string, ownerId: number) {
  return db
    .selectFrom('document as d')
    .innerJoin('document_version as v', (j) =>
      j
        .onRef('v.tenant_id', '=', 'd.tenant_id')
        .onRef('v.document_id', '=', 'd.id')
        .onRef('v.version_no', '=', 'd.current_version'),
    )
    .select(['d.id', 'd.kind', 'd.current_version', 'd.created_at', 'd.updated_at', 'v.metadata'])
    .where('d.tenant_id', '=', tenantId)
    .where('d.owner_type', '=', ownerType)
    .where('d.owner_id', '=', ownerId)
}

// Embedded in every read of an owner (a contract's documents): compiled once (precompile), the kinds
// bound as one array so that one shape serves every list of kinds.
const summariesOfKinds = precompile(
  5,
  (db, tenantId: number, ownerType: string, ownerId: number, kinds: string[], limit: number) =>
    summaries(db, tenantId, ownerType, ownerId)
      .where(sql<boolean>`d.kind = any(${kinds})`)
      .orderBy('d.id')
      .limit(limit),
)
const summariesOfAllKinds = precompile(4, (db, tenantId: number, ownerType: string, ownerId: number, limit: number) =>
  summaries(db, tenantId, ownerType, ownerId).orderBy('d.id').limit(limit),
)

export async function ownerDocumentSummaries(db: Executor, tenantId: number, filter: OwnerFilter, limit: number) {
  return filter.kinds && filter.kinds.length > 0
    ? summariesOfKinds(db, tenantId, filter.ownerType, filter.ownerId, [...filter.kinds], limit)
    : summariesOfAllKinds(db, tenantId, filter.ownerType, filter.ownerId, limit)
}

export async function countOwnerDocuments(db: Executor, tenantId: number, filter: OwnerFilter): Promise<number> {
  const row = await ownerDocuments(db, tenantId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertChunk(
  tx: Transaction<DB>,
  tenantId: number,
  storageKey: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await tx
    .insertInto('document_blob_chunk')
    .values({ tenant_id: tenantId, storage_key: storageKey, seq, data })
    .execute()
}

export async function readChunks(
  db: Executor,
  tenantId: number,
  storageKey: string,
  fromSeq: number,
  count: number,
): Promise<Array<{ seq: number; data: Buffer }>> {
  return db
    .selectFrom('document_blob_chunk')
    .select(['seq', 'data'])
    .where('tenant_id', '=', tenantId)
    .where('storage_key', '=', storageKey)
    .where('seq', '>=', fromSeq)
    .where('seq', '<', fromSeq + count)
    .orderBy('seq')
    .execute()
}

/** Gives the tenant its (sealed) link-signing secret unless it has one (at tenant creation, and as a fallback). */
export async function createLinkKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx
    .insertInto('document_link_key')
    .values({ tenant_id: tenantId, secret: sealedSecret })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute()
}

/** The tenant's stored link-signing secret. */
export async function linkKey(db: Executor, tenantId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('document_link_key')
    .select('secret')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return row?.secret
}

/** The tenant's link-signing secret row, locked for (re-)sealing. */
export async function lockLinkKey(tx: Transaction<DB>, tenantId: number) {
  return tx.selectFrom('document_link_key').select('secret').where('tenant_id', '=', tenantId).forUpdate().execute()
}

export async function updateLinkKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx.updateTable('document_link_key').set({ secret: sealedSecret }).where('tenant_id', '=', tenantId).execute()
}
