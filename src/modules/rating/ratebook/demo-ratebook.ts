// The demo tenant's rate book: a VSC with new and used plans, vehicle classes, a state factor and
// surcharges; GAP with finance limits; tire & wheel; prepaid maintenance. Rates come from a small
// pricing grid so the book stays readable; the result is an ordinary import-format book. It uses every
// after-sale member too (docs/rate-books.md, "After the sale"): its own cancel methods and reasons,
// product cancellation rules by reason, state and requester, state rules, earnings per bucket with a
// curve, claim terms with benefits, and transfer terms.
import type { RateBookInput, RateInput } from './ratebook.format.ts'

const CLASS_BASE: Record<string, number> = { A: 620, B: 760, C: 980, D: 1340 }
const round5 = (n: number) => Math.ceil(n / 5) * 5
const cents = (n: number) => n.toFixed(2)

function vscRate(
  plan: string,
  term: { code: string; months: number; miles: number },
  deductible: { code: string; factor: number },
  vehicleClass: string,
  band: { from?: number; to?: number; factor: number },
  planFactor: number,
): RateInput {
  const reserve = Math.round(
    CLASS_BASE[vehicleClass]! *
      planFactor *
      (term.months / 36) ** 0.85 *
      (term.miles / 36000 || 1) ** 0.15 *
      deductible.factor *
      band.factor,
  )
  const premium = Math.round(reserve * 0.06)
  const buckets = { RES: cents(reserve), PRM: cents(premium), ADM: '175.00', COM: '150.00' }
  const cost = reserve + premium + 175 + 150
  const suggested = round5(cost * 1.75)
  return {
    plan,
    term: term.code,
    deductible: deductible.code,
    vehicleClass,
    ...(band.from === undefined ? {} : { odometerFrom: band.from }),
    ...(band.to === undefined ? {} : { odometerTo: band.to }),
    buckets,
    suggestedRetail: cents(suggested),
    minRetail: cents(cost),
    maxRetail: cents(round5(suggested * 1.6)),
  }
}

/**
 * Prepaid maintenance is earned as its visits fall due, one every six months: month k has earned the
 * visits of its completed half-years, of six (a 24-month term earns the rest at its end).
 */
const PPM_VISIT_CURVE = Array.from({ length: 36 }, (_, i) => (Math.floor((i + 1) / 6) / 6).toFixed(6))

export function demoRateBook(effectiveDate: string): RateBookInput {
  const newTerms = [
    { code: '36-36000', months: 36, miles: 36000 },
    { code: '48-60000', months: 48, miles: 60000 },
    { code: '60-75000', months: 60, miles: 75000 },
    { code: '72-100000', months: 72, miles: 100000 },
  ]
  const usedTerms = [
    { code: '24-24000', months: 24, miles: 24000 },
    { code: '36-36000', months: 36, miles: 36000 },
    { code: '48-48000', months: 48, miles: 48000 },
    { code: '60-60000', months: 60, miles: 60000 },
  ]
  const deductibles = [
    { code: 'D0', factor: 1.18 },
    { code: 'D100', factor: 1 },
    { code: 'D250', factor: 0.86 },
    { code: 'D100DIS', factor: 1.05 },
  ]
  const usedBands = [
    { from: 0, to: 50000, factor: 1 },
    { from: 50001, to: 100000, factor: 1.32 },
  ]
  const rates: RateInput[] = []
  for (const vehicleClass of ['A', 'B', 'C', 'D']) {
    for (const d of deductibles) {
      for (const t of newTerms) rates.push(vscRate('PLAT-NEW', t, d, vehicleClass, { factor: 1 }, 0.9))
      for (const t of usedTerms) {
        for (const b of usedBands) rates.push(vscRate('PLAT-USED', t, d, vehicleClass, b, 1.25))
        for (const b of usedBands) rates.push(vscRate('GOLD-USED', t, d, vehicleClass, b, 0.95))
        rates.push(vscRate('PWT-USED', t, d, vehicleClass, { from: 0, to: 150000, factor: 1 }, 0.55))
      }
    }
  }
  const gapTerms = [36, 48, 60, 72, 84]
  for (const months of gapTerms) {
    const reserve = 210 + months * 2
    const cost = reserve + 95 + 60
    rates.push({
      plan: 'GAP-STD',
      term: `${months}`,
      deductible: 'D0',
      vehicleClass: '*',
      buckets: { GRS: cents(reserve), ADM: '95.00', COM: '60.00' },
      suggestedRetail: cents(round5(cost * 2)),
      minRetail: cents(cost),
      maxRetail: cents(round5(cost * 3)),
    })
    // New York files GAP prices: the retail is locked to the filed amount.
    rates.push({
      plan: 'GAP-STD',
      term: `${months}`,
      deductible: 'D0',
      vehicleClass: '*',
      state: 'NY',
      buckets: { GRS: cents(reserve), ADM: '95.00', COM: '60.00' },
      suggestedRetail: cents(round5(cost * 1.8)),
      retailLocked: true,
    })
  }
  for (const [term, reserve] of [
    ['36-0', 240],
    ['60-0', 330],
  ] as const) {
    const cost = reserve + 60 + 50
    rates.push({
      plan: 'TW-STD',
      term,
      deductible: 'D0',
      vehicleClass: '*',
      buckets: { TWR: cents(reserve), ADM: '60.00', COM: '50.00' },
      suggestedRetail: cents(round5(cost * 1.9)),
      minRetail: cents(cost),
      maxRetail: cents(round5(cost * 2.8)),
    })
  }
  for (const vehicleClass of ['A', 'B', 'C']) {
    for (const [term, visits] of [
      ['24-30000', 4],
      ['36-45000', 6],
    ] as const) {
      const reserve = visits * (vehicleClass === 'A' ? 48 : vehicleClass === 'B' ? 55 : 79)
      const cost = reserve + 40 + 35
      rates.push({
        plan: 'PPM-NEW',
        term,
        deductible: 'D0',
        vehicleClass,
        buckets: { PMR: cents(reserve), ADM: '40.00', COM: '35.00' },
        suggestedRetail: cents(round5(cost * 1.8)),
        minRetail: cents(cost),
        maxRetail: cents(round5(cost * 2.5)),
      })
    }
  }

  const coverageGroups = (level: 'PLAT' | 'GOLD' | 'PWT') => [
    {
      code: 'ENGINE',
      name: 'Engine',
      components: [
        { code: 'BLOCK', name: 'Cylinder block' },
        { code: 'HEADS', name: 'Cylinder heads' },
        { code: 'OIL_PUMP', name: 'Oil pump' },
        { code: 'TIMING', name: 'Timing chain and gears' },
      ],
    },
    {
      code: 'TRANS',
      name: 'Transmission',
      components: [
        { code: 'CASE', name: 'Transmission case' },
        { code: 'TORQUE_CONV', name: 'Torque converter' },
        { code: 'VALVE_BODY', name: 'Valve body' },
      ],
    },
    {
      code: 'DRIVE',
      name: 'Drive axle',
      components: [
        { code: 'DIFF', name: 'Differential' },
        { code: 'CV_JOINTS', name: 'Constant-velocity joints' },
      ],
    },
    ...(level === 'PWT'
      ? []
      : [
          {
            code: 'AC',
            name: 'Air conditioning',
            components: [
              { code: 'COMPRESSOR', name: 'Compressor' },
              { code: 'CONDENSER', name: 'Condenser' },
            ],
          },
          {
            code: 'ELEC',
            name: 'Electrical',
            components: [
              { code: 'ALTERNATOR', name: 'Alternator' },
              { code: 'STARTER', name: 'Starter motor' },
              { code: 'WINDOW_MOTORS', name: 'Power window motors' },
            ],
          },
          {
            code: 'STEER',
            name: 'Steering',
            components: [
              { code: 'RACK', name: 'Rack and pinion' },
              { code: 'PS_PUMP', name: 'Power steering pump' },
            ],
          },
        ]),
    ...(level === 'PLAT'
      ? [
          {
            code: 'HITECH',
            name: 'High technology',
            components: [
              { code: 'NAV', name: 'Navigation unit' },
              { code: 'ADAS', name: 'Driver-assistance sensors' },
            ],
          },
        ]
      : []),
  ]
  const makeClass = (make: string, vehicleClass: string) => ({ make, vehicleClass })
  const platinumClaims = {
    limitOfLiability: { basis: 'VEHICLE_PURCHASE_PRICE' as const },
    deductibleApplies: 'PER_VISIT' as const,
    benefits: [
      { type: 'RENTAL' as const, perDay: '40.00', maxDays: 5 },
      { type: 'TOWING' as const, perOccurrence: '100.00' },
      { type: 'TRIP_INTERRUPTION' as const, perDay: '100.00', maxDays: 3, maxAmount: '300.00' },
    ],
  }

  return {
    formatVersion: 1,
    effectiveDate,
    description: 'Demo rate book: VSC, GAP, tire & wheel and prepaid maintenance',
    disbursementCodes: [
      {
        code: 'RES',
        label: 'Claims reserve',
        group: 'RESERVE',
        payee: { role: 'ACCOUNT_HOLDER', kind: 'INSURER', businessKey: 'INS-FCI' },
        earnings: { method: 'PRO_RATA_DAYS' },
      },
      {
        code: 'PRM',
        label: 'CLIP premium',
        group: 'CLIP_PREMIUM',
        payee: { role: 'ACCOUNT_HOLDER', kind: 'INSURER', businessKey: 'INS-FCI' },
        // The insurer keeps the premium of the policy backing the contract: earned at once, never refunded.
        earnings: { method: 'IMMEDIATE' },
        refundable: false,
      },
      {
        code: 'GRS',
        label: 'GAP reserve',
        group: 'RESERVE',
        payee: { role: 'ACCOUNT_HOLDER', kind: 'INSURER', businessKey: 'INS-GPI' },
        // GAP exposure falls as the loan is paid down: earned early.
        earnings: { method: 'RULE_OF_78', monthCounting: 'STARTED' },
      },
      {
        code: 'TWR',
        label: 'Tire & wheel reserve',
        group: 'RESERVE',
        payee: { role: 'ACCOUNT_HOLDER', kind: 'INSURER', businessKey: 'INS-GPI' },
        // Road hazards grow with tire wear: earned late.
        earnings: { method: 'REVERSE_RULE_OF_78' },
      },
      {
        code: 'PMR',
        label: 'Maintenance reserve',
        group: 'RESERVE',
        payee: { role: 'ADMINISTRATOR' },
        earnings: { method: 'CURVE', curve: 'PPM_VISITS' },
      },
      { code: 'ADM', label: 'Admin fee', group: 'ADMIN_FEE', payee: { role: 'ADMINISTRATOR' } },
      {
        code: 'COM',
        label: 'Agent commission',
        group: 'COMMISSION',
        payee: { role: 'DEALER_AGENT' },
        earnings: { method: 'IMMEDIATE' },
      },
      { code: 'PCK', label: 'Dealer pack', group: 'DEALER_PACK', payee: { role: 'SELLING_DEALER' } },
      { code: 'PRT', label: 'Dealer participation', group: 'DEALER_PARTICIPATION', payee: { role: 'SELLING_DEALER' } },
      {
        code: 'OVR',
        label: 'Agent override',
        group: 'COMMISSION',
        payee: { role: 'DEALER_AGENT' },
        earnings: { method: 'IMMEDIATE' },
      },
    ],
    vehicleClasses: [
      { code: 'A', description: 'Economy and mainstream imports' },
      { code: 'B', description: 'Domestic cars, trucks and SUVs' },
      { code: 'C', description: 'Premium and luxury' },
      { code: 'D', description: 'High-risk luxury' },
    ],
    vehicles: [
      {
        make: 'Honda',
        model: 'Accord',
        trims: ['LX', 'EX', 'EX-L', 'Sport', 'Touring'],
        bodyStyles: ['Sedan'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Honda',
        model: 'Civic',
        trims: ['LX', 'Sport', 'EX', 'Si', 'Type R'],
        bodyStyles: ['Sedan', 'Hatchback'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Honda',
        model: 'CR-V',
        trims: ['LX', 'EX', 'EX-L', 'Touring'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Honda',
        model: 'Pilot',
        trims: ['Sport', 'EX-L', 'Touring', 'Elite'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'Toyota',
        model: 'Camry',
        trims: ['LE', 'SE', 'XLE', 'XSE'],
        bodyStyles: ['Sedan'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Toyota',
        model: 'Corolla',
        trims: ['L', 'LE', 'SE', 'XSE'],
        bodyStyles: ['Sedan', 'Hatchback'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Toyota',
        model: 'RAV4',
        trims: ['LE', 'XLE', 'Limited'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'A',
      },
      {
        make: 'Toyota',
        model: 'Tacoma',
        trims: ['SR', 'SR5', 'TRD Off-Road', 'Limited'],
        bodyStyles: ['Pickup'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'Ford',
        model: 'F-150',
        series: 'F-Series',
        trims: ['XL', 'XLT', 'Lariat', 'King Ranch', 'Platinum'],
        bodyStyles: ['Pickup'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'Ford',
        model: 'F-150',
        series: 'F-Series',
        trims: ['Raptor'],
        bodyStyles: ['Pickup'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'C',
      },
      {
        make: 'Ford',
        model: 'Explorer',
        trims: ['Base', 'XLT', 'Limited', 'Platinum'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'Chevrolet',
        model: 'Silverado 1500',
        series: 'Silverado',
        trims: ['WT', 'LT', 'RST', 'LTZ', 'High Country'],
        bodyStyles: ['Pickup'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'Chevrolet',
        model: 'Equinox',
        trims: ['LS', 'LT', 'Premier'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'B',
      },
      {
        make: 'BMW',
        model: '3 Series',
        trims: ['330i', '330e', 'M340i'],
        bodyStyles: ['Sedan'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'C',
      },
      {
        make: 'BMW',
        model: 'X5',
        trims: ['sDrive40i', 'xDrive40i', 'M60i'],
        bodyStyles: ['SUV'],
        yearFrom: 2010,
        yearTo: 2027,
        vehicleClass: 'D',
      },
      makeClass('Honda', 'A'),
      makeClass('Toyota', 'A'),
      makeClass('Hyundai', 'A'),
      makeClass('Kia', 'A'),
      makeClass('Nissan', 'A'),
      makeClass('Mazda', 'A'),
      makeClass('Subaru', 'A'),
      makeClass('Ford', 'B'),
      makeClass('Chevrolet', 'B'),
      makeClass('GMC', 'B'),
      makeClass('Dodge', 'B'),
      makeClass('Jeep', 'B'),
      makeClass('Ram', 'B'),
      makeClass('Buick', 'B'),
      makeClass('Chrysler', 'B'),
      makeClass('Volkswagen', 'B'),
      makeClass('BMW', 'C'),
      makeClass('Mercedes-Benz', 'C'),
      makeClass('Audi', 'C'),
      makeClass('Lexus', 'C'),
      makeClass('Acura', 'B'),
      makeClass('Infiniti', 'C'),
      makeClass('Cadillac', 'C'),
      makeClass('Lincoln', 'C'),
      makeClass('Volvo', 'C'),
      makeClass('Land Rover', 'D'),
      makeClass('Jaguar', 'D'),
      makeClass('Porsche', 'D'),
      makeClass('Maserati', 'D'),
    ],
    warranties: [
      { make: 'Honda', type: 'BASIC', months: 36, miles: 36000 },
      { make: 'Honda', type: 'POWERTRAIN', months: 60, miles: 60000 },
      { make: 'Toyota', type: 'BASIC', months: 36, miles: 36000 },
      { make: 'Toyota', type: 'POWERTRAIN', months: 60, miles: 60000 },
      { make: 'Hyundai', type: 'BASIC', months: 60, miles: 60000 },
      { make: 'Hyundai', type: 'POWERTRAIN', months: 120, miles: 100000 },
      { make: 'Kia', type: 'BASIC', months: 60, miles: 60000 },
      { make: 'Kia', type: 'POWERTRAIN', months: 120, miles: 100000 },
      { make: 'Ford', type: 'BASIC', months: 36, miles: 36000 },
      { make: 'Ford', type: 'POWERTRAIN', months: 60, miles: 60000 },
      { make: 'Chevrolet', type: 'BASIC', months: 36, miles: 36000 },
      { make: 'Chevrolet', type: 'POWERTRAIN', months: 60, miles: 60000 },
      { make: 'BMW', type: 'BASIC', months: 48, miles: 50000 },
      { make: 'BMW', type: 'POWERTRAIN', months: 48, miles: 50000 },
    ],
    factorTables: [
      {
        code: 'STATE_RESERVE',
        name: 'State reserve factor',
        fact: 'customerState',
        defaultFactor: '1',
        entries: [
          { key: 'FL', factor: '1.10' },
          { key: 'NY', factor: '1.08' },
          { key: 'CA', factor: '1.05' },
        ],
      },
    ],
    products: [
      {
        code: 'VSC',
        name: 'Vehicle Service Contract',
        type: 'VSC',
        assetTypes: ['AUTO'],
        requiredInputs: ['vehicle', 'vehicleCondition', 'odometer', 'inServiceDate'],
        criteria: "vehicleAge <= 12 AND odometer < 150000 AND make NOT IN ('FERRARI', 'LAMBORGHINI', 'TESLA')",
        factorTables: ['STATE_RESERVE'],
        deductibles: [
          { code: 'D0', amount: '0.00', type: 'STANDARD' },
          { code: 'D100', amount: '100.00', type: 'STANDARD' },
          { code: 'D250', amount: '250.00', type: 'STANDARD' },
          { code: 'D100DIS', amount: '100.00', type: 'DISAPPEARING' },
        ],
        options: [
          {
            code: 'COMMERCIAL_USE',
            name: 'Commercial use',
            kind: 'SURCHARGE',
            buckets: { RES: '200.00' },
            suggestedRetail: '200.00',
          },
          {
            code: 'FOUR_WD',
            name: 'Four-wheel or all-wheel drive',
            kind: 'SURCHARGE',
            requiredWhen: "driveType IN ('4WD', 'AWD', '4X4')",
            buckets: { RES: '75.00' },
            suggestedRetail: '100.00',
          },
          {
            code: 'DIESEL',
            name: 'Diesel engine',
            kind: 'SURCHARGE',
            requiredWhen: "fuelType = 'DIESEL'",
            buckets: { RES: '150.00' },
            suggestedRetail: '200.00',
          },
          {
            code: 'LIFT_KIT',
            name: 'Lift kit or oversized tires',
            kind: 'SURCHARGE',
            criteria: "model IN ('F-150', 'SILVERADO 1500', 'TACOMA')",
            buckets: { RES: '125.00' },
            suggestedRetail: '150.00',
          },
          {
            code: 'ROADSIDE',
            name: 'Roadside assistance',
            kind: 'OPTION',
            buckets: { ADM: '35.00' },
            suggestedRetail: '99.00',
          },
          {
            code: 'RENTAL',
            name: 'Rental car, $40 a day for 5 days',
            kind: 'OPTION',
            buckets: { RES: '45.00' },
            suggestedRetail: '120.00',
          },
        ],
        customFields: [
          {
            key: 'financeManagerCode',
            label: 'F&I manager code',
            type: 'STRING',
            required: true,
            maxLength: 10,
            order: 1,
          },
          { key: 'stockNumber', label: 'Stock #', type: 'STRING', required: false, maxLength: 20, order: 2 },
        ],
        programs: [
          {
            code: 'PLAT',
            name: 'Platinum Exclusionary',
            plans: [
              {
                code: 'PLAT-NEW',
                name: 'Platinum - New',
                conditions: ['NEW'],
                formNumber: 'VSC-PLAT-N-0126',
                criteria: 'vehicleAge <= 1 AND odometer <= 5000',
                coverageGroups: coverageGroups('PLAT'),
                terms: newTerms.map((t) => ({ ...t, milesBasis: 'FROM_ZERO' as const })),
                claims: platinumClaims,
              },
              {
                code: 'PLAT-USED',
                name: 'Platinum - Used',
                conditions: ['USED', 'CERTIFIED'],
                formNumber: 'VSC-PLAT-U-0126',
                criteria: 'vehicleAge <= 8 AND odometer <= 100000',
                coverageGroups: coverageGroups('PLAT'),
                terms: usedTerms,
                claims: { ...platinumClaims, waitingPeriodDays: 30, waitingPeriodMiles: 1000 },
              },
            ],
          },
          {
            code: 'GOLD',
            name: 'Gold Stated Component',
            plans: [
              {
                code: 'GOLD-USED',
                name: 'Gold - Used',
                conditions: ['USED', 'CERTIFIED'],
                formNumber: 'VSC-GOLD-U-0126',
                criteria: 'vehicleAge <= 10 AND odometer <= 100000',
                coverageGroups: coverageGroups('GOLD'),
                terms: usedTerms,
                claims: {
                  waitingPeriodDays: 30,
                  waitingPeriodMiles: 1000,
                  limitOfLiability: { basis: 'AMOUNT', amount: '15000.00' },
                  perClaimLimit: '5000.00',
                  deductibleApplies: 'PER_REPAIR',
                  benefits: [{ type: 'RENTAL', perDay: '35.00', maxDays: 5 }],
                },
              },
            ],
          },
          {
            code: 'PWT',
            name: 'Powertrain',
            plans: [
              {
                code: 'PWT-USED',
                name: 'Powertrain - Used',
                conditions: ['USED'],
                formNumber: 'VSC-PWT-U-0126',
                coverageGroups: coverageGroups('PWT'),
                terms: usedTerms,
              },
            ],
          },
        ],
        cancellation: {
          method: 'PRO_RATA_LESSER_TIME_MILES',
          fee: { amount: '50.00', keptBy: 'ADMINISTRATOR' },
          freeLookDays: 60,
          deductClaims: true,
          refundIssuer: 'ADMINISTRATOR',
          rules: [
            // A repossession is refunded short rate, with a percentage fee the dealer keeps.
            {
              reasons: ['REPOSSESSION'],
              method: 'SHORT_RATE_90',
              fee: { percent: '10', percentOf: 'REFUND', max: '75.00', keptBy: 'DEALER' },
            },
            // New York: pro rata by days, whatever the reason.
            { states: ['NY'], method: 'PRO_RATA_DAYS' },
            // A dealer's own cancels are refunded by the dealer.
            { requestedBy: ['DEALER'], refundIssuer: 'DEALER' },
          ],
        },
        transfer: { allowed: true, fee: '50.00', withinDays: 30, dealerMayOwn: false },
      },
      {
        code: 'GAP',
        name: 'Guaranteed Asset Protection',
        type: 'GAP',
        assetTypes: ['AUTO', 'RV', 'POWERSPORTS'],
        requiredInputs: [
          'vehicle',
          'vehiclePurchasePrice',
          'financeType',
          'amountFinanced',
          'financeTermMonths',
          'apr',
        ],
        criteria:
          "financeType IN ('RETAIL', 'BALLOON') AND loanToValue <= 1.25 AND financeTermMonths <= 84 AND amountFinanced <= 100000",
        deductibles: [{ code: 'D0', amount: '0.00', type: 'STANDARD' }],
        customFields: [
          {
            key: 'lenderLoanNumber',
            label: 'Lender loan number',
            type: 'STRING',
            required: true,
            maxLength: 30,
            unique: true,
            order: 1,
          },
        ],
        programs: [
          {
            code: 'GAP',
            name: 'GAP Protection',
            plans: [
              {
                code: 'GAP-STD',
                name: 'GAP - Standard',
                conditions: ['NEW', 'USED', 'CERTIFIED'],
                formNumber: 'GAP-STD-0126',
                terms: gapTerms.map((months, i) => ({
                  code: `${months}`,
                  months,
                  miles: 0,
                  criteria: `financeTermMonths BETWEEN ${i === 0 ? 1 : gapTerms[i - 1]! + 1} AND ${months}`,
                })),
              },
            ],
          },
        ],
        cancellation: {
          method: 'RULE_OF_78',
          fee: { amount: '25.00' },
          freeLookDays: 30,
          deductClaims: false,
          // A loan paid off or refinanced ends GAP coverage: pro rata by months, no fee.
          rules: [
            { reasons: ['EARLY_PAYOFF', 'GAP_REFINANCE'], method: 'PRO_RATA_MONTHS_NEAREST_15', fee: { amount: 0 } },
          ],
        },
        transfer: { allowed: false },
      },
      {
        code: 'TW',
        name: 'Tire & Wheel Protection',
        type: 'TIRE_WHEEL',
        assetTypes: ['AUTO'],
        requiredInputs: ['vehicle', 'vehicleCondition'],
        deductibles: [{ code: 'D0', amount: '0.00', type: 'STANDARD' }],
        options: [
          {
            code: 'COSMETIC_WHEEL',
            name: 'Cosmetic wheel repair',
            kind: 'OPTION',
            buckets: { TWR: '60.00' },
            suggestedRetail: '149.00',
          },
        ],
        customFields: [
          {
            key: 'tireBrand',
            label: 'Tire brand',
            type: 'LIST',
            required: false,
            options: [
              { value: 'MICH', label: 'Michelin' },
              { value: 'GOOD', label: 'Goodyear' },
              { value: 'BRID', label: 'Bridgestone' },
              { value: 'OTHER', label: 'Other' },
            ],
            order: 1,
          },
        ],
        programs: [
          {
            code: 'TW',
            name: 'Tire & Wheel',
            plans: [
              {
                code: 'TW-STD',
                name: 'Tire & Wheel - Standard',
                conditions: ['NEW', 'USED', 'CERTIFIED'],
                formNumber: 'TW-STD-0126',
                terms: [
                  { code: '36-0', months: 36, miles: 0 },
                  { code: '60-0', months: 60, miles: 0 },
                ],
                claims: {
                  perClaimLimit: '1500.00',
                  benefits: [{ type: 'ROADSIDE', perOccurrence: '75.00', maxAmount: '300.00' }],
                },
              },
            ],
          },
        ],
        cancellation: {
          method: 'PRO_RATA_DAYS',
          fee: { amount: '25.00', percent: '10', percentOf: 'PRICE' },
          // California: a longer free look for tire & wheel.
          rules: [{ states: ['CA'], freeLookDays: 60 }],
        },
        transfer: { allowed: true, fee: '25.00', dealerMayOwn: true },
      },
      {
        code: 'PPM',
        name: 'Prepaid Maintenance',
        type: 'PPM',
        assetTypes: ['AUTO'],
        requiredInputs: ['vehicle', 'vehicleCondition', 'odometer'],
        criteria: 'vehicleAge <= 3 AND odometer <= 36000',
        deductibles: [{ code: 'D0', amount: '0.00', type: 'STANDARD' }],
        programs: [
          {
            code: 'PPM',
            name: 'Prepaid Maintenance',
            plans: [
              {
                code: 'PPM-NEW',
                name: 'Maintenance - New and Certified',
                conditions: ['NEW', 'CERTIFIED'],
                formNumber: 'PPM-0126',
                ppmServices: [
                  {
                    code: 'OIL_CHANGE',
                    name: 'Synthetic oil and filter change',
                    intervalMonths: 6,
                    intervalMiles: 7500,
                    count: 6,
                  },
                  { code: 'TIRE_ROTATION', name: 'Tire rotation', intervalMonths: 6, intervalMiles: 7500, count: 6 },
                  {
                    code: 'MULTI_POINT',
                    name: 'Multi-point inspection',
                    intervalMonths: 12,
                    intervalMiles: 15000,
                    count: 3,
                  },
                ],
                terms: [
                  { code: '24-30000', months: 24, miles: 30000 },
                  { code: '36-45000', months: 36, miles: 45000 },
                ],
              },
            ],
          },
        ],
        // Visits are counted by months: the lesser of months and miles, and the dealer refunds.
        cancellation: { method: 'PRO_RATA_LESSER_MONTHS_MILES', refundIssuer: 'DEALER' },
      },
    ],
    rates,
    cancelMethods: [
      { code: 'PRO_RATA_DAYS', name: 'Pro rata by days', formula: 'PRO_RATA_DAYS' },
      {
        code: 'PRO_RATA_MONTHS_NEAREST_15',
        name: 'Pro rata by months (a month counts from its 15th day)',
        formula: 'PRO_RATA_MONTHS',
        monthCounting: 'NEAREST_15',
      },
      {
        code: 'PRO_RATA_LESSER_TIME_MILES',
        name: 'Pro rata, the lesser of days or miles',
        formula: 'PRO_RATA_LESSER_TIME_MILES',
      },
      {
        code: 'PRO_RATA_LESSER_MONTHS_MILES',
        name: 'Pro rata, the lesser of months or miles',
        formula: 'PRO_RATA_LESSER_TIME_MILES',
        timeBasis: 'MONTHS',
      },
      { code: 'RULE_OF_78', name: 'Rule of 78', formula: 'RULE_OF_78' },
      {
        code: 'SHORT_RATE_90',
        name: 'Short rate, 90 % of pro rata by days',
        formula: 'SHORT_RATE',
        shortRatePercent: '90',
      },
      { code: 'FLAT_100', name: 'A flat 100.00', formula: 'FIXED_AMOUNT', fixedAmount: '100.00' },
      { code: 'FULL', name: 'Full refund', formula: 'FULL' },
    ],
    cancelReasons: [
      { code: 'CUSTOMER_REQUEST', name: 'Customer request', requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'] },
      {
        code: 'TRADE_IN',
        name: 'Vehicle traded in',
        requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'],
        requiredDocuments: ['ODOMETER_STATEMENT'],
        endsGap: 'SALE',
      },
      {
        code: 'EARLY_PAYOFF',
        name: 'Loan paid off early',
        requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
        requiresPayoffDate: true,
        requiredDocuments: ['PAYOFF_LETTER'],
        endsGap: 'PAYOFF',
      },
      {
        code: 'GAP_REFINANCE',
        name: 'Loan refinanced (GAP)',
        requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
        requiresPayoffDate: true,
        requiredDocuments: ['PAYOFF_LETTER'],
        productTypes: ['GAP'],
        endsGap: 'REFINANCE',
      },
      {
        code: 'REPOSSESSION',
        name: 'Repossession',
        requestedBy: ['LIENHOLDER', 'DEALER', 'ADMIN'],
        requiredDocuments: ['REPOSSESSION_NOTICE'],
        refundPayee: 'LIENHOLDER',
        endsGap: 'REPOSSESSION',
      },
      {
        code: 'TOTAL_LOSS',
        name: 'Total loss',
        requestedBy: ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'],
        requiredDocuments: ['TOTAL_LOSS_STATEMENT'],
        productTypes: ['VSC', 'GAP', 'TIRE_WHEEL', 'PPM'],
        endsGap: 'TOTAL_LOSS',
      },
      {
        code: 'SALE_UNWOUND',
        name: 'Sale unwound',
        requestedBy: ['DEALER', 'ADMIN'],
        forcesFullRefund: true,
        refundPayee: 'DEALER',
      },
    ],
    stateRules: [
      { state: 'CA', freeLookDays: 60, cancelFeeMax: '50.00', cancelFeeMaxPercent: '10' },
      { state: 'NY', cancelFeeMax: '50.00', claimsDeductible: false },
      { state: 'FL', freeLookDays: 30, cancelFeeMaxPercent: '10', claimsDeductible: false },
    ],
    earningsCurves: [{ code: 'PPM_VISITS', name: 'Prepaid maintenance, by visit', cumulative: PPM_VISIT_CURVE }],
  }
}
