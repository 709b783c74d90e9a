// Frozen: the latest known odometer of a contract's vehicle and expiry by mileage (issue 16;
// docs/contracts.md "Automatic expiry and voiding"). A claim's repair-order odometer is reported to
// the contract (the servicing port's reportOdometer): the reading, the day it was read (the loss
// date) and where it came from. A contract in force (FINALIZED or ACTIVE) is due to expire once that
// reading is at or past its expiration odometer, or once its expiration date has passed.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table contract
      add column last_odometer integer check (last_odometer >= 0),
      add column last_odometer_on date,
      add column last_odometer_source text
        check (last_odometer_source ~ '^[A-Z][A-Z_]*$' and char_length(last_odometer_source) <= 40),
      add column last_odometer_source_id bigint,
      add constraint contract_last_odometer_complete check (
        (last_odometer is null) = (last_odometer_on is null)
        and (last_odometer is null) = (last_odometer_source is null)
      );

    -- The contracts in force, in id order with what decides their expiry: the expiry process and
    -- GET /contracts/autoexpire walk it from their cursor (date or mileage, one index-only scan).
    create index contract_in_force_expiry_idx on contract (tenant_id, id)
      include (expiration_date, expiration_odometer, last_odometer)
      where status in ('FINALIZED', 'ACTIVE');
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('contract odometer migration is not reversible')
}
