// Frozen: cancel methods and cancel reasons become rating catalogue items (CANCEL_METHOD,
// CANCEL_REASON), so `/cancelmethods/{id}` and `/cancelreasons/{id}` keep their ids from one rate-book
// version to the next, as products and plans do.
//
// Every import from now on gives its methods and reasons ids (a book without its own has the default
// ones, which are items too). The versions imported before these members existed have exactly the
// default methods and reasons, and no ids for them: this migration inserts the default codes for every
// tenant that has a rate book, first seen in its first version. Done here rather than on first read,
// because reads may go to a replica and nothing else writes on the read path. The codes are a copy of
// the defaults of src/modules/rating/ratebook/ratebook.defaults.ts at this point (a migration imports
// nothing from src/; ratebook.defaults.test.ts checks that the two lists agree).
import { sql, type Kysely } from 'kysely'

export const DEFAULT_CANCEL_METHOD_CODES = [
  'PRO_RATA_DAYS',
  'PRO_RATA_MONTHS',
  'PRO_RATA_MILES',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
  'RULE_OF_78',
  'MEAN_PR_R78',
  'SHORT_RATE',
  'FULL',
  'NONE',
] as const

export const DEFAULT_CANCEL_REASON_CODES = [
  'CUSTOMER_REQUEST',
  'TRADE_IN',
  'VEHICLE_SOLD',
  'EARLY_PAYOFF',
  'REFINANCE',
  'REPOSSESSION',
  'TOTAL_LOSS',
  'SALE_UNWOUND',
  'NON_PAYMENT',
  'FRAUD',
  'DUPLICATE',
  'DEATH',
] as const

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table rating_catalogue_item drop constraint rating_catalogue_item_kind_check;
    alter table rating_catalogue_item add constraint rating_catalogue_item_kind_check check (kind in (
      'PRODUCT', 'PROGRAM', 'PLAN', 'TERM', 'DEDUCTIBLE', 'OPTION', 'FACTOR_TABLE', 'CANCEL_METHOD', 'CANCEL_REASON'
    ));
  `.execute(db)
  await insertDefaultCancelItems(db)
}

/**
 * Gives the default cancel method and reason codes ids for each tenant with a rate book (for one
 * tenant when `tenantId` is given: the tests'). Codes that already have an id keep it.
 */
export async function insertDefaultCancelItems(db: Kysely<any>, tenantId?: number): Promise<void> {
  const items = [
    ...DEFAULT_CANCEL_METHOD_CODES.map((code) => ['CANCEL_METHOD', code]),
    ...DEFAULT_CANCEL_REASON_CODES.map((code) => ['CANCEL_REASON', code]),
  ].map(([kind, code], i) => sql`(${i}::int, ${kind}::text, ${code}::text)`)
  const tenants = await sql<{ id: number }>`
    select id from tenant ${tenantId === undefined ? sql`` : sql`where id = ${tenantId}`} order by id
  `.execute(db)
  for (const { id } of tenants.rows) {
    // rate_book and rating_catalogue_item are tenant tables under forced row-level security.
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await sql`
      insert into rating_catalogue_item (tenant_id, kind, code, first_version)
      select ${id}, d.kind, d.code, f.first_version
        from (select min(version) as first_version from rate_book where tenant_id = ${id}) f
        cross join (values ${sql.join(items)}) as d (ord, kind, code)
       where f.first_version is not null
       order by d.ord
      on conflict (tenant_id, kind, code) do nothing
    `.execute(db)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('cancel catalogue kinds migration is not reversible')
}
