// The tenant's claim lookups (docs/claims.md "Lookups"): the lists staff and repair facilities pick
// from when they write a claim's jobs (complaint, cause, correction) and decide on it (denied and hold
// reasons, inspection and reject-inspection reasons). Read-only for now; a tenant starts with the
// defaults of claim-lookups.defaults.ts, seeded by `initializeTenant`.
import type { Transaction } from 'kysely'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { CLAIM_COMBINATION_DEFAULTS, CLAIM_LOOKUP_DEFAULTS, type ClaimLookupKind } from './claim-lookups.defaults.ts'
import {
  countCombinations,
  countLookups,
  insertDefaults,
  listCombinations,
  listLookups,
  type ClaimLookupRow,
  type CombinationFilter,
  type CombinationRow,
} from './claim-lookups.repository.ts'

/** An entry of a list; `type` only on complaints, causes and corrections. */
export type ClaimLookup = { id: number; code: string; name: string; type?: string; active: boolean; sortOrder: number }

export type ClaimLookupRef = { id: number; code: string; name: string }

export type ClaimCombination = {
  id: number
  /** The complaint's type. */
  type: string | null
  complaint: ClaimLookupRef
  cause: ClaimLookupRef
  correction: ClaimLookupRef
  active: boolean
  sortOrder: number
}

export type LookupQuery = { type?: string; active?: boolean }

const TYPED = new Set<ClaimLookupKind>(['COMPLAINT', 'CAUSE', 'CORRECTION'])

function toLookup(r: ClaimLookupRow): ClaimLookup {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    ...(TYPED.has(r.kind) ? { type: r.type_code ?? '' } : {}),
    active: r.active,
    sortOrder: r.sort_order,
  }
}

function toCombination(r: CombinationRow): ClaimCombination {
  return {
    id: r.id,
    type: r.type_code,
    complaint: { id: r.complaint_id, code: r.complaint_code, name: r.complaint_name },
    cause: { id: r.cause_id, code: r.cause_code, name: r.cause_name },
    correction: { id: r.correction_id, code: r.correction_code, name: r.correction_name },
    active: r.active,
    sortOrder: r.sort_order,
  }
}

export function createClaimLookupService({ db }: { db: Database }) {
  return {
    /** One list, in its sort order; `type` filters the three Cs only (the routes of other kinds take none). */
    async list(ctx: AuthenticatedContext, kind: ClaimLookupKind, query: LookupQuery, window: Window) {
      const filter = { kind, type: TYPED.has(kind) ? query.type : undefined, active: query.active }
      return db.read(ctx.tenantId, async (x) => ({
        items: (await listLookups(x, ctx.tenantId, filter, window)).map(toLookup),
        totalCount: await countLookups(x, ctx.tenantId, filter),
      }))
    },

    async combinations(ctx: AuthenticatedContext, filter: CombinationFilter, window: Window) {
      return db.read(ctx.tenantId, async (x) => ({
        items: (await listCombinations(x, ctx.tenantId, filter, window)).map(toCombination),
        totalCount: await countCombinations(x, ctx.tenantId, filter),
      }))
    },

    /** The defaults of a new tenant, in its creating transaction. */
    initializeTenant(tx: Transaction<DB>, tenantId: number, now: Date): Promise<void> {
      return insertDefaults(tx, tenantId, now, CLAIM_LOOKUP_DEFAULTS, CLAIM_COMBINATION_DEFAULTS)
    },
  }
}

export type ClaimLookupService = ReturnType<typeof createClaimLookupService>
