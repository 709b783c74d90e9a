// HTTP shapes of claim inspections (docs/claims.md "Inspections"; payloads.md §7's Inspection): the
// request, the adjuster's replacement, the company's take/reject, its system's sync reports, the
// inspection as read, and the work queue's query.
import { Type } from 'typebox'
import { DocumentSchema } from '../documents/index.ts'
import { DateTime, IdFilter, IntegerId, PagedQuery, enumOf, nullable } from '../../platform/http/schemas.ts'
import { INSPECTION_STATUSES } from './claim-inspections.rules.ts'

const Note = (description: string) => Type.String({ minLength: 1, maxLength: 2000, description })
const Findings = Type.String({
  minLength: 1,
  maxLength: 8000,
  description: 'What the inspector found (COMPLETED only; not only blanks).',
})
const Odometer = Type.Integer({
  minimum: 0,
  maximum: 9_999_999,
  description: "The odometer read at the inspection (COMPLETED only), not below the claim's.",
})
const InspectedOn = Type.String({
  format: 'date',
  description: "The day the vehicle was inspected, YYYY-MM-DD (COMPLETED only), not before the claim's loss date.",
})
const CompletedAt = DateTime('When the inspection was completed (COMPLETED only; required then), not in the future.')

export const ClaimInspectionClaimParams = Type.Object({ claimId: IntegerId('Claim id') })
export const ClaimInspectionParams = Type.Object({ claimInspectionId: IntegerId('Claim inspection id') })
export const TakeRejectParams = Type.Object({
  claimId: IntegerId('Claim id'),
  claimInspectionId: IntegerId('Claim inspection id'),
})
export const InspectionFileParams = Type.Object({
  claimId: IntegerId('Claim id'),
  inspectionId: IntegerId('Claim inspection id'),
})

export const InspectionRequestSchema = Type.Object(
  {
    inspectionCompanyId: Type.Optional(
      IdFilter(
        "The inspection company (an active account holder of kind INSPECTION_COMPANY). Default: the active company with the lowest id whose serviceStates has the repair facility's state (its first address); 422 required when there is none.",
      ),
    ),
    reasonId: IdFilter('Why (GET /api/inspectionreasons).'),
    note: Type.Optional(nullable(Note('Instructions to the inspector.'))),
  },
  {
    additionalProperties: false,
    examples: [{ inspectionCompanyId: 7101, reasonId: 131, note: 'Verify the coil failure.' }],
  },
)

const REPLACE_STATUSES = ['REQUESTED', 'TAKEN', 'COMPLETED', 'CANCELLED'] as const

export const InspectionReplaceSchema = Type.Object(
  {
    inspectionCompanyId: IdFilter('The company; it changes only while the inspection is and stays REQUESTED.'),
    reasonId: IdFilter('Why (GET /api/inspectionreasons).'),
    note: nullable(Note('Instructions to the inspector; null for none.')),
    status: enumOf(
      REPLACE_STATUSES,
      "The inspection's current status to change its company, reason or note; COMPLETED to record its results (the claim back to OPEN); CANCELLED to stop waiting for it (the claim back to OPEN), also after a rejection.",
    ),
    findings: nullable(Findings),
    inspectedOdometer: nullable(Odometer),
    inspectedOn: nullable(InspectedOn),
    completedAt: nullable(CompletedAt),
  },
  {
    additionalProperties: false,
    examples: [
      {
        inspectionCompanyId: 7101,
        reasonId: 131,
        note: 'Verify the coil failure.',
        status: 'COMPLETED',
        findings: 'Coil 3 open circuit; no sign of tampering.',
        inspectedOdometer: 63120,
        inspectedOn: '2026-09-17',
        completedAt: '2026-09-17T19:00:00.000Z',
      },
    ],
  },
)

export const TakeRejectSchema = Type.Object(
  {
    action: enumOf(['TAKE', 'REJECT'] as const, 'TAKE the inspection, or REJECT it with a reason.'),
    rejectReasonId: Type.Optional(IdFilter('REJECT: why (GET /api/rejectinspectionreasons); required then.')),
    note: Type.Optional(nullable(Note("REJECT: the company's remark."))),
  },
  {
    additionalProperties: false,
    examples: [{ action: 'TAKE' }, { action: 'REJECT', rejectReasonId: 140, note: 'No inspector in the area.' }],
  },
)

const SYNC_STATUSES = ['TAKEN', 'REJECTED', 'COMPLETED'] as const
const syncMembers = {
  claimInspectionId: IdFilter('The inspection reported on.'),
  status: enumOf(SYNC_STATUSES, 'TAKEN, REJECTED (with rejectReasonId) or COMPLETED (with the results).'),
  rejectReasonId: nullable(IdFilter('REJECTED: why (GET /api/rejectinspectionreasons).')),
  note: nullable(Note("The company's remark.")),
  findings: nullable(Findings),
  inspectedOdometer: nullable(Odometer),
  inspectedOn: nullable(InspectedOn),
  completedAt: nullable(CompletedAt),
}
const SYNC_EXAMPLE = {
  claimInspectionId: 4401,
  status: 'COMPLETED',
  rejectReasonId: null,
  note: null,
  findings: 'Coil 3 open circuit; no sign of tampering.',
  inspectedOdometer: 63120,
  inspectedOn: '2026-09-17',
  completedAt: '2026-09-17T19:00:00.000Z',
}

/** PATCH syncinspection: the inspection and its status required; members left out keep their stored values. */
export const SyncPatchSchema = Type.Object(
  {
    claimInspectionId: syncMembers.claimInspectionId,
    status: syncMembers.status,
    rejectReasonId: Type.Optional(syncMembers.rejectReasonId),
    note: Type.Optional(syncMembers.note),
    findings: Type.Optional(syncMembers.findings),
    inspectedOdometer: Type.Optional(syncMembers.inspectedOdometer),
    inspectedOn: Type.Optional(syncMembers.inspectedOn),
    completedAt: Type.Optional(syncMembers.completedAt),
  },
  { additionalProperties: false, examples: [{ claimInspectionId: 4401, status: 'TAKEN' }] },
)

/** PUT syncpostputinspection: every member required (null for none). */
export const SyncPutSchema = Type.Object(syncMembers, { additionalProperties: false, examples: [SYNC_EXAMPLE] })

const EXAMPLE = {
  inspectionId: 4401,
  claimId: 55012,
  claimNumber: 'CLM-202609-000512',
  dealerId: 3,
  vin: '1HGCV1F37LA012345',
  repairFacility: { accountHolderId: 7001, name: 'Precision Auto Repair' },
  inspectionCompanyId: 7101,
  inspectionCompanyName: 'National Vehicle Inspection Services',
  reasonId: 131,
  status: 'COMPLETED',
  note: 'Verify the coil failure.',
  fee: 95,
  rejectReasonId: null,
  companyNote: null,
  findings: 'Coil 3 open circuit; no sign of tampering.',
  inspectedOdometer: 63120,
  inspectedOn: '2026-09-17',
  requestedAt: '2026-09-15T16:00:00.000Z',
  requestedBy: 'adjuster@example.com',
  takenAt: '2026-09-15T18:30:00.000Z',
  rejectedAt: null,
  completedAt: '2026-09-17T19:00:00.000Z',
  cancelledAt: null,
  updatedAt: '2026-09-17T19:05:00.000Z',
  version: 3,
  files: [],
}

export const ClaimInspectionSchema = Type.Object(
  {
    inspectionId: Type.Integer(),
    claimId: Type.Integer(),
    claimNumber: Type.String(),
    dealerId: Type.Integer({ description: "The claim's contract's dealer." }),
    vin: nullable(Type.String()),
    repairFacility: Type.Object({ accountHolderId: Type.Integer(), name: Type.String() }),
    inspectionCompanyId: Type.Integer(),
    inspectionCompanyName: Type.String({ description: "The company's name when it was asked." }),
    reasonId: Type.Integer({ description: 'An inspection reason (GET /api/inspectionreasons).' }),
    status: enumOf(INSPECTION_STATUSES),
    note: nullable(Type.String(), "The adjuster's instructions."),
    fee: nullable(Type.Number(), "The company's inspectionFee when it was asked; null: none posted."),
    rejectReasonId: nullable(Type.Integer(), 'A reject-inspection reason (REJECTED).'),
    companyNote: nullable(Type.String(), "The company's remark (a rejection's, a report's)."),
    findings: nullable(Type.String()),
    inspectedOdometer: nullable(Type.Integer()),
    inspectedOn: nullable(Type.String({ format: 'date' })),
    requestedAt: DateTime('When the inspection was requested.'),
    requestedBy: Type.String(),
    takenAt: nullable(DateTime('When the company took it.')),
    rejectedAt: nullable(DateTime('When the company rejected it.')),
    completedAt: nullable(DateTime('When it was completed (as reported).')),
    cancelledAt: nullable(DateTime('When the adjuster cancelled it.')),
    updatedAt: DateTime('Last changed.'),
    version: Type.Integer(),
    files: Type.Optional(
      Type.Array(DocumentSchema, {
        description:
          "Its files (photos, the report; the documents module's shape, kind INSPECTION_FILE), oldest first, at most 100. Not in the list's items.",
      }),
    ),
  },
  {
    $id: 'ClaimInspection',
    additionalProperties: false,
    description: "An inspection of a claim's vehicle (payloads.md §7's Inspection, with more).",
    examples: [EXAMPLE],
  },
)

export const InspectionIndexQuery = Type.Object(
  {
    status: Type.Optional(enumOf(INSPECTION_STATUSES, 'Only inspections in this status.')),
    inspectionCompanyId: Type.Optional(IdFilter("Only this company's inspections.")),
    claimId: Type.Optional(IdFilter("Only this claim's inspections.")),
    requestedFrom: Type.Optional(DateTime('Requested at or after this instant.')),
    requestedTo: Type.Optional(DateTime('Requested before this instant.')),
    updatedFrom: Type.Optional(DateTime('Changed at or after this instant (a sync cursor).')),
    ...PagedQuery,
  },
  { additionalProperties: false },
)

export const InspectionUploadQuery = Type.Object(
  {
    fileName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "File name to keep; otherwise the Content-Disposition header's, otherwise document.<ext>.",
      }),
    ),
    title: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Title of the document; its file name when absent.' }),
    ),
  },
  { additionalProperties: false },
)
