// Rate-book versions and catalogue ids. Plain Kysely functions; the executor and tenant come first.
import type { Selectable, Transaction } from 'kysely'
import { advisoryLock } from '../../../platform/db/advisory-lock.ts'
import type { Executor } from '../../../platform/db/database.ts'
import type { DB, RateBookTable, RatingCatalogueItemTable } from '../../../platform/db/schema.ts'
import { catalogueKey, type CatalogueKind } from './ratebook.compiled.ts'

const versionColumns = [
  'id',
  'version',
  'effective_date',
  'description',
  'checksum',
  'summary',
  'imported_at',
  'imported_by',
] as const

/** A version without its document (the large part, read only to build the index). */
export type RateBookVersionRow = Pick<Selectable<RateBookTable>, (typeof versionColumns)[number]>

export async function listRateBookVersions(db: Executor, tenantId: number): Promise<RateBookVersionRow[]> {
  return db
    .selectFrom('rate_book')
    .select(versionColumns)
    .where('tenant_id', '=', tenantId)
    .orderBy('version', 'desc')
    .execute()
}

export async function loadRateBookDocument(db: Executor, tenantId: number, id: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('rate_book')
    .select('document')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.document
}

/** Serialises imports of one tenant (exclusive, until `tx` ends), so versions are numbered without gaps or races. */
export async function lockRateBooks(tx: Transaction<DB>, tenantId: number): Promise<void> {
  await advisoryLock(tx, 'rate_book_import', [tenantId], 'exclusive')
}

export async function insertRateBook(
  tx: Transaction<DB>,
  tenantId: number,
  values: {
    version: number
    effectiveDate: string
    description: string | null
    checksum: string
    document: Buffer
    summary: RateBookVersionRow['summary']
    importedBy: string
    now: Date
  },
): Promise<number> {
  const row = await tx
    .insertInto('rate_book')
    .values({
      tenant_id: tenantId,
      version: values.version,
      effective_date: values.effectiveDate,
      description: values.description,
      checksum: values.checksum,
      document: values.document,
      summary: JSON.stringify(values.summary),
      imported_at: values.now,
      imported_by: values.importedBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Gives every code a catalogue id; existing ones keep theirs. */
export async function ensureCatalogueItems(
  tx: Transaction<DB>,
  tenantId: number,
  items: Array<{ kind: CatalogueKind; code: string }>,
  version: number,
): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    const chunk = items.slice(i, i + 1000)
    await tx
      .insertInto('rating_catalogue_item')
      .values(chunk.map((it) => ({ tenant_id: tenantId, kind: it.kind, code: it.code, first_version: version })))
      .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'code']).doNothing())
      .execute()
  }
}

export async function loadCatalogueIds(db: Executor, tenantId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('rating_catalogue_item')
    .select(['id', 'kind', 'code'])
    .where('tenant_id', '=', tenantId)
    .execute()
  return new Map(rows.map((r) => [catalogueKey(r.kind, r.code), r.id]))
}

/** The kind of each of `ids` that is a rating catalogue item of the tenant; unknown ids are absent. */
export async function catalogueKinds(
  db: Executor,
  tenantId: number,
  ids: number[],
): Promise<Map<number, RatingCatalogueItemTable['kind']>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('rating_catalogue_item')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [r.id, r.kind]))
}

/** A catalogue item: its kind, code and the first version that had it. */
export type CatalogueItemRow = { id: number; kind: CatalogueKind; code: string; firstVersion: number }

/**
 * One catalogue item of the tenant, by id or by kind and code; undefined when the tenant has none
 * (an id of another tenant included). The item outlives the versions that have its code, so this
 * names items a version in force no longer has.
 */
export async function findCatalogueItem(
  db: Executor,
  tenantId: number,
  by: { id: number } | { kind: CatalogueKind; code: string },
): Promise<CatalogueItemRow | undefined> {
  let query = db
    .selectFrom('rating_catalogue_item')
    .select(['id', 'kind', 'code', 'first_version'])
    .where('tenant_id', '=', tenantId)
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('kind', '=', by.kind).where('code', '=', by.code)
  const row = await query.executeTakeFirst()
  return row && { id: Number(row.id), kind: row.kind, code: row.code, firstVersion: row.first_version }
}
