// GET /api/documents/{documentId}: a document with its versions and fresh signed links.
// GET /api/files/{fileId}: one version's bytes, with credentials (documents:read) or through a
// signed link (?t=&expires=&signature=), which needs none.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { setEtag } from '../../platform/http/etag.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { ALLOWED_CONTENT_TYPES, contentDisposition } from './documents.rules.ts'
import { DocumentIdParams, DocumentSchema, FileIdParams, SignedLinkQuery } from './documents.schemas.ts'
import type { DocumentService } from './documents.service.ts'
import { isSignedLinkQuery, type LinkQuery } from './signed-link.ts'

const TAGS = ['Documents']

/** Headers every download carries: stored content is never sniffed, rendered or run in the service's origin. */
export const DOWNLOAD_SAFETY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  // Versions never change, so a file id always names the same bytes.
  'cache-control': 'private, max-age=31536000, immutable',
}

export const documentRoutes: FastifyPluginAsyncTypebox<{ service: DocumentService }> = async (app, { service }) => {
  // Requests that came in through a verified signed link rather than credentials.
  const signedRequests = new WeakSet<FastifyRequest>()

  app.get(
    '/api/documents/:documentId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getDocument',
        summary: 'Read a document and its versions',
        description:
          'Every version (oldest first) with its fileId, checksum and a signed downloadUrl that works without credentials until downloadUrlExpiresAt. ' +
          'A document of a record the caller may not read (a contract of a dealer it does not see) answers 404 like a missing one. ETag: the current version number.',
        params: DocumentIdParams,
        response: { 200: DocumentSchema, ...problemResponses(404) },
      },
      config: { permission: 'documents:read' },
    },
    async (req, reply) => {
      const view = await service.getForCaller(req.ctx, req.params.documentId)
      setEtag(reply, view.currentVersion)
      return view
    },
  )

  app.get(
    '/api/files/:fileId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getFile',
        summary: 'Download a file (one document version)',
        description:
          'The bytes with their Content-Type, Content-Length, ETag (the SHA-256 in quotes; If-None-Match answers 304) and Content-Disposition: attachment with the file name. ' +
          'With a signed link (the downloadUrl of a document reply: ?t=&expires=&signature=) no credentials are needed; an altered or incomplete link answers 403 download_link_invalid, ' +
          'an expired one 403 download_link_expired. Without one, the usual credentials and permission apply.',
        params: FileIdParams,
        querystring: SignedLinkQuery,
        response: {
          200: {
            description: "The file's bytes",
            // Served with the Content-Type it was stored with, one of those an upload may have.
            content: Object.fromEntries(
              ALLOWED_CONTENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
          304: { description: "If-None-Match named the file's ETag", type: 'null' },
          ...problemResponses(404),
        },
      },
      config: {
        permission: 'documents:read',
        presigned: async (req) => {
          const query = req.query as LinkQuery
          if (!isSignedLinkQuery(query)) return undefined
          const tenantId = await service.verifyLink(query, Number((req.params as { fileId?: string }).fileId))
          signedRequests.add(req)
          return { requestId: String(req.id), tenantId, apiKeyId: 0, principal: undefined }
        },
      },
    },
    async (req, typedReply) => {
      // The reply is a stream or nothing (304), which the typed reply of a binary schema does not model.
      const reply = typedReply as FastifyReply
      const { version, stream } = await service.openFile(req.ctx, req.params.fileId, signedRequests.has(req))
      const etag = `"${version.sha256}"`
      reply.headers({ ...DOWNLOAD_SAFETY_HEADERS, etag })
      const ifNoneMatch = req.headers['if-none-match']
      if (
        ifNoneMatch !== undefined &&
        (ifNoneMatch.trim() === '*' ||
          ifNoneMatch
            .split(',')
            .map((t) => t.trim().replace(/^W\//, ''))
            .includes(etag))
      ) {
        stream.destroy()
        return reply.code(304).send()
      }
      reply.type(version.contentType).headers({
        'content-length': String(version.sizeBytes),
        'content-disposition': contentDisposition(version.fileName),
      })
      return reply.send(stream)
    },
  )
}
