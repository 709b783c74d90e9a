// Documents: stored files with versions, behind one storage interface (the database or a
// directory), served by id and through expiring signed links. Owner modules (contracts, claims)
// mount ownerFileRoutes for their collections and call the service inside their own transactions.
// Reached only through this file.
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import { databaseBlobStore, fileSystemBlobStore } from './blob-store.ts'
import { documentRoutes } from './documents.routes.ts'
import { createDocumentService } from './documents.service.ts'
import { ownerFileRoutes, type OwnerFileRoutesOptions } from './owner-files.routes.ts'
import { createLinkKeys } from './link-key.ts'
import { createLinkSigner } from './signed-link.ts'

export { StagedUpload, type BlobSource, type BlobStore, type StorageKind } from './blob-store.ts'
export {
  ALLOWED_CONTENT_TYPES,
  defaultFileName,
  fileNameFromDisposition,
  MAX_VERSIONS,
  normalizeContentType,
} from './documents.rules.ts'
export { DocumentSchema } from './documents.schemas.ts'
export type {
  DocumentService,
  DocumentSummary,
  DocumentView,
  OwnerAccess,
  ResolveOwner,
  StoreInput,
  VersionView,
} from './documents.service.ts'
export type { OwnerFileRoutesOptions } from './owner-files.routes.ts'
export type { SignedLink } from './signed-link.ts'

/** Where and how documents are kept (src/config.ts reads it from DOCUMENT_* variables; docs/documents.md). */
export type DocumentsConfig = Readonly<{
  /** Store of new versions; existing versions stay readable where they were written. */
  storage: 'database' | 'filesystem'
  /** Directory of the file-system store (also its staging area). */
  dir: string
  /** Largest document, in bytes. */
  maxBytes: number
  /** Lifetime of signed download links. */
  linkTtlSeconds: number
}>

export type DocumentsDeps = {
  db: Database
  clock: Clock
  /** The config's `documents` (src/config.ts): no default, so every graph stores where the configuration says. */
  documents: DocumentsConfig
  /** Seals the tenants' link-signing secrets. */
  secrets: SecretBox
}

export function createDocumentsModule(deps: DocumentsDeps) {
  const config = deps.documents
  const stores = {
    // Uploads bound for the database are staged in the system's temporary directory.
    DATABASE: databaseBlobStore(deps.db, path.join(os.tmpdir(), 'vpp-document-staging')),
    FILESYSTEM: fileSystemBlobStore(config.dir),
  }
  const linkKeys = createLinkKeys(deps)
  const links = createLinkSigner({ keys: linkKeys, ttlSeconds: config.linkTtlSeconds })
  const service = createDocumentService({
    db: deps.db,
    clock: deps.clock,
    primary: config.storage === 'filesystem' ? stores.FILESYSTEM : stores.DATABASE,
    stores,
    links,
    maxBytes: config.maxBytes,
  })
  return {
    service,
    /** Work done when a tenant is created: its link-signing secret. */
    initializeTenant: linkKeys.initializeTenant,
    /** The sealed link-signing keys, for identity's sealing passes (start-up, rotation). */
    tenantSecrets: linkKeys.tenantSecrets,
    /**
     * The file collection of an owner record, as a route plugin for the owner module to register
     * (see OwnerFileRoutesOptions); also makes the owner's check guard reads by document and file id.
     */
    ownerFileRoutes: (options: OwnerFileRoutesOptions) => ownerFileRoutes(service, options),
    async routes(app: FastifyInstance) {
      await app.register(documentRoutes, { service })
    },
  }
}

export type DocumentsModule = ReturnType<typeof createDocumentsModule>
