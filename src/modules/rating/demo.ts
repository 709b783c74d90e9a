// The demo tenant's rating set-up: the demo rate book, every dealer allowed to sell every product
// (two with a markup limit), and a few dealer and agent disbursements.
import { systemContext } from '../../platform/http/context.ts'
import type { DisbursementService } from './disbursements/index.ts'
import { demoRateBook, type RateBookService, type RateBookStore } from './ratebook/index.ts'
import type { RateVisibilityService } from './visibility/index.ts'

/** The demo book is effective from this date, so any sale date in the look-back window finds it. */
export const DEMO_RATE_BOOK_EFFECTIVE = '2025-01-01'

export async function seedDemoRating(
  services: {
    rateBooks: RateBookService
    store: RateBookStore
    visibility: RateVisibilityService
    disbursements: DisbursementService
  },
  tenantId: number,
  dealers: ReadonlyArray<{ id: number; dealerNumber: string; agentIds: readonly number[] }>,
): Promise<void> {
  const ctx = systemContext(tenantId, 'demo-seed')
  await services.rateBooks.importBook(ctx, demoRateBook(DEMO_RATE_BOOK_EFFECTIVE), {
    dryRun: false,
    sources: { file: 'demo-ratebook' },
  })
  const book = await services.store.inForce(tenantId, DEMO_RATE_BOOK_EFFECTIVE)
  if (!book) throw new Error('the demo rate book is not in force')
  const product = (code: string) => book.products.find((p) => p.code === code)!.id
  const noCheck = () => {}
  for (const [i, dealer] of dealers.entries()) {
    const markup = i < 2 ? { maxMarkupAmount: '1500.00' } : {}
    await services.visibility.replace(
      ctx,
      dealer.id,
      book.products.map((p) => ({ productId: p.id, ...(p.code === 'VSC' ? markup : {}) })),
      noCheck,
    )
  }
  const [first, second] = dealers
  if (first) {
    await services.disbursements.create(ctx, first.id, {
      code: 'PCK',
      basis: 'AMOUNT',
      amount: '100.00',
      target: { productId: product('VSC') },
      effectiveFrom: DEMO_RATE_BOOK_EFFECTIVE,
    })
    const agent = first.agentIds[0]
    if (agent !== undefined)
      await services.disbursements.create(ctx, agent, {
        code: 'OVR',
        basis: 'AMOUNT',
        amount: '25.00',
        effectiveFrom: DEMO_RATE_BOOK_EFFECTIVE,
      })
  }
  if (second)
    await services.disbursements.create(ctx, second.id, {
      code: 'PRT',
      basis: 'PERCENT',
      percent: '10',
      target: { productId: product('VSC') },
      effectiveFrom: DEMO_RATE_BOOK_EFFECTIVE,
    })
}
