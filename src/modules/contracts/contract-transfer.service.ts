// Transfers of a contract to a new owner (issue 16; docs/contracts.md "Transfers"). A request is
// checked against the product's transfer terms (contract-transfer.rules.ts) and kept REQUESTED; its
// approval, in one transaction under the contract's row lock, checks them again, matches or creates
// the new owner's customer record, changes the contract's holder (the vehicle, its VIN and the
// coverage stay), posts the product's transfer fee (TRANSFER_FEE: Dr DEALER_RECEIVABLE [the selling
// dealer, who collects it] / Cr ADMINISTRATOR_REVENUE [administrator company], earned at once) and
// writes the audit record and `contract.transferred`. A rejection records the decision only.
// The free-look does not pass to the new owner: the contract's transferred_on tells cancellations (docs/cancellations.md).
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { isUniqueViolation } from '../../platform/db/errors.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { Decimal, centsToNumber, toCents } from '../../platform/money.ts'
import type { LedgerService } from '../finance/index.ts'
import type { ContractParties, CustomerInput, DealerDirectory } from '../parties/index.ts'
import { personSnapshot } from './contract.deal.ts'
import { contractErrors } from './contract.errors.ts'
import { customerNameKey } from './contract.mapper.ts'
import * as repo from './contract.repository.ts'
import { currentStatus } from './contract.rules.ts'
import type { ContractCore } from './contract.service.ts'
import type { ContractTerms } from './contract-terms.ts'
import * as transfers from './contract-transfer.repository.ts'
import { transferRefusal } from './contract-transfer.rules.ts'

export type TransferRequestInput = {
  newOwner: CustomerInput
  newOwnerDealerId?: number | null
  transferDate: string
  odometer?: number | null
  note?: string | null
}

export type TransferDecisionInput = { status: 'APPROVED' | 'REJECTED'; decisionNote?: string | null }

type Deps = {
  db: Database
  clock: Clock
  core: Pick<ContractCore, 'lockRow' | 'readRow' | 'today' | 'ensureTerms'>
  parties: Pick<ContractParties, 'matchOrCreateCustomer' | 'administratorId'>
  directory: Pick<DealerDirectory, 'accountHolderKinds'>
  ledger: Pick<LedgerService, 'post' | 'postingDate'>
}

export function toTransferView(row: transfers.TransferRow, contractNumber?: string) {
  return {
    id: row.id,
    contractId: row.contract_id,
    ...(contractNumber === undefined ? {} : { contractNumber }),
    status: row.status,
    transferDate: String(row.transfer_date).slice(0, 10),
    odometer: row.odometer,
    newOwner: row.new_owner,
    newOwnerDealerId: row.new_owner_dealer_id,
    previousCustomerId: row.previous_customer_id,
    newCustomerId: row.new_customer_id,
    fee: centsToNumber(toCents(new Decimal(row.fee))),
    note: row.note,
    decisionNote: row.decision_note,
    journalEntryId: row.journal_entry_id,
    requestedAt: row.requested_at.toISOString(),
    requestedBy: row.requested_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    version: row.version,
  }
}

export type TransferView = ReturnType<typeof toTransferView>

export function createContractTransfers({ db, clock, core, parties, directory, ledger }: Deps) {
  const notFound = (contractId: number, id: number) =>
    contractErrors.create('transfer_not_found', `No transfer request ${id} of contract ${contractId}`)

  /** The product's terms and the dates, checked on the row as read (or locked). */
  async function refusal(
    tx: Parameters<typeof core.ensureTerms>[0],
    ctx: AuthenticatedContext,
    row: repo.ContractRow,
    input: { transferDate: string; toDealer: boolean },
  ) {
    const terms: ContractTerms = await core.ensureTerms(tx, ctx.tenantId, row)
    const today = await core.today(ctx.tenantId)
    return {
      terms,
      refused: transferRefusal({
        status: currentStatus(row.status, row.effective_date, today),
        terms: terms.transfer,
        saleDate: row.sale_date,
        expirationDate: row.expiration_date,
        today,
        transferDate: input.transferDate,
        toDealer: input.toDealer,
      }),
    }
  }

  function refuse(r: NonNullable<ReturnType<typeof transferRefusal>>): never {
    throw contractErrors.create(r.code, r.detail, r.errors.length ? { errors: r.errors } : undefined)
  }

  return {
    /** POST /api/contracts/{contractId}/transferrequest: 201 with the request, REQUESTED. */
    async request(ctx: AuthenticatedContext, contractId: number, input: TransferRequestInput) {
      const now = clock.now()
      if (input.newOwnerDealerId !== undefined && input.newOwnerDealerId !== null) {
        const kinds = await directory.accountHolderKinds(ctx.tenantId, [input.newOwnerDealerId])
        if (kinds.get(input.newOwnerDealerId) !== 'DEALER')
          throw contractErrors.create(
            'transfer_invalid',
            `newOwnerDealerId ${input.newOwnerDealerId} is not a dealer`,
            {
              errors: [
                { field: 'newOwnerDealerId', code: 'unknown_reference', message: 'is not a dealer of the tenant' },
              ],
            },
          )
      }
      try {
        return await db.transaction(ctx.tenantId, async (tx) => {
          const row = await core.lockRow(tx, ctx, contractId)
          const { terms, refused } = await refusal(tx, ctx, row, {
            transferDate: input.transferDate,
            toDealer: input.newOwnerDealerId != null,
          })
          if (refused) refuse(refused)
          if (await transfers.openTransfer(tx, ctx.tenantId, row.id))
            throw contractErrors.create(
              'transfer_pending',
              `contract ${row.contract_number} already has a transfer request awaiting a decision`,
            )
          const created = await transfers.insertTransfer(tx, ctx.tenantId, {
            contract_id: row.id,
            status: 'REQUESTED',
            transfer_date: input.transferDate,
            odometer: input.odometer ?? null,
            new_owner: JSON.stringify(personSnapshot(input.newOwner)),
            new_owner_dealer_id: input.newOwnerDealerId ?? null,
            previous_customer_id: row.customer_id,
            new_customer_id: null,
            fee: new Decimal(terms.transfer.fee ?? '0').toFixed(2),
            note: input.note ?? null,
            decision_note: null,
            journal_entry_id: null,
            requested_at: now,
            requested_by: ctx.principal.emailAddress,
            decided_at: null,
            decided_by: null,
          })
          const view = toTransferView(created, row.contract_number)
          await writeAudit(tx, ctx, now, {
            action: 'contract.transfer_requested',
            entityType: 'contract',
            entityId: row.id,
            changes: { after: view },
          })
          return view
        })
      } catch (err) {
        // Two requests at once: the one-open-request index decides.
        if (isUniqueViolation(err, 'contract_transfer_open_uq'))
          throw contractErrors.create(
            'transfer_pending',
            `contract ${contractId} already has a transfer request awaiting a decision`,
          )
        throw err
      }
    },

    async list(ctx: AuthenticatedContext, contractId: number, window: Window) {
      const row = await core.readRow(ctx, contractId)
      const { rows, totalCount } = await db.read(ctx.tenantId, (x) =>
        transfers.listTransfers(x, ctx.tenantId, row.id, window),
      )
      return { items: rows.map((r) => toTransferView(r, row.contract_number)), totalCount }
    },

    async get(ctx: AuthenticatedContext, contractId: number, id: number) {
      const row = await core.readRow(ctx, contractId)
      const found = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => transfers.findTransfer(x, ctx.tenantId, row.id, id))
        : undefined
      if (!found) throw notFound(contractId, id)
      return toTransferView(found, row.contract_number)
    },

    /**
     * PATCH /api/contracts/{contractId}/transferrequests/{id}: APPROVED transfers the contract (the
     * rules checked again as of now), REJECTED closes the request. A decided request is 409.
     */
    async decide(
      ctx: AuthenticatedContext,
      contractId: number,
      id: number,
      input: TransferDecisionInput,
      checkVersion: (current: number) => void,
    ) {
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const row = await core.lockRow(tx, ctx, contractId)
        const request = isStorableId(id) ? await transfers.lockTransfer(tx, ctx.tenantId, row.id, id) : undefined
        if (!request) throw notFound(contractId, id)
        checkVersion(request.version)
        if (request.status !== 'REQUESTED')
          throw contractErrors.create('transfer_already_decided', `transfer request ${id} is already ${request.status}`)
        const before = toTransferView(request, row.contract_number)
        if (input.status === 'REJECTED') {
          const decided = await transfers.decideTransfer(tx, ctx.tenantId, request.id, {
            status: 'REJECTED',
            decided_at: now,
            decided_by: ctx.principal.emailAddress,
            decision_note: input.decisionNote ?? null,
            new_customer_id: null,
            journal_entry_id: null,
          })
          const view = toTransferView(decided, row.contract_number)
          await writeAudit(tx, ctx, now, {
            action: 'contract.transfer_rejected',
            entityType: 'contract',
            entityId: row.id,
            changes: { before, after: view },
          })
          return view
        }
        const { refused } = await refusal(tx, ctx, row, {
          transferDate: String(request.transfer_date).slice(0, 10),
          toDealer: request.new_owner_dealer_id !== null,
        })
        if (refused) refuse(refused)
        const owner = request.new_owner as unknown as CustomerInput
        const newCustomerId =
          request.new_owner_dealer_id ?? (await parties.matchOrCreateCustomer(tx, ctx, owner, row.dealer_id, now))
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          {
            customer_id: newCustomerId,
            customer_name: customerNameKey(owner),
            customer: JSON.stringify(request.new_owner),
            transferred_on: String(request.transfer_date).slice(0, 10),
          },
          now,
        )
        const feeCents = toCents(new Decimal(request.fee))
        let entryId: number | null = null
        if (feeCents > 0) {
          const entry = await ledger.post(ctx, {
            kind: 'TRANSFER_FEE',
            source: { type: 'TRANSFER', id: request.id },
            effectiveDate: await ledger.postingDate(ctx.tenantId),
            memo: `Transfer fee of contract ${row.contract_number}`,
            lines: [
              {
                accountHolderId: row.dealer_id,
                purpose: 'DEALER_RECEIVABLE',
                side: 'DEBIT',
                amount: new Decimal(request.fee),
                contractId: row.id,
              },
              {
                accountHolderId: await parties.administratorId(ctx.tenantId),
                purpose: 'ADMINISTRATOR_REVENUE',
                side: 'CREDIT',
                amount: new Decimal(request.fee),
                contractId: row.id,
              },
            ],
          })
          entryId = entry.entryId
        }
        const decided = await transfers.decideTransfer(tx, ctx.tenantId, request.id, {
          status: 'APPROVED',
          decided_at: now,
          decided_by: ctx.principal.emailAddress,
          decision_note: input.decisionNote ?? null,
          new_customer_id: newCustomerId,
          journal_entry_id: entryId,
        })
        const view = toTransferView(decided, row.contract_number)
        await writeAudit(tx, ctx, now, {
          action: 'contract.transferred',
          entityType: 'contract',
          entityId: row.id,
          changes: { before, after: view, customerId: { before: row.customer_id, after: newCustomerId } },
        })
        await appendEvent(tx, ctx.tenantId, now, {
          type: 'contract.transferred',
          payload: {
            contractId: row.id,
            contractNumber: row.contract_number,
            transferRequestId: request.id,
            transferDate: view.transferDate,
            previousCustomerId: row.customer_id,
            newCustomerId,
            fee: view.fee,
            journalEntryId: entryId,
          },
        })
        return view
      })
    },
  }
}

export type ContractTransfers = ReturnType<typeof createContractTransfers>
