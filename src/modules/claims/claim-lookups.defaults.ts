// The claim lookups every tenant starts with (docs/claims.md "Lookups"): the types the three Cs are
// grouped in, the complaints, causes and corrections, their usual combinations, and the reasons a
// claim is denied or held, an inspection requested or refused. Seeded by the claims module's tenant
// initializer for a new tenant. Migration 0020 seeded the tenants that existed then from a frozen
// copy of these lists (a migration imports nothing from src/); test/claims.lookups.test.ts checks
// that the two agree, so a change here after 0020 needs a migration for the existing tenants.

/** What a claim lookup is; each kind is one list (one route). */
export const CLAIM_LOOKUP_KINDS = [
  'TYPE',
  'COMPLAINT',
  'CAUSE',
  'CORRECTION',
  'DENIED_REASON',
  'HOLD_REASON',
  'INSPECTION_REASON',
  'REJECT_INSPECTION_REASON',
] as const
export type ClaimLookupKind = (typeof CLAIM_LOOKUP_KINDS)[number]

/** The kinds that belong to a type (a TYPE code). */
export const TYPED_KINDS: readonly ClaimLookupKind[] = ['COMPLAINT', 'CAUSE', 'CORRECTION']

export type ClaimLookupDefault = { kind: ClaimLookupKind; code: string; name: string; type: string | null }

/** A usual combination: a complaint, a cause of it and the correction of that cause, by code. */
export type ClaimCombinationDefault = { complaint: string; cause: string; correction: string }

const of =
  (kind: ClaimLookupKind) =>
  ([code, name, type]: readonly [string, string, string?]): ClaimLookupDefault => ({
    kind,
    code,
    name,
    type: type ?? null,
  })

const TYPES = (
  [
    ['ENGINE', 'Engine'],
    ['TRANSMISSION', 'Transmission'],
    ['DRIVE_AXLE', 'Drive axle'],
    ['COOLING', 'Cooling system'],
    ['FUEL', 'Fuel system'],
    ['ELECTRICAL', 'Electrical'],
    ['AIR_CONDITIONING', 'Air conditioning'],
    ['STEERING', 'Steering'],
    ['SUSPENSION', 'Suspension'],
    ['BRAKES', 'Brakes'],
  ] as const
).map(of('TYPE'))

const COMPLAINTS = (
  [
    ['CHECK_ENGINE_LIGHT', 'Check engine light on', 'ENGINE'],
    ['ROUGH_IDLE', 'Rough idle or misfire', 'ENGINE'],
    ['ENGINE_NOISE', 'Knocking or ticking from the engine', 'ENGINE'],
    ['OIL_LEAK', 'Engine oil leak', 'ENGINE'],
    ['OVERHEATING', 'Engine overheating', 'COOLING'],
    ['COOLANT_LEAK', 'Coolant leak', 'COOLING'],
    ['HARSH_SHIFT', 'Harsh or delayed shifts', 'TRANSMISSION'],
    ['TRANSMISSION_SLIPPING', 'Transmission slipping', 'TRANSMISSION'],
    ['DIFFERENTIAL_NOISE', 'Whine from the axle', 'DRIVE_AXLE'],
    ['HARD_START', 'Hard starting, long crank', 'FUEL'],
    ['NO_CRANK', 'Engine does not crank', 'ELECTRICAL'],
    ['WINDOW_INOPERATIVE', 'Power window inoperative', 'ELECTRICAL'],
    ['AC_NOT_COOLING', 'Air conditioning blows warm air', 'AIR_CONDITIONING'],
    ['STEERING_HEAVY', 'Steering hard to turn', 'STEERING'],
    ['STEERING_LEAK', 'Power steering fluid leak', 'STEERING'],
    ['SUSPENSION_NOISE', 'Clunk over bumps', 'SUSPENSION'],
    ['ABS_LIGHT', 'ABS warning light on', 'BRAKES'],
  ] as const
).map(of('COMPLAINT'))

const CAUSES = (
  [
    ['IGNITION_COIL_FAILED', 'Failed ignition coil', 'ENGINE'],
    ['TIMING_CHAIN_STRETCHED', 'Stretched timing chain', 'ENGINE'],
    ['LIFTER_COLLAPSED', 'Collapsed valve lifter', 'ENGINE'],
    ['GASKET_LEAK', 'Leaking engine gasket or seal', 'ENGINE'],
    ['WATER_PUMP_FAILED', 'Failed water pump', 'COOLING'],
    ['THERMOSTAT_STUCK', 'Thermostat stuck closed', 'COOLING'],
    ['RADIATOR_LEAK', 'Leaking radiator', 'COOLING'],
    ['VALVE_BODY_FAILED', 'Failed valve body or shift solenoid', 'TRANSMISSION'],
    ['CLUTCH_PACK_WORN', 'Failed internal clutch packs', 'TRANSMISSION'],
    ['DIFFERENTIAL_BEARING_FAILED', 'Failed differential bearing', 'DRIVE_AXLE'],
    ['FUEL_INJECTOR_FAILED', 'Failed fuel injector', 'FUEL'],
    ['FUEL_PUMP_FAILED', 'Failed fuel pump', 'FUEL'],
    ['STARTER_FAILED', 'Failed starter motor', 'ELECTRICAL'],
    ['WINDOW_REGULATOR_FAILED', 'Failed window regulator or motor', 'ELECTRICAL'],
    ['AC_COMPRESSOR_FAILED', 'Failed A/C compressor', 'AIR_CONDITIONING'],
    ['STEERING_PUMP_FAILED', 'Failed power steering pump', 'STEERING'],
    ['RACK_SEAL_LEAK', 'Leaking steering rack seals', 'STEERING'],
    ['BALL_JOINT_FAILED', 'Failed ball joint', 'SUSPENSION'],
    ['WHEEL_SPEED_SENSOR_FAILED', 'Failed wheel speed sensor', 'BRAKES'],
    ['ABS_MODULE_FAILED', 'Failed ABS control module', 'BRAKES'],
  ] as const
).map(of('CAUSE'))

const CORRECTIONS = (
  [
    ['REPLACE_IGNITION_COIL', 'Replace ignition coil', 'ENGINE'],
    ['REPLACE_TIMING_CHAIN', 'Replace timing chain, guides and tensioner', 'ENGINE'],
    ['REPLACE_LIFTERS', 'Replace valve lifters', 'ENGINE'],
    ['RESEAL_ENGINE', 'Replace the leaking gasket or seal', 'ENGINE'],
    ['REPLACE_WATER_PUMP', 'Replace water pump', 'COOLING'],
    ['REPLACE_THERMOSTAT', 'Replace thermostat', 'COOLING'],
    ['REPLACE_RADIATOR', 'Replace radiator', 'COOLING'],
    ['REPLACE_VALVE_BODY', 'Replace valve body', 'TRANSMISSION'],
    ['OVERHAUL_TRANSMISSION', 'Overhaul transmission', 'TRANSMISSION'],
    ['REBUILD_DIFFERENTIAL', 'Rebuild differential', 'DRIVE_AXLE'],
    ['REPLACE_FUEL_INJECTOR', 'Replace fuel injector', 'FUEL'],
    ['REPLACE_FUEL_PUMP', 'Replace fuel pump', 'FUEL'],
    ['REPLACE_STARTER', 'Replace starter motor', 'ELECTRICAL'],
    ['REPLACE_WINDOW_REGULATOR', 'Replace window regulator', 'ELECTRICAL'],
    ['REPLACE_AC_COMPRESSOR', 'Replace A/C compressor and recharge', 'AIR_CONDITIONING'],
    ['REPLACE_STEERING_PUMP', 'Replace power steering pump', 'STEERING'],
    ['REPLACE_STEERING_RACK', 'Replace steering rack', 'STEERING'],
    ['REPLACE_BALL_JOINT', 'Replace ball joint', 'SUSPENSION'],
    ['REPLACE_WHEEL_SPEED_SENSOR', 'Replace wheel speed sensor', 'BRAKES'],
    ['REPLACE_ABS_MODULE', 'Replace ABS control module', 'BRAKES'],
  ] as const
).map(of('CORRECTION'))

const DENIED_REASONS = (
  [
    ['NOT_COVERED', 'Component not covered by the plan'],
    ['PRE_EXISTING', 'Pre-existing condition'],
    ['WEAR_AND_TEAR', 'Normal wear and tear'],
    ['LACK_OF_MAINTENANCE', 'Lack of required maintenance'],
    ['WAITING_PERIOD', 'Loss within the waiting period'],
    ['EXCEEDS_LIMIT', 'Exceeds the limit of liability'],
    ['CONTRACT_NOT_IN_FORCE', 'Contract not in force on the loss date'],
    ['CONSEQUENTIAL_DAMAGE', 'Damage caused by a part not covered'],
    ['MISUSE_OR_ACCIDENT', 'Misuse, collision or environmental damage'],
    ['MODIFICATIONS', 'Aftermarket modifications'],
    ['NO_FAILURE_FOUND', 'No failure found'],
  ] as const
).map(of('DENIED_REASON'))

const HOLD_REASONS = (
  [
    ['MISSING_INVOICE', 'Repair invoice missing'],
    ['MISSING_MAINTENANCE_RECORDS', 'Maintenance records requested'],
    ['MISSING_PHOTOS', 'Photos or teardown evidence requested'],
    ['AWAITING_INSPECTION', 'Awaiting the inspection report'],
    ['AWAITING_CUSTOMER', 'Waiting on the contract holder'],
    ['CONTRACT_UNPAID', 'Contract not yet paid by the dealer'],
    ['PARTS_PRICE_REVIEW', 'Parts pricing under review'],
    ['FRAUD_REVIEW', 'Under fraud review'],
  ] as const
).map(of('HOLD_REASON'))

const INSPECTION_REASONS = (
  [
    ['HIGH_DOLLAR', 'Estimate above the inspection threshold'],
    ['CAUSE_UNCLEAR', 'Cause of failure unclear'],
    ['PRE_EXISTING_SUSPECTED', 'Pre-existing condition suspected'],
    ['MAINTENANCE_SUSPECTED', 'Lack of maintenance suspected (sludge, wear)'],
    ['PARTS_VERIFICATION', 'Verify the failed parts'],
    ['REPEAT_REPAIR', 'Repeat repair of the same component'],
    ['EARLY_CLAIM', 'Claim soon after the sale'],
    ['FRAUD_SUSPECTED', 'Fraud suspected'],
  ] as const
).map(of('INSPECTION_REASON'))

const REJECT_INSPECTION_REASONS = (
  [
    ['OUT_OF_AREA', 'Repair facility outside the service area'],
    ['FACILITY_UNREACHABLE', 'Repair facility could not be reached'],
    ['VEHICLE_NOT_AVAILABLE', 'Vehicle not at the repair facility'],
    ['VEHICLE_ALREADY_REPAIRED', 'Vehicle already repaired'],
    ['NO_INSPECTOR_AVAILABLE', 'No inspector available in time'],
    ['INSUFFICIENT_INFORMATION', 'Not enough information to inspect'],
    ['DUPLICATE_REQUEST', 'Duplicate request'],
  ] as const
).map(of('REJECT_INSPECTION_REASON'))

/** Every default lookup, in list order within each kind (the sort order is the position in its kind). */
export const CLAIM_LOOKUP_DEFAULTS: readonly ClaimLookupDefault[] = [
  ...TYPES,
  ...COMPLAINTS,
  ...CAUSES,
  ...CORRECTIONS,
  ...DENIED_REASONS,
  ...HOLD_REASONS,
  ...INSPECTION_REASONS,
  ...REJECT_INSPECTION_REASONS,
]

export const CLAIM_COMBINATION_DEFAULTS: readonly ClaimCombinationDefault[] = (
  [
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
).map(([complaint, cause, correction]) => ({ complaint, cause, correction }))
