// TypeBox schemas of documents: the document with its versions, path and query parameters of the
// download routes and of the owner file collections.
import { Type } from 'typebox'
import { DateTime, IntegerId, ListQuery } from '../../platform/http/schemas.ts'

export const VersionSchema = Type.Object({
  fileId: Type.Integer({ description: "Id of this version's bytes: GET /api/files/{fileId}." }),
  versionNo: Type.Integer({ minimum: 1, description: 'Version number within the document, from 1.' }),
  fileName: Type.String({ description: 'File name as uploaded (last path segment).' }),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
  sha256: Type.String({ description: "SHA-256 of the bytes, lower-case hex; also the download's ETag." }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Labels the owning module keeps with the version (for example draft or final).',
  }),
  createdAt: DateTime('When the version was stored.'),
  createdBy: Type.String({ description: "Who stored it: a user's email or api-key:<id>." }),
  downloadUrl: Type.String({
    description: 'Relative URL serving the bytes without credentials until downloadUrlExpiresAt (a signed link).',
  }),
  downloadUrlExpiresAt: DateTime('When downloadUrl stops working (403 download_link_expired).'),
})

export const DOCUMENT_EXAMPLE = {
  documentId: 5012,
  ownerType: 'CONTRACT',
  ownerId: 88,
  kind: 'CONTRACT_FILE',
  title: 'signed-contract.pdf',
  currentVersion: 2,
  createdAt: '2026-06-01T12:00:00.000Z',
  updatedAt: '2026-06-02T09:30:00.000Z',
  createdBy: 'admin@acme.example',
  versions: [1, 2].map((n) => ({
    fileId: 9100 + n,
    versionNo: n,
    fileName: 'signed-contract.pdf',
    contentType: 'application/pdf',
    sizeBytes: 48213,
    sha256:
      n === 1
        ? '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
        : '60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752',
    metadata: {},
    createdAt: n === 1 ? '2026-06-01T12:00:00.000Z' : '2026-06-02T09:30:00.000Z',
    createdBy: 'admin@acme.example',
    downloadUrl: `/api/files/${9100 + n}?t=7&expires=1780402500&signature=Jb1bX0o2o0ZqJ3m1dQm2t8Q3k9r4v5w6x7y8z9A0B1C`,
    downloadUrlExpiresAt: '2026-06-02T12:15:00.000Z',
  })),
}

export const DocumentSchema = Type.Object(
  {
    documentId: Type.Integer({ description: 'Id of the document: GET /api/documents/{documentId}.' }),
    ownerType: Type.String({ description: 'Kind of record that owns the document: CONTRACT, CLAIM...' }),
    ownerId: Type.Integer({ description: 'Id of the owning record.' }),
    kind: Type.String({
      description: 'What the document is for the owner: CONTRACT_FILE, CONTRACT_PDF, CLAIM_DOCUMENT...',
    }),
    title: Type.String(),
    currentVersion: Type.Integer({ description: 'versionNo of the latest version.' }),
    createdAt: DateTime('When the first version was stored.'),
    updatedAt: DateTime('When the latest version was stored.'),
    createdBy: Type.String(),
    versions: Type.Array(VersionSchema, { description: 'Every version, oldest first (at most 100).' }),
  },
  { examples: [DOCUMENT_EXAMPLE] },
)

export const DocumentIdParams = Type.Object({ documentId: IntegerId('Document id') })
export const FileIdParams = Type.Object({ fileId: IntegerId('File id: the fileId of a document version') })

// The link is verified (signed-link.ts) before validation runs, so these bounds document what a
// valid link holds; a request with a link that is not one answers 403 whatever its values.
export const SignedLinkQuery = Type.Object(
  {
    t: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 999_999_999_999_999, description: 'Signed links only: the tenant id.' }),
    ),
    expires: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 999_999_999_999, description: 'Signed links only: expiry, Unix seconds.' }),
    ),
    signature: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{43}$',
        description: 'Signed links only: HMAC-SHA256 of tenant, file and expiry, base64url.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const OwnerListQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

export const UploadQuery = Type.Object(
  {
    fileName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "File name to keep; otherwise the Content-Disposition header's, otherwise document.<ext>.",
      }),
    ),
    title: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Title of a new document; its file name when absent. Ignored with documentId.',
      }),
    ),
    documentId: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Adds a new version to this document of the same owner, instead of creating a document.',
      }),
    ),
  },
  { additionalProperties: false },
)

/** An upload's body: the file itself (documented here; checked as it streams in). */
export const UploadBody = Type.Unsafe<unknown>({
  type: 'string',
  format: 'binary',
  description: "The file's bytes, with its Content-Type.",
})
