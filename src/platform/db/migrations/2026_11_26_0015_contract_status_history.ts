// Frozen: the status history of contracts (docs/contracts.md "Status history"), and the column of the
// terms snapshot a contract is sold under (filled by the contracts module; null until then).
// - contract_status_history: one row per status change (creation included), written by the contracts
//   module in the transaction of the change; how claims ask "was it in force on the loss date".
//   Rows are never updated or deleted (trigger).
// - contract.terms: the terms snapshot (jsonb, null for contracts that have none yet).
// - Two partial indexes for the latest sale date of a dealer's or a customer's contracts that count
//   (not voided), which the contracts module recomputes into account_holder.last_contract_date when a
//   contract is voided.
// - A backfill gives every existing contract the history its columns allow (backfillStatusHistory).
import { sql, type Kysely, type Transaction } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table contract_status_history (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      contract_id bigint not null,
      event text not null check (event ~ '^[A-Z][A-Z_]*$' and char_length(event) <= 40),
      from_status text check (from_status in ('PENDING', 'FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED', 'VOIDED')),
      to_status text not null check (to_status in ('PENDING', 'FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED', 'VOIDED')),
      -- The day from which the contract is in to_status (a cancellation's cancel date, say), which may
      -- be before or after the day it was recorded (occurred_at).
      effective_date date not null,
      -- What made the change: CONTRACT (its own routes and dates), CANCELLATION, CLAIM, PROCESS, …;
      -- BACKFILL for the rows of this migration; source_id the id of that record when there is one.
      source_type text not null check (source_type ~ '^[A-Z][A-Z_]*$' and char_length(source_type) <= 40),
      source_id bigint,
      occurred_at timestamptz not null,
      actor_label text not null,
      actor_user_id bigint,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id),
      -- Only the creation has no status before it.
      check ((event = 'CREATE') = (from_status is null))
    );
    create index contract_status_history_contract_idx on contract_status_history (tenant_id, contract_id, id);

    create function contract_status_history_immutable() returns trigger language plpgsql as $$
      begin
        raise exception 'contract_status_history rows are immutable' using errcode = '42501';
      end $$;
    create trigger contract_status_history_no_update before update or delete on contract_status_history
      for each row execute function contract_status_history_immutable();

    alter table contract_status_history enable row level security;
    alter table contract_status_history force row level security;
    create policy tenant_isolation on contract_status_history
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());

    alter table contract add column terms jsonb;

    create index contract_dealer_sale_date_idx on contract (tenant_id, dealer_id, sale_date) where status <> 'VOIDED';
    create index contract_customer_sale_date_idx on contract (tenant_id, customer_id, sale_date) where status <> 'VOIDED';
  `.execute(db)

  // Row-level security applies to the migrating role too: each tenant's contracts are read with the
  // tenant bound (as migration 0010 does).
  const tenants = await sql<{ id: number }>`select id from tenant`.execute(db)
  for (const { id } of tenants.rows) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await backfillStatusHistory(db, Number(id))
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

/**
 * The history of each contract of `tenantId` that has none, rebuilt from its columns, oldest first,
 * with source_type BACKFILL. Approximations (nothing recorded the changes before this migration):
 * - CREATE (→ PENDING) effective on the sale date, at created_at, by created_by;
 * - FINALIZE (PENDING → FINALIZED) for every contract past PENDING and not voided, effective on the
 *   UTC date of finalized_at (the live code uses the tenant's own date), by finalized_by;
 * - ACTIVATE (FINALIZED → ACTIVE) for contracts stored ACTIVE or EXPIRED, and CANCELLED ones whose
 *   effective date had come when they were last changed, effective on the effective date. A contract
 *   stored FINALIZED gets none: it reads ACTIVE from its effective date (currentStatus, statusOn);
 * - the current status when it is VOIDED (from PENDING), EXPIRED (from ACTIVE, effective the day after
 *   the expiration date) or CANCELLED (effective on the UTC date of updated_at, its last change),
 *   at updated_at. No code wrote these three before this migration, so no row is expected to need it.
 * Idempotent: contracts that already have a history are left alone.
 */
export async function backfillStatusHistory(db: Kysely<any> | Transaction<any>, tenantId: number): Promise<void> {
  await sql`
    insert into contract_status_history
      (tenant_id, contract_id, event, from_status, to_status, effective_date, source_type, source_id, occurred_at, actor_label, actor_user_id)
    select c.tenant_id, c.id, s.event, s.from_status, s.to_status, s.effective_date, 'BACKFILL', null, s.occurred_at, s.actor_label, null
      from contract c
      cross join lateral (
        select
          (c.status = 'CANCELLED' and c.effective_date <= (c.updated_at at time zone 'UTC')::date) as cancelled_in_effect
      ) k
      cross join lateral (values
        (1, 'CREATE', null::text, 'PENDING', c.sale_date, c.created_at, c.created_by),
        (2, case when c.status not in ('PENDING', 'VOIDED') then 'FINALIZE' end, 'PENDING', 'FINALIZED',
            (coalesce(c.finalized_at, c.updated_at) at time zone 'UTC')::date, coalesce(c.finalized_at, c.updated_at),
            coalesce(c.finalized_by, c.created_by)),
        (3, case when c.status in ('ACTIVE', 'EXPIRED') or k.cancelled_in_effect then 'ACTIVATE' end, 'FINALIZED', 'ACTIVE',
            c.effective_date, coalesce(c.finalized_at, c.updated_at), 'backfill'),
        (4, case c.status when 'VOIDED' then 'VOID' when 'EXPIRED' then 'EXPIRE' when 'CANCELLED' then 'CANCEL' end,
            case c.status when 'VOIDED' then 'PENDING' when 'EXPIRED' then 'ACTIVE'
                          else case when k.cancelled_in_effect then 'ACTIVE' else 'FINALIZED' end end,
            c.status,
            case when c.status = 'EXPIRED' then c.expiration_date + 1 else (c.updated_at at time zone 'UTC')::date end,
            c.updated_at, 'backfill')
      ) as s(ord, event, from_status, to_status, effective_date, occurred_at, actor_label)
     where c.tenant_id = ${tenantId}
       and s.event is not null
       and not exists (
         select 1 from contract_status_history h where h.tenant_id = ${tenantId} and h.contract_id = c.id
       )
     order by c.id, s.ord
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('contract status history migration is not reversible')
}
