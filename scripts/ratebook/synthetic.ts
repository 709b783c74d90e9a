// A large synthetic rate book and dealer set for benchmarks (docs/benchmarks.md): realistic shape
// (products of several types, new and used plans, terms, deductibles, 20 vehicle classes, odometer
// bands, options, criteria), any size. Deterministic: the same parameters give the same book.
import type { RateBookInput, RateInput } from '../../src/modules/rating/ratebook/ratebook.format.ts'

export type SyntheticOptions = { rates?: number; dealers?: number; products?: number; effectiveDate?: string }
export type SyntheticDealer = { dealerNumber: string; name: string; state: string; productCodes: string[] }

const TYPES = ['VSC', 'TIRE_WHEEL', 'PPM', 'KEY', 'DENT', 'APPEARANCE', 'THEFT'] as const
const CLASSES = 'ABCDEFGHIJKLMNOPQRST'.split('')
const MAKES = [
  'ACURA',
  'AUDI',
  'BMW',
  'BUICK',
  'CADILLAC',
  'CHEVROLET',
  'CHRYSLER',
  'DODGE',
  'FORD',
  'GMC',
  'HONDA',
  'HYUNDAI',
  'INFINITI',
  'JEEP',
  'KIA',
  'LEXUS',
  'LINCOLN',
  'MAZDA',
  'MERCEDES-BENZ',
  'NISSAN',
  'RAM',
  'SUBARU',
  'TOYOTA',
  'VOLKSWAGEN',
  'VOLVO',
]
const STATES = ['TX', 'CA', 'FL', 'NY', 'GA', 'AZ', 'CO', 'IL', 'OH', 'WA']
const TERMS = [
  [24, 24000],
  [36, 36000],
  [48, 48000],
  [60, 60000],
  [72, 75000],
  [84, 100000],
] as const
const DEDUCTIBLES = [
  ['D0', '0.00', 1.2],
  ['D50', '50.00', 1.08],
  ['D100', '100.00', 1],
  ['D250', '250.00', 0.85],
] as const
const PLANS_PER_PRODUCT = 4

const cents = (n: number) => n.toFixed(2)

export function syntheticRateBook(options: SyntheticOptions = {}): { book: RateBookInput; dealers: SyntheticDealer[] } {
  const rateCount = options.rates ?? 100_000
  const dealerCount = options.dealers ?? 2000
  const productCount = options.products ?? 10
  const perCell = TERMS.length * DEDUCTIBLES.length * CLASSES.length
  const bands = Math.max(1, Math.ceil(rateCount / (productCount * PLANS_PER_PRODUCT * perCell)))
  const bandWidth = Math.ceil(200_000 / bands)

  const products: RateBookInput['products'] = []
  const rates: RateInput[] = []
  for (let p = 0; p < productCount; p++) {
    const code = `P${String(p + 1).padStart(2, '0')}`
    const programs = [0, 1].map((g) => ({
      code: `${code}-G${g + 1}`,
      name: `${code} program ${g + 1}`,
      plans: (['NEW', 'USED'] as const).map((condition) => ({
        code: `${code}-G${g + 1}-${condition}`,
        name: `${code} ${g === 0 ? 'Premier' : 'Select'} ${condition.toLowerCase()}`,
        conditions: condition === 'NEW' ? ['NEW' as const] : ['USED' as const, 'CERTIFIED' as const],
        formNumber: `${code}-${g + 1}-${condition[0]}-0126`,
        criteria: condition === 'NEW' ? 'vehicleAge <= 1' : 'vehicleAge <= 12 AND odometer < 200000',
        terms: TERMS.map(([months, miles]) => ({
          code: `${months}-${miles}`,
          months,
          miles,
          milesBasis: condition === 'NEW' ? ('FROM_ZERO' as const) : ('FROM_SALE_ODOMETER' as const),
        })),
      })),
    }))
    products.push({
      code,
      name: `Synthetic product ${p + 1}`,
      type: TYPES[p % TYPES.length]!,
      assetTypes: ['AUTO'],
      requiredInputs: ['vehicle', 'vehicleCondition', 'odometer'],
      criteria: "make NOT IN ('FERRARI', 'LAMBORGHINI')",
      deductibles: DEDUCTIBLES.map(([dc, amount]) => ({ code: dc, amount, type: 'STANDARD' as const })),
      options: [
        { code: 'COMMERCIAL_USE', name: 'Commercial use', kind: 'SURCHARGE' as const, buckets: { RES: '150.00' } },
        {
          code: 'HIGH_MILES',
          name: 'High mileage',
          kind: 'SURCHARGE' as const,
          requiredWhen: 'odometer > 100000',
          buckets: { RES: '95.00' },
        },
        {
          code: 'ROADSIDE',
          name: 'Roadside assistance',
          kind: 'OPTION' as const,
          buckets: { ADM: '30.00' },
          suggestedRetail: '89.00',
        },
      ],
      customFields: [
        {
          key: 'financeManagerCode',
          label: 'F&I manager code',
          type: 'STRING' as const,
          required: true,
          maxLength: 10,
          order: 1,
        },
      ],
      programs,
    })
    for (const program of programs) {
      for (const plan of program.plans) {
        for (const [t, [months, miles]] of TERMS.entries()) {
          for (const [dc, , dFactor] of DEDUCTIBLES) {
            for (const [c, vehicleClass] of CLASSES.entries()) {
              for (let b = 0; b < bands; b++) {
                if (rates.length >= rateCount) break
                const reserve = Math.round((300 + c * 45 + p * 20) * (1 + t * 0.22) * dFactor * (1 + b * 0.12))
                const cost = reserve + 40 + 150 + 100
                const suggested = Math.ceil((cost * 1.7) / 5) * 5
                rates.push({
                  plan: plan.code,
                  term: `${months}-${miles}`,
                  deductible: dc,
                  vehicleClass,
                  odometerFrom: b * bandWidth,
                  odometerTo: (b + 1) * bandWidth - 1,
                  buckets: { RES: cents(reserve), PRM: '40.00', ADM: '150.00', COM: '100.00' },
                  suggestedRetail: cents(suggested),
                  minRetail: cents(cost),
                  maxRetail: cents(Math.ceil((suggested * 1.6) / 5) * 5),
                })
              }
            }
          }
        }
      }
    }
  }

  const dealers: SyntheticDealer[] = []
  for (let i = 0; i < dealerCount; i++) {
    dealers.push({
      dealerNumber: `S${String(i + 1).padStart(5, '0')}`,
      name: `Synthetic Motors ${i + 1}`,
      state: STATES[i % STATES.length]!,
      productCodes: [0, 1, 2].map((k) => products[(i + k) % products.length]!.code),
    })
  }

  const book: RateBookInput = {
    formatVersion: 1,
    effectiveDate: options.effectiveDate ?? '2025-01-01',
    description: `Synthetic rate book: ${productCount} products, ${rates.length} rates`,
    disbursementCodes: [
      { code: 'RES', label: 'Claims reserve', group: 'RESERVE' },
      { code: 'PRM', label: 'CLIP premium', group: 'CLIP_PREMIUM' },
      { code: 'ADM', label: 'Admin fee', group: 'ADMIN_FEE' },
      { code: 'COM', label: 'Agent commission', group: 'COMMISSION', payee: { role: 'DEALER_AGENT' } },
      { code: 'PCK', label: 'Dealer pack', group: 'DEALER_PACK', payee: { role: 'SELLING_DEALER' } },
    ],
    vehicleClasses: CLASSES.map((code) => ({ code, description: `Class ${code}` })),
    defaultVehicleClass: 'T',
    vehicles: MAKES.map((make, i) => ({ make, vehicleClass: CLASSES[i % CLASSES.length]! })),
    products,
    rates,
  }
  return { book, dealers }
}
