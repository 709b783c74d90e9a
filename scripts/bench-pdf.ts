// Contract PDF rendering time: renders drafts of realistic content one after another (each a
// different customer, vehicle and option set, with a coverage list and terms of a real contract's
// length) and reports the median and 95th percentile per document. Target: median under 50 ms.
//
//   node scripts/bench-pdf.ts [--n 200] [--out sample.pdf]
//
// measurePdfRendering(n) is what the main benchmark calls; running this file prints the figures.
// A missed target is reported, not an error (as in scripts/bench.ts).
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { renderContractPdf, type ContractDocument } from '../src/modules/contracts/contract.pdf.ts'

export const PDF_MEDIAN_TARGET_MS = 50

const FIRST = ['Jane', 'Miguel', 'Aisha', 'Robert', 'Mei', 'Olusegun', 'Chloé', 'Dmitri', 'Priya', 'Sean']
const LAST = ['Doe', 'Hernández', 'Okafor', 'Smith', 'Chen', 'Adeyemi', 'Dubois', 'Ivanov', 'Patel', "O'Neill"]
const VEHICLES: Array<[string, string, string]> = [
  ['Honda', 'Accord', 'EX-L'],
  ['Toyota', 'RAV4', 'XLE'],
  ['Ford', 'F-150', 'Lariat 4x4'],
  ['Chevrolet', 'Silverado 1500', 'LT'],
  ['Tesla', 'Model 3', 'Long Range'],
  ['Subaru', 'Outback', 'Premium'],
]
const OPTIONS = [
  { code: 'RSA', name: 'Roadside assistance and towing', retail: 75 },
  { code: 'RENT', name: 'Rental car reimbursement, $40 a day up to 5 days', retail: 95 },
  { code: '4X4', name: 'Four-wheel drive surcharge', retail: 150 },
  { code: 'COMM', name: 'Light commercial use', retail: 250 },
  { code: 'TRIP', name: 'Trip interruption', retail: null },
]
const GROUPS: Array<[string, string[]]> = [
  [
    'Engine',
    [
      'Cylinder block and heads',
      'Pistons, rings and pins',
      'Crankshaft and main bearings',
      'Camshaft and bearings',
      'Timing chain, gears and tensioner',
      'Oil pump and oil pan',
      'Intake and exhaust manifolds',
      'Valves, springs, guides and lifters',
      'Turbocharger and supercharger housing and internal parts',
      'Engine mounts',
    ],
  ],
  [
    'Transmission and transfer case',
    [
      'Case and all internal parts',
      'Torque converter',
      'Valve body',
      'Transmission cooler and lines',
      'Transfer case housing and internal parts',
      'Mounts',
    ],
  ],
  [
    'Drive axle',
    [
      'Axle housings and all internal parts',
      'Axle shafts and bearings',
      'Constant velocity joints and boots',
      'Universal joints',
      'Drive shafts and center support bearing',
      'Locking hubs',
    ],
  ],
  [
    'Steering',
    [
      'Steering gear housing and internal parts',
      'Power steering pump',
      'Rack and pinion',
      'Tie rod ends and idler arm',
      'Electric power steering motor',
    ],
  ],
  [
    'Brakes',
    [
      'Master cylinder',
      'Calipers and wheel cylinders',
      'ABS control module, pump and sensors',
      'Brake booster',
      'Proportioning valve',
    ],
  ],
  [
    'Air conditioning and heating',
    [
      'Compressor, clutch and pulley',
      'Condenser and evaporator',
      'Accumulator and receiver-drier',
      'Blower motor and resistor',
      'Heater core',
      'Climate control module',
    ],
  ],
  [
    'Electrical',
    [
      'Alternator and voltage regulator',
      'Starter motor and solenoid',
      'Power window motors and regulators',
      'Power seat motors',
      'Wiper motors',
      'Instrument cluster',
      'Body control module',
      'Engine control module',
      'Ignition coils',
    ],
  ],
  [
    'Fuel system',
    ['Fuel pump and sending unit', 'Fuel injectors and fuel rail', 'Fuel pressure regulator', 'Throttle body'],
  ],
]
const TERMS = [
  'Cancellation. You may cancel this contract at any time by written request to the administrator or the selling dealer. If you cancel within 60 days of the sale date and no claim has been paid, you will receive a full refund of the contract price. After 60 days, or if a claim has been paid, the refund is calculated pro rata by the lesser of time or mileage used, less claims paid and a cancellation fee of $50, where the law allows.',
  'Claims procedure. Before any repair is made, you or the repair facility must call the administrator for authorization and give the contract number, the vehicle odometer reading and the cause of failure. Repairs made without prior authorization are not covered. You may be asked to authorize a teardown; if the failure is covered, the cost of the teardown is part of the covered repair.',
  'Your responsibilities. You must maintain the vehicle as the manufacturer recommends and keep receipts of all maintenance. Failure caused by lack of maintenance, overheating, lack of lubrication, misuse, abuse, or accident is not covered. You must protect the vehicle from further damage once a failure occurs.',
  'Exclusions. This contract does not cover: parts not listed as covered; maintenance services and parts such as filters, fluids, spark plugs, brake pads and rotors, belts and hoses; glass, body panels, paint, trim, upholstery and carpet; tires and wheels; damage from collision, fire, theft, vandalism, flood or acts of nature; pre-existing conditions; or any vehicle used for racing, rental, towing beyond the manufacturer rating, or as an emergency vehicle.',
  'Transfer. This contract may be transferred once to a later private owner of the vehicle for a transfer fee of $75, by written request to the administrator within 30 days of the change of ownership.',
  'Arbitration. Any dispute under this contract will be resolved by binding arbitration on an individual basis, unless the law of the state where this contract was sold provides otherwise.',
]

/** The i-th document of the benchmark: a realistic draft that differs from its neighbours. */
export function benchDocument(i: number): ContractDocument {
  const [make, model, trim] = VEHICLES[i % VEHICLES.length]!
  const first = FIRST[i % FIRST.length]!
  const last = LAST[(i * 7) % LAST.length]!
  const odometer = 12000 + ((i * 7919) % 80000)
  const retail = 1495 + (i % 20) * 50
  const tax = Math.round(retail * 8.25) / 100
  return {
    draft: true,
    reference:
      i % 3 === 0
        ? { label: 'Quote', value: `Q-${100000 + i}` }
        : { label: 'Contract number', value: `VSC-2026-${String(i).padStart(6, '0')}` },
    formNumber: 'VSC-PLAT-0326',
    issuedOn: '2026-03-05',
    administrator: {
      name: 'Summit Warranty Administrators, Inc.',
      address: { line1: '400 Commerce Way, Suite 1200', city: 'Dallas', state: 'TX', postalCode: '75201' },
      phoneNumber: '800-555-0142',
    },
    dealer: {
      dealerNumber: String(10001 + (i % 50)),
      name: 'Lakeside Honda Toyota of Austin',
      address: { line1: '1200 Lake Shore Blvd', city: 'Austin', state: 'TX', postalCode: '78701' },
    },
    customer: {
      firstName: first,
      lastName: last,
      address: {
        line1: `${100 + i} Elm Street`,
        line2: i % 2 === 0 ? 'Apt 4B' : null,
        city: 'Round Rock',
        state: 'TX',
        postalCode: '78664',
        country: 'US',
      },
      emailAddress: `${first.toLowerCase()}.${i}@example.com`,
      phoneNumber: '512-555-0199',
    },
    coBuyer: i % 2 === 0 ? { firstName: FIRST[(i + 3) % FIRST.length]!, lastName: last } : null,
    lienHolder:
      i % 4 === 3
        ? null
        : {
            name: 'First Capital Auto Finance',
            address: { line1: 'PO Box 9000', city: 'Houston', state: 'TX', postalCode: '77001' },
            phoneNumber: '888-555-0110',
          },
    vehicle: {
      vin: `1HGCV1F3${String(i % 10)}LA${String(100000 + i).slice(-6)}`,
      year: 2018 + (i % 7),
      make,
      model,
      trim,
      condition: i % 5 === 0 ? 'NEW' : 'USED',
      odometer,
      inServiceDate: '2020-05-01',
      purchasePrice: 18500 + (i % 30) * 650,
    },
    product: { code: 'VSC', name: 'Vehicle Service Contract', type: 'VSC' },
    program: { code: 'PLAT', name: 'Platinum Exclusionary' },
    plan: { code: 'PLAT-USED', name: 'Platinum Used' },
    term: { months: 48 + (i % 3) * 12, miles: 48000 + (i % 3) * 12000 },
    deductible: { amount: [0, 100, 250][i % 3]!, type: i % 2 === 0 ? 'STANDARD' : 'DISAPPEARING' },
    options: OPTIONS.slice(0, 1 + (i % OPTIONS.length)),
    saleDate: '2026-03-05',
    effectiveDate: '2026-03-05',
    expiration: { date: '2030-03-05', odometer: odometer + 48000 },
    price: { retailPrice: retail, salesTax: tax, total: retail + tax },
    finance: { financeType: 'RETAIL_INSTALLMENT', amountFinanced: 21000 + i * 10, termMonths: 72, apr: 6.9 },
    customFields: [
      { label: 'Stock number', value: `STK-${88000 + i}` },
      { label: 'F&I manager', value: 'Pat Brennan' },
      { label: 'Salesperson', value: 'Morgan Lee' },
    ],
    coverage: GROUPS.map(([group, components]) => ({ group, components })),
    terms: TERMS,
    distanceUnit: 'MILES',
  }
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]!
}

const round = (ms: number) => Math.round(ms * 100) / 100

/**
 * Renders `n` benchmark documents one at a time, after a warm-up of 20 (JIT, font metric caches),
 * and returns the median and 95th-percentile milliseconds per document.
 */
export async function measurePdfRendering(n: number): Promise<{ medianMs: number; p95Ms: number }> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('n must be a positive integer')
  for (let i = 0; i < 20; i++) await renderContractPdf(benchDocument(n + i))
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const doc = benchDocument(i)
    const start = performance.now()
    await renderContractPdf(doc)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return { medianMs: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '200' }, out: { type: 'string' } } })
  const n = Number(values.n)
  if (values.out) {
    fs.writeFileSync(values.out, await renderContractPdf(benchDocument(0)))
    console.log(`wrote ${values.out}`)
  }
  const sample = await renderContractPdf(benchDocument(0))
  const { medianMs, p95Ms } = await measurePdfRendering(n)
  console.log(
    `contract PDF (draft, ${(sample.length / 1024).toFixed(1)} KiB): ${n} documents, median ${medianMs} ms, p95 ${p95Ms} ms per document`,
  )
  console.log(
    medianMs < PDF_MEDIAN_TARGET_MS
      ? `target met: median under ${PDF_MEDIAN_TARGET_MS} ms`
      : `TARGET MISSED: median ${medianMs} ms, target under ${PDF_MEDIAN_TARGET_MS} ms`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
