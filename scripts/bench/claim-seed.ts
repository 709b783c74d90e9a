// Seeds claims in bulk for the claims group (scripts/bench.ts, docs/benchmarks.md "Claims"): copies of
// one template claim the bench took through the API (POST /api/claims), made by SQL in the server
// process (hidden route POST /bench/seed-claims), onto contracts copied in bulk from the finalized
// templates (scripts/bench/contract-seed.ts), so 200,000 claims take seconds, not the hours the API
// would. Each copy is the row the claims service writes (claim.service.ts `create`): every column of
// the template (read from the catalog, so a column a later migration adds is copied too), with its
// own number (the template's with the sequence replaced; the tenant's claim_number_counter moves past
// them, so later intake numbers never collide), the contract's id, number, dealer and VIN (as intake
// copies them), a loss date in the last four weeks, an odometer past the sale's, and a status spread
// evenly over every claim status: an authorized-or-later copy carries an authorization and its
// totals, a paid one its paid total, a denied one a denied reason. What intake writes besides (the
// audit row, the outbox event) is not read by the claims index, and is left out.
import { sql, type RawBuilder } from 'kysely'
import { CLAIM_STATUSES } from '../../src/modules/claims/index.ts'
import type { Database, Executor } from '../../src/platform/db/database.ts'
import { cloneContracts } from './contract-seed.ts'

/** Copies made per transaction: bounded statements (each copy carries the template's jobs JSON). */
const CHUNK = 20_000

const AUTHORIZED_OR_LATER = ['AUTHORIZED', 'PENDING_PAYMENT', 'PAID', 'PARTIALLY_PAID']

export type SeedClaimsOptions = {
  /** Finalized template contracts (their dealers are the claims' dealers). */
  templateIds: readonly number[]
  /** The claim taken through the API that every copy is made from. */
  templateClaimId: number
  /** Contracts copied from the templates to carry the claims. */
  contracts: number
  claims: number
  /** The first contract copy's serial (contract-seed.ts numbers copies `<template number>-B<serial>`). */
  firstSerial: number
}

export type SeedClaimsResult = {
  contracts: number
  claims: number
  /** The dealers of the seeded claims (those of the templates). */
  dealerIds: number[]
  seconds: number
}

async function columnsOf(x: Executor, table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = ${table} and column_name <> 'id'
       and is_generated = 'NEVER'
     order by ordinal_position`.execute(x)
  return rows.map((r) => r.column_name)
}

/** `t.column` for each column, or its override (an SQL expression over the statement's relations). */
function selectList(columns: readonly string[], overrides: Record<string, string>): RawBuilder<unknown> {
  return sql.raw(columns.map((c) => overrides[c] ?? `t.${c}`).join(', '))
}

/** SQL text of a string list (fixed identifiers of this file, never input). */
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ')

export async function seedClaims(
  db: Database,
  tenantId: number,
  options: SeedClaimsOptions,
): Promise<SeedClaimsResult> {
  const started = performance.now()
  if (!Number.isInteger(options.claims) || options.claims < 1) throw new Error('claims must be a positive integer')
  const { contracts } = await cloneContracts(db, tenantId, {
    templateIds: options.templateIds,
    count: options.contracts,
    firstSerial: options.firstSerial,
    spreadDays: 300,
    returnIds: true,
  })
  const contractIds = contracts.map((c) => c.id)
  const columns = await db.read(tenantId, (x) => columnsOf(x, 'claim'))
  const has = new Set(columns)
  const authorized = `s.status in (${list(AUTHORIZED_OR_LATER)})`
  // Overrides of the template's columns; those of later migrations only when the column exists.
  const overrides: Record<string, string> = {
    claim_number: `s.prefix || lpad(s.seq::text, greatest(6, length(s.seq::text)), '0')`,
    contract_id: 'c.id',
    contract_number: 'c.contract_number',
    dealer_id: 'c.dealer_id',
    vin: 'c.vin',
    status: 's.status',
    loss_date: 'current_date - 1 - s.age',
    odometer: 'coalesce(c.sale_odometer, 0) + 500 + s.n % 5000',
    reported_at: 's.at',
    created_at: 's.at',
    updated_at: 's.at',
    authorized_total: `case when ${authorized} then t.requested_total else 0 end`,
    payable_total: `case when ${authorized} then t.requested_total else 0 end`,
    paid_total: `case s.status when 'PAID' then t.requested_total when 'PARTIALLY_PAID' then round(t.requested_total / 2, 2) else 0 end`,
    authorization_number: `case when ${authorized} then s.prefix || s.seq || '-A1' end`,
    authorized_at: `case when ${authorized} then s.at end`,
    authorized_by: `case when ${authorized} then t.created_by end`,
    authorization_expires_on: `case when ${authorized} then (s.at at time zone 'UTC')::date + 180 end`,
    version: '1',
  }
  if (has.has('authorization_count')) overrides.authorization_count = `case when ${authorized} then 1 else 0 end`
  if (has.has('denied_reason_id'))
    overrides.denied_reason_id = `case when s.status = 'DENIED' then (select min(l.id) from claim_lookup l
       where l.tenant_id = ${tenantId} and l.kind = 'DENIED_REASON') end`

  const statuses = sql`${[...CLAIM_STATUSES]}::text[]`
  const ids = sql`${contractIds}::bigint[]`
  for (let done = 0; done < options.claims; done += CHUNK) {
    const last = Math.min(options.claims, done + CHUNK) - 1
    await db.transaction(tenantId, async (tx) => {
      // The counter row's lock keeps intake from numbering a claim while the copies take their numbers.
      const { rows } = await sql<{ last_value: string | number }>`
        select last_value from claim_number_counter where tenant_id = ${tenantId} for update`.execute(tx)
      const base = Number(rows[0]?.last_value ?? Number.NaN)
      if (!Number.isFinite(base)) throw new Error('the template claim must be taken first (no claim number counter)')
      // Claim n: contract n mod contracts (so each contract carries claims/contracts of them); a
      // status by a hash of n, so every dealer has claims of every status; an age of 0 to 27 days.
      await sql`
        with src as (
          select g.n,
                 (${ids})[1 + g.n % ${contractIds.length}] as contract_id,
                 (${statuses})[1 + abs(hashint4(g.n)) % ${CLAIM_STATUSES.length}] as status,
                 ${base}::bigint + g.n - ${done} + 1 as seq,
                 g.n % 28 as age,
                 regexp_replace(t.claim_number, '[0-9]+$', '') as prefix,
                 t.created_at - make_interval(days => g.n % 28) as at
            from generate_series(${done}::int, ${last}::int) as g(n)
            join claim t on t.tenant_id = ${tenantId} and t.id = ${options.templateClaimId}
        )
        insert into claim (${sql.raw(columns.join(', '))})
        select ${selectList(columns, overrides)}
          from src s
          join claim t on t.tenant_id = ${tenantId} and t.id = ${options.templateClaimId}
          join contract c on c.tenant_id = ${tenantId} and c.id = s.contract_id`.execute(tx)
      await sql`
        update claim_number_counter set last_value = last_value + ${last - done + 1}
         where tenant_id = ${tenantId}`.execute(tx)
    })
  }
  // Fresh statistics, so the planner sees the copies.
  await db.read(null, (x) => sql`analyze claim, claim_number_counter`.execute(x))
  const dealers = await db.read(tenantId, (x) =>
    sql<{ dealer_id: string | number }>`
      select distinct dealer_id from contract where tenant_id = ${tenantId} and id = any(${[...options.templateIds]}::bigint[])`.execute(
      x,
    ),
  )
  return {
    contracts: contractIds.length,
    claims: options.claims,
    dealerIds: dealers.rows.map((r) => Number(r.dealer_id)),
    seconds: (performance.now() - started) / 1000,
  }
}
