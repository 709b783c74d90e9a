// Claims (issue 14, docs/claims.md). The pure rules the claims service is built on: the claim state
// machine (claim.rules.ts), the payable of a claim to the cent (claim.payable.rules.ts) and the intake
// checks against the contract (claim.intake.rules.ts); and the tenant's claim lookups (the three Cs,
// their types and combinations, the reason lists: claim-lookups.*.ts), seeded at tenant creation and
// read through the lookup routes. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'
import type { DocumentsModule } from '../documents/index.ts'
import { claimLookupRoutes } from './claim-lookups.routes.ts'
import { claimDenyRoutes } from './claim-deny.routes.ts'
import { createClaimDenyService } from './claim-deny.service.ts'
import { claimPpmRoutes } from './claim-ppm.routes.ts'
import { createClaimPpmService } from './claim-ppm.service.ts'
import { createClaimLookupService } from './claim-lookups.service.ts'
import { claimRoutes } from './claim.routes.ts'
import { createClaimService, type ClaimsServiceDeps } from './claim.service.ts'
import { createClaimPayments, type ClaimPaymentsDeps } from './claim-payments.service.ts'
import { contractClaimsSummary } from './claim.repository.ts'
import { claimInspectionRoutes } from './claim-inspections.routes.ts'
import { createClaimInspectionService, INSPECTION_OWNER } from './claim-inspections.service.ts'

export {
  CLAIM_COMBINATION_DEFAULTS,
  CLAIM_LOOKUP_DEFAULTS,
  CLAIM_LOOKUP_KINDS,
  type ClaimCombinationDefault,
  type ClaimLookupDefault,
  type ClaimLookupKind,
} from './claim-lookups.defaults.ts'
export type { ClaimCombination, ClaimLookup, ClaimLookupService } from './claim-lookups.service.ts'

export type { ClaimContractReader, ClaimContractRecord, ClaimService, RepairFacilityReader } from './claim.service.ts'
export type { ClaimInspectionService, ClaimInspectionView } from './claim-inspections.service.ts'

/** The documents of a claim (the documents module's owner type and kind; docs/claims.md "Notes and documents"). */
export const CLAIM_OWNER = 'CLAIM'
export const CLAIM_DOCUMENT = 'CLAIM_DOCUMENT'

export type ClaimsDeps = {
  db: Database
  documents: DocumentsModule
  ledger: ClaimPaymentsDeps['ledger']
  administratorId: ClaimPaymentsDeps['administratorId']
} & Omit<ClaimsServiceDeps, 'documentsCount' | 'payments' | 'ppm' | 'inspectionOf'>

export function createClaimsModule(deps: ClaimsDeps) {
  const lookups = createClaimLookupService(deps)
  // PPM services of contracts and claims, and the redemption check intake and edits run (docs/claims.md "PPM services").
  const ppm = createClaimPpmService(deps)
  // Intake, read and the index of claims (docs/claims.md "Claims: intake, read, index").
  // Payment requests and payments (docs/claims.md "Payment requests and payments"); they lock the
  // claim with the claim service's checks, and the claim service shows and withdraws them.
  const payments = createClaimPayments({
    ...deps,
    lockedClaim: (tx, ctx, id) => service.lockedClaim(tx, ctx, id),
  })
  const service = createClaimService({
    ...deps,
    payments,
    ppm,
    inspectionOf: (x, tenantId, claimId) => inspections.inspectionOf(x, tenantId, claimId),
    documentsCount: (tenantId, claimId) =>
      deps.documents.service.countForOwner(tenantId, CLAIM_OWNER, claimId, [CLAIM_DOCUMENT]),
  })
  // Denying the claims of ended contracts (docs/claims.md "Denying the claims of ended contracts"); the processes issue schedules `deny.denyClaims`.
  const deny = createClaimDenyService(deps)
  // Inspections (docs/claims.md "Inspections"); their files are guarded by the inspection's visibility.
  const inspections = createClaimInspectionService({
    db: deps.db,
    clock: deps.clock,
    documents: deps.documents.service,
  })
  deps.documents.service.registerOwner(INSPECTION_OWNER, (ctx, id, access) => inspections.filesOwner(ctx, id, access))
  return {
    lookups,
    service,
    /** Claim inspections; `inspections.inspectionOf(executor, tenantId, claimId)` is the claim view's `inspection`. */
    inspections,
    ppm,
    deny,
    /** Finance's payout runs pay claim payables through it (docs/payouts.md "Claim payables"). */
    payoutPort: payments.payoutPort,
    /**
     * What a contract's claims mean to a cancel (the cancellations module's ClaimsPort): unsettled
     * claims block it (`claims_open`), claims paid are deducted and lose the free-look. No claim is
     * paid until payments exist (the claims issue's payment requests, the cash issue's payments).
     */
    cancellationsPort: {
      async onContract(tenantId: number, contractId: number) {
        const s = await deps.db.read(tenantId, (x) => contractClaimsSummary(x, tenantId, contractId))
        return { paidCents: s.paidCents, claimPaid: s.paidClaims > 0, openCount: s.unsettled, riskBearerId: null }
      },
    },
    initializeTenant: ((tx, tenant, now) => lookups.initializeTenant(tx, tenant.id, now)) satisfies TenantInitializer,
    async routes(app: FastifyInstance) {
      await app.register(claimLookupRoutes, { lookups })
      await app.register(claimRoutes, { service, payments })
      await app.register(claimInspectionRoutes, { inspections, documents: deps.documents.service })
      await app.register(claimPpmRoutes, { ppm })
      await app.register(claimDenyRoutes, { deny })
      // A claim's documents (invoices, photos, estimates): the documents module's collection.
      await app.register(
        deps.documents.ownerFileRoutes({
          prefix: '/api/claims/:claimId',
          param: 'claimId',
          collectionPath: 'documents',
          itemParam: 'claimDocumentId',
          ownerType: CLAIM_OWNER,
          kind: CLAIM_DOCUMENT,
          tag: 'Claims',
          ownerLabel: 'claim',
          readPermission: 'claims:read',
          writePermission: 'claims:write',
          // Owner checks run on authenticated routes only; a signed link never reaches them.
          resolveOwner: (ctx, ownerId, access) => service.documentsOwner(ctx as AuthenticatedContext, ownerId, access),
        }),
      )
    },
  }
}

export type ClaimsModule = ReturnType<typeof createClaimsModule>

export {
  authorizationExpired,
  authorizationExpiresOn,
  BLOCKED_BY_HOLDS,
  CLAIM_EVENTS,
  CLAIM_STATUSES,
  CLAIM_TRANSITIONS,
  eventsFrom,
  JOB_STATUSES,
  transition,
  type ClaimEvent,
  type ClaimFacts,
  type ClaimStatus,
  type ClaimTransition,
  type ClaimTransitionRefusal,
  type JobStatus,
} from './claim.rules.ts'
export {
  claimPayable,
  limitOfLiabilityCents,
  payableInputProblems,
  type BenefitLine,
  type ClaimJob,
  type ClaimPayable,
  type ClaimPayableResult,
  type LaborLine,
  type PartLine,
  type PayableInput,
  type SubletLine,
} from './claim.payable.rules.ts'
export {
  expirationOdometerOf,
  firstCoveredDay,
  intakeProblems,
  type IntakeClaim,
  type IntakeContract,
} from './claim.intake.rules.ts'
