// Repair facilities ↔ dealers and dealer groups (spec §4.3): GET/PATCH/DELETE
// /repairfacilities/{repairFacilityId}/dealers and …/dealergroups, and
// GET /repairfacilities/repairfacilityofdealer/{dealerId}. The static segment
// `repairfacilityofdealer` outranks the {repairFacilityId} parameter in the router.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import {
  DealerIdParams,
  FacilityOfDealerSchema,
  LinkChangeBody,
  LinkedAccountHolderSchema,
  LinkListQuery,
  LinkRemovalQuery,
  MAX_LINKS_PER_KIND,
  RepairFacilityIdParams,
} from './repair-facility-link.schemas.ts'
import type { LinkKind, RepairFacilityLinkService } from './repair-facility-link.service.ts'

const READ = { permission: 'accountholders:read' }
const WRITE = { permission: 'accountholders:write' }
const TAG = 'Repair facilities'

/** `ids=1,2&ids=3` → ['1', '2', '3'], before validation reads them as the declared list of integers. */
async function splitCommaSeparatedIds(req: { query: unknown }): Promise<void> {
  const query = req.query as { ids?: string | string[] }
  if (query.ids === undefined) return
  query.ids = (Array.isArray(query.ids) ? query.ids : [query.ids]).flatMap((v) => v.split(','))
}

/** operationNoun: the linked kind in operationIds (`listRepairFacilityDealers`). */
const SEGMENTS: Array<{ kind: LinkKind; segment: string; plural: string; operationNoun: string }> = [
  { kind: 'DEALER', segment: 'dealers', plural: 'dealers', operationNoun: 'Dealers' },
  { kind: 'DEALER_GROUP', segment: 'dealergroups', plural: 'dealer groups', operationNoun: 'DealerGroups' },
]

export const repairFacilityLinkRoutes: FastifyPluginAsyncTypebox<{ service: RepairFacilityLinkService }> = async (
  app,
  { service },
) => {
  app.addSchema(LinkedAccountHolderSchema)
  app.addSchema(FacilityOfDealerSchema)
  const linkedList = Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'RepairFacilityLinkedAccountHolder#' }))
  const facilityList = Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'RepairFacilityOfDealer#' }))

  for (const { kind, segment, plural, operationNoun } of SEGMENTS) {
    const url = `/api/repairfacilities/:repairFacilityId/${segment}`

    app.get(
      url,
      {
        schema: {
          tags: [TAG],
          operationId: `listRepairFacility${operationNoun}`,
          summary: `List the ${plural} a repair facility serves`,
          description: `Ordered by id; bounded by limit/offset with X-Total-Count. Dealer-side users see only the ${plural} their groups grant. 404 when the repair facility does not exist or is not visible.`,
          params: RepairFacilityIdParams,
          querystring: LinkListQuery,
          response: { 200: linkedList, ...problemResponses(404) },
        },
        config: READ,
      },
      async (req, res) =>
        sendList(
          res,
          await service.list(authenticatedContext(req), req.params.repairFacilityId, kind, listWindow(req.query)),
        ),
    )

    app.patch(
      url,
      {
        schema: {
          tags: [TAG],
          operationId: `linkRepairFacility${operationNoun}`,
          summary: `Link ${plural} to a repair facility`,
          description:
            `Body: exactly one of \`add\` (link these ${plural} too) or \`replace\` (the complete new set; \`[]\` unlinks all), at most ${MAX_LINKS_PER_KIND} ids. ` +
            `Every id must be a ${kind} of the tenant (422 unknown_reference naming add[i] or replace[i]); a facility links at most ${MAX_LINKS_PER_KIND} ${plural} (422 repair_facility_link_limit). ` +
            'Answers with the resulting set of links (X-Total-Count). Idempotent: repeating a request changes nothing.',
          params: RepairFacilityIdParams,
          body: LinkChangeBody,
          response: { 200: linkedList, ...problemResponses(404, 422) },
        },
        config: WRITE,
      },
      async (req, res) =>
        sendList(res, await service.change(authenticatedContext(req), req.params.repairFacilityId, kind, req.body)),
    )

    app.delete(
      url,
      {
        schema: {
          tags: [TAG],
          operationId: `unlinkRepairFacility${operationNoun}`,
          summary: `Unlink ${plural} from a repair facility`,
          description:
            `The ${plural} to unlink are named in the query (\`?ids=1042,1043\`), not in a body, because proxies and HTTP clients may drop DELETE bodies. ` +
            'Ids that are not linked are ignored. Answers with the remaining links (X-Total-Count). To unlink everything, PATCH with `{ "replace": [] }`.',
          params: RepairFacilityIdParams,
          querystring: LinkRemovalQuery,
          response: { 200: linkedList, ...problemResponses(404) },
        },
        config: WRITE,
        preValidation: splitCommaSeparatedIds,
      },
      async (req, res) =>
        sendList(
          res,
          await service.remove(authenticatedContext(req), req.params.repairFacilityId, kind, req.query.ids),
        ),
    )
  }

  app.get(
    '/api/repairfacilities/repairfacilityofdealer/:dealerId',
    {
      schema: {
        tags: [TAG],
        operationId: 'listRepairFacilitiesOfDealer',
        summary: 'List the repair facilities that serve a dealer',
        description:
          'Facilities linked to the dealer itself (`via: DEALER`) or to its dealer group (`via: DEALER_GROUP`); a facility linked both ways is listed once, as DEALER. ' +
          'Expired and inactive facilities are included (see isActive). Ordered by id; bounded by limit/offset with X-Total-Count. 404 when the dealer does not exist or is not visible.',
        params: DealerIdParams,
        querystring: LinkListQuery,
        response: { 200: facilityList, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) =>
      sendList(
        res,
        await service.facilitiesOfDealer(authenticatedContext(req), req.params.dealerId, listWindow(req.query)),
      ),
  )
}
