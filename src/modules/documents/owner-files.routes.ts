// The file collection of an owner record, for the module that owns it to mount (contracts at
// /api/contracts/{contractId}/files, claims at /api/claims/{claimId}/documents): list, upload (a
// new document, or a new version of one), read one. The owner module answers for its record
// through resolveOwner; bytes are served by GET /api/files/{fileId}.
//
// Uploads are the raw request body with its Content-Type. The plugin is encapsulated: its body
// parsers (the allow-listed types, handed through as a stream; anything else 415) apply to its own
// routes only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import { platformErrors } from '../../platform/http/errors.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { IntegerId, problemResponses } from '../../platform/http/schemas.ts'
import { validatedExcept } from '../../platform/http/validation.ts'
import { StagedUpload } from './blob-store.ts'
import { documentErrors } from './documents.errors.ts'
import {
  ALLOWED_CONTENT_TYPES,
  CODE_PATTERN,
  defaultFileName,
  fileNameFromDisposition,
  normalizeContentType,
} from './documents.rules.ts'
import { DocumentSchema, OwnerListQuery, UploadBody, UploadQuery } from './documents.schemas.ts'
import type { DocumentService, DocumentView, ResolveOwner } from './documents.service.ts'

export type OwnerFileRoutesOptions = {
  /** Path of the owner record, with its id parameter: '/api/contracts/:contractId'. */
  prefix: string
  /** Name of the owner id parameter in prefix: 'contractId'. */
  param: string
  /** Segment of the collection under prefix (default 'files'). */
  collectionPath?: string
  /** Name of the item parameter (a document id) in {prefix}/{collectionPath}/{itemParam} (default 'fileId'). */
  itemParam?: string
  /** The owner's type as documents record it: 'CONTRACT'. */
  ownerType: string
  /** Kind of the documents uploaded here: 'CONTRACT_FILE'. */
  kind: string
  /** Kinds the collection lists and reads (default: only `kind`). */
  listKinds?: readonly string[]
  /** OpenAPI tag of the routes. */
  tag: string
  /** The owner, in words, for the route descriptions: 'contract'. */
  ownerLabel?: string
  readPermission: string
  writePermission: string
  /** The owner module's check of its record (404 unknown or not visible, 409 not taking files...). */
  resolveOwner: ResolveOwner
}

type Params = Record<string, number>

/**
 * A route plugin with the owner's file collection; register it with app.register (not wrapped in
 * fastify-plugin, so that its body parsers stay its own). Also tells the service which module
 * guards documents of this owner type.
 */
export function ownerFileRoutes(service: DocumentService, options: OwnerFileRoutesOptions): FastifyPluginAsyncTypebox {
  if (!CODE_PATTERN.test(options.ownerType) || !CODE_PATTERN.test(options.kind))
    throw new Error('ownerType and kind must be upper-case codes')
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(options.param)) throw new Error('param must be an identifier')
  service.registerOwner(options.ownerType, options.resolveOwner)
  const collection = `${options.prefix}/${options.collectionPath ?? 'files'}`
  const itemParam = options.itemParam ?? 'fileId'
  const kinds = options.listKinds ?? [options.kind]
  const owner = options.ownerLabel ?? options.ownerType.toLowerCase()
  // operationIds name the owner type and the collection's item: CONTRACT + files → listContractFiles, getContractFile.
  const ownerNoun = options.ownerType
    .split('_')
    .map((w) => w[0] + w.slice(1).toLowerCase())
    .join('')
  const segment = options.collectionPath ?? 'files'
  const itemNoun = `${ownerNoun}${segment.charAt(0).toUpperCase()}${segment.slice(1).replace(/s$/, '')}`
  const tags = [options.tag]
  const ParamsSchema = Type.Object({ [options.param]: IntegerId(`Id of the ${owner}`) })
  const ItemParamsSchema = Type.Object({
    [options.param]: IntegerId(`Id of the ${owner}`),
    [itemParam]: IntegerId('Document id (documentId of a collection item)'),
  })
  const ownerIdOf = (req: FastifyRequest) => (req.params as Params)[options.param] as number
  const notFound = (id: number) =>
    documentErrors.create('document_not_found', `No document ${id} in this ${owner}'s collection`)
  const inCollection = (view: DocumentView | undefined, ownerId: number): view is DocumentView =>
    view !== undefined && view.ownerType === options.ownerType && view.ownerId === ownerId && kinds.includes(view.kind)

  return async (app) => {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser([...ALLOWED_CONTENT_TYPES], (_req, payload, done) => done(null, payload))
    app.addContentTypeParser('*', (req, _payload, done) => {
      try {
        normalizeContentType(req.headers['content-type'])
        done(null, undefined)
      } catch (err) {
        done(err as Error, undefined)
      }
    })

    app.get(
      collection,
      {
        schema: {
          tags,
          operationId: `list${itemNoun}s`,
          summary: `List the files of a ${owner}`,
          description: `Documents of the ${owner} (${kinds.join(', ')}), each with every version and a signed downloadUrl per version; in id order, bounded by limit/offset, the total in X-Total-Count.`,
          params: ParamsSchema,
          querystring: OwnerListQuery,
          response: { 200: Type.Array(DocumentSchema), ...problemResponses(404) },
        },
        config: { permission: options.readPermission },
      },
      async (req, reply) => {
        const ownerId = ownerIdOf(req)
        await options.resolveOwner(req.ctx, ownerId, 'read')
        return sendList(
          reply,
          await service.pageForOwner(
            req.ctx.tenantId,
            { ownerType: options.ownerType, ownerId, kinds },
            listWindow(req.query),
          ),
        )
      },
    )

    app.get(
      `${collection}/:${itemParam}`,
      {
        schema: {
          tags,
          operationId: `get${itemNoun}`,
          summary: `Read a file of a ${owner}`,
          description: `The document with every version and a signed downloadUrl per version (the bytes: GET /api/files/{fileId}, or the downloadUrl without credentials). A document of another ${owner} answers 404.`,
          params: ItemParamsSchema,
          response: { 200: DocumentSchema, ...problemResponses(404) },
        },
        config: { permission: options.readPermission },
      },
      async (req) => {
        const ownerId = ownerIdOf(req)
        const documentId = (req.params as Params)[itemParam] as number
        await options.resolveOwner(req.ctx, ownerId, 'read')
        const view = await service.get(req.ctx.tenantId, documentId)
        if (!inCollection(view, ownerId)) throw notFound(documentId)
        return view
      },
    )

    app.post(
      collection,
      {
        schema: {
          tags,
          operationId: `upload${itemNoun}`,
          summary: `Upload a file to a ${owner}`,
          description:
            `The request body is the file itself, with its Content-Type: ${ALLOWED_CONTENT_TYPES.join(', ')} (anything else, or bytes that are not of the type, 415; text must be UTF-8). ` +
            `At most ${service.maxBytes} bytes (413 past it, nothing stored); an empty body is 400. The file name comes from ?fileName=, else the Content-Disposition header's filename, else document.<ext>. ` +
            'Without documentId a new document is created; with ?documentId= the file becomes the next version of that document of this collection (at most 100 versions, 422 beyond). ' +
            'Answers 201 with the document, Location naming it. Idempotency-Key is honoured: the same key with the same bytes and query replays the first reply.',
          params: ParamsSchema,
          querystring: UploadQuery,
          body: UploadBody,
          consumes: [...ALLOWED_CONTENT_TYPES],
          response: { 201: DocumentSchema, ...problemResponses(404, 413, 415, 422) },
        },
        // The body is a stream, checked while it is staged; the schema documents it.
        validatorCompiler: validatedExcept('body'),
        config: { permission: options.writePermission },
        // Checks the owner, then stages the body, before the handler (and an Idempotency-Key's request hash) sees it.
        preHandler: async (req, reply) => {
          try {
            const ownerId = ownerIdOf(req)
            await options.resolveOwner(req.ctx, ownerId, 'write')
            const query = req.query as { documentId?: number }
            if (
              query.documentId !== undefined &&
              !inCollection(await service.get(req.ctx.tenantId, query.documentId), ownerId)
            )
              throw notFound(query.documentId)
            const declared = Number(req.headers['content-length'])
            if (declared > service.maxBytes) {
              throw platformErrors.create(
                'payload_too_large',
                `The document is larger than ${service.maxBytes} bytes`,
                { extensions: { maxBytes: service.maxBytes } },
              )
            }
            if (req.body === undefined)
              throw documentErrors.create(
                'document_empty',
                'The request has no body: send the file as the body, with its Content-Type',
              )
            req.body = await service.stage(req.body as Readable, req.headers['content-type'] ?? '')
          } catch (err) {
            // The body may be partly unread; the connection cannot carry another request.
            reply.header('connection', 'close')
            throw err
          }
        },
        onResponse: async (req) => discardStaged(req),
        onRequestAbort: async (req) => discardStaged(req),
      },
      async (req, reply) => {
        const staged = req.body as unknown as StagedUpload
        const ownerId = ownerIdOf(req)
        const query = req.query
        const fileName =
          query.fileName ??
          fileNameFromDisposition(req.headers['content-disposition']) ??
          defaultFileName(normalizeContentType(staged.contentType).type)
        const view = await service.store(req.ctx, {
          ownerType: options.ownerType,
          ownerId,
          kind: options.kind,
          fileName,
          contentType: staged.contentType,
          content: staged,
          ...(query.documentId !== undefined ? { documentId: query.documentId } : {}),
          ...(query.title !== undefined ? { title: query.title } : {}),
          guard: () => options.resolveOwner(req.ctx, ownerId, 'write'),
        })
        reply
          .code(201)
          .header('location', `${collection.replace(`:${options.param}`, String(ownerId))}/${view.documentId}`)
        return view
      },
    )
  }
}

async function discardStaged(req: FastifyRequest): Promise<void> {
  if (req.body instanceof StagedUpload) await req.body.discard()
}
