// Claim lookups over HTTP (spec §4.3 "Claims", docs/claims.md "Lookups"): the three Cs, their types
// and combinations, and the reason lists. The /api/claims/… segments are static: they live beside
// the later /api/claims/{claimId} (an integer), and find-my-way matches a static segment first.
// The inspection reason lists are at /api/inspectionreasons and /api/rejectinspectionreasons, where
// the spec puts them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import type { ClaimLookupKind } from './claim-lookups.defaults.ts'
import {
  ClaimCombinationSchema,
  ClaimLookupSchema,
  ClaimThreeCSchema,
  CombinationQuerySchema,
  LookupQuerySchema,
  TypedLookupQuerySchema,
} from './claim-lookups.schemas.ts'
import type { ClaimLookupService } from './claim-lookups.service.ts'

const TAGS = ['Claims']
const READ = { permission: 'claims:read' }
const lookupRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimLookup#' })
const threeCRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimThreeC#' })
const combinationRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimComplaintCauseCorrection#' })
const LISTED =
  'In the list order (sortOrder, then id), bounded by limit/offset, the total in X-Total-Count. A tenant starts with the defaults of docs/claims.md "Lookups".'

/** The reason lists and the types: no type filter. */
const PLAIN: Array<{ url: string; kind: ClaimLookupKind; operationId: string; summary: string; about: string }> = [
  {
    url: '/api/claims/complaintscausescorrectionstypes',
    kind: 'TYPE',
    operationId: 'listClaimComplaintCauseCorrectionTypes',
    summary: 'List the types the complaints, causes and corrections are grouped in',
    about: 'The groups of the three Cs, by the vehicle system they concern (ENGINE, TRANSMISSION, ELECTRICAL…).',
  },
  {
    url: '/api/claims/deniedReasons',
    kind: 'DENIED_REASON',
    operationId: 'listClaimDeniedReasons',
    summary: 'List the reasons a claim or a job can be denied',
    about: 'What a denial names (NOT_COVERED, PRE_EXISTING, WEAR_AND_TEAR…).',
  },
  {
    url: '/api/claims/holdReasons',
    kind: 'HOLD_REASON',
    operationId: 'listClaimHoldReasons',
    summary: 'List the reasons a claim can be put on hold',
    about: 'What a hold names (MISSING_INVOICE, FRAUD_REVIEW…); a hold blocks authorization and payment.',
  },
  {
    url: '/api/inspectionreasons',
    kind: 'INSPECTION_REASON',
    operationId: 'listInspectionReasons',
    summary: 'List the reasons an inspection of a claim can be requested',
    about: 'Why an adjuster asks an inspection company to look at the vehicle (HIGH_DOLLAR, CAUSE_UNCLEAR…).',
  },
  {
    url: '/api/rejectinspectionreasons',
    kind: 'REJECT_INSPECTION_REASON',
    operationId: 'listRejectInspectionReasons',
    summary: 'List the reasons an inspection company can refuse an inspection',
    about: 'Why an inspection company does not take an inspection (OUT_OF_AREA, VEHICLE_ALREADY_REPAIRED…).',
  },
]

/** The three Cs: filtered by type. */
const TYPED: Array<{ url: string; kind: ClaimLookupKind; operationId: string; summary: string }> = [
  {
    url: '/api/claims/complaints',
    kind: 'COMPLAINT',
    operationId: 'listClaimComplaints',
    summary: 'List the complaints (what the customer reports)',
  },
  {
    url: '/api/claims/causes',
    kind: 'CAUSE',
    operationId: 'listClaimCauses',
    summary: 'List the causes (what failed)',
  },
  {
    url: '/api/claims/corrections',
    kind: 'CORRECTION',
    operationId: 'listClaimCorrections',
    summary: 'List the corrections (the repair)',
  },
]

export const claimLookupRoutes: FastifyPluginAsyncTypebox<{ lookups: ClaimLookupService }> = async (
  app,
  { lookups },
) => {
  app.addSchema(ClaimLookupSchema)
  app.addSchema(ClaimThreeCSchema)
  app.addSchema(ClaimCombinationSchema)

  for (const route of PLAIN) {
    app.get(
      route.url,
      {
        schema: {
          tags: TAGS,
          operationId: route.operationId,
          summary: route.summary,
          description: `${route.about} ${LISTED}`,
          querystring: LookupQuerySchema,
          response: { 200: Type.Array(lookupRef), ...problemResponses() },
        },
        config: READ,
      },
      async (req, res) =>
        sendList(res, await lookups.list(authenticatedContext(req), route.kind, req.query, listWindow(req.query))),
    )
  }

  for (const route of TYPED) {
    app.get(
      route.url,
      {
        schema: {
          tags: TAGS,
          operationId: route.operationId,
          summary: route.summary,
          description: `One of the three Cs of a claim's job, each of a type (GET /api/claims/complaintscausescorrectionstypes). ${LISTED}`,
          querystring: TypedLookupQuerySchema,
          response: { 200: Type.Array(threeCRef), ...problemResponses() },
        },
        config: READ,
      },
      async (req, res) =>
        sendList(res, await lookups.list(authenticatedContext(req), route.kind, req.query, listWindow(req.query))),
    )
  }

  app.get(
    '/api/claims/complaintcausecorrections',
    {
      schema: {
        tags: TAGS,
        operationId: 'listClaimComplaintCauseCorrections',
        summary: 'List the usual combinations of a complaint, a cause and a correction',
        description: `What a job usually reads: a complaint, a cause of it and the correction of that cause; filter by complaintId to offer the causes and corrections of a complaint. ${LISTED}`,
        querystring: CombinationQuerySchema,
        response: { 200: Type.Array(combinationRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const { complaintId, causeId, correctionId, type, active } = req.query
      return sendList(
        res,
        await lookups.combinations(
          authenticatedContext(req),
          { complaintId, causeId, correctionId, type, active },
          listWindow(req.query),
        ),
      )
    },
  )
}
