// Payout runs pay claim payables (docs/payouts.md "Claim payables"): a payout item may be a
// CLAIM_PAYABLE one, and then names the claim payment request it paid (the claims module records
// the payment on it in the run's transaction). Other items have no request.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table payout_item drop constraint payout_item_purpose_check;
    alter table payout_item add constraint payout_item_purpose_check
      check (purpose in ('REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE', 'CLAIM_PAYABLE'));
    alter table payout_item add column payment_request_id bigint;
    alter table payout_item add constraint payout_item_request_check
      check ((purpose = 'CLAIM_PAYABLE') = (payment_request_id is not null));
    alter table payout_item add constraint payout_item_request_fk
      foreign key (tenant_id, payment_request_id) references claim_payment_request (tenant_id, id);
    create index payout_item_request_idx on payout_item (tenant_id, payment_request_id)
      where payment_request_id is not null;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('payout claims migration is not reversible')
}
