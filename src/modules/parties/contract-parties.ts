// The parties of a contract as the contracts module needs them, inside its own transaction: the
// contract holder (matched to an existing customer or created), the lien holder (by id or created
// from its name and address), the administrator company (payee of ADMINISTRATOR buckets), payees
// named by business key, and each party's last contract date (read by the auto-expire process).
import { sql, type Transaction } from 'kysely'
import type { Clock } from '../../platform/clock.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import type { DB, StoredAddress, StoredEmail } from '../../platform/db/schema.ts'
import { insertAccountHolder } from './account-holder.repository.ts'

export type PartyAddress = {
  line1: string
  line2?: string | null
  city: string
  state: string
  postalCode: string
  country?: string | null
}
export type CustomerInput = {
  firstName?: string | null
  middleInitial?: string | null
  lastName?: string | null
  companyName?: string | null
  emailAddress?: string | null
  phoneNumber?: string | null
  address?: PartyAddress | null
}
export type LienHolderInput = { name: string; address?: PartyAddress | null; phoneNumber?: string | null }
export type LienHolderRecord = { id: number; name: string; address: PartyAddress | null; phoneNumber: string | null }

/** The legal name of a contract holder: a company, else "first middle last". */
export function customerLegalName(c: CustomerInput): string {
  const person = [c.firstName, c.middleInitial, c.lastName]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' ')
  return (c.companyName?.trim() || person).slice(0, 200)
}

/**
 * The first stored address as a contract shows it: the postal fields only (stored addresses also
 * carry their type, MAILING or PHYSICAL, which a contract's party does not).
 */
function firstAddress(addresses: readonly StoredAddress[] | null | undefined): PartyAddress | null {
  const a = addresses?.[0]
  if (!a || !a.line1 || !a.city || !a.state || !a.postalCode) return null
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    state: a.state,
    postalCode: a.postalCode,
    country: 'US',
  }
}

type ContactRow = { id: number; emails: readonly StoredEmail[] | null; addresses: readonly StoredAddress[] | null }

/**
 * The same customer is the same legal name with the same e-mail address, or with the same street
 * and ZIP code: a repeat buyer keeps one record; a namesake elsewhere gets their own.
 */
function sameCustomer(row: ContactRow, c: CustomerInput): boolean {
  const email = c.emailAddress?.trim().toLowerCase()
  const emails = row.emails ?? []
  if (email && emails.some((e) => e.address?.toLowerCase() === email)) return true
  const a = c.address
  const addresses = row.addresses ?? []
  return (
    !!a &&
    addresses.some(
      (x) =>
        x.postalCode?.slice(0, 5) === a.postalCode.slice(0, 5) &&
        x.line1?.trim().toLowerCase() === a.line1.trim().toLowerCase(),
    )
  )
}

export function createContractParties({ db }: { db: Database; clock: Clock }) {
  const administrators = new Map<number, number>()
  /** The tenant's administrator company (made with the tenant), payee of the administrator's buckets. */
  async function administratorId(tenantId: number): Promise<number> {
    const known = administrators.get(tenantId)
    if (known !== undefined) return known
    const row = await db.read(tenantId, (x) =>
      x
        .selectFrom('account_holder')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'ADMIN_COMPANY')
        .orderBy('id')
        .limit(1)
        .executeTakeFirstOrThrow(),
    )
    administrators.set(tenantId, row.id)
    return row.id
  }
  return {
    /** The customer record of a contract holder: an existing one (sameCustomer) or a new one. */
    async matchOrCreateCustomer(
      tx: Transaction<DB>,
      ctx: RequestContext,
      c: CustomerInput,
      dealerId: number,
      now: Date,
    ): Promise<number> {
      const tenantId = ctx.tenantId
      const legalName = customerLegalName(c)
      const candidates = await tx
        .selectFrom('account_holder')
        .select(['id', 'emails', 'addresses'])
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'CUSTOMER')
        .where('legal_name_key', '=', sql<string>`lower(${legalName})`)
        .orderBy('id')
        .limit(50)
        .execute()
      const found = candidates.find((row) => sameCustomer(row, c))
      if (found) return found.id
      const details: Record<string, unknown> = { dealerId }
      for (const k of ['firstName', 'middleInitial', 'lastName', 'companyName'] as const) {
        const v = c[k]?.trim()
        if (v) details[k] = v
      }
      const id = await insertAccountHolder(
        tx,
        tenantId,
        'CUSTOMER',
        {
          business_key: null,
          legal_name: legalName,
          display_name: legalName,
          status: 'ACTIVE',
          expired_date: null,
          tax_id: null,
          w9_on_file: false,
          addresses: JSON.stringify(c.address ? [{ type: 'MAILING', ...c.address, country: 'US' }] : []),
          phones: JSON.stringify(c.phoneNumber ? [{ type: 'MOBILE', number: c.phoneNumber }] : []),
          emails: JSON.stringify(c.emailAddress ? [{ type: 'PRIMARY', address: c.emailAddress.trim() }] : []),
          primary_state: c.address?.state ?? null,
          details: JSON.stringify(details),
          dealer_group_id: null,
        },
        now,
      )
      await writeAudit(tx, ctx, now, {
        action: 'customer.created',
        entityType: 'account_holder',
        entityId: id,
        changes: { after: { legalName, ...details }, source: 'contract' },
      })
      return id
    },

    /** A lien holder of the tenant by id; undefined when there is none. */
    async lienHolder(tx: Transaction<DB>, tenantId: number, id: number): Promise<LienHolderRecord | undefined> {
      const row = await tx
        .selectFrom('account_holder')
        .select(['id', 'legal_name', 'addresses', 'phones'])
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'LIEN_HOLDER')
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) return undefined
      const phone = row.phones?.[0]?.number ?? null
      return { id: row.id, name: row.legal_name, address: firstAddress(row.addresses), phoneNumber: phone }
    },

    /** A lien holder given inline: the tenant's record with that name (compared as the database lower-cases it), else a new one. */
    async matchOrCreateLienHolder(
      tx: Transaction<DB>,
      ctx: RequestContext,
      l: LienHolderInput,
      now: Date,
    ): Promise<number> {
      const tenantId = ctx.tenantId
      const name = l.name.trim().slice(0, 200)
      const existing = await tx
        .selectFrom('account_holder')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'LIEN_HOLDER')
        .where('legal_name_key', '=', sql<string>`lower(${name})`)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst()
      if (existing) return existing.id
      const id = await insertAccountHolder(
        tx,
        tenantId,
        'LIEN_HOLDER',
        {
          business_key: null,
          legal_name: name,
          display_name: name,
          status: 'ACTIVE',
          expired_date: null,
          tax_id: null,
          w9_on_file: false,
          addresses: JSON.stringify(l.address ? [{ type: 'MAILING', ...l.address, country: 'US' }] : []),
          phones: JSON.stringify(l.phoneNumber ? [{ type: 'OFFICE', number: l.phoneNumber }] : []),
          emails: '[]',
          primary_state: l.address?.state ?? null,
          details: '{}',
          dealer_group_id: null,
        },
        now,
      )
      await writeAudit(tx, ctx, now, {
        action: 'lien_holder.created',
        entityType: 'account_holder',
        entityId: id,
        changes: { after: { legalName: name }, source: 'contract' },
      })
      return id
    },

    administratorId,

    /** The administrator company's name and address, as printed on contracts. */
    async administrator(
      tenantId: number,
    ): Promise<{ name: string; address: PartyAddress | null; phoneNumber: string | null }> {
      const id = await administratorId(tenantId)
      const row = await db.read(tenantId, (x) =>
        x
          .selectFrom('account_holder')
          .select(['display_name', 'addresses', 'phones'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      )
      return {
        name: row.display_name,
        address: firstAddress(row.addresses),
        phoneNumber: row.phones?.[0]?.number ?? null,
      }
    },

    /** A dealer's name and address, as printed on contracts. */
    async dealerContact(tenantId: number, dealerId: number): Promise<{ address: PartyAddress | null }> {
      const row = await db.read(tenantId, (x) =>
        x
          .selectFrom('account_holder')
          .select(['addresses'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', dealerId)
          .executeTakeFirst(),
      )
      return { address: firstAddress(row?.addresses) }
    },

    /**
     * Moves the last contract date of the parties forward to `saleDate` (never back). Only rows
     * that change are written, so concurrent sales of one dealer rarely wait on each other.
     */
    async recordContractSale(
      tx: Transaction<DB>,
      tenantId: number,
      accountHolderIds: readonly number[],
      saleDate: string,
    ): Promise<void> {
      if (accountHolderIds.length === 0) return
      await tx
        .updateTable('account_holder')
        .set({ last_contract_date: saleDate })
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', [...new Set(accountHolderIds)])
        .where((eb) => eb.or([eb('last_contract_date', 'is', null), eb('last_contract_date', '<', saleDate)]))
        .execute()
    },

    /**
     * Sets the last contract date of the parties to what `latest` answers (the contracts module: the
     * latest sale date of their contracts that still count), when a contract stops counting (voided).
     * Their rows are locked first, so a concurrent sale's recordContractSale either committed before
     * `latest` reads (and is seen) or waits and raises the date afterwards. FOR NO KEY UPDATE does not
     * wait for contracts being inserted that reference the rows.
     */
    async resetLastContractDates(
      tx: Transaction<DB>,
      tenantId: number,
      accountHolderIds: readonly number[],
      latest: () => Promise<ReadonlyMap<number, string | null>>,
    ): Promise<void> {
      const ids = [...new Set(accountHolderIds)].toSorted((a, b) => a - b)
      if (ids.length === 0) return
      const rows = await tx
        .selectFrom('account_holder')
        .select(['id', 'last_contract_date'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute()
      const dates = await latest()
      for (const row of rows) {
        const date = dates.get(row.id)
        if (date === undefined || date === row.last_contract_date) continue
        await tx
          .updateTable('account_holder')
          .set({ last_contract_date: date })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', row.id)
          .execute()
      }
    },
  }
}

export type ContractParties = ReturnType<typeof createContractParties>
