// Custom-field routes (issue 3, docs/custom-fields.md): the fields of agents, dealer groups,
// dealers and cash transactions (…/{id}/customfields, …/customfields/{fieldId}) and the tenant's
// definitions (/customfielddefinitions). Handlers translate; the service decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { KINDS, type KindDefinition } from './account-holder.kinds.ts'
import { replySchemaId } from './account-holder.schemas.ts'
import { toDefinitionDto, toFieldDto } from './custom-field.mapper.ts'
import {
  AddCustomFieldBody,
  CreateCustomFieldDefinitionBody,
  CUSTOM_FIELD_DEFINITION_EXAMPLE,
  CUSTOM_FIELD_EXAMPLE,
  CustomFieldDefinitionListQuery,
  CustomFieldDefinitionParams,
  CustomFieldDefinitionSchema,
  CustomFieldListQuery,
  CustomFieldSchema,
  fieldParams,
  parentParams,
} from './custom-field.schemas.ts'
import type { CustomFieldKind } from './custom-field.rules.ts'
import type { CustomFieldService, FieldOwner } from './custom-field.service.ts'

const READ = { permission: 'accountholders:read' }
const WRITE = { permission: 'accountholders:write' }
const tags = ['Custom fields']

const fieldRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'CustomField#' })
const definitionRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'CustomFieldDefinition#' })
const Deleted = Type.Null({ description: 'Deleted; no body.' })
const TotalCount = Type.Integer({ description: 'Rows matching the query, ignoring limit/offset.' })

type TypeBoxApp = Parameters<FastifyPluginAsyncTypebox>[0]

/** Where an owner's fields are served: its collection path and id parameter, permissions, how it is found. */
type OwnerRoutes = {
  kind: CustomFieldKind
  path: string
  idParam: string
  noun: string
  /** The owner in operationIds: `listDealerCustomFields`. */
  name: string
  read: { permission: string }
  write: { permission: string }
  /** What a missing or invisible owner answers, for the descriptions. */
  parentRule: string
  owner: (id: number) => FieldOwner
}

function accountHolderRoutes(def: KindDefinition, service: CustomFieldService): OwnerRoutes {
  return {
    kind: def.kind as CustomFieldKind,
    path: def.path,
    idParam: def.idParam,
    noun: def.noun,
    name: replySchemaId(def),
    read: READ,
    write: WRITE,
    parentRule: `The ${def.noun} must exist and be visible to the caller, else 404 \`account_holder_not_found\` (also for an id of another kind or tenant).`,
    owner: (id) => service.accountHolder(def, id),
  }
}

/** Cash transactions (issue 15): the finance module's records, read and written with its permissions. */
function cashTransactionRoutes(service: CustomFieldService): OwnerRoutes {
  return {
    kind: 'CASH_TRANSACTION',
    path: '/api/cashtransactions',
    idParam: 'cashTransactionId',
    noun: 'cash transaction',
    name: 'CashTransaction',
    read: { permission: 'finance:read' },
    write: { permission: 'finance:write' },
    parentRule:
      'The cash transaction must exist and be visible to the caller (dealer-side users: of their account holders), else 404 `cash_transaction_not_found`.',
    owner: (id) => service.cashTransaction(id),
  }
}

function registerFieldRoutes(app: TypeBoxApp, def: OwnerRoutes, service: CustomFieldService) {
  const collection = `${def.path}/:${def.idParam}/customfields`
  const one = `${collection}/:fieldId`
  const owner = def.name
  const ownerOf = (req: FastifyRequest) => def.owner((req.params as Record<string, number>)[def.idParam] as number)
  const holderOf = (req: FastifyRequest) => (req.params as Record<string, number>)[def.idParam] as number
  const fieldOf = (req: FastifyRequest) => (req.params as { fieldId: number }).fieldId
  const parentRule = def.parentRule
  app.get(
    collection,
    {
      schema: {
        tags,
        operationId: `list${owner}CustomFields`,
        summary: `List the custom fields of a ${def.noun}`,
        description: `Ordered by id, bounded by limit/offset; the total is in X-Total-Count. X-Missing-Required-Fields lists, comma-separated, the names of required definitions for ${def.kind} that this ${def.noun} has no field for (absent when none). ${parentRule}`,
        params: parentParams(def),
        querystring: CustomFieldListQuery,
        response: {
          200: Type.Array(fieldRef, {
            examples: [[CUSTOM_FIELD_EXAMPLE]],
            headers: {
              'X-Total-Count': TotalCount,
              'X-Missing-Required-Fields': Type.String({
                description: 'Names of required fields this account holder lacks, comma-separated; absent when none.',
              }),
            },
          }),
          ...problemResponses(404),
        },
      },
      config: def.read,
    },
    async (req, reply) => {
      const q = req.query
      const result = await service.listFields(
        authenticatedContext(req),
        ownerOf(req),
        q.name === undefined ? {} : { name: q.name },
        listWindow(q),
      )
      if (result.missingRequired.length > 0)
        reply.header('x-missing-required-fields', result.missingRequired.join(', '))
      return sendList(reply, { items: result.rows.map(toFieldDto), totalCount: result.total })
    },
  )

  app.post(
    collection,
    {
      schema: {
        tags,
        operationId: `create${owner}CustomField`,
        summary: `Add a custom field to a ${def.noun}`,
        description: [
          `The name is unique per ${def.noun}, ignoring case (409 \`custom_field_name_taken\`).`,
          `The value must fit the type (INTEGER an integer, DECIMAL at most 2 decimals, DATE YYYY-MM-DD, BOOLEAN true/false, STRING 1 to 1000 characters).`,
          `When the tenant defines the name for ${def.kind}, the type must be the definition's and the value must satisfy its allowed values or maximum length; the field takes the definition's spelling of the name.`,
          'LIST fields need a definition. Otherwise 422 `invalid_custom_field_value` naming `type` or `value`.',
          parentRule,
        ].join(' '),
        params: parentParams(def),
        body: AddCustomFieldBody,
        response: { 201: fieldRef, ...problemResponses(404, 409, 415, 422) },
      },
      config: def.write,
    },
    async (req, reply) => {
      const row = await service.addField(authenticatedContext(req), ownerOf(req), req.body)
      setEtag(reply, row.version)
      reply.code(201).header('location', `${def.path}/${holderOf(req)}/customfields/${row.id}`)
      return toFieldDto(row)
    },
  )

  app.get(
    one,
    {
      schema: {
        tags,
        operationId: `get${owner}CustomField`,
        summary: `Read a custom field of a ${def.noun}`,
        description: `A field id of another account holder is 404 \`custom_field_not_found\`. ${parentRule}`,
        params: fieldParams(def),
        response: { 200: fieldRef, ...problemResponses(404) },
      },
      config: def.read,
    },
    async (req, reply) => {
      const row = await service.getField(authenticatedContext(req), ownerOf(req), fieldOf(req))
      setEtag(reply, row.version)
      return toFieldDto(row)
    },
  )

  app.patch(
    one,
    {
      schema: {
        tags,
        operationId: `update${owner}CustomField`,
        summary: `Change the value of a custom field of a ${def.noun}`,
        description: [
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch).',
          'Only `value` may change: id, name, type, label, the timestamps and version are refused by name (422 `immutable_field`).',
          'The new value is checked like one being added (422 `invalid_custom_field_value`). If-Match is honoured (412). Audited.',
          parentRule,
        ].join(' '),
        params: fieldParams(def),
        body: PatchBody({ value: 'East' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: fieldRef, ...problemResponses(404, 412, 415, 422) },
      },
      config: def.write,
    },
    async (req, reply) => {
      const row = await service.patchField(
        authenticatedContext(req),
        ownerOf(req),
        fieldOf(req),
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(reply, row.version)
      return toFieldDto(row)
    },
  )

  app.delete(
    one,
    {
      schema: {
        tags,
        operationId: `delete${owner}CustomField`,
        summary: `Delete a custom field of a ${def.noun}`,
        description: `A field whose definition is required cannot be deleted (409 \`custom_field_required\`); change its value instead. If-Match is honoured (412). Audited. ${parentRule}`,
        params: fieldParams(def),
        response: { 204: Deleted, ...problemResponses(404, 409, 412) },
      },
      config: def.write,
    },
    async (req, reply) => {
      await service.deleteField(authenticatedContext(req), ownerOf(req), fieldOf(req), expectedVersion(req))
      return reply.code(204).send(null)
    },
  )
}

export const customFieldRoutes: FastifyPluginAsyncTypebox<{ service: CustomFieldService }> = async (
  app,
  { service },
) => {
  app.addSchema(CustomFieldSchema)
  app.addSchema(CustomFieldDefinitionSchema)

  for (const def of [KINDS.AGENT, KINDS.DEALER_GROUP, KINDS.DEALER])
    registerFieldRoutes(app, accountHolderRoutes(def, service), service)
  registerFieldRoutes(app, cashTransactionRoutes(service), service)

  const collection = '/api/customfielddefinitions'
  const one = `${collection}/:definitionId`

  app.get(
    collection,
    {
      schema: {
        tags,
        operationId: 'listCustomFieldDefinitions',
        summary: "List the tenant's custom field definitions",
        description:
          'Filtered by appliesTo and name (exact, ignoring case); ordered by id; bounded by limit/offset, the total in X-Total-Count.',
        querystring: CustomFieldDefinitionListQuery,
        response: {
          200: Type.Array(definitionRef, {
            examples: [[CUSTOM_FIELD_DEFINITION_EXAMPLE]],
            headers: { 'X-Total-Count': TotalCount },
          }),
          ...problemResponses(),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const q = req.query
      const result = await service.listDefinitions(
        authenticatedContext(req),
        {
          ...(q.appliesTo === undefined ? {} : { appliesTo: q.appliesTo }),
          ...(q.name === undefined ? {} : { name: q.name }),
        },
        listWindow(q),
      )
      return sendList(reply, { items: result.rows.map(toDefinitionDto), totalCount: result.total })
    },
  )

  app.post(
    collection,
    {
      schema: {
        tags,
        operationId: 'createCustomFieldDefinition',
        summary: 'Define a custom field for agents, dealer groups, dealers or cash transactions',
        description: [
          "From then on, fields of that name on records of that kind (account holders, cash transactions) must have the definition's type and satisfy its constraints.",
          'allowedValues is required for LIST and refused otherwise; maxLength (1 to 1000) is for STRING only (422 `invalid_custom_field_definition`).',
          'required: fields of the name cannot be deleted, and field lists report account holders that lack one (X-Missing-Required-Fields).',
          'label defaults to the name. Names are unique per appliesTo, ignoring case (409 `custom_field_definition_name_taken`).',
          'Fields already stored under the name must satisfy the definition (409 `custom_field_definition_conflict`, listing up to 10 of them). Audited.',
        ].join(' '),
        body: CreateCustomFieldDefinitionBody,
        response: { 201: definitionRef, ...problemResponses(409, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const row = await service.createDefinition(authenticatedContext(req), req.body)
      setEtag(reply, row.version)
      reply.code(201).header('location', `${collection}/${row.id}`)
      return toDefinitionDto(row)
    },
  )

  app.get(
    one,
    {
      schema: {
        tags,
        operationId: 'getCustomFieldDefinition',
        summary: 'Read a custom field definition',
        params: CustomFieldDefinitionParams,
        response: { 200: definitionRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) => {
      const row = await service.getDefinition(authenticatedContext(req), req.params.definitionId)
      setEtag(reply, row.version)
      return toDefinitionDto(row)
    },
  )

  app.patch(
    one,
    {
      schema: {
        tags,
        operationId: 'updateCustomFieldDefinition',
        summary: 'Change a custom field definition',
        description: [
          'JSON Patch or JSON Merge Patch, as for every PATCH. label, required, allowedValues and maxLength may change;',
          'id, appliesTo, name, type, the timestamps and version are refused by name (422 `immutable_field`).',
          'The result is validated as a whole (422), then against the fields already stored under the name (409 `custom_field_definition_conflict`).',
          'If-Match is honoured (412). Audited.',
        ].join(' '),
        params: CustomFieldDefinitionParams,
        body: PatchBody({ allowedValues: ['East', 'West', 'Central', 'Mountain'] }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: definitionRef, ...problemResponses(404, 409, 412, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const row = await service.patchDefinition(
        authenticatedContext(req),
        req.params.definitionId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(reply, row.version)
      return toDefinitionDto(row)
    },
  )

  app.delete(
    one,
    {
      schema: {
        tags,
        operationId: 'deleteCustomFieldDefinition',
        summary: 'Delete a custom field definition',
        description:
          "Fields of its name stay and follow their type's own rules from then on; LIST fields cannot (409 `custom_field_definition_conflict` while any exists). If-Match is honoured (412). Audited.",
        params: CustomFieldDefinitionParams,
        response: { 204: Deleted, ...problemResponses(404, 409, 412) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      await service.deleteDefinition(authenticatedContext(req), req.params.definitionId, expectedVersion(req))
      return reply.code(204).send(null)
    },
  )
}
