// The contract lifecycle after creation (docs/contracts.md): holds and their resolution, the edit
// lock, the co-buyer, finalization and refinalization (posting to the ledger and producing the final
// document), contract documents, and the coverage views.
import { writeAudit } from '../../platform/audit.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { centsToDecimal, Decimal, toCents } from '../../platform/money.ts'
import { isStorableId } from '../../platform/ids.ts'
import { MAX_VERSIONS, type DocumentService } from '../documents/index.ts'
import type { JournalEntryView, LedgerService } from '../finance/index.ts'
import type { CustomerInput } from '../parties/index.ts'
import { documentFromContract, documentFromDeal, type DocumentParties } from './contract-document.ts'
import { recordedContract } from './contract-history.ts'
import type { DealInput } from './contract.deal.ts'
import { personSnapshot } from './contract.deal.ts'
import { contractErrors } from './contract.errors.ts'
import { toHoldView, type ContractView } from './contract.mapper.ts'
import { renderContractPdf } from './contract.pdf.ts'
import * as repo from './contract.repository.ts'
import {
  differenceLines,
  finalizationLines,
  LOCK_MINUTES,
  lockedAgainst,
  nameProblem,
  salesTaxLines,
  transition,
  type HoldReasonCode,
  type PostingLine,
} from './contract.rules.ts'
import type { ContractCore, ContractPorts } from './contract.service.ts'

export const CONTRACT_PDF = 'CONTRACT_PDF'
export const CONTRACT_DRAFT_PDF = 'CONTRACT_DRAFT_PDF'
/** The contract's own documents (uploaded files are CONTRACT_FILE). */
export const CONTRACT_DOCUMENT_KINDS = [CONTRACT_DRAFT_PDF, CONTRACT_PDF] as const
export const CONTRACT_OWNER = 'CONTRACT'

type Ports = Pick<ContractPorts, 'db' | 'clock' | 'settings' | 'parties'> & {
  core: ContractCore
  ledger: LedgerService
  documents: DocumentService
}

type Posting = {
  contract: ContractView
  journalEntry: ReturnType<typeof entrySummary> | null
  document: { documentId: number; fileId: number; versionNo: number } | null
}

function entrySummary(e: JournalEntryView) {
  return {
    entryId: e.entryId,
    kind: e.kind,
    effectiveDate: e.effectiveDate,
    totalDebit: e.totalDebit,
    totalCredit: e.totalCredit,
    lines: e.lines.map((l) => ({
      accountHolderId: l.accountHolderId,
      purpose: l.purpose,
      debit: l.debit,
      credit: l.credit,
      disbursementCode: l.disbursementCode,
    })),
  }
}

export function createContractLifecycle(ports: Ports) {
  const { db, clock, core, ledger, documents, parties, settings } = ports

  async function documentParties(tenantId: number, dealerId: number): Promise<DocumentParties> {
    const [administrator, dealer, distanceUnit, issuedOn] = await Promise.all([
      parties.administrator(tenantId),
      parties.dealerContact(tenantId, dealerId),
      settings.get(tenantId, 'distanceUnit'),
      core.today(tenantId),
    ])
    return {
      administrator,
      dealerAddress: dealer.address,
      distanceUnit: distanceUnit as 'MILES' | 'KILOMETERS',
      issuedOn,
    }
  }

  /**
   * Renders the contract's document and stores it as a new version: drafts (while pending) in the
   * CONTRACT_DRAFT_PDF document, the final document in CONTRACT_PDF, so drafts can never crowd the
   * final document out of its versions. A document at its version limit is followed by a new one.
   * Runs inside the caller's transaction, which holds the contract's row lock.
   */
  async function produceDocument(ctx: AuthenticatedContext, row: repo.ContractRow, draft: boolean) {
    const view = await core.view(ctx, row)
    const { coverage } = row
    const labels = Object.fromEntries(coverage.customFieldRules.map((r) => [r.key, r.label]))
    const groups = coverage.coverageGroups.map((g) => ({ group: g.name, components: g.components.map((c) => c.name) }))
    const pdf = await renderContractPdf(
      documentFromContract(view, labels, groups, await documentParties(ctx.tenantId, row.dealer_id), draft),
    )
    const kind = draft ? CONTRACT_DRAFT_PDF : CONTRACT_PDF
    const existing = view.documents.findLast((d) => d.kind === kind && d.currentVersion < MAX_VERSIONS)
    const stored = await documents.store(ctx, {
      ownerType: CONTRACT_OWNER,
      ownerId: row.id,
      kind,
      fileName: `${row.contract_number}${draft ? '-DRAFT' : ''}.pdf`,
      title: `Contract ${row.contract_number}${draft ? ' (draft)' : ''}`,
      contentType: 'application/pdf',
      content: pdf,
      metadata: { draft },
      ...(existing ? { documentId: existing.documentId } : {}),
    })
    const latest = stored.versions[stored.versions.length - 1]!
    return { documentId: stored.documentId, fileId: latest.fileId, versionNo: latest.versionNo }
  }

  async function postedLines(tenantId: number, contractId: number): Promise<PostingLine[]> {
    // The lines of the contract's entries (entriesForSource's, in one statement).
    const lines = await ledger.linesForSource(tenantId, { type: 'CONTRACT', id: contractId })
    return lines.map((l): PostingLine => ({
      accountHolderId: l.accountHolderId,
      purpose: l.purpose as PostingLine['purpose'],
      side: l.debit > 0 ? 'DEBIT' : 'CREDIT',
      cents: toCents(new Decimal(l.debit > 0 ? l.debit : l.credit)),
      ...(l.disbursementCode === null ? {} : { disbursementCode: l.disbursementCode }),
    }))
  }

  /**
   * What the contract's lines call for; the administrator company's own lines are deferred
   * (UNEARNED_REVENUE). Then the sales tax kept in its terms that the administrator collects
   * (salesTaxLines; a contract without a kept tax adds none, so its postings are as before).
   */
  async function wantedLines(tenantId: number, row: repo.ContractRow): Promise<PostingLine[]> {
    const { pricing } = row
    const [administratorId, terms] = await Promise.all([parties.administratorId(tenantId), core.termsOf(tenantId, row)])
    const sale = finalizationLines(
      { dealerId: row.dealer_id, administratorId },
      pricing.lines.map((l) => ({
        code: l.code,
        group: l.group,
        cents: l.cents,
        payeeAccountHolderId: l.payeeAccountHolderId,
      })),
    )
    const tax = salesTaxLines(
      { dealerId: row.dealer_id, administratorId },
      (terms.salesTax?.rules ?? []).map((r) => ({ collectedBy: r.collectedBy, taxCents: toCents(new Decimal(r.tax)) })),
    )
    return [...sale, ...tax]
  }

  /** Posts under the ledger's posting date (today, never the sale date): a sale in a since-closed month still posts. */
  async function post(
    ctx: AuthenticatedContext,
    row: repo.ContractRow,
    kind: 'CONTRACT_FINALIZED' | 'CONTRACT_REFINALIZED',
    lines: PostingLine[],
  ) {
    return ledger.post(ctx, {
      kind,
      source: { type: 'CONTRACT', id: row.id },
      effectiveDate: await ledger.postingDate(ctx.tenantId),
      memo: `${kind === 'CONTRACT_FINALIZED' ? 'Finalized' : 'Refinalized'} contract ${row.contract_number}`,
      lines: lines.map((l) => ({
        accountHolderId: l.accountHolderId,
        purpose: l.purpose,
        side: l.side,
        amount: centsToDecimal(l.cents),
        contractId: row.id,
        ...(l.disbursementCode === undefined ? {} : { disbursementCode: l.disbursementCode }),
      })),
    })
  }

  /**
   * Brings a finalized contract's sale postings to what its lines call for, without a new PDF: the
   * refinalize difference, posted as CONTRACT_REFINALIZED when not empty (decision 0012: a contract
   * finalized before the deferral holds its administrator lines as DISBURSEMENT_PAYABLE, and cancels
   * and earnings must find them in UNEARNED_REVENUE). Runs in the caller's transaction, under the
   * contract's row lock the caller holds. The entry's id, or null when nothing differed.
   */
  async function settleSalePostings(ctx: AuthenticatedContext, row: repo.ContractRow): Promise<number | null> {
    if (row.finalized_at === null) return null
    const difference = differenceLines(await wantedLines(ctx.tenantId, row), await postedLines(ctx.tenantId, row.id))
    if (difference.length === 0) return null
    const entry = await post(ctx, row, 'CONTRACT_REFINALIZED', difference)
    await db.transaction(ctx.tenantId, (tx) =>
      repo.updateContract(
        tx,
        ctx.tenantId,
        row.id,
        { journal_entry_ids: JSON.stringify([...row.journal_entry_ids, entry.entryId]) },
        clock.now(),
        false,
      ),
    )
    return entry.entryId
  }

  return {
    settleSalePostings,
    // ---- holds ----------------------------------------------------------------------------------
    async holds(ctx: AuthenticatedContext, contractId: number) {
      await core.readRow(ctx, contractId)
      return (await db.read(ctx.tenantId, (x) => repo.listHolds(x, ctx.tenantId, contractId))).map(toHoldView)
    },

    async placeHold(
      ctx: AuthenticatedContext,
      contractId: number,
      input: { reasonCode: HoldReasonCode; note?: string | null | undefined },
    ) {
      return db.transaction(ctx.tenantId, async (tx) => {
        const { row, now } = await core.forChange(tx, ctx, contractId, 'EDIT')
        const hold = await repo.insertHold(tx, ctx.tenantId, {
          contract_id: row.id,
          reason_code: input.reasonCode,
          note: input.note?.trim() || null,
          created_at: now,
          created_by: ctx.principal.emailAddress,
        })
        await writeAudit(tx, ctx, now, {
          action: 'contract.hold_placed',
          entityType: 'contract',
          entityId: row.id,
          changes: { holdId: hold.id, reasonCode: hold.reason_code, note: hold.note },
        })
        return toHoldView(hold)
      })
    },

    async resolutions(ctx: AuthenticatedContext, contractId: number, holdId: number) {
      await core.readRow(ctx, contractId)
      const hold = isStorableId(holdId)
        ? await db.read(ctx.tenantId, (x) => repo.findHold(x, ctx.tenantId, contractId, holdId))
        : undefined
      if (!hold) throw contractErrors.create('hold_not_found', `contract ${contractId} has no hold ${holdId}`)
      return hold.resolved_at === null
        ? []
        : [
            {
              holdId: hold.id,
              resolvedAt: hold.resolved_at.toISOString(),
              resolvedBy: hold.resolved_by!,
              note: hold.resolution_note,
            },
          ]
    },

    async resolveHold(
      ctx: AuthenticatedContext,
      contractId: number,
      holdId: number,
      input: { note?: string | null | undefined },
    ) {
      return db.transaction(ctx.tenantId, async (tx) => {
        const { row, now } = await core.forChange(tx, ctx, contractId, 'EDIT')
        const hold = isStorableId(holdId) ? await repo.findHold(tx, ctx.tenantId, row.id, holdId) : undefined
        if (!hold) throw contractErrors.create('hold_not_found', `contract ${contractId} has no hold ${holdId}`)
        const resolved = await repo.resolveHold(tx, ctx.tenantId, hold.id, {
          resolved_at: now,
          resolved_by: ctx.principal.emailAddress,
          resolution_note: input.note?.trim() || null,
        })
        if (!resolved)
          throw contractErrors.create(
            'hold_already_resolved',
            `hold ${holdId} was resolved at ${hold.resolved_at?.toISOString()}`,
          )
        await writeAudit(tx, ctx, now, {
          action: 'contract.hold_resolved',
          entityType: 'contract',
          entityId: row.id,
          changes: { holdId: hold.id, reasonCode: hold.reason_code, note: resolved.resolution_note },
        })
        return {
          holdId: resolved.id,
          resolvedAt: resolved.resolved_at!.toISOString(),
          resolvedBy: resolved.resolved_by!,
          note: resolved.resolution_note,
        }
      })
    },

    // ---- the edit lock --------------------------------------------------------------------------
    async lockStatus(ctx: AuthenticatedContext, contractId: number) {
      const row = await core.readRow(ctx, contractId)
      const held = row.lock_user_id !== null && row.lock_expires_at !== null && row.lock_expires_at > clock.now()
      return {
        contractId: row.id,
        locked: held,
        heldByYou: held && row.lock_user_id === ctx.principal.userId,
        userId: held ? row.lock_user_id : null,
        user: held ? row.lock_user_label : null,
        expiresAt: held ? row.lock_expires_at!.toISOString() : null,
      }
    },

    /** Takes (or renews) the edit lock for LOCK_MINUTES; 423 while another user holds it. Any status may be locked (a finalized contract is locked while a cancellation is worked). */
    async lock(ctx: AuthenticatedContext, contractId: number) {
      return db.transaction(ctx.tenantId, async (tx) => {
        const row = await core.lockRow(tx, ctx, contractId)
        const now = clock.now()
        if (lockedAgainst({ holder: row.lock_user_id, expiresAt: row.lock_expires_at }, ctx.principal.userId, now)) {
          throw contractErrors.create(
            'contract_locked',
            `contract ${row.contract_number} is locked by ${row.lock_user_label} until ${row.lock_expires_at!.toISOString()}`,
          )
        }
        const expiresAt = new Date(now.getTime() + LOCK_MINUTES * 60_000)
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          {
            lock_user_id: ctx.principal.userId,
            lock_user_label: ctx.principal.emailAddress,
            lock_expires_at: expiresAt,
          },
          now,
          false,
        )
        await writeAudit(tx, ctx, now, {
          action: 'contract.locked',
          entityType: 'contract',
          entityId: row.id,
          changes: { expiresAt: expiresAt.toISOString() },
        })
        return {
          contractId: row.id,
          locked: true,
          heldByYou: true,
          userId: ctx.principal.userId,
          user: ctx.principal.emailAddress,
          expiresAt: expiresAt.toISOString(),
        }
      })
    },

    /** Releases the caller's lock (nothing to do when none is held); 423 when another user holds it. */
    async unlock(ctx: AuthenticatedContext, contractId: number) {
      await db.transaction(ctx.tenantId, async (tx) => {
        const row = await core.lockRow(tx, ctx, contractId)
        const now = clock.now()
        if (row.lock_user_id === null || row.lock_expires_at === null || row.lock_expires_at <= now) return
        if (lockedAgainst({ holder: row.lock_user_id, expiresAt: row.lock_expires_at }, ctx.principal.userId, now))
          throw contractErrors.create(
            'contract_locked',
            `contract ${row.contract_number} is locked by ${row.lock_user_label}; only that user can release it`,
          )
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          { lock_user_id: null, lock_user_label: null, lock_expires_at: null },
          now,
          false,
        )
        await writeAudit(tx, ctx, now, { action: 'contract.unlocked', entityType: 'contract', entityId: row.id })
      })
    },

    // ---- co-buyer -------------------------------------------------------------------------------
    async setCoBuyer(ctx: AuthenticatedContext, contractId: number, coBuyer: CustomerInput) {
      const problem = nameProblem(coBuyer, 'coBuyer')
      if (problem) throw contractErrors.create('contract_invalid', problem.message, { errors: [problem] })
      const changed = await db.transaction(ctx.tenantId, async (tx) => {
        const { row, now } = await core.forChange(tx, ctx, contractId, 'EDIT')
        const snapshot = personSnapshot(coBuyer)
        await repo.updateContract(tx, ctx.tenantId, row.id, { co_buyer: JSON.stringify(snapshot) }, now)
        await writeAudit(tx, ctx, now, {
          action: 'contract.cobuyer_set',
          entityType: 'contract',
          entityId: row.id,
          changes: { before: row.co_buyer, after: snapshot },
        })
        return (await repo.findContract(tx, ctx.tenantId, row.id, null))!
      })
      return core.view(ctx, changed)
    },

    async removeCoBuyer(ctx: AuthenticatedContext, contractId: number) {
      await db.transaction(ctx.tenantId, async (tx) => {
        const { row, now } = await core.forChange(tx, ctx, contractId, 'EDIT')
        if (row.co_buyer === null) return
        await repo.updateContract(tx, ctx.tenantId, row.id, { co_buyer: null }, now)
        await writeAudit(tx, ctx, now, {
          action: 'contract.cobuyer_removed',
          entityType: 'contract',
          entityId: row.id,
          changes: { before: row.co_buyer },
        })
      })
    },

    // ---- finalization ---------------------------------------------------------------------------
    /**
     * Finalizes a pending contract: one balanced journal entry (the dealer owes its dealer cost,
     * each line is owed to its payee), the final document, and ACTIVE at once when the contract is
     * already in effect. All in one transaction: a failure anywhere leaves the contract pending.
     */
    async finalize(ctx: AuthenticatedContext, contractId: number): Promise<Posting> {
      return db.transaction(ctx.tenantId, async (tx) => {
        const { row, from, to, now, facts } = await core.forChange(tx, ctx, contractId, 'FINALIZE')
        const lines = await wantedLines(ctx.tenantId, row)
        const entry = lines.length > 0 ? await post(ctx, row, 'CONTRACT_FINALIZED', lines) : null
        const active = transition(to, 'ACTIVATE', facts)
        const status = active.ok ? active.to : to
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          {
            status,
            finalized_at: now,
            finalized_by: ctx.principal.emailAddress,
            journal_entry_ids: JSON.stringify(entry ? [entry.entryId] : []),
          },
          now,
        )
        // Finalized today, in force from the effective date when that has come: one row update, two
        // status changes recorded (history, audit, outbox).
        const contract = recordedContract(row)
        const source = { type: 'CONTRACT' } as const
        await core.recorder.record(tx, ctx, {
          contract,
          event: 'FINALIZE',
          from,
          to,
          effectiveDate: facts.today,
          source,
          at: now,
          audit: { journalEntryId: entry?.entryId ?? null },
        })
        if (active.ok)
          await core.recorder.record(tx, ctx, {
            contract,
            event: 'ACTIVATE',
            from: to,
            to: status,
            effectiveDate: row.effective_date,
            source,
            at: now,
          })
        const finalized = (await repo.findContract(tx, ctx.tenantId, row.id, null))!
        const document = await produceDocument(ctx, finalized, false)
        return { contract: await core.view(ctx, finalized), journalEntry: entry ? entrySummary(entry) : null, document }
      })
    },

    /**
     * Posts the difference between what the contract's lines call for now and what its entries hold
     * (after a correction such as a rerate), and produces the final document again. Nothing to
     * post: journalEntry is null.
     */
    async refinalize(ctx: AuthenticatedContext, contractId: number): Promise<Posting> {
      return db.transaction(ctx.tenantId, async (tx) => {
        const { row, from, now } = await core.forChange(tx, ctx, contractId, 'REFINALIZE')
        const wanted = await wantedLines(ctx.tenantId, row)
        const difference = differenceLines(wanted, await postedLines(ctx.tenantId, row.id))
        const entry = difference.length > 0 ? await post(ctx, row, 'CONTRACT_REFINALIZED', difference) : null
        // A finalized contract in effect reads ACTIVE (currentStatus): this write records its activation.
        const activating = row.status !== from
        if (entry || activating) {
          await repo.updateContract(
            tx,
            ctx.tenantId,
            row.id,
            {
              ...(entry ? { journal_entry_ids: JSON.stringify([...row.journal_entry_ids, entry.entryId]) } : {}),
              ...(activating ? { status: from } : {}),
            },
            now,
          )
        }
        if (activating)
          await core.recorder.record(tx, ctx, {
            contract: recordedContract(row),
            event: 'ACTIVATE',
            from: row.status,
            to: from,
            effectiveDate: row.effective_date,
            source: { type: 'CONTRACT' },
            at: now,
          })
        await writeAudit(tx, ctx, now, {
          action: 'contract.refinalized',
          entityType: 'contract',
          entityId: row.id,
          changes: { journalEntryId: entry?.entryId ?? null, lines: difference.length },
        })
        const current = (await repo.findContract(tx, ctx.tenantId, row.id, null))!
        const document = await produceDocument(ctx, current, false)
        return { contract: await core.view(ctx, current), journalEntry: entry ? entrySummary(entry) : null, document }
      })
    },

    // ---- documents ------------------------------------------------------------------------------
    /** The contract's own documents (drafts and the final document), in the order they were made. */
    async documentsOf(ctx: AuthenticatedContext, contractId: number) {
      await core.readRow(ctx, contractId)
      return documents.listForOwner(ctx.tenantId, CONTRACT_OWNER, contractId, { kinds: CONTRACT_DOCUMENT_KINDS })
    },

    /**
     * Produces the contract's document now: a draft while pending, the final document (again) once
     * finalized; under the contract's row lock, so it cannot interleave with finalization, and not
     * while another user holds the edit lock.
     */
    async produceDocument(ctx: AuthenticatedContext, contractId: number) {
      const made = await db.transaction(ctx.tenantId, async (tx) => {
        const row = await core.lockRow(tx, ctx, contractId)
        if (
          lockedAgainst({ holder: row.lock_user_id, expiresAt: row.lock_expires_at }, ctx.principal.userId, clock.now())
        ) {
          throw contractErrors.create(
            'contract_locked',
            `contract ${row.contract_number} is locked by ${row.lock_user_label} until ${row.lock_expires_at!.toISOString()}`,
          )
        }
        if (row.status === 'VOIDED')
          throw contractErrors.create('contract_state_conflict', `contract ${row.contract_number} is voided`)
        return produceDocument(ctx, row, row.status === 'PENDING')
      })
      return (await documents.get(ctx.tenantId, made.documentId))!
    },

    /** A draft contract PDF for a deal that is not a contract yet: checked like POST /contracts, nothing stored. */
    async draftForDeal(ctx: AuthenticatedContext, body: DealInput): Promise<Uint8Array> {
      const deal = await core.deals.check(ctx, body)
      return renderContractPdf(documentFromDeal(deal, body, await documentParties(ctx.tenantId, deal.quoted.dealer.id)))
    },

    // ---- coverage -------------------------------------------------------------------------------
    async coverageGroups(ctx: AuthenticatedContext, contractId: number) {
      const row = await core.readRow(ctx, contractId)
      return row.coverage.coverageGroups
    },

    async coverageComponents(ctx: AuthenticatedContext, contractId: number) {
      const row = await core.readRow(ctx, contractId)
      return row.coverage.coverageGroups.flatMap((g) =>
        g.components.map((c) => ({ groupCode: g.code, groupName: g.name, code: c.code, name: c.name })),
      )
    },
  }
}

export type ContractLifecycle = ReturnType<typeof createContractLifecycle>
