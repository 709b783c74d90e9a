// Document use cases: store a new document or a new version of one (staged bytes, then one
// transaction with the blob, the version row and the audit record), read a document with its
// versions and fresh signed links, list an owner's documents, open a file's bytes.
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { AppError, platformErrors } from '../../platform/http/errors.ts'
import { actorLabel, type RequestContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { stageContent, StagedUpload, type BlobSource, type BlobStore, type StorageKind } from './blob-store.ts'
import { documentErrors } from './documents.errors.ts'
import * as repo from './documents.repository.ts'
import {
  cleanFileName,
  cleanTitle,
  CODE_PATTERN,
  createContentCheck,
  MAX_VERSIONS,
  normalizeContentType,
} from './documents.rules.ts'
import type { LinkSigner } from './signed-link.ts'

export type VersionView = {
  fileId: number
  versionNo: number
  fileName: string
  contentType: string
  sizeBytes: number
  sha256: string
  metadata: Record<string, unknown>
  createdAt: string
  createdBy: string
  /** Relative URL that serves the bytes without credentials until downloadUrlExpiresAt. */
  downloadUrl: string
  downloadUrlExpiresAt: string
}

export type DocumentView = {
  documentId: number
  ownerType: string
  ownerId: number
  kind: string
  title: string
  currentVersion: number
  createdAt: string
  updatedAt: string
  createdBy: string
  /** Oldest first; the last is the current version. */
  versions: VersionView[]
}

/** A document without its versions: what an owner's resource embeds (summariesForOwner). */
export type DocumentSummary = {
  documentId: number
  kind: string
  currentVersion: number
  currentMetadata: Record<string, unknown>
  createdAt: string
  updatedAt: string
}

export type OwnerAccess = 'read' | 'write'

/**
 * The owner module's check that the caller may read (or add files to) the owner record: resolves
 * when allowed, throws the owner's own error otherwise (its 404 for an unknown or invisible owner,
 * a 409 for one that takes no more files).
 */
export type ResolveOwner = (ctx: RequestContext, ownerId: number, access: OwnerAccess) => Promise<void>

export type StoreInput = {
  ownerType: string
  ownerId: number
  kind: string
  fileName: string
  /** The Content-Type header value; must be on the allow-list (415 otherwise). */
  contentType: string
  /** The bytes, or an upload already staged by stage() (for routes, so no transaction waits on the client). */
  content: BlobSource | StagedUpload
  /** Adds a version to this document (which must belong to the same owner and be of the same kind). */
  documentId?: number
  /** Title of a new document; its first file name when absent. Ignored for a new version. */
  title?: string
  /** Free labels of the version (for example `{ "draft": true }`), kept with it unchanged. */
  metadata?: Record<string, unknown>
  /**
   * Runs first inside the storing transaction (the owner module's check that the owner still takes
   * files, say): what it reads or writes through the database joins that transaction.
   */
  guard?: () => Promise<void>
}

/** The audit-log entity type of document changes. */
export const AUDIT_ENTITY = 'document'

type Deps = {
  db: Database
  clock: Clock
  /** Where new versions are stored. */
  primary: BlobStore
  /** Every store a version may name (versions stay where they were written when the setting changes). */
  stores: Readonly<Record<StorageKind, BlobStore>>
  links: LinkSigner
  maxBytes: number
}

export function createDocumentService(deps: Deps) {
  const { db, clock, primary, stores, links } = deps
  const owners = new Map<string, ResolveOwner>()

  async function toView(
    tenantId: number,
    doc: repo.DocumentRow,
    versions: repo.VersionRow[],
    now: Date,
  ): Promise<DocumentView> {
    return {
      documentId: doc.id,
      ownerType: doc.owner_type,
      ownerId: doc.owner_id,
      kind: doc.kind,
      title: doc.title,
      currentVersion: doc.current_version,
      createdAt: doc.created_at.toISOString(),
      updatedAt: doc.updated_at.toISOString(),
      createdBy: doc.created_by,
      versions: await Promise.all(versions.map((v) => versionView(tenantId, v, now))),
    }
  }

  async function versionView(tenantId: number, v: repo.VersionRow, now: Date): Promise<VersionView> {
    const link = await links.sign(tenantId, v.id, now)
    return {
      fileId: v.id,
      versionNo: v.version_no,
      fileName: v.file_name,
      contentType: v.content_type,
      sizeBytes: v.size_bytes,
      sha256: v.sha256,
      metadata: v.metadata,
      createdAt: v.created_at.toISOString(),
      createdBy: v.created_by,
      downloadUrl: link.url,
      downloadUrlExpiresAt: link.expiresAt,
    }
  }

  async function viewsOf(tenantId: number, docs: repo.DocumentRow[]): Promise<DocumentView[]> {
    const versions = await db.read(tenantId, (x) =>
      repo.versionsOf(
        x,
        tenantId,
        docs.map((d) => d.id),
      ),
    )
    const now = clock.now()
    return Promise.all(
      docs.map((d) =>
        toView(
          tenantId,
          d,
          versions.filter((v) => v.document_id === d.id),
          now,
        ),
      ),
    )
  }

  /** Runs the owner module's check, its 404 answered as `notFound` (the caller asked for a document, not the owner). */
  async function checkOwner(
    ctx: RequestContext,
    ownerType: string,
    ownerId: number,
    access: OwnerAccess,
    notFound: () => AppError,
  ): Promise<void> {
    const resolve = owners.get(ownerType)
    if (!resolve) return
    try {
      await resolve(ctx, ownerId, access)
    } catch (err) {
      if (err instanceof AppError && err.status === 404) throw notFound()
      throw err
    }
  }

  async function findVersion(tenantId: number, fileId: number) {
    return isStorableId(fileId) ? db.read(tenantId, (x) => repo.findVersion(x, tenantId, fileId)) : undefined
  }

  async function openVersion(tenantId: number, row: repo.VersionRow) {
    const version = await versionView(tenantId, row, clock.now())
    return { version, stream: await stores[row.storage].open(tenantId, row.storage_key) }
  }

  const documentNotFound = (id: number) => () => documentErrors.create('document_not_found', `No document ${id}`)
  const fileNotFound = (id: number) => () => documentErrors.create('file_not_found', `No file ${id}`)

  const service = {
    /** Largest accepted document, in bytes. */
    maxBytes: deps.maxBytes,

    /**
     * Says which owner module guards documents of `ownerType`: reads by id (GET /api/documents/{id},
     * GET /api/files/{id} with credentials) then need the caller to be able to read the owner.
     */
    registerOwner(ownerType: string, resolve: ResolveOwner): void {
      if (!CODE_PATTERN.test(ownerType)) throw new Error(`invalid owner type ${ownerType}`)
      owners.set(ownerType, resolve)
    },

    /**
     * Streams content into staging: 413 past the size limit, 415 for a type off the allow-list or
     * bytes that are not of the type, 400 when empty. Discard the result once stored or refused.
     */
    async stage(content: BlobSource, contentType: string): Promise<StagedUpload> {
      const { stored, type } = normalizeContentType(contentType)
      return stageContent(content, {
        dir: primary.stagingDir,
        maxBytes: deps.maxBytes,
        contentType: stored,
        check: createContentCheck(type),
        sync: primary.kind === 'FILESYSTEM',
      })
    },

    /**
     * Stores a new document, or a new version of `input.documentId`, with an audit record, in one
     * transaction (joining the caller's). The caller has checked the owner.
     */
    async store(ctx: RequestContext, input: StoreInput): Promise<DocumentView> {
      if (!CODE_PATTERN.test(input.ownerType) || !CODE_PATTERN.test(input.kind))
        throw new Error(`invalid owner type ${input.ownerType} or kind ${input.kind}`)
      const tenantId = ctx.tenantId
      if (!isStorableId(input.ownerId)) throw new Error(`invalid owner id ${input.ownerId}`)
      const cleaned = cleanFileName(input.fileName)
      if ('problem' in cleaned) {
        throw platformErrors.create('validation_failed', `fileName ${cleaned.problem}`, {
          errors: [{ field: 'fileName', code: 'invalid_value', message: cleaned.problem }],
        })
      }
      const title = input.title === undefined ? { name: cleaned.name } : cleanTitle(input.title)
      if ('problem' in title) {
        throw platformErrors.create('validation_failed', `title ${title.problem}`, {
          errors: [{ field: 'title', code: 'invalid_value', message: title.problem }],
        })
      }
      if (input.documentId !== undefined && !isStorableId(input.documentId)) throw documentNotFound(input.documentId)()
      const ownStaging = !(input.content instanceof StagedUpload)
      const staged =
        input.content instanceof StagedUpload ? input.content : await service.stage(input.content, input.contentType)
      const key = randomUUID().replaceAll('-', '')
      let written = false
      try {
        const documentId = await db.transaction(tenantId, async (tx) => {
          const now = clock.now()
          const actor = actorLabel(ctx)
          if (input.guard) await input.guard()
          let doc: repo.DocumentRow
          let versionNo = 1
          if (input.documentId !== undefined) {
            const found = await repo.lockDocument(tx, tenantId, input.documentId)
            if (
              !found ||
              found.owner_type !== input.ownerType ||
              found.owner_id !== input.ownerId ||
              found.kind !== input.kind
            )
              throw documentNotFound(input.documentId)()
            versionNo = found.current_version + 1
            if (versionNo > MAX_VERSIONS) {
              throw documentErrors.create(
                'document_version_limit',
                `Document ${found.id} already has ${MAX_VERSIONS} versions, the most one document may have; upload a new document instead`,
              )
            }
            doc = found
          } else {
            doc = await repo.insertDocument(tx, tenantId, {
              ownerType: input.ownerType,
              ownerId: input.ownerId,
              kind: input.kind,
              title: title.name,
              createdBy: actor,
              at: now,
            })
          }
          written = true
          await primary.put(tx, tenantId, key, staged)
          const version = await repo.insertVersion(tx, tenantId, {
            documentId: doc.id,
            versionNo,
            fileName: cleaned.name,
            contentType: staged.contentType,
            sizeBytes: staged.size,
            sha256: staged.sha256,
            storage: primary.kind,
            storageKey: key,
            metadata: input.metadata ?? {},
            createdBy: actor,
            at: now,
          })
          if (versionNo > 1) await repo.setCurrentVersion(tx, tenantId, doc.id, versionNo, now)
          await writeAudit(tx, ctx, now, {
            action: versionNo === 1 ? 'document.created' : 'document.version_added',
            entityType: AUDIT_ENTITY,
            entityId: doc.id,
            changes: {
              after: {
                ownerType: doc.owner_type,
                ownerId: doc.owner_id,
                kind: doc.kind,
                fileId: version.id,
                versionNo,
                fileName: version.file_name,
                contentType: version.content_type,
                sizeBytes: version.size_bytes,
                sha256: version.sha256,
              },
            },
          })
          return doc.id
        })
        const view = await service.get(tenantId, documentId)
        if (!view) throw new Error(`document ${documentId} vanished after being stored`)
        return view
      } catch (err) {
        if (written) await primary.forget(tenantId, key).catch(() => {})
        throw err
      } finally {
        if (ownStaging) await staged.discard()
      }
    },

    /** The document with its versions, whoever owns it; undefined when the tenant has none with this id. */
    async get(tenantId: number, documentId: number): Promise<DocumentView | undefined> {
      if (!isStorableId(documentId)) return undefined
      const doc = await db.read(tenantId, (x) => repo.findDocument(x, tenantId, documentId))
      if (!doc) return undefined
      const [view] = await viewsOf(tenantId, [doc])
      return view
    },

    /** The document for a caller, who must be able to read its owner: 404 otherwise. */
    async getForCaller(ctx: RequestContext, documentId: number): Promise<DocumentView> {
      const view = await service.get(ctx.tenantId, documentId)
      if (!view) throw documentNotFound(documentId)()
      await checkOwner(ctx, view.ownerType, view.ownerId, 'read', documentNotFound(documentId))
      return view
    },

    /** An owner's documents (of the given kinds), in id order, bounded (default 100, at most 1000). */
    async listForOwner(
      tenantId: number,
      ownerType: string,
      ownerId: number,
      opts: { kind?: string; kinds?: readonly string[]; limit?: number; offset?: number } = {},
    ): Promise<DocumentView[]> {
      const kinds = opts.kinds ?? (opts.kind === undefined ? undefined : [opts.kind])
      const window = { limit: Math.min(opts.limit ?? 100, 1000), offset: opts.offset ?? 0 }
      return (await service.pageForOwner(tenantId, { ownerType, ownerId, kinds }, window)).items
    },

    /**
     * An owner's documents (of the given kinds) as a summary: ids, kinds, current version and its
     * labels, in id order, at most 100. One query, no download links: for embedding in the owner's
     * own resource.
     */
    async summariesForOwner(
      tenantId: number,
      ownerType: string,
      ownerId: number,
      kinds?: readonly string[],
    ): Promise<DocumentSummary[]> {
      if (!isStorableId(ownerId)) return []
      const rows = await db.read(tenantId, (x) =>
        repo.ownerDocumentSummaries(x, tenantId, { ownerType, ownerId, kinds }, 100),
      )
      return rows.map((r) => ({
        documentId: r.id,
        kind: r.kind,
        currentVersion: r.current_version,
        currentMetadata: r.metadata ?? {},
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
      }))
    },

    /** How many documents (of the given kinds) an owner has: one count query, for the owner's own view. */
    async countForOwner(tenantId: number, ownerType: string, ownerId: number, kinds?: readonly string[]) {
      if (!isStorableId(ownerId)) return 0
      return db.read(tenantId, (x) => repo.countOwnerDocuments(x, tenantId, { ownerType, ownerId, kinds }))
    },

    /** A window of an owner's documents and how many there are in all. */
    async pageForOwner(
      tenantId: number,
      filter: repo.OwnerFilter,
      window: Window,
    ): Promise<{ items: DocumentView[]; totalCount: number }> {
      if (!isStorableId(filter.ownerId)) return { items: [], totalCount: 0 }
      const [docs, totalCount] = await db.reportRead(
        tenantId,
        async (x) =>
          [
            await repo.listOwnerDocuments(x, tenantId, filter, window),
            await repo.countOwnerDocuments(x, tenantId, filter),
          ] as const,
      )
      return { items: await viewsOf(tenantId, docs), totalCount }
    },

    /**
     * One version's metadata and bytes; undefined when the tenant has no such file. The stream is
     * open (a missing blob fails here, not halfway through a reply).
     */
    async getFile(
      tenantId: number,
      fileId: number,
    ): Promise<{ version: VersionView; ownerType: string; ownerId: number; stream: Readable } | undefined> {
      const row = await findVersion(tenantId, fileId)
      if (!row) return undefined
      return { ...(await openVersion(tenantId, row)), ownerType: row.owner_type, ownerId: row.owner_id }
    },

    /**
     * The file for a request: with credentials the caller must be able to read the owner; through a
     * verified signed link (`signed`) the link is the permission.
     */
    async openFile(
      ctx: RequestContext,
      fileId: number,
      signed: boolean,
    ): Promise<{ version: VersionView; stream: Readable }> {
      const row = await findVersion(ctx.tenantId, fileId)
      if (!row) throw fileNotFound(fileId)()
      if (!signed) await checkOwner(ctx, row.owner_type, row.owner_id, 'read', fileNotFound(fileId))
      return openVersion(ctx.tenantId, row)
    },

    /** A link to the file's bytes that needs no credentials until it expires (DOCUMENT_LINK_TTL_SECONDS). */
    signedLink: (tenantId: number, fileId: number, now: Date = clock.now()) => links.sign(tenantId, fileId, now),

    /** The tenant of a valid, unexpired link to `fileId`; 403 otherwise. */
    verifyLink: (query: { t?: unknown; expires?: unknown; signature?: unknown }, fileId: number) =>
      links.verify(query, fileId, clock.now()),
  }
  return service
}

export type DocumentService = ReturnType<typeof createDocumentService>
