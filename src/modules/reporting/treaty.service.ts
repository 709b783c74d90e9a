// Reinsurance treaties (docs/reporting.md): maintained by the administrator's staff (reinsurance:write,
// audited), and the cession port the contracts module calls at every sale (src/modules.ts): the treaty
// in force on the sale date for the dealer (or its group) and the product (or program), and what it
// cedes of the reserve. The rules are treaty.rules.ts; this file reads, checks and writes.
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import { isStorableId } from '../../platform/ids.ts'
import { reportingErrors } from './reporting.errors.ts'
import * as repo from './treaty.repository.ts'
import {
  cessionOf,
  conflicts,
  FULL_SHARE_BPS,
  treatyFor,
  treatyProblems,
  type Cession,
  type Treaty,
} from './treaty.rules.ts'
import { ReinsuranceTreatyEditable } from './treaty.schemas.ts'

/** What the treaties read of the parties module (its directory, through src/modules.ts). */
export type TreatyPartiesPort = {
  /** The kind of each id that is an account holder of the tenant (absent: none). */
  accountHolderKinds(tenantId: number, ids: number[]): Promise<Map<number, string>>
}

export type TreatyDeps = { db: Database; clock: Clock; parties: TreatyPartiesPort }

export type TreatyInput = {
  reinsuranceCompanyId: number
  name: string
  dealerIds?: number[] | undefined
  dealerGroupIds?: number[] | undefined
  productIds?: number[] | undefined
  programIds?: number[] | undefined
  effectiveFrom: string
  effectiveTo?: string | null | undefined
  shareBps?: number | undefined
  cedingFeeBps?: number | undefined
  administratorFeeBps?: number | undefined
}

export type TreatyView = {
  id: number
  reinsuranceCompanyId: number
  name: string
  dealerIds: number[]
  dealerGroupIds: number[]
  productIds: number[]
  programIds: number[]
  effectiveFrom: string
  effectiveTo: string | null
  shareBps: number
  cedingFeeBps: number
  administratorFeeBps: number
  version: number
  createdAt: string
  updatedAt: string
}

function toView(r: repo.TreatyRow): TreatyView {
  const t = repo.treatyOf(r)
  return {
    id: t.id,
    reinsuranceCompanyId: t.reinsuranceCompanyId,
    name: t.name,
    dealerIds: [...t.dealerIds],
    dealerGroupIds: [...t.dealerGroupIds],
    productIds: [...t.productIds],
    programIds: [...t.programIds],
    effectiveFrom: t.effectiveFrom,
    effectiveTo: t.effectiveTo,
    shareBps: t.shareBps,
    cedingFeeBps: t.cedingFeeBps,
    administratorFeeBps: t.administratorFeeBps,
    version: t.version,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }
}

/** The editable representation a PATCH applies to. */
function editableOf(r: repo.TreatyRow): Record<string, unknown> {
  const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...rest } = toView(r)
  return rest
}

const period = (t: { effectiveFrom: string; effectiveTo: string | null }) =>
  `${t.effectiveFrom} to ${t.effectiveTo ?? 'open-ended'}`

/**
 * A treaty's reader or writer is the administrator's staff: a treaty names dealers and who reinsures
 * them. A dealer-side user is refused whatever its permissions (docs/permissions.md).
 */
export function staffOnly(ctx: AuthenticatedContext, what: string): void {
  if (ctx.principal.visibleAccountHolderIds !== null)
    throw platformErrors.create('permission_denied', `${what} are for the administrator's staff`)
}

export function createTreatyService({ db, clock, parties }: TreatyDeps) {
  const notFound = (id: number) => reportingErrors.create('reinsurance_treaty_not_found', `no reinsurance treaty ${id}`)
  const validateEditable = createPatchedValidator(ReinsuranceTreatyEditable)

  const invalid = (errors: FieldError[]) =>
    reportingErrors.create(
      'reinsurance_treaty_invalid',
      `${errors.length} problem(s): ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      { errors },
    )

  /** The stored values of a treaty as submitted (or patched as a whole), or every problem with it, references included. */
  async function valuesOf(x: Executor, tenantId: number, input: TreatyInput): Promise<repo.TreatyValues> {
    const t = {
      reinsuranceCompanyId: input.reinsuranceCompanyId,
      name: input.name,
      dealerIds: input.dealerIds ?? [],
      dealerGroupIds: input.dealerGroupIds ?? [],
      productIds: input.productIds ?? [],
      programIds: input.programIds ?? [],
      effectiveFrom: input.effectiveFrom,
      effectiveTo: input.effectiveTo ?? null,
      shareBps: input.shareBps ?? FULL_SHARE_BPS,
      cedingFeeBps: input.cedingFeeBps ?? 0,
      administratorFeeBps: input.administratorFeeBps ?? 0,
    }
    const errors = treatyProblems(t)
    const holderIds = [t.reinsuranceCompanyId, ...t.dealerIds, ...t.dealerGroupIds].filter(isStorableId)
    const [kinds, products, programs] = await Promise.all([
      parties.accountHolderKinds(tenantId, [...new Set(holderIds)]),
      repo.catalogueIdsOfKind(x, tenantId, 'PRODUCT', t.productIds.filter(isStorableId)),
      repo.catalogueIdsOfKind(x, tenantId, 'PROGRAM', t.programIds.filter(isStorableId)),
    ])
    const unknown = (field: string, what: string) => ({
      field,
      code: 'unknown_reference',
      message: `is not ${what} of the tenant`,
    })
    if (kinds.get(t.reinsuranceCompanyId) !== 'REINSURANCE_COMPANY')
      errors.push(unknown('reinsuranceCompanyId', 'a reinsurance company (GET /api/reinsurancecompanies)'))
    t.dealerIds.forEach((id, i) => {
      if (kinds.get(id) !== 'DEALER') errors.push(unknown(`dealerIds[${i}]`, 'a dealer'))
    })
    t.dealerGroupIds.forEach((id, i) => {
      if (kinds.get(id) !== 'DEALER_GROUP') errors.push(unknown(`dealerGroupIds[${i}]`, 'a dealer group'))
    })
    t.productIds.forEach((id, i) => {
      if (!products.has(id)) errors.push(unknown(`productIds[${i}]`, 'a product (GET /api/Rates/Products)'))
    })
    t.programIds.forEach((id, i) => {
      if (!programs.has(id)) errors.push(unknown(`programIds[${i}]`, 'a program'))
    })
    if (errors.length > 0) throw invalid(errors)
    return {
      reinsurance_company_id: t.reinsuranceCompanyId,
      name: t.name.trim(),
      dealer_ids: [...t.dealerIds].toSorted((a, b) => a - b),
      dealer_group_ids: [...t.dealerGroupIds].toSorted((a, b) => a - b),
      product_ids: [...t.productIds].toSorted((a, b) => a - b),
      program_ids: [...t.programIds].toSorted((a, b) => a - b),
      effective_from: t.effectiveFrom,
      effective_to: t.effectiveTo,
      share_bps: t.shareBps,
      ceding_fee_bps: t.cedingFeeBps,
      administrator_fee_bps: t.administratorFeeBps,
    }
  }

  /**
   * Refuses `values` when another treaty is in force on a common day for a common dealer (or group)
   * and a common product (or program). Runs under the tenant's treaty lock, so two writes cannot both pass.
   */
  async function assertNoOverlap(
    tx: Parameters<typeof advisoryLock>[0],
    tenantId: number,
    values: repo.TreatyValues,
    id: number,
  ): Promise<void> {
    await advisoryLock(tx, 'reinsurance_treaty', [tenantId])
    const others = (await repo.allTreaties(tx, tenantId)).map(repo.treatyOf)
    const candidate: Treaty = {
      id,
      reinsuranceCompanyId: values.reinsurance_company_id,
      dealerIds: values.dealer_ids,
      dealerGroupIds: values.dealer_group_ids,
      productIds: values.product_ids,
      programIds: values.program_ids,
      effectiveFrom: values.effective_from,
      effectiveTo: values.effective_to,
      shareBps: values.share_bps,
      cedingFeeBps: values.ceding_fee_bps,
      administratorFeeBps: values.administrator_fee_bps,
    }
    const clashes = conflicts(candidate, others)
    if (clashes.length === 0) return
    const describe = (c: (typeof clashes)[number]) => {
      const who = [...c.dealerIds.map((d) => `dealer ${d}`), ...c.dealerGroupIds.map((g) => `dealer group ${g}`)].join(
        ', ',
      )
      const what = [...c.productIds.map((p) => `product ${p}`), ...c.programIds.map((p) => `program ${p}`)].join(', ')
      return `treaty ${c.treatyId} (${period(c)}) already cedes ${who} for ${what}`
    }
    throw reportingErrors.create('reinsurance_treaty_overlap', clashes.map(describe).join('; '), {
      errors: clashes.map((c) => ({ field: 'effectiveFrom', code: 'overlap', message: describe(c) })),
      extensions: {
        conflictingTreaties: clashes.map((c) => ({
          treatyId: c.treatyId,
          effectiveFrom: c.effectiveFrom,
          effectiveTo: c.effectiveTo,
          dealerIds: c.dealerIds,
          dealerGroupIds: c.dealerGroupIds,
          productIds: c.productIds,
          programIds: c.programIds,
        })),
      },
    })
  }

  return {
    async list(ctx: AuthenticatedContext, filter: repo.TreatyFilter, window: Window) {
      staffOnly(ctx, 'Reinsurance treaties')
      return db.read(ctx.tenantId, async (x) => ({
        items: (await repo.listTreaties(x, ctx.tenantId, filter, window)).map(toView),
        totalCount: await repo.countTreaties(x, ctx.tenantId, filter),
      }))
    },

    async get(ctx: AuthenticatedContext, id: number) {
      staffOnly(ctx, 'Reinsurance treaties')
      const row = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => repo.findTreaty(x, ctx.tenantId, id))
        : undefined
      if (!row) throw notFound(id)
      return toView(row)
    },

    async create(ctx: AuthenticatedContext, input: TreatyInput) {
      staffOnly(ctx, 'Reinsurance treaties')
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const values = await valuesOf(tx, ctx.tenantId, input)
        await assertNoOverlap(tx, ctx.tenantId, values, 0)
        const row = await repo.insertTreaty(tx, ctx.tenantId, values, now)
        await writeAudit(tx, ctx, now, {
          action: 'reinsurance_treaty.created',
          entityType: 'reinsurance_treaty',
          entityId: row.id,
          changes: { after: editableOf(row) },
        })
        return toView(row)
      })
    },

    /**
     * A merge patch or JSON Patch of the treaty as a whole. Contracts it already ceded keep their
     * cession as sold (terms.cession): the change applies to sales from now on.
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (current: number) => void,
    ) {
      staffOnly(ctx, 'Reinsurance treaties')
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const current = await repo.findTreaty(tx, ctx.tenantId, id, true)
        if (!current) throw notFound(id)
        checkVersion(current.version)
        const before = editableOf(current)
        const next = applyPatch(before, body, contentType, [])
        validateEditable(next)
        const values = await valuesOf(tx, ctx.tenantId, next as TreatyInput)
        await assertNoOverlap(tx, ctx.tenantId, values, id)
        const row = await repo.updateTreaty(tx, ctx.tenantId, id, values, now)
        await writeAudit(tx, ctx, now, {
          action: 'reinsurance_treaty.updated',
          entityType: 'reinsurance_treaty',
          entityId: id,
          changes: { before, after: editableOf(row) },
        })
        return toView(row)
      })
    },

    /** A treaty entered by mistake; one that ceded a contract is kept (409): close it with effectiveTo instead. */
    async remove(ctx: AuthenticatedContext, id: number, checkVersion: (current: number) => void) {
      staffOnly(ctx, 'Reinsurance treaties')
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const current = await repo.findTreaty(tx, ctx.tenantId, id, true)
        if (!current) throw notFound(id)
        checkVersion(current.version)
        const ceded = await repo.contractsCededBy(tx, ctx.tenantId, id)
        if (ceded > 0)
          throw reportingErrors.create(
            'reinsurance_treaty_in_use',
            `treaty ${id} ceded ${ceded} contract(s); close it (PATCH effectiveTo) instead of deleting it`,
            { extensions: { contractsCeded: ceded } },
          )
        await repo.deleteTreaty(tx, ctx.tenantId, id)
        await writeAudit(tx, ctx, now, {
          action: 'reinsurance_treaty.deleted',
          entityType: 'reinsurance_treaty',
          entityId: id,
          changes: { before: editableOf(current) },
        })
      })
    },

    /**
     * The contracts module's port (CessionPort): the cession of a sale, or null when no treaty is in
     * force on its sale date for its dealer (or the dealer's group) and product (or program).
     */
    async cessionAtSale(
      tenantId: number,
      sale: {
        dealerId: number
        dealerGroupId: number | null
        productId: number
        programId: number
        saleDate: string
        reserveCents: number
      },
    ): Promise<Cession | null> {
      const treaties = (await db.read(tenantId, (x) => repo.treatiesInForce(x, tenantId, sale.saleDate))).map(
        repo.treatyOf,
      )
      const treaty = treatyFor(treaties, sale)
      return treaty === undefined ? null : cessionOf(treaty, sale.reserveCents)
    },
  }
}

export type TreatyService = ReturnType<typeof createTreatyService>
