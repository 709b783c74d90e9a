// Frozen: transfers of a contract to a new owner (issue 16; docs/contracts.md "Transfers"). A request
// names the new owner as a snapshot and the day of the vehicle's sale to them; its approval matches
// or creates the customer, changes the contract's holder (and its transferred_on) and posts the product's transfer fee. At
// most one request of a contract is open (REQUESTED) at a time; decided requests are never changed.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table contract_transfer (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      contract_id bigint not null,
      status text not null check (status in ('REQUESTED', 'APPROVED', 'REJECTED')),
      transfer_date date not null,
      odometer integer check (odometer between 0 and 2000000),
      new_owner jsonb not null check (jsonb_typeof(new_owner) = 'object'),
      new_owner_dealer_id bigint,
      previous_customer_id bigint not null,
      new_customer_id bigint,
      fee numeric(14, 2) not null check (fee >= 0),
      note text check (char_length(note) <= 1000),
      decision_note text check (char_length(decision_note) <= 1000),
      journal_entry_id bigint,
      requested_at timestamptz not null,
      requested_by text not null,
      decided_at timestamptz,
      decided_by text,
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id),
      check ((status = 'REQUESTED') = (decided_at is null)),
      check (status <> 'APPROVED' or new_customer_id is not null)
    );
    create index contract_transfer_contract_idx on contract_transfer (tenant_id, contract_id, id);
    create unique index contract_transfer_open_uq on contract_transfer (tenant_id, contract_id)
      where status = 'REQUESTED';

    -- The day of the latest approved transfer: the free-look belongs to the first buyer only, and a
    -- cancel quote reads it with the contract row instead of asking the transfers.
    alter table contract add column transferred_on date;

    alter table contract_transfer enable row level security;
    alter table contract_transfer force row level security;
    create policy tenant_isolation on contract_transfer
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('contract transfers migration is not reversible')
}
