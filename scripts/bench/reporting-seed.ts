// Seeds the reporting group's book in bulk (scripts/bench.ts --only reporting, docs/benchmarks.md
// "Reporting"): copies of template contracts the bench sold and finalized through the API, made by SQL
// in the server process (hidden route POST /bench/reporting/seed), spread over the benchmark's dealers
// and ceded to its reinsurance companies, with their sale dates (and their finalize entries) spread
// over the year before today; every `claimEvery`-th copy carries a claim copied from one template claim
// taken through the API: its approval entry (CLAIM_APPROVED, the claim expense the statements read),
// and for most of them its payment request, payment and payment entry (CLAIM_PAID).
//
// Each copy is what finalize leaves (contract-seed.ts): the contract row (every column of its
// template, a number of its own, the dealer and its name in deal_data, terms.cession naming the
// company of the dealer's treaty), its status history and its CONTRACT_FINALIZED entry with the
// template's lines on the copy. Claim copies are the template's journal entries with their lines
// moved to the copy, and its request and payment rows (the claim row itself is the template's: the
// statements read the journal, the requests and the payments, never the claim). Ids of copied entries,
// requests and payments are drawn from their identity sequences first, so lines and rows can name them.
import { sql, type RawBuilder } from 'kysely'
import type { Database, Executor } from '../../src/platform/db/database.ts'

/** Copies made per transaction: bounded statements and commit-time balance checks. */
const CHUNK = 5000
/** Copies whose finalize lines one statement inserts. */
const LINE_SLICE = 500

export type ReportingSeedOptions = {
  templateIds: readonly number[]
  /** The contract of the template claim (its entries, request and payment are copied). */
  claimContractId: number
  /** Dealers the copies are spread over, in turn; the company of dealer i is companies[i % companies]. */
  dealerIds: readonly number[]
  companyIds: readonly number[]
  /** The treaty of each company (same order), named in terms.cession. */
  treatyIds: readonly number[]
  count: number
  /** The first copy's serial (copies are numbered `<template number>-R<serial>`): unique per call. */
  firstSerial: number
  /** Every claimEvery-th copy has a claim; of those, every unpaidEvery-th is left unpaid (no request copied: its approval only). */
  claimEvery: number
  unpaidEvery: number
  shareBps: number
  cedingFeeBps: number
  administratorFeeBps: number
  /** ANALYZE the tables afterwards (default true): the caller skips it on most calls of a long seeding. */
  analyze?: boolean
}

async function columnsOf(x: Executor, table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = ${table} and column_name <> 'id'
       and is_generated = 'NEVER'
     order by ordinal_position`.execute(x)
  return rows.map((r) => r.column_name)
}

function selectList(columns: readonly string[], alias: string, overrides: Record<string, string>): RawBuilder<unknown> {
  return sql.raw(columns.map((c) => overrides[c] ?? `${alias}.${c}`).join(', '))
}

/** The timed statements of a chunk, in order (the claim entries and lines twice: approvals, payments). */
const STEP_NAMES = [
  'temp copies',
  'contracts',
  'status history',
  'finalize entries and lines',
  'temp claims',
  'claims drawn',
  'claim entries',
  'claim lines',
  'payment requests',
  'payments',
] as const

const ids = (xs: readonly number[]) => sql`${xs.map(Number)}::bigint[]`

export async function seedReportingBook(
  db: Database,
  tenantId: number,
  o: ReportingSeedOptions,
): Promise<{ contracts: number; claims: number; paid: number; seconds: number; steps: Record<string, number> }> {
  const started = performance.now()
  const [contractCols, historyCols, entryCols, lineCols, requestCols, paymentCols] = await db.read(
    tenantId,
    async (x) => [
      await columnsOf(x, 'contract'),
      await columnsOf(x, 'contract_status_history'),
      await columnsOf(x, 'journal_entry'),
      await columnsOf(x, 'journal_line'),
      await columnsOf(x, 'claim_payment_request'),
      await columnsOf(x, 'claim_payment'),
    ],
  )
  // The template claim: its request (and approval entry), its payment (and payment entry).
  const claim = await db.read(tenantId, (x) =>
    sql<{ request_id: number; approved_entry_id: number; payment_id: number; paid_entry_id: number }>`
      select r.id as request_id, r.journal_entry_id as approved_entry_id, p.id as payment_id, p.journal_entry_id as paid_entry_id
        from claim_payment_request r
        join claim_payment p on p.tenant_id = ${tenantId} and p.payment_request_id = r.id
       where r.tenant_id = ${tenantId} and r.contract_id = ${o.claimContractId}
       order by r.id limit 1`.execute(x),
  )
  const template = claim.rows[0]
  if (template === undefined) throw new Error('the template claim has no paid payment request')
  const t = template

  // Milliseconds per statement kind over the call, and in the commit (the deferred balance checks).
  const steps: Record<string, number> = {}
  const step = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now()
    try {
      return await f()
    } finally {
      steps[name] = Math.round((steps[name] ?? 0) + performance.now() - t0)
    }
  }
  const D = o.dealerIds.length
  const C = o.companyIds.length
  let claims = 0
  let paid = 0
  for (let done = 0; done < o.count; done += CHUNK) {
    const first = o.firstSerial + done
    const last = o.firstSerial + Math.min(o.count, done + CHUNK) - 1
    const chunkStarted = performance.now()
    let inTx = 0
    const made = await db.transaction(tenantId, async (tx) => {
      const txStarted = performance.now()
      try {
        return await chunk(tx, first, last)
      } finally {
        inTx = performance.now() - txStarted
      }
    })
    steps.commit = Math.round((steps.commit ?? 0) + performance.now() - chunkStarted - inTx)
    claims += made.claims
    paid += made.paid
  }
  if (o.analyze !== false)
    await step('analyze', () =>
      db.read(null, (x) =>
        sql`analyze contract, contract_status_history, journal_entry, journal_line, claim_payment_request, claim_payment, reporting_contract, reporting_movement`.execute(
          x,
        ),
      ),
    )
  return { contracts: o.count, claims, paid, seconds: (performance.now() - started) / 1000, steps }

  async function chunk(tx: Executor, first: number, last: number) {
    // The copies, and their finalize entries moved back with their dates.
    await step(STEP_NAMES[0], () =>
      sql`
        create temporary table if not exists bench_copy (n int, id bigint, template_id bigint, shift int, sale_date date, entry_id bigint) on commit drop`.execute(
        tx,
      ),
    )
    await step(STEP_NAMES[1], () =>
      sql`
        with src as (
          select g.n, t.id as template_id, t.contract_number || '-R' || g.n as number,
                 (1 + (g.n::bigint * 7919) % 364)::int as shift,
                 (${ids(o.dealerIds)})[1 + g.n % ${D}] as dealer_id,
                 (${ids(o.companyIds)})[1 + (g.n % ${D}) % ${C}] as company_id,
                 (${ids(o.treatyIds)})[1 + (g.n % ${D}) % ${C}] as treaty_id,
                 nextval(pg_get_serial_sequence('journal_entry', 'id')) as entry_id
            from generate_series(${first}::int, ${last}::int) as g(n)
            join contract t on t.tenant_id = ${tenantId} and t.id = (${ids(o.templateIds)})[1 + g.n % ${o.templateIds.length}]
        ),
        ins as (
          insert into contract (${sql.raw(contractCols.join(', '))})
          select ${selectList(contractCols, 't', {
            contract_number: 's.number',
            dealer_id: 's.dealer_id',
            deal_data: `jsonb_set(t.deal_data, '{dealer}', t.deal_data -> 'dealer' || jsonb_build_object('id', d.id, 'dealerNumber', d.business_key, 'name', d.display_name))`,
            terms: `jsonb_set(t.terms, '{cession}', jsonb_build_object('treatyId', s.treaty_id, 'reinsuranceCompanyId', s.company_id,
                      'shareBps', ${o.shareBps}, 'cedingFeeBps', ${o.cedingFeeBps}, 'administratorFeeBps', ${o.administratorFeeBps}))`,
            sale_date: 't.sale_date - s.shift',
            effective_date: 't.effective_date - s.shift',
            expiration_date: 't.expiration_date - s.shift',
            journal_entry_ids: 'jsonb_build_array(s.entry_id)',
          })}
            from src s
            join contract t on t.tenant_id = ${tenantId} and t.id = s.template_id
            join account_holder d on d.tenant_id = ${tenantId} and d.id = s.dealer_id
          returning id, contract_number, sale_date
        )
        insert into bench_copy (n, id, template_id, shift, sale_date, entry_id)
        select s.n, i.id, s.template_id, s.shift, i.sale_date, s.entry_id from ins i join src s on s.number = i.contract_number`.execute(
        tx,
      ),
    )
    await step(STEP_NAMES[2], () =>
      sql`
        insert into contract_status_history (${sql.raw(historyCols.join(', '))})
        select ${selectList(historyCols, 'h', { contract_id: 'p.id', effective_date: 'h.effective_date - p.shift' })}
          from bench_copy p join contract_status_history h on h.tenant_id = ${tenantId} and h.contract_id = p.template_id`.execute(
        tx,
      ),
    )
    // The finalize entries, then their lines a slice of copies at a time: the ledger totals trigger
    // on journal_line (migration 0045) joins the statement's items to its per-account sums in a
    // nested loop its row estimates choose, quadratic in the lines of one statement (5,000 copies in
    // one statement: 22 s; in slices of 500: about a tenth of that).
    await step(STEP_NAMES[3], async () => {
      await sql`
        create temporary table if not exists bench_entry (id bigint, copy_id bigint, n int) on commit drop`.execute(tx)
      await sql`
        with entries as (
          insert into journal_entry (id, ${sql.raw(entryCols.join(', '))}) overriding system value
          select p.entry_id, ${selectList(entryCols, 'e', {
            source_id: 'p.id',
            effective_date: 'e.effective_date - p.shift',
            posted_at: 'e.posted_at - make_interval(days => p.shift)',
          })}
            from bench_copy p
            join journal_entry e on e.tenant_id = ${tenantId} and e.source_type = 'CONTRACT' and e.source_id = p.template_id
          returning id, source_id
        )
        insert into bench_entry (id, copy_id, n)
        select ne.id, ne.source_id, p.n from entries ne join bench_copy p on p.id = ne.source_id`.execute(tx)
      for (let from = first; from <= last; from += LINE_SLICE)
        await sql`
          insert into journal_line (${sql.raw(lineCols.join(', '))})
          select ${selectList(lineCols, 'l', {
            entry_id: 'ne.id',
            contract_id: 'case when l.contract_id is null then null else p.id end',
          })}
            from bench_entry ne
            join bench_copy p on p.id = ne.copy_id
            join journal_entry e on e.tenant_id = ${tenantId} and e.source_type = 'CONTRACT' and e.source_id = p.template_id
            join journal_line l on l.tenant_id = ${tenantId} and l.entry_id = e.id
           where ne.n between ${from} and ${Math.min(last, from + LINE_SLICE - 1)}`.execute(tx)
    })

    // Claims: the approval entry (and request) on every claimEvery-th copy, 45 days after its sale
    // (today at the latest); paid ten days later (today at the latest) unless unpaidEvery says not.
    await step(STEP_NAMES[4], () =>
      sql`
        create temporary table if not exists bench_claim (id bigint, approved bigint, request bigint, paid bigint,
          payment bigint, approved_on date, paid_on date, is_paid boolean) on commit drop`.execute(tx),
    )
    await step(STEP_NAMES[5], () =>
      sql`
        insert into bench_claim
        select p.id,
               nextval(pg_get_serial_sequence('journal_entry', 'id')),
               nextval(pg_get_serial_sequence('claim_payment_request', 'id')),
               nextval(pg_get_serial_sequence('journal_entry', 'id')),
               nextval(pg_get_serial_sequence('claim_payment', 'id')),
               least(p.sale_date + 45, current_date - 1),
               least(p.sale_date + 55, current_date - 1),
               p.n % ${o.claimEvery * o.unpaidEvery} <> 0
          from bench_copy p where p.n % ${o.claimEvery} = 0`.execute(tx),
    )
    for (const [entry, when, only] of [
      [t.approved_entry_id, 'approved', 'true'],
      [t.paid_entry_id, 'paid', 'b.is_paid'],
    ] as const) {
      const on = when === 'approved' ? 'b.approved_on' : 'b.paid_on'
      await step(STEP_NAMES[6], () =>
        sql`
          insert into journal_entry (id, ${sql.raw(entryCols.join(', '))}) overriding system value
          select ${sql.raw(`b.${when}`)}, ${selectList(entryCols, 'e', {
            effective_date: on,
            posted_at: `${on}::timestamptz + interval '18 hours'`,
          })}
            from bench_claim b join journal_entry e on e.tenant_id = ${tenantId} and e.id = ${entry}
           where ${sql.raw(only)}`.execute(tx),
      )
      await step(STEP_NAMES[7], () =>
        sql`
          insert into journal_line (${sql.raw(lineCols.join(', '))})
          select ${selectList(lineCols, 'l', {
            entry_id: `b.${when}`,
            contract_id: 'case when l.contract_id is null then null else b.id end',
          })}
            from bench_claim b join journal_line l on l.tenant_id = ${tenantId} and l.entry_id = ${entry}
           where ${sql.raw(only)}`.execute(tx),
      )
    }
    await step(STEP_NAMES[8], () =>
      sql`
        insert into claim_payment_request (id, ${sql.raw(requestCols.join(', '))}) overriding system value
        select b.request, ${selectList(requestCols, 'r', {
          contract_id: 'b.id',
          journal_entry_id: 'b.approved',
          invoice_date: 'b.approved_on',
        })}
          from bench_claim b join claim_payment_request r on r.tenant_id = ${tenantId} and r.id = ${t.request_id}
         where b.is_paid`.execute(tx),
    )
    await step(STEP_NAMES[9], () =>
      sql`
        insert into claim_payment (id, ${sql.raw(paymentCols.join(', '))}) overriding system value
        select b.payment, ${selectList(paymentCols, 'p', {
          payment_request_id: 'b.request',
          journal_entry_id: 'b.paid',
          paid_on: 'b.paid_on',
        })}
          from bench_claim b join claim_payment p on p.tenant_id = ${tenantId} and p.id = ${t.payment_id}
         where b.is_paid`.execute(tx),
    )
    const { rows } = await sql<{ claims: number; paid: number }>`
        select count(*)::int as claims, count(*) filter (where is_paid)::int as paid from bench_claim`.execute(tx)
    return rows[0]!
  }
}
