// Integer ids of stored rows.

/** Largest value of a PostgreSQL bigint; ids beyond it (or unsafe in JS) cannot exist. */
const MAX_BIGINT_ID = 9_223_372_036_854_775_807n

/**
 * True when the id could name a stored row. Path ids that are integers but outside the column's
 * range answer 404 like any other missing row, never a database error.
 */
export function isStorableId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && BigInt(id) <= MAX_BIGINT_ID
}
