// The automatic processes (docs/processes.md), each a pair: a query of the items due after a cursor
// (ids, ascending) and the action on one item, run in the batch's transaction under the item's own
// savepoint. Other modules are reached only through the ports below, which src/modules.ts fills
// from their index.ts exports. A process may also fix something when its run starts (`begin`, kept
// in the run's state, so a resumed run goes on with it) and close it when the run ends (`end`).
import type { Transaction } from 'kysely'
import { addDays } from '../../platform/calendar.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { BatchTransitions, ContractServicing, ServicedContract } from '../contracts/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { monthBounds, previousMonth, type ProcessName } from './processes.rules.ts'

/** The contracts module: due contracts of the status processes, and the servicing port that changes them. */
export type ProcessContracts = {
  dueForProcess(
    tenantId: number,
    q: { event: 'ACTIVATE' | 'EXPIRE' | 'VOID'; today: string; createdBefore?: Date; afterId: number; limit: number },
  ): Promise<number[]>
  servicing: Pick<ContractServicing, 'lockForEvent' | 'applyTransition'>
  /** ACTIVATE or EXPIRE many contracts set-based (a batch of the status processes). */
  batchTransitions: Pick<BatchTransitions, 'transitionMany'>
  /** Why and from which day a contract locked for EXPIRE expires as of `today` (by date or by mileage); null: not due. */
  expiryOf(contract: ServicedContract, today: string): { reason: string; reasons: string[]; expiresOn: string } | null
}

/** The contracts module's earnings sync (contracts.earnings.process, docs/earnings.md). */
export type ProcessEarnings = {
  dueIds(tenantId: number, afterId: number, limit: number): Promise<number[]>
  openRun(tx: Transaction<DB>, ctx: AuthenticatedContext, asOf: string, processRun: string): Promise<number>
  sync(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contractId: number,
    asOf: string,
    runId: number,
  ): Promise<boolean>
  closeRun(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    runId: number,
    counts: { cursor: number; examined: number; posted: number; failed: number },
  ): Promise<void>
}

/** The cancellations module's GAP auto-cancel (cancellations.gap, docs/cancellations.md "GAP"). */
export type ProcessGap = {
  dueIds(tenantId: number, asOf: string, afterId: number, limit: number): Promise<number[]>
  cancel(ctx: AuthenticatedContext, contractId: number, body: { asOf?: string; notes?: string }): Promise<unknown>
}

/** The claims module's denial of the claims of ended contracts (claims.deny, docs/claims.md). */
export type ProcessClaims = {
  dueContractIds(tenantId: number, today: string, afterId: number, limit: number): Promise<number[]>
  denyClaims(
    ctx: AuthenticatedContext,
    contractIds: readonly number[],
  ): Promise<ReadonlyArray<{ claims: ReadonlyArray<{ denied: boolean }> }>>
}

/** The finance module's statements (finance.statements, docs/statements.md). */
export type ProcessStatements = {
  dealersDue(tenantId: number, period: { from: string; to: string }, afterId: number, limit: number): Promise<number[]>
  request(
    ctx: AuthenticatedContext,
    accountHolderId: number,
    input: { from: string; to: string; format?: 'PDF' | 'CSV' },
    how: { inline?: boolean },
  ): Promise<unknown>
}

export type ProcessPorts = {
  settings: Pick<SettingsService, 'get'>
  contracts: ProcessContracts
  earnings: ProcessEarnings
  gap: ProcessGap
  claims: ProcessClaims
  statements: ProcessStatements
}

/** A run as its process sees it. */
export type RunInfo = {
  id: number
  guid: string
  parameters: Record<string, unknown>
  /** What begin fixed (and `day`, the tenant-local day the run works as of). */
  state: Record<string, unknown> & { day: string }
  now: Date
}

export type ProcessDefinition = {
  /** The setting holding its time of day (null: not scheduled). */
  schedule:
    | 'activationProcessTime'
    | 'expiryProcessTime'
    | 'voidProcessTime'
    | 'earningsProcessTime'
    | 'gapAutoCancelProcessTime'
    | 'claimsDenialProcessTime'
    | 'monthlyStatementsProcessTime'
  /** Whether an item posts journal entries: their balance is checked before its savepoint is released. */
  posts: boolean
  /**
   * Whether batches may run at once (ProcessOptions.parallelBatches): an item leaves the due query
   * once worked, and items of different batches lock no common row.
   */
  parallel?: boolean
  /** Fixed when the run starts, in its first batch's transaction; kept in the run's state. */
  begin?(tx: Transaction<DB>, ctx: AuthenticatedContext, run: RunInfo): Promise<Record<string, unknown>>
  /** The ids of the items due after `afterId`, ascending, at most `limit`. */
  due(tenantId: number, run: RunInfo, afterId: number, limit: number): Promise<number[]>
  /**
   * Works a batch's items set-based in `tx` (optional): an outcome per id. When it throws, its writes
   * are rolled back and the batch is worked item by item.
   */
  items?(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    run: RunInfo,
    ids: readonly number[],
  ): Promise<Array<{ id: number; changed: boolean; error?: { code: string; message: string } }>>
  /** Works one item in `tx`; true when it changed something. Throws to fail the item alone. */
  item(tx: Transaction<DB>, ctx: AuthenticatedContext, run: RunInfo, id: number): Promise<boolean>
  /** When the run finishes (any end state), in that transaction. */
  end?(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    run: RunInfo & { cursor: number; examined: number; changed: number; failed: number },
  ): Promise<void>
}

/** The servicing event of each status process. */
const EVENT = { ACTIVATION: 'ACTIVATE', EXPIRY: 'EXPIRE', VOID: 'VOID' } as const

export function processCatalog(ports: ProcessPorts): Record<ProcessName, ProcessDefinition> {
  const { settings, contracts } = ports

  /** A status process: due contracts from the contracts module, each changed through the servicing port. */
  function statusProcess(
    process: 'ACTIVATION' | 'EXPIRY' | 'VOID',
    schedule: ProcessDefinition['schedule'],
  ): ProcessDefinition {
    const event = EVENT[process]
    const setBased: Pick<ProcessDefinition, 'items'> =
      event === 'VOID'
        ? {}
        : {
            // The batch in a handful of statements; item by item (below) when that fails.
            async items(tx, ctx, run, ids) {
              const outcomes = await contracts.batchTransitions.transitionMany(tx, ctx, ids, {
                event,
                today: run.state.day,
                source: { type: 'PROCESS', id: run.id },
                details: { process, run: run.guid },
              })
              return outcomes.map((o) =>
                o.changed
                  ? { id: o.contractId, changed: true }
                  : { id: o.contractId, changed: false, error: { code: o.code, message: o.message } },
              )
            },
          }
    return {
      ...setBased,
      schedule,
      posts: false,
      // A void also resets its dealer's and customer's last contract dates (rows voids share).
      parallel: process !== 'VOID',
      async due(tenantId, run, afterId, limit) {
        let createdBefore: Date | undefined
        if (event === 'VOID') {
          const days = await settings.get(tenantId, 'pendingContractVoidAfterDays')
          createdBefore = new Date(run.now.getTime() - days * 86_400_000)
        }
        return contracts.dueForProcess(tenantId, {
          event,
          today: run.state.day,
          ...(createdBefore === undefined ? {} : { createdBefore }),
          afterId,
          limit,
        })
      },
      async item(tx, ctx, run, contractId) {
        const locked = await contracts.servicing.lockForEvent(tx, ctx, contractId, event)
        // An expiry by date is effective the day after the expiration date; by mileage, the reading's day.
        const expiry = event === 'EXPIRE' ? contracts.expiryOf(locked, run.state.day) : null
        const effectiveDate =
          event === 'ACTIVATE'
            ? locked.effectiveDate
            : event === 'EXPIRE'
              ? (expiry?.expiresOn ?? addDays(locked.expirationDate, 1))
              : run.state.day
        await contracts.servicing.applyTransition(tx, ctx, locked, {
          event,
          effectiveDate,
          source: { type: 'PROCESS', id: run.id },
          details: {
            process,
            run: run.guid,
            ...(expiry === null ? {} : { reason: expiry.reason, reasons: expiry.reasons }),
          },
        })
        return true
      },
    }
  }

  const asOfOf = (run: RunInfo) => (typeof run.state.asOf === 'string' ? run.state.asOf : run.state.day)
  const runIdOf = (run: RunInfo) => Number(run.state.earningsRunId)
  const periodOf = (run: RunInfo) => monthBounds(String(run.state.month))

  return {
    ACTIVATION: statusProcess('ACTIVATION', 'activationProcessTime'),
    EXPIRY: statusProcess('EXPIRY', 'expiryProcessTime'),
    VOID: statusProcess('VOID', 'voidProcessTime'),

    // Every sold contract synced as of asOf, under one BATCH earnings run (docs/earnings.md).
    EARNINGS: {
      schedule: 'earningsProcessTime',
      posts: true,
      async begin(tx, ctx, run) {
        const asOf = typeof run.parameters.asOf === 'string' ? run.parameters.asOf : run.state.day
        return { asOf, earningsRunId: await ports.earnings.openRun(tx, ctx, asOf, run.guid) }
      },
      due: (tenantId, _run, afterId, limit) => ports.earnings.dueIds(tenantId, afterId, limit),
      item: (tx, ctx, run, contractId) => ports.earnings.sync(tx, ctx, contractId, asOfOf(run), runIdOf(run)),
      async end(tx, ctx, run) {
        await ports.earnings.closeRun(tx, ctx, runIdOf(run), {
          cursor: run.cursor,
          examined: run.examined,
          posted: run.changed,
          failed: run.failed,
        })
      },
    },

    // GAP contracts something ended (a reported payoff…, a matured loan), cancelled with their GAP reason.
    GAP_AUTO_CANCEL: {
      schedule: 'gapAutoCancelProcessTime',
      posts: true,
      due: (tenantId, run, afterId, limit) => ports.gap.dueIds(tenantId, run.state.day, afterId, limit),
      async item(_tx, ctx, run, contractId) {
        await ports.gap.cancel(ctx, contractId, { asOf: run.state.day })
        return true
      },
    },

    // Ended contracts' claims whose loss the coverage did not reach, denied (CONTRACT_NOT_IN_FORCE).
    CLAIMS_DENIAL: {
      schedule: 'claimsDenialProcessTime',
      posts: false,
      due: (tenantId, run, afterId, limit) => ports.claims.dueContractIds(tenantId, run.state.day, afterId, limit),
      async item(_tx, ctx, _run, contractId) {
        const [result] = await ports.claims.denyClaims(ctx, [contractId])
        return (result?.claims ?? []).some((c) => c.denied)
      },
    },

    // Every dealer's statement of the month (all its accounts), made once.
    MONTHLY_STATEMENTS: {
      schedule: 'monthlyStatementsProcessTime',
      posts: false,
      async begin(_tx, _ctx, run) {
        const month = typeof run.parameters.month === 'string' ? run.parameters.month : previousMonth(run.state.day)
        return { month, format: run.parameters.format === 'CSV' ? 'CSV' : 'PDF' }
      },
      due: (tenantId, run, afterId, limit) => ports.statements.dealersDue(tenantId, periodOf(run), afterId, limit),
      async item(_tx, ctx, run, dealerId) {
        const format = run.state.format === 'CSV' ? 'CSV' : 'PDF'
        await ports.statements.request(ctx, dealerId, { ...periodOf(run), format }, { inline: true })
        return true
      },
    },
  }
}
