// Seeds the benchmark tenant for the rate quote: the synthetic rate book (imported through the
// rating module exactly as the HTTP route does, and timed), its dealers (inserted in batches) and
// each dealer's rate visibility (through the module, so caches and audit behave as in production).
import type { Modules } from '../../src/modules.ts'
import type { Database } from '../../src/platform/db/database.ts'
import { systemContext } from '../../src/platform/http/context.ts'
import { syntheticRateBook } from '../ratebook/synthetic.ts'

export type SeededRating = {
  dealerNumbers: string[]
  /** The codes of the products each dealer may sell, aligned with dealerNumbers. */
  dealerProducts: string[][]
  importSeconds: number
  rates: number
}

const BATCH = 500

export async function seedBenchRating(
  deps: { db: Database; modules: Modules },
  tenantId: number,
  options: { rates: number; dealers: number },
): Promise<SeededRating> {
  const { db, modules } = deps
  const { book, dealers } = syntheticRateBook({ rates: options.rates, dealers: options.dealers })
  // Timed like an operator's import: the JSON text is parsed and checked, stored and indexed.
  const text = JSON.stringify(book)
  const started = performance.now()
  const ctx = systemContext(tenantId, 'bench')
  await modules.rating.rateBooks.importBook(ctx, JSON.parse(text), { dryRun: false })
  const index = await modules.rating.store.inForce(tenantId, book.effectiveDate)
  const importSeconds = (performance.now() - started) / 1000
  if (!index) throw new Error('the synthetic rate book is not in force')

  const ids = new Map<string, number>()
  await db.transaction(tenantId, async (tx) => {
    for (let start = 0; start < dealers.length; start += BATCH) {
      const rows = await tx
        .insertInto('account_holder')
        .values(
          dealers.slice(start, start + BATCH).map((d) => ({
            tenant_id: tenantId,
            kind: 'DEALER',
            business_key: d.dealerNumber,
            legal_name: `${d.name} LLC`,
            display_name: d.name,
            primary_state: d.state,
            addresses: JSON.stringify([
              { type: 'PHYSICAL', line1: '1 Main St', city: 'Springfield', state: d.state, postalCode: '75001' },
            ]),
            phones: '[]',
            emails: '[]',
            details: '{}',
            status: 'ACTIVE' as const,
            w9_on_file: false,
            tax_id: null,
            expired_date: null,
            dealer_group_id: null,
            last_contract_date: null,
          })),
        )
        .returning(['id', 'business_key'])
        .execute()
      for (const r of rows) ids.set(r.business_key!, r.id)
    }
  })
  const productId = new Map(index.products.map((p) => [p.code, p.id]))
  const noVersionCheck = () => {}
  for (const d of dealers) {
    await modules.rating.rateVisibility.replace(
      ctx,
      ids.get(d.dealerNumber)!,
      d.productCodes.map((code) => ({ productId: productId.get(code)! })),
      noVersionCheck,
    )
  }
  return {
    dealerNumbers: dealers.map((d) => d.dealerNumber),
    dealerProducts: dealers.map((d) => d.productCodes),
    importSeconds,
    rates: index.book.rates.length,
  }
}
