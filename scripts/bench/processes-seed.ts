// Server-side seeding of the processes group (scripts/bench/processes.ts): outbox events appended in
// bulk by one statement, as the changes of `contracts` contracts would append them (the webhook
// delivery figure). The expiry's contracts are copies made by contract-seed.ts.
import { sql } from 'kysely'
import type { Database } from '../../src/platform/db/database.ts'

export type BenchEventsOptions = {
  /** Events to append. */
  count: number
  /** Distinct contracts they name, in turn (deliveries are ordered per contract). */
  contracts: number
  /** The first event's sequence number (`data.seq`): unique per call. */
  firstSeq: number
}

export async function appendBenchEvents(
  db: Database,
  tenantId: number,
  at: Date,
  options: BenchEventsOptions,
): Promise<{ count: number }> {
  const { count, contracts, firstSeq } = options
  if (!Number.isInteger(count) || count < 1 || count > 100_000) throw new RangeError('count must be 1 to 100000')
  if (!Number.isInteger(contracts) || contracts < 1) throw new RangeError('contracts must be a positive integer')
  await db.transaction(tenantId, (tx) =>
    sql`
      insert into event_outbox (tenant_id, type, payload, created_at)
      select ${tenantId}, 'contract.bench_changed',
             jsonb_build_object('contractId', 1000000 + (g.n % ${contracts}), 'seq', g.n), ${at}::timestamptz
        from generate_series(${firstSeq}::int, ${firstSeq + count - 1}::int) as g(n)
       order by g.n`.execute(tx),
  )
  return { count }
}
