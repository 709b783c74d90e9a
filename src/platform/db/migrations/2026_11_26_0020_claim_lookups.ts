// Frozen: the tenant's claim lookups (docs/claims.md "Lookups", issue 14).
// - claim_lookup: one row per entry of a list: the types the three Cs are grouped in (TYPE: ENGINE,
//   TRANSMISSION…), the complaints, causes and corrections (each of a type, by its code), and the
//   denied, hold, inspection and reject-inspection reasons. A code is unique in its kind, in any case.
// - claim_lookup_combination: the usual combinations of a complaint, a cause and a correction.
// Both are tenant tables under forced row-level security. Every tenant that exists now gets the
// default lists; a tenant created later gets them from the claims module's tenant initializer. The
// defaults are a frozen copy of src/modules/claims/claim-lookups.defaults.ts at this point (a
// migration imports nothing from src/; test/claims.lookups.test.ts checks that the two agree).
import { sql, type Kysely } from 'kysely'

/** [kind, code, name, type code], in list order within each kind. */
export const DEFAULT_CLAIM_LOOKUPS: ReadonlyArray<readonly [string, string, string, string | null]> = [
  ['TYPE', 'ENGINE', 'Engine', null],
  ['TYPE', 'TRANSMISSION', 'Transmission', null],
  ['TYPE', 'DRIVE_AXLE', 'Drive axle', null],
  ['TYPE', 'COOLING', 'Cooling system', null],
  ['TYPE', 'FUEL', 'Fuel system', null],
  ['TYPE', 'ELECTRICAL', 'Electrical', null],
  ['TYPE', 'AIR_CONDITIONING', 'Air conditioning', null],
  ['TYPE', 'STEERING', 'Steering', null],
  ['TYPE', 'SUSPENSION', 'Suspension', null],
  ['TYPE', 'BRAKES', 'Brakes', null],
  ['COMPLAINT', 'CHECK_ENGINE_LIGHT', 'Check engine light on', 'ENGINE'],
  ['COMPLAINT', 'ROUGH_IDLE', 'Rough idle or misfire', 'ENGINE'],
  ['COMPLAINT', 'ENGINE_NOISE', 'Knocking or ticking from the engine', 'ENGINE'],
  ['COMPLAINT', 'OIL_LEAK', 'Engine oil leak', 'ENGINE'],
  ['COMPLAINT', 'OVERHEATING', 'Engine overheating', 'COOLING'],
  ['COMPLAINT', 'COOLANT_LEAK', 'Coolant leak', 'COOLING'],
  ['COMPLAINT', 'HARSH_SHIFT', 'Harsh or delayed shifts', 'TRANSMISSION'],
  ['COMPLAINT', 'TRANSMISSION_SLIPPING', 'Transmission slipping', 'TRANSMISSION'],
  ['COMPLAINT', 'DIFFERENTIAL_NOISE', 'Whine from the axle', 'DRIVE_AXLE'],
  ['COMPLAINT', 'HARD_START', 'Hard starting, long crank', 'FUEL'],
  ['COMPLAINT', 'NO_CRANK', 'Engine does not crank', 'ELECTRICAL'],
  ['COMPLAINT', 'WINDOW_INOPERATIVE', 'Power window inoperative', 'ELECTRICAL'],
  ['COMPLAINT', 'AC_NOT_COOLING', 'Air conditioning blows warm air', 'AIR_CONDITIONING'],
  ['COMPLAINT', 'STEERING_HEAVY', 'Steering hard to turn', 'STEERING'],
  ['COMPLAINT', 'STEERING_LEAK', 'Power steering fluid leak', 'STEERING'],
  ['COMPLAINT', 'SUSPENSION_NOISE', 'Clunk over bumps', 'SUSPENSION'],
  ['COMPLAINT', 'ABS_LIGHT', 'ABS warning light on', 'BRAKES'],
  ['CAUSE', 'IGNITION_COIL_FAILED', 'Failed ignition coil', 'ENGINE'],
  ['CAUSE', 'TIMING_CHAIN_STRETCHED', 'Stretched timing chain', 'ENGINE'],
  ['CAUSE', 'LIFTER_COLLAPSED', 'Collapsed valve lifter', 'ENGINE'],
  ['CAUSE', 'GASKET_LEAK', 'Leaking engine gasket or seal', 'ENGINE'],
  ['CAUSE', 'WATER_PUMP_FAILED', 'Failed water pump', 'COOLING'],
  ['CAUSE', 'THERMOSTAT_STUCK', 'Thermostat stuck closed', 'COOLING'],
  ['CAUSE', 'RADIATOR_LEAK', 'Leaking radiator', 'COOLING'],
  ['CAUSE', 'VALVE_BODY_FAILED', 'Failed valve body or shift solenoid', 'TRANSMISSION'],
  ['CAUSE', 'CLUTCH_PACK_WORN', 'Failed internal clutch packs', 'TRANSMISSION'],
  ['CAUSE', 'DIFFERENTIAL_BEARING_FAILED', 'Failed differential bearing', 'DRIVE_AXLE'],
  ['CAUSE', 'FUEL_INJECTOR_FAILED', 'Failed fuel injector', 'FUEL'],
  ['CAUSE', 'FUEL_PUMP_FAILED', 'Failed fuel pump', 'FUEL'],
  ['CAUSE', 'STARTER_FAILED', 'Failed starter motor', 'ELECTRICAL'],
  ['CAUSE', 'WINDOW_REGULATOR_FAILED', 'Failed window regulator or motor', 'ELECTRICAL'],
  ['CAUSE', 'AC_COMPRESSOR_FAILED', 'Failed A/C compressor', 'AIR_CONDITIONING'],
  ['CAUSE', 'STEERING_PUMP_FAILED', 'Failed power steering pump', 'STEERING'],
  ['CAUSE', 'RACK_SEAL_LEAK', 'Leaking steering rack seals', 'STEERING'],
  ['CAUSE', 'BALL_JOINT_FAILED', 'Failed ball joint', 'SUSPENSION'],
  ['CAUSE', 'WHEEL_SPEED_SENSOR_FAILED', 'Failed wheel speed sensor', 'BRAKES'],
  ['CAUSE', 'ABS_MODULE_FAILED', 'Failed ABS control module', 'BRAKES'],
  ['CORRECTION', 'REPLACE_IGNITION_COIL', 'Replace ignition coil', 'ENGINE'],
  ['CORRECTION', 'REPLACE_TIMING_CHAIN', 'Replace timing chain, guides and tensioner', 'ENGINE'],
  ['CORRECTION', 'REPLACE_LIFTERS', 'Replace valve lifters', 'ENGINE'],
  ['CORRECTION', 'RESEAL_ENGINE', 'Replace the leaking gasket or seal', 'ENGINE'],
  ['CORRECTION', 'REPLACE_WATER_PUMP', 'Replace water pump', 'COOLING'],
  ['CORRECTION', 'REPLACE_THERMOSTAT', 'Replace thermostat', 'COOLING'],
  ['CORRECTION', 'REPLACE_RADIATOR', 'Replace radiator', 'COOLING'],
  ['CORRECTION', 'REPLACE_VALVE_BODY', 'Replace valve body', 'TRANSMISSION'],
  ['CORRECTION', 'OVERHAUL_TRANSMISSION', 'Overhaul transmission', 'TRANSMISSION'],
  ['CORRECTION', 'REBUILD_DIFFERENTIAL', 'Rebuild differential', 'DRIVE_AXLE'],
  ['CORRECTION', 'REPLACE_FUEL_INJECTOR', 'Replace fuel injector', 'FUEL'],
  ['CORRECTION', 'REPLACE_FUEL_PUMP', 'Replace fuel pump', 'FUEL'],
  ['CORRECTION', 'REPLACE_STARTER', 'Replace starter motor', 'ELECTRICAL'],
  ['CORRECTION', 'REPLACE_WINDOW_REGULATOR', 'Replace window regulator', 'ELECTRICAL'],
  ['CORRECTION', 'REPLACE_AC_COMPRESSOR', 'Replace A/C compressor and recharge', 'AIR_CONDITIONING'],
  ['CORRECTION', 'REPLACE_STEERING_PUMP', 'Replace power steering pump', 'STEERING'],
  ['CORRECTION', 'REPLACE_STEERING_RACK', 'Replace steering rack', 'STEERING'],
  ['CORRECTION', 'REPLACE_BALL_JOINT', 'Replace ball joint', 'SUSPENSION'],
  ['CORRECTION', 'REPLACE_WHEEL_SPEED_SENSOR', 'Replace wheel speed sensor', 'BRAKES'],
  ['CORRECTION', 'REPLACE_ABS_MODULE', 'Replace ABS control module', 'BRAKES'],
  ['DENIED_REASON', 'NOT_COVERED', 'Component not covered by the plan', null],
  ['DENIED_REASON', 'PRE_EXISTING', 'Pre-existing condition', null],
  ['DENIED_REASON', 'WEAR_AND_TEAR', 'Normal wear and tear', null],
  ['DENIED_REASON', 'LACK_OF_MAINTENANCE', 'Lack of required maintenance', null],
  ['DENIED_REASON', 'WAITING_PERIOD', 'Loss within the waiting period', null],
  ['DENIED_REASON', 'EXCEEDS_LIMIT', 'Exceeds the limit of liability', null],
  ['DENIED_REASON', 'CONTRACT_NOT_IN_FORCE', 'Contract not in force on the loss date', null],
  ['DENIED_REASON', 'CONSEQUENTIAL_DAMAGE', 'Damage caused by a part not covered', null],
  ['DENIED_REASON', 'MISUSE_OR_ACCIDENT', 'Misuse, collision or environmental damage', null],
  ['DENIED_REASON', 'MODIFICATIONS', 'Aftermarket modifications', null],
  ['DENIED_REASON', 'NO_FAILURE_FOUND', 'No failure found', null],
  ['HOLD_REASON', 'MISSING_INVOICE', 'Repair invoice missing', null],
  ['HOLD_REASON', 'MISSING_MAINTENANCE_RECORDS', 'Maintenance records requested', null],
  ['HOLD_REASON', 'MISSING_PHOTOS', 'Photos or teardown evidence requested', null],
  ['HOLD_REASON', 'AWAITING_INSPECTION', 'Awaiting the inspection report', null],
  ['HOLD_REASON', 'AWAITING_CUSTOMER', 'Waiting on the contract holder', null],
  ['HOLD_REASON', 'CONTRACT_UNPAID', 'Contract not yet paid by the dealer', null],
  ['HOLD_REASON', 'PARTS_PRICE_REVIEW', 'Parts pricing under review', null],
  ['HOLD_REASON', 'FRAUD_REVIEW', 'Under fraud review', null],
  ['INSPECTION_REASON', 'HIGH_DOLLAR', 'Estimate above the inspection threshold', null],
  ['INSPECTION_REASON', 'CAUSE_UNCLEAR', 'Cause of failure unclear', null],
  ['INSPECTION_REASON', 'PRE_EXISTING_SUSPECTED', 'Pre-existing condition suspected', null],
  ['INSPECTION_REASON', 'MAINTENANCE_SUSPECTED', 'Lack of maintenance suspected (sludge, wear)', null],
  ['INSPECTION_REASON', 'PARTS_VERIFICATION', 'Verify the failed parts', null],
  ['INSPECTION_REASON', 'REPEAT_REPAIR', 'Repeat repair of the same component', null],
  ['INSPECTION_REASON', 'EARLY_CLAIM', 'Claim soon after the sale', null],
  ['INSPECTION_REASON', 'FRAUD_SUSPECTED', 'Fraud suspected', null],
  ['REJECT_INSPECTION_REASON', 'OUT_OF_AREA', 'Repair facility outside the service area', null],
  ['REJECT_INSPECTION_REASON', 'FACILITY_UNREACHABLE', 'Repair facility could not be reached', null],
  ['REJECT_INSPECTION_REASON', 'VEHICLE_NOT_AVAILABLE', 'Vehicle not at the repair facility', null],
  ['REJECT_INSPECTION_REASON', 'VEHICLE_ALREADY_REPAIRED', 'Vehicle already repaired', null],
  ['REJECT_INSPECTION_REASON', 'NO_INSPECTOR_AVAILABLE', 'No inspector available in time', null],
  ['REJECT_INSPECTION_REASON', 'INSUFFICIENT_INFORMATION', 'Not enough information to inspect', null],
  ['REJECT_INSPECTION_REASON', 'DUPLICATE_REQUEST', 'Duplicate request', null],
] as const

/** [complaint, cause, correction] codes. */
export const DEFAULT_CLAIM_COMBINATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['CHECK_ENGINE_LIGHT', 'IGNITION_COIL_FAILED', 'REPLACE_IGNITION_COIL'],
  ['CHECK_ENGINE_LIGHT', 'TIMING_CHAIN_STRETCHED', 'REPLACE_TIMING_CHAIN'],
  ['ROUGH_IDLE', 'IGNITION_COIL_FAILED', 'REPLACE_IGNITION_COIL'],
  ['ROUGH_IDLE', 'FUEL_INJECTOR_FAILED', 'REPLACE_FUEL_INJECTOR'],
  ['ENGINE_NOISE', 'TIMING_CHAIN_STRETCHED', 'REPLACE_TIMING_CHAIN'],
  ['ENGINE_NOISE', 'LIFTER_COLLAPSED', 'REPLACE_LIFTERS'],
  ['OIL_LEAK', 'GASKET_LEAK', 'RESEAL_ENGINE'],
  ['OVERHEATING', 'WATER_PUMP_FAILED', 'REPLACE_WATER_PUMP'],
  ['OVERHEATING', 'THERMOSTAT_STUCK', 'REPLACE_THERMOSTAT'],
  ['COOLANT_LEAK', 'WATER_PUMP_FAILED', 'REPLACE_WATER_PUMP'],
  ['COOLANT_LEAK', 'RADIATOR_LEAK', 'REPLACE_RADIATOR'],
  ['HARSH_SHIFT', 'VALVE_BODY_FAILED', 'REPLACE_VALVE_BODY'],
  ['TRANSMISSION_SLIPPING', 'CLUTCH_PACK_WORN', 'OVERHAUL_TRANSMISSION'],
  ['DIFFERENTIAL_NOISE', 'DIFFERENTIAL_BEARING_FAILED', 'REBUILD_DIFFERENTIAL'],
  ['HARD_START', 'FUEL_PUMP_FAILED', 'REPLACE_FUEL_PUMP'],
  ['NO_CRANK', 'STARTER_FAILED', 'REPLACE_STARTER'],
  ['WINDOW_INOPERATIVE', 'WINDOW_REGULATOR_FAILED', 'REPLACE_WINDOW_REGULATOR'],
  ['AC_NOT_COOLING', 'AC_COMPRESSOR_FAILED', 'REPLACE_AC_COMPRESSOR'],
  ['STEERING_HEAVY', 'STEERING_PUMP_FAILED', 'REPLACE_STEERING_PUMP'],
  ['STEERING_LEAK', 'RACK_SEAL_LEAK', 'REPLACE_STEERING_RACK'],
  ['SUSPENSION_NOISE', 'BALL_JOINT_FAILED', 'REPLACE_BALL_JOINT'],
  ['ABS_LIGHT', 'WHEEL_SPEED_SENSOR_FAILED', 'REPLACE_WHEEL_SPEED_SENSOR'],
  ['ABS_LIGHT', 'ABS_MODULE_FAILED', 'REPLACE_ABS_MODULE'],
] as const

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table claim_lookup (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      kind text not null check (kind in (
        'TYPE', 'COMPLAINT', 'CAUSE', 'CORRECTION',
        'DENIED_REASON', 'HOLD_REASON', 'INSPECTION_REASON', 'REJECT_INSPECTION_REASON'
      )),
      code text not null check (char_length(code) between 1 and 60),
      name text not null check (char_length(name) between 1 and 200),
      -- The TYPE code a complaint, cause or correction is grouped in; none for the other kinds.
      type_code text check (char_length(type_code) between 1 and 60),
      active boolean not null default true,
      sort_order integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      check ((type_code is not null) = (kind in ('COMPLAINT', 'CAUSE', 'CORRECTION')))
    );
    create unique index claim_lookup_code_key on claim_lookup (tenant_id, kind, lower(code));
    create index claim_lookup_list_idx on claim_lookup (tenant_id, kind, sort_order, id);

    create table claim_lookup_combination (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      complaint_id bigint not null,
      cause_id bigint not null,
      correction_id bigint not null,
      active boolean not null default true,
      sort_order integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, complaint_id) references claim_lookup (tenant_id, id),
      foreign key (tenant_id, cause_id) references claim_lookup (tenant_id, id),
      foreign key (tenant_id, correction_id) references claim_lookup (tenant_id, id)
    );
    create unique index claim_lookup_combination_key
      on claim_lookup_combination (tenant_id, complaint_id, cause_id, correction_id);
    create index claim_lookup_combination_cause_idx on claim_lookup_combination (tenant_id, cause_id);
    create index claim_lookup_combination_correction_idx on claim_lookup_combination (tenant_id, correction_id);
  `.execute(db)
  for (const table of ['claim_lookup', 'claim_lookup_combination']) {
    await sql
      .raw(
        `alter table ${table} enable row level security;
         alter table ${table} force row level security;
         create policy tenant_isolation on ${table}
           using (tenant_id = app_current_tenant())
           with check (tenant_id = app_current_tenant());`,
      )
      .execute(db)
  }

  await insertDefaultClaimLookups(db)
}

/**
 * Inserts the default lookups and combinations for every tenant (for one tenant when `tenantId` is
 * given: the tests', which then compare them with what the tenant initializer inserts). The sort order
 * is the position within the kind, from 1.
 */
export async function insertDefaultClaimLookups(db: Kysely<any>, tenantId?: number): Promise<void> {
  const seen = new Map<string, number>()
  const lookups = DEFAULT_CLAIM_LOOKUPS.map(([kind, code, name, type]) => {
    const order = (seen.get(kind) ?? 0) + 1
    seen.set(kind, order)
    return sql`(${kind}::text, ${code}::text, ${name}::text, ${type}::text, ${order}::int)`
  })
  const combinations = DEFAULT_CLAIM_COMBINATIONS.map(
    ([complaint, cause, correction], i) =>
      sql`(${complaint}::text, ${cause}::text, ${correction}::text, ${i + 1}::int)`,
  )
  const tenants = await sql<{ id: number }>`
    select id from tenant ${tenantId === undefined ? sql`` : sql`where id = ${tenantId}`} order by id
  `.execute(db)
  for (const { id } of tenants.rows) {
    // Tenant tables under forced row-level security: one tenant at a time.
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await sql`
      insert into claim_lookup (tenant_id, kind, code, name, type_code, sort_order, created_at, updated_at)
      select ${id}, d.kind, d.code, d.name, d.type_code, d.sort_order, now(), now()
        from (values ${sql.join(lookups)}) as d (kind, code, name, type_code, sort_order)
    `.execute(db)
    await sql`
      insert into claim_lookup_combination
        (tenant_id, complaint_id, cause_id, correction_id, sort_order, created_at, updated_at)
      select ${id}, a.id, b.id, c.id, d.sort_order, now(), now()
        from (values ${sql.join(combinations)}) as d (complaint, cause, correction, sort_order)
        join claim_lookup a on a.tenant_id = ${id} and a.kind = 'COMPLAINT' and a.code = d.complaint
        join claim_lookup b on b.tenant_id = ${id} and b.kind = 'CAUSE' and b.code = d.cause
        join claim_lookup c on c.tenant_id = ${id} and c.kind = 'CORRECTION' and c.code = d.correction
    `.execute(db)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('claim lookups migration is not reversible')
}
