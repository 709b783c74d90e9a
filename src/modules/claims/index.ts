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
import { createClaimLookupService } from './claim-lookups.service.ts'
import { claimRoutes } from './claim.routes.ts'
import { createClaimService, type ClaimsServiceDeps } from './claim.service.ts'
import { contractClaimsSummary } from './claim.repository.ts'

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

/** The documents of a claim (the documents module's owner type and kind; docs/claims.md "Notes and documents"). */
export const CLAIM_OWNER = 'CLAIM'
export const CLAIM_DOCUMENT = 'CLAIM_DOCUMENT'

export type ClaimsDeps = { db: Database; documents: DocumentsModule } & Omit<ClaimsServiceDeps, 'documentsCount'>

export function createClaimsModule(deps: ClaimsDeps) {
  const lookups = createClaimLookupService(deps)
  // Intake, read and the index of claims (docs/claims.md "Claims: intake, read, index").
  const service = createClaimService({
    ...deps,
    documentsCount: (tenantId, claimId) =>
      deps.documents.service.countForOwner(tenantId, CLAIM_OWNER, claimId, [CLAIM_DOCUMENT]),
  })
  return {
    lookups,
    service,
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
      await app.register(claimRoutes, { service })
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
