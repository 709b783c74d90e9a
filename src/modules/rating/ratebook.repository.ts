// Rate-book versions, catalogue ids and the quote-signing key. Plain Kysely functions; the executor
// and tenant come first.
import { sql, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { catalogueKey, type CatalogueKind } from './ratebook.index.ts'

export type RateBookVersionRow = {
  id: number
  version: number
  effective_date: string
  description: string | null
  checksum: string
  summary: unknown
  imported_at: Date
  imported_by: string
}

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

/** Serialises imports of one tenant, so versions are numbered without gaps or races. */
export async function lockRateBooks(tx: Transaction<DB>, tenantId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('rate_book', ${tenantId}))`.execute(tx)
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
    summary: unknown
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

/** Gives a new tenant its quote-signing secret, sealed (in the tenant's creating transaction). */
export async function createQuoteKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx
    .insertInto('rate_quote_key')
    .values({ tenant_id: tenantId, secret: sealedSecret })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute()
}

/** The tenant's stored quote-signing secret: made with the tenant (or by migration 0006 for older ones). */
export async function quoteKey(db: Executor, tenantId: number): Promise<string> {
  const row = await db
    .selectFrom('rate_quote_key')
    .select('secret')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow()
  return row.secret
}

/** The tenant's quote-signing secret row, locked for (re-)sealing. */
export async function lockQuoteKey(tx: Transaction<DB>, tenantId: number) {
  return tx.selectFrom('rate_quote_key').select('secret').where('tenant_id', '=', tenantId).forUpdate().execute()
}

export async function updateQuoteKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx.updateTable('rate_quote_key').set({ secret: sealedSecret }).where('tenant_id', '=', tenantId).execute()
}
