// Wire shapes of insurer bordereaux (docs/reporting.md). Money is JSON numbers of at most 2 decimals,
// summed in whole cents; a returned (refunded) amount is negative.
import { Type } from 'typebox'
import { DateTime, enumOf, IntegerId, nullable } from '../../platform/http/schemas.ts'
import { TRANSACTIONS } from './bordereau.rules.ts'

const Money = (description: string) => Type.Number({ description })
const Day = (description: string) => Type.String({ format: 'date', description })

export const BordereauParams = Type.Object({ insurerId: IntegerId('The insurer (an account holder of kind INSURER).') })

export const BordereauQuery = Type.Object(
  {
    month: Type.String({
      maxLength: 20,
      description:
        'The accounting month, YYYY-MM: begun, not in the future (422 `report_period_invalid` naming month).',
      examples: ['2026-11'],
    }),
    format: Type.Optional(
      enumOf(
        ['json', 'csv', 'xlsx'] as const,
        'json (default), csv (RFC 4180) or xlsx; `Accept: text/csv` or the XLSX media type also ask for them.',
      ),
    ),
  },
  { additionalProperties: false },
)

const Insurer = Type.Object({
  id: Type.Integer(),
  insurerCode: nullable(Type.String()),
  name: Type.String(),
})
const Dealer = Type.Object({ id: Type.Integer(), dealerNumber: Type.String(), name: Type.String() })
const Item = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() })
const Period = {
  month: Type.String({ description: 'YYYY-MM' }),
  from: Day('First accounting date of the month.'),
  to: Day('Last accounting date of the month.'),
  generatedAt: DateTime('When the report was made.'),
}

const AmountColumns = {
  premium: Money('PREMIUM and CLIP_PREMIUM lines paid to the insurer (negative: refunded).'),
  reserve: Money('RESERVE lines paid to the insurer (negative: refunded).'),
  other: Money("Any other line on the insurer's payable (such as claims deducted from a refund)."),
  total: Money('premium + reserve + other: the movement of the insurer’s DISBURSEMENT_PAYABLE.'),
}
const Total = Type.Object({ count: Type.Integer({ description: 'Lines.' }), ...AmountColumns })

const PREMIUM_EXAMPLE = {
  insurer: { id: 12, insurerCode: 'INS-FCI', name: 'Frontier Casualty' },
  month: '2026-11',
  from: '2026-11-01',
  to: '2026-11-30',
  generatedAt: '2026-11-27T12:00:00.000Z',
  lines: [
    {
      transaction: 'WRITTEN',
      postedOn: '2026-11-20',
      journalEntryId: 4101,
      contractId: 900123,
      contractNumber: 'VSCPL-00A004352',
      dealer: { id: 1042, dealerNumber: '10001', name: 'Lone Star Honda' },
      product: { id: 301, code: 'VSC', name: 'Vehicle service contract' },
      program: { id: 302, code: 'PLATINUM', name: 'Platinum' },
      plan: { id: 303, code: 'PLAT-USED', name: 'Platinum used' },
      term: { months: 48, miles: 48000 },
      saleDate: '2026-11-20',
      effectiveDate: '2026-11-20',
      expirationDate: '2030-11-20',
      cancelNumber: null,
      cancelDate: null,
      premium: 35,
      reserve: 640,
      other: 0,
      total: 675,
      cession: { treatyId: 4, reinsuranceCompanyId: 88, shareBps: 10000 },
    },
  ],
  totals: {
    written: { count: 1, premium: 35, reserve: 640, other: 0, total: 675 },
    cancelled: { count: 0, premium: 0, reserve: 0, other: 0, total: 0 },
    reinstated: { count: 0, premium: 0, reserve: 0, other: 0, total: 0 },
    adjusted: { count: 0, premium: 0, reserve: 0, other: 0, total: 0 },
    net: { count: 1, premium: 35, reserve: 640, other: 0, total: 675 },
  },
}

export const PremiumBordereauSchema = Type.Object(
  {
    insurer: Insurer,
    ...Period,
    lines: Type.Array(
      Type.Object({
        transaction: enumOf(
          TRANSACTIONS,
          'WRITTEN (finalized), CANCELLED (a processed cancel: the refunded shares, negative), REINSTATED (a cancel reversed), ADJUSTED (a refinalize or rerate difference).',
        ),
        postedOn: Day('The accounting date of the journal entry.'),
        journalEntryId: Type.Integer(),
        contractId: Type.Integer(),
        contractNumber: Type.String(),
        dealer: Dealer,
        product: Item,
        program: Item,
        plan: Item,
        term: Type.Object({ months: Type.Integer(), miles: Type.Integer() }),
        saleDate: Day('Sale date.'),
        effectiveDate: Day('Coverage starts.'),
        expirationDate: Day('Coverage ends.'),
        cancelNumber: nullable(Type.String(), 'CANCELLED and REINSTATED lines: the cancel.'),
        cancelDate: nullable(Day('The cancel date.'), 'CANCELLED and REINSTATED lines: the cancel date.'),
        ...AmountColumns,
        cession: nullable(
          Type.Object({
            treatyId: Type.Integer(),
            reinsuranceCompanyId: Type.Integer(),
            shareBps: Type.Integer({ description: 'The share of the reserve ceded (10000 = 100 %).' }),
          }),
          'The reinsurance cession fixed at the sale (terms.cession); null: none.',
        ),
      }),
    ),
    totals: Type.Object({
      written: Total,
      cancelled: Total,
      reinstated: Total,
      adjusted: Total,
      net: Total,
    }),
  },
  { $id: 'InsurerPremiumBordereau', title: 'InsurerPremiumBordereau', examples: [PREMIUM_EXAMPLE] },
)

const CLAIMS_EXAMPLE = {
  insurer: { id: 12, insurerCode: 'INS-FCI', name: 'Frontier Casualty' },
  month: '2026-11',
  from: '2026-11-01',
  to: '2026-11-30',
  generatedAt: '2026-11-27T12:00:00.000Z',
  paid: [
    {
      claimId: 55012,
      claimNumber: 'CLM-202611-000512',
      contractId: 900123,
      contractNumber: 'VSCPL-00A004352',
      dealer: { id: 1042, dealerNumber: '10001', name: 'Lone Star Honda' },
      product: { id: 301, code: 'VSC', name: 'Vehicle service contract' },
      plan: { id: 303, code: 'PLAT-USED', name: 'Platinum used' },
      lossDate: '2026-11-10',
      paymentRequestId: 8801,
      paymentId: 9901,
      journalEntryId: 77102,
      postedOn: '2026-11-21',
      paidOn: '2026-11-21',
      method: 'CHECK',
      reference: 'CHK 1042',
      amount: 195.17,
    },
  ],
  outstanding: [
    {
      claimId: 55013,
      claimNumber: 'CLM-202611-000513',
      contractId: 900124,
      contractNumber: 'VSCPL-00A004353',
      dealer: { id: 1042, dealerNumber: '10001', name: 'Lone Star Honda' },
      product: { id: 301, code: 'VSC', name: 'Vehicle service contract' },
      plan: { id: 303, code: 'PLAT-USED', name: 'Platinum used' },
      lossDate: '2026-11-15',
      basis: 'PAYMENT_REQUEST',
      paymentRequestId: 8802,
      since: '2026-11-24',
      authorized: 300,
      paidToDate: 100,
      released: 0,
      outstanding: 200,
    },
  ],
  totals: { paid: { count: 1, amount: 195.17 }, outstanding: { count: 1, amount: 200 } },
}

const ClaimFacts = {
  claimId: Type.Integer(),
  claimNumber: Type.String(),
  contractId: Type.Integer(),
  contractNumber: Type.String(),
  dealer: Dealer,
  product: Item,
  plan: Item,
  lossDate: Day('The loss date.'),
}

export const ClaimsBordereauSchema = Type.Object(
  {
    insurer: Insurer,
    ...Period,
    paid: Type.Array(
      Type.Object({
        ...ClaimFacts,
        paymentRequestId: Type.Integer(),
        paymentId: Type.Integer(),
        journalEntryId: Type.Integer({ description: 'The payment’s entry (CLAIM_PAID, or a payout run’s).' }),
        postedOn: Day('Its accounting date, in the month.'),
        paidOn: Day('The day the payment was made.'),
        method: Type.String(),
        reference: nullable(Type.String()),
        amount: Money('Paid.'),
      }),
      { description: 'Payments posted in the month on claims the insurer bears (the payee of the RESERVE line).' },
    ),
    outstanding: Type.Array(
      Type.Object({
        ...ClaimFacts,
        basis: enumOf(
          ['PAYMENT_REQUEST', 'AUTHORIZATION'] as const,
          'PAYMENT_REQUEST: committed (CLAIM_APPROVED) by month end, less what was paid or released by then. AUTHORIZATION: authorized by month end, not invoiced by then: its authorized payable as it stands.',
        ),
        paymentRequestId: nullable(Type.Integer()),
        since: Day('When it was committed (the request’s accounting date) or authorized.'),
        authorized: Money('Committed (the request) or authorized (the payable).'),
        paidToDate: Money('Paid by month end.'),
        released: Money('Released by month end (a close or a withdrawal).'),
        outstanding: Money('authorized − paidToDate − released.'),
      }),
      { description: 'Authorized and unpaid at month end.' },
    ),
    totals: Type.Object({
      paid: Type.Object({ count: Type.Integer(), amount: Money('Sum of paid.') }),
      outstanding: Type.Object({ count: Type.Integer(), amount: Money('Sum of outstanding.') }),
    }),
  },
  { $id: 'InsurerClaimsBordereau', title: 'InsurerClaimsBordereau', examples: [CLAIMS_EXAMPLE] },
)
