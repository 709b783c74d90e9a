// Transaction-scoped advisory locks, all under one key scheme. A lock serializes work that no row
// lock can (a row that does not exist yet, a name shared by many rows); it is taken inside the
// transaction whose work it guards and released when that transaction ends, so it cannot leak.
//
// Key: the first 8 bytes of SHA-256 over the JSON array [namespace, ...keys], read as a signed
// 64-bit integer, passed to pg_advisory_xact_lock(bigint). The scheme is this file's, not the
// database's, so a key is the same on PGlite and PostgreSQL, in every release, and for every
// instance: instances of two releases running side by side must exclude each other. Two
// namespaces never share a key (short of a 2^-64 chance per pair), whatever their keys; nor do
// two key lists of one namespace (JSON keeps ["a|b"] apart from ["a", "b"]).
import { createHash } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import type { DB } from './schema.ts'

/**
 * The namespace registry: every advisory lock the service takes, its keys, and what it serializes.
 * A key derives from the namespace's name and the keys in this order: renaming a namespace, or
 * reordering or reformatting its keys, changes its locks, and a rolling deploy then runs two
 * instances that do not exclude each other. Add namespaces; never rename, reuse or reshape one.
 *
 * - `idempotency_key` (tenant id, scope key: SHA-256 hex): requests under one Idempotency-Key
 *   scope. Tried, never waited for: the second request answers 409 (platform/http/idempotency.ts).
 * - `custom_field_name` (tenant id, account-holder kind, lower-case name): writes of fields of one
 *   name on one kind (shared) against writes of that name's definition (exclusive)
 *   (parties, custom-field.repository.ts lockFieldName).
 * - `contract_deal` (tenant id, dealer id, VIN, plan id, sale date): submissions of one deal, so
 *   that the second finds the first as a duplicate (contracts, contract.repository.ts lockDeal).
 * - `rate_book_import` (tenant id): rate-book imports of a tenant, so that versions are numbered
 *   without gaps or races (rating, ratebook.repository.ts lockRateBooks).
 * - `claim_ppm_redemption` (tenant id, contract id): claims redeeming a contract's prepaid-maintenance
 *   services, so that two cannot both take the last use left (claims, claim-ppm.repository.ts
 *   lockPpmRedemptions).
 * - `sales_tax_rule` (tenant id, state): writes of a state's sales tax rules, so that two cannot
 *   both pass the no-overlap check (salestax, sales-tax.service.ts assertNoOverlap).
 * - `payment_method_default` (tenant id, account holder id or 0 for the tenant's own rule,
 *   direction): defaults of one holder and direction, so that two creates of a default queue
 *   rather than one failing on the one-default index (finance, payment-method.service.ts).
 * - `payout_run` (tenant id): payout runs of a tenant, so that the second reads the first's entries
 *   and pays nothing twice (finance, payout.service.ts).
 * - `reinsurance_treaty` (tenant id): writes of a tenant's reinsurance treaties, so that two cannot
 *   both pass the no-overlap check (reporting, treaty.service.ts).
 */
export type LockNamespaces = {
  idempotency_key: readonly [tenantId: number, scopeKey: string]
  custom_field_name: readonly [tenantId: number, kind: string, lowerCaseName: string]
  contract_deal: readonly [tenantId: number, dealerId: number, vin: string, planId: number, saleDate: string]
  rate_book_import: readonly [tenantId: number]
  claim_ppm_redemption: readonly [tenantId: number, contractId: number]
  sales_tax_rule: readonly [tenantId: number, state: string]
  payment_method_default: readonly [tenantId: number, accountHolderId: number, direction: string]
  payout_run: readonly [tenantId: number]
  reinsurance_treaty: readonly [tenantId: number]
}

export type LockNamespace = keyof LockNamespaces

/** The lock's 64-bit key, as decimal text (a bigint parameter, exact on every driver). */
export function advisoryLockKey<N extends LockNamespace>(namespace: N, keys: LockNamespaces[N]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([namespace, ...keys]))
    .digest()
  return digest.readBigInt64BE(0).toString()
}

/**
 * Waits for the lock and holds it until `tx` ends. `shared` locks of one key coexist; an
 * `exclusive` one excludes every other lock of its key.
 */
export async function advisoryLock<N extends LockNamespace>(
  tx: Transaction<DB>,
  namespace: N,
  keys: LockNamespaces[N],
  mode: 'exclusive' | 'shared' = 'exclusive',
): Promise<void> {
  const key = advisoryLockKey(namespace, keys)
  if (mode === 'shared') await sql`select pg_advisory_xact_lock_shared(${key}::int8)`.execute(tx)
  else await sql`select pg_advisory_xact_lock(${key}::int8)`.execute(tx)
}

/** Takes the (exclusive) lock if no one holds it, until `tx` ends; false, at once, when someone does. */
export async function tryAdvisoryLock<N extends LockNamespace>(
  tx: Transaction<DB>,
  namespace: N,
  keys: LockNamespaces[N],
): Promise<boolean> {
  const key = advisoryLockKey(namespace, keys)
  const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${key}::int8) as ok`.execute(tx)
  return rows[0]?.ok === true
}
