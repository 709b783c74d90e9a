// Automatic expiry and voiding by hand (spec §4.3; docs/contracts.md "Automatic expiry and voiding"):
// the contracts due to expire (by date or mileage) or to be voided (pending too long), and the
// change of one of them now. The change is the EXPIRY / VOID process's own: the servicing port's
// lockForEvent and applyTransition under the contract's row lock, so a process run and a request
// can never both change a contract (the second finds it EXPIRED or VOIDED: 409).
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import { AppError, type FieldError } from '../../platform/http/errors.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import type { SettingsService } from '../settings/index.ts'
import * as repo from './contract-autoprocess.repository.ts'
import {
  expiryDue,
  milesLeft,
  pendingDays,
  voidable,
  voidableFrom,
  type ExpiryDue,
  type ExpiryReason,
  type OdometerSource,
} from './contract-autoprocess.rules.ts'
import type { ContractServicing, ServicedContract } from './contract-servicing.service.ts'
import { contractErrors } from './contract.errors.ts'
import { currentStatus } from './contract.rules.ts'

export type ExpiryDueQuery = {
  asOf?: string | undefined
  reason?: ExpiryReason | undefined
  dealerId?: number | undefined
  productType?: string | undefined
}
export type VoidableQuery = { dealerId?: number | undefined; productType?: string | undefined }

export type ExpiryDueItem = {
  contractId: number
  contractNumber: string
  dealerId: number
  productType: string
  status: ContractStatus
  saleDate: string
  effectiveDate: string
  expirationDate: string
  reason: ExpiryReason
  reasons: ExpiryReason[]
  expiresOn: string
  mileage: {
    saleOdometer: number | null
    termMiles: number | null
    milesBasis: string | null
    expirationOdometer: number | null
    lastOdometer: {
      odometer: number
      readOn: string
      source: { type: OdometerSource; id: number | null }
    } | null
    milesLeft: number | null
  }
}

export type VoidableItem = {
  contractId: number
  contractNumber: string
  dealerId: number
  productType: string
  status: 'PENDING'
  saleDate: string
  effectiveDate: string
  createdAt: string
  createdBy: string
  pendingDays: number
  voidAfterDays: number
  voidableSince: string
}

/** What POST autoexpire / autovoidable answer: the change made. */
export type AutoChange = {
  contractId: number
  contractNumber: string
  event: 'EXPIRE' | 'VOID'
  fromStatus: ContractStatus
  toStatus: ContractStatus
  effectiveDate: string
  reason: ExpiryReason | 'PENDING_TOO_LONG'
  activatedFirst: boolean
  historyId: number
}

/** An expiry of a contract locked by lockForEvent: its reason and effective date as of `today` (null: not due). */
export function expiryOf(contract: ServicedContract, today: string): ExpiryDue | null {
  return expiryDue(
    {
      effectiveDate: contract.effectiveDate,
      expirationDate: contract.expirationDate,
      expirationOdometer: contract.expirationOdometer,
      reading: contract.lastOdometer,
    },
    today,
  )
}

type NotDueFacts = Pick<ServicedContract, 'contractNumber' | 'expirationDate' | 'expirationOdometer' | 'lastOdometer'>

function readingOf(row: {
  last_odometer: number | null
  last_odometer_on: string | null
  last_odometer_source: string | null
  last_odometer_source_id: number | null
}): ServicedContract['lastOdometer'] {
  return row.last_odometer === null || row.last_odometer_on === null
    ? null
    : {
        odometer: row.last_odometer,
        readOn: row.last_odometer_on,
        source: { type: row.last_odometer_source as OdometerSource, id: row.last_odometer_source_id },
      }
}

function notDueFacts(row: repo.ExpiryFiguresRow): NotDueFacts {
  return {
    contractNumber: row.contract_number,
    expirationDate: row.expiration_date,
    expirationOdometer: row.expiration_odometer,
    lastOdometer: readingOf(row),
  }
}

export type AutoProcessDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  servicing: ContractServicing
  today: (tenantId: number) => Promise<string>
}

export function createContractAutoProcess({ db, clock, settings, servicing, today }: AutoProcessDeps) {
  const invalid = (errors: FieldError[]) =>
    contractErrors.create('contract_invalid', errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors })

  function expiryItem(row: repo.ExpiryDueRow, asOf: string, day: string): ExpiryDueItem {
    const reading = readingOf(row)
    const due = expiryDue(
      {
        effectiveDate: row.effective_date,
        expirationDate: row.expiration_date,
        expirationOdometer: row.expiration_odometer,
        reading,
      },
      asOf,
    )!
    return {
      contractId: row.id,
      contractNumber: row.contract_number,
      dealerId: row.dealer_id,
      productType: row.product_type,
      status: currentStatus(row.status, row.effective_date, day),
      saleDate: row.sale_date,
      effectiveDate: row.effective_date,
      expirationDate: row.expiration_date,
      reason: due.reason,
      reasons: due.reasons,
      expiresOn: due.expiresOn,
      mileage: {
        saleOdometer: row.sale_odometer,
        termMiles: row.term_miles,
        milesBasis: row.miles_basis,
        expirationOdometer: row.expiration_odometer,
        lastOdometer: reading,
        milesLeft: milesLeft(row.expiration_odometer, reading),
      },
    }
  }

  /** The 409 of a contract that is not due, naming its date, its limit and its latest reading. */
  function notDue(locked: NotDueFacts, day: string) {
    const reading = locked.lastOdometer
    const limit = locked.expirationOdometer
    const miles =
      limit === null
        ? 'it has no mileage limit'
        : reading
          ? `its mileage limit is ${limit} and its latest known odometer ${reading.odometer} (read on ${reading.readOn})`
          : `its mileage limit is ${limit} and no odometer reading has been reported`
    return contractErrors.create(
      'contract_not_expired',
      `contract ${locked.contractNumber} is not due to expire on ${day}: it runs through ${locked.expirationDate}, and ${miles}`,
    )
  }

  return {
    /** GET /contracts/autoexpire: contracts in force due to expire as of `asOf` (default today), by id. */
    async expiryDue(ctx: AuthenticatedContext, query: ExpiryDueQuery, window: Window) {
      const day = await today(ctx.tenantId)
      if (query.asOf !== undefined && !isIsoDate(query.asOf))
        throw invalid([{ field: 'asOf', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' }])
      const asOf = query.asOf ?? day
      const selection: repo.ExpirySelection = {
        asOf,
        reason: query.reason ?? null,
        dealerId: query.dealerId ?? null,
        productType: query.productType?.toUpperCase() ?? null,
        visible: ctx.principal.visibleAccountHolderIds,
      }
      const [rows, totalCount] = await db.reportRead(ctx.tenantId, (x) =>
        Promise.all([
          repo.listExpiryDue(x, ctx.tenantId, selection, window),
          repo.countExpiryDue(x, ctx.tenantId, selection),
        ]),
      )
      return { items: rows.map((r) => expiryItem(r, asOf, day)), totalCount }
    },

    /**
     * POST /contracts/autoexpire/{contractId}: expires the contract now when it is due today, as the
     * EXPIRY process does (source CONTRACT, the reason and the figures in the audit record).
     */
    async expire(ctx: AuthenticatedContext, contractId: number): Promise<AutoChange> {
      return db.transaction(ctx.tenantId, async (tx) => {
        const day = await today(ctx.tenantId)
        let locked: ServicedContract
        try {
          locked = await servicing.lockForEvent(tx, ctx, contractId, 'EXPIRE')
        } catch (err) {
          // The state machine's "not run out", told with the figures.
          if (err instanceof AppError && err.code === 'contract_not_expired') {
            const row = await repo.expiryFigures(tx, ctx.tenantId, contractId)
            if (row) throw notDue(notDueFacts(row), day)
          }
          throw err
        }
        const due = expiryOf(locked, day)
        if (!due) throw notDue(locked, day)
        const reading = locked.lastOdometer
        const applied = await servicing.applyTransition(tx, ctx, locked, {
          event: 'EXPIRE',
          effectiveDate: due.expiresOn,
          source: { type: 'CONTRACT' },
          facts: { odometer: reading?.odometer ?? null },
          details: {
            reason: due.reason,
            reasons: due.reasons,
            expirationDate: locked.expirationDate,
            expirationOdometer: locked.expirationOdometer,
            lastOdometer: reading && { odometer: reading.odometer, readOn: reading.readOn, source: reading.source },
          },
        })
        return {
          contractId: applied.contractId,
          contractNumber: applied.contractNumber,
          event: 'EXPIRE',
          fromStatus: applied.fromStatus,
          toStatus: applied.toStatus,
          effectiveDate: applied.effectiveDate,
          reason: due.reason,
          activatedFirst: applied.activatedFirst,
          historyId: applied.historyId,
        }
      })
    },

    /** GET /contracts/autovoidable: PENDING contracts created more than pendingContractVoidAfterDays ago, by id. */
    async voidable(ctx: AuthenticatedContext, query: VoidableQuery, window: Window) {
      const now = clock.now()
      const days = await settings.get(ctx.tenantId, 'pendingContractVoidAfterDays')
      const selection: repo.VoidableSelection = {
        createdBefore: new Date(now.getTime() - days * 86_400_000),
        dealerId: query.dealerId ?? null,
        productType: query.productType?.toUpperCase() ?? null,
        visible: ctx.principal.visibleAccountHolderIds,
      }
      const [rows, totalCount] = await db.reportRead(ctx.tenantId, (x) =>
        Promise.all([
          repo.listVoidable(x, ctx.tenantId, selection, window),
          repo.countVoidable(x, ctx.tenantId, selection),
        ]),
      )
      const items: VoidableItem[] = rows.map((r) => ({
        contractId: r.id,
        contractNumber: r.contract_number,
        dealerId: r.dealer_id,
        productType: r.product_type,
        status: 'PENDING',
        saleDate: r.sale_date,
        effectiveDate: r.effective_date,
        createdAt: r.created_at.toISOString(),
        createdBy: r.created_by,
        pendingDays: pendingDays(r.created_at, now),
        voidAfterDays: days,
        voidableSince: voidableFrom(r.created_at, days).toISOString(),
      }))
      return { items, totalCount }
    },

    /** POST /contracts/autovoidable/{contractId}: voids a contract PENDING longer than the setting, as the VOID process does. */
    async void(ctx: AuthenticatedContext, contractId: number): Promise<AutoChange> {
      const now = clock.now()
      const days = await settings.get(ctx.tenantId, 'pendingContractVoidAfterDays')
      return db.transaction(ctx.tenantId, async (tx) => {
        const locked = await servicing.lockForEvent(tx, ctx, contractId, 'VOID')
        const createdAt = new Date(locked.createdAt)
        if (!voidable(createdAt, days, now))
          throw contractErrors.create(
            'contract_not_voidable',
            `contract ${locked.contractNumber} has been pending since ${locked.createdAt}: it may be voided automatically from ${voidableFrom(createdAt, days).toISOString()} (pendingContractVoidAfterDays ${days})`,
          )
        const applied = await servicing.applyTransition(tx, ctx, locked, {
          event: 'VOID',
          effectiveDate: await today(ctx.tenantId),
          source: { type: 'CONTRACT' },
          details: { reason: 'PENDING_TOO_LONG', pendingSince: locked.createdAt, voidAfterDays: days },
        })
        return {
          contractId: applied.contractId,
          contractNumber: applied.contractNumber,
          event: 'VOID',
          fromStatus: applied.fromStatus,
          toStatus: applied.toStatus,
          effectiveDate: applied.effectiveDate,
          reason: 'PENDING_TOO_LONG',
          activatedFirst: applied.activatedFirst,
          historyId: applied.historyId,
        }
      })
    },
  }
}

export type ContractAutoProcess = ReturnType<typeof createContractAutoProcess>
