// /api/generalsettings: typed, per-tenant settings (issue 2 §6, docs/settings.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import {
  GeneralSettingListQuery,
  GeneralSettingParams,
  GeneralSettingSchema,
  SettingGroupSchema,
  SettingTypeSchema,
  UpdateGeneralSettingBody,
} from './settings.schemas.ts'
import type { SettingsService } from './settings.service.ts'

const settingRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'GeneralSetting#' })
const groupRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'SettingGroup#' })
const typeRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'SettingType#' })

const tags = ['Settings']
const read = { permission: 'settings:read' }
const write = { permission: 'settings:write' }

export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.addSchema(GeneralSettingSchema)
  app.addSchema(SettingGroupSchema)
  app.addSchema(SettingTypeSchema)

  app.get(
    '/api/generalsettings',
    {
      schema: {
        tags,
        operationId: 'listGeneralSettings',
        summary: 'List the general settings with their values',
        description:
          'Every setting of the catalogue, in id order, with the value in effect for the tenant (its own or the default). Filter by `group`; bounded by limit/offset, the total in X-Total-Count.',
        querystring: GeneralSettingListQuery,
        response: { 200: Type.Array(settingRef), ...problemResponses() },
      },
      config: read,
    },
    async (req, reply) => {
      const result = await settings.list(
        req.ctx,
        req.query.group === undefined ? {} : { group: req.query.group },
        listWindow(req.query),
      )
      return sendList(reply, result)
    },
  )

  app.get(
    '/api/generalsettings/settinggroups',
    {
      schema: {
        tags,
        operationId: 'listGeneralSettingGroups',
        summary: 'List the setting groups',
        description: 'The groups of the catalogue, each with the ids of its settings. The same for every tenant.',
        response: { 200: Type.Array(groupRef, { examples: [settings.groups().slice(0, 1)] }), ...problemResponses() },
      },
      config: read,
    },
    async () => settings.groups(),
  )

  app.get(
    '/api/generalsettings/settingtypes',
    {
      schema: {
        tags,
        operationId: 'listGeneralSettingTypes',
        summary: 'List the setting types',
        description:
          'Each setting type with its JSON representation, the constraints that apply to it and the validation rules values go through.',
        response: { 200: Type.Array(typeRef, { examples: [settings.types().slice(0, 1)] }), ...problemResponses() },
      },
      config: read,
    },
    async () => settings.types(),
  )

  app.get(
    '/api/generalsettings/:generalSettingId',
    {
      schema: {
        tags,
        operationId: 'getGeneralSetting',
        summary: 'Read one general setting',
        description: 'By integer id or by key. The ETag is the row version ("0" while the default applies).',
        params: GeneralSettingParams,
        response: { 200: settingRef, ...problemResponses(404) },
      },
      config: read,
    },
    async (req, reply) => {
      const view = await settings.view(req.ctx, req.params.generalSettingId)
      setEtag(reply, view.version)
      return view
    },
  )

  app.put(
    '/api/generalsettings/:generalSettingId',
    {
      schema: {
        tags,
        operationId: 'replaceGeneralSetting',
        summary: "Set the tenant's value of a general setting",
        description: [
          'Body `{ "value": … }` (a GET reply with a new value is accepted too; its read-only members are ignored).',
          "The value must have the JSON type of the setting's type and satisfy its constraints; otherwise 422 `invalid_setting_value`",
          'with `errors[0].field` = `value` and a code: invalid_type, null_not_allowed, out_of_range, too_precise, too_short, too_long,',
          'invalid_format or not_allowed. A body without `value`, or with unknown members, is 400. If-Match (the ETag) is honoured: 412 on mismatch.',
          'Audited with the values before and after.',
        ].join(' '),
        params: GeneralSettingParams,
        body: UpdateGeneralSettingBody,
        response: { 200: settingRef, ...problemResponses(404, 412, 415, 422) },
      },
      config: write,
    },
    async (req, reply) => {
      const view = await settings.update(req.ctx, req.params.generalSettingId, req.body, expectedVersion(req))
      setEtag(reply, view.version)
      return view
    },
  )

  app.delete(
    '/api/generalsettings/:generalSettingId',
    {
      schema: {
        tags,
        operationId: 'resetGeneralSetting',
        summary: 'Reset a general setting to its default',
        description:
          "Drops the tenant's own value, so the default applies again; answers the setting as it now reads (version 0). Resetting a setting already at its default changes nothing. If-Match is honoured: 412 on mismatch. Audited.",
        params: GeneralSettingParams,
        response: { 200: settingRef, ...problemResponses(404, 412) },
      },
      config: write,
    },
    async (req, reply) => {
      const view = await settings.reset(req.ctx, req.params.generalSettingId, expectedVersion(req))
      setEtag(reply, view.version)
      return view
    },
  )
}
