// The facts criteria can name (docs/criteria.md "Quote facts"): the quote's inputs and values
// derived from them. A rate book whose criteria name anything else is refused at import, so a typo
// cannot silently exclude a plan forever.

import type { CriteriaNode, Operand } from '../criteria/index.ts'

export type FactType = 'string' | 'number' | 'boolean' | 'date'

export const QUOTE_FACTS: Readonly<Record<string, { type: FactType; description: string }>> = {
  assetType: { type: 'string', description: 'AUTO, RV, MARINE, POWERSPORTS or OTHER.' },
  condition: { type: 'string', description: 'Vehicle condition: NEW, USED or CERTIFIED.' },
  vin: { type: 'string', description: 'The VIN, upper case.' },
  vehicleYear: { type: 'number', description: 'Model year (from the VIN, else the vehicleYear input).' },
  make: { type: 'string', description: 'Make, upper case (HONDA).' },
  model: { type: 'string', description: 'Model, upper case (ACCORD).' },
  trim: { type: 'string', description: 'Trim, upper case.' },
  vehicleClass: { type: 'string', description: 'The class the rate book gives the vehicle.' },
  fuelType: { type: 'string', description: 'Fuel type decoded from the VIN, upper case, when known.' },
  driveType: { type: 'string', description: 'Drive type decoded from the VIN, upper case, when known.' },
  cylinders: { type: 'number', description: 'Engine cylinders decoded from the VIN, when known.' },
  vehicleAge: {
    type: 'number',
    description: 'Sale-date year minus model year (0 for the current model year, never negative).',
  },
  odometer: { type: 'number', description: 'Odometer at sale, miles.' },
  saleDate: { type: 'date', description: 'Sale date.' },
  inServiceDate: { type: 'date', description: 'Date the vehicle was first put in service.' },
  monthsInService: { type: 'number', description: 'Whole months from the in-service date to the sale date.' },
  purchasePrice: { type: 'number', description: 'Vehicle purchase price.' },
  msrp: { type: 'number', description: 'Manufacturer suggested retail price.' },
  financeType: { type: 'string', description: 'CASH, RETAIL, LEASE or BALLOON.' },
  amountFinanced: { type: 'number', description: 'Amount financed.' },
  financeTermMonths: { type: 'number', description: 'Finance term in months.' },
  apr: { type: 'number', description: 'Annual percentage rate, in per cent.' },
  loanToValue: {
    type: 'number',
    description: 'amountFinanced / msrp (or / purchasePrice without MSRP), 4 decimals: 1.25 is 125%.',
  },
  customerState: { type: 'string', description: "Customer state (defaults to the dealer's state)." },
  dealerState: { type: 'string', description: "The dealer's state." },
  dealerNumber: { type: 'string', description: 'The dealer number.' },
  basicWarrantyMonthsRemaining: {
    type: 'number',
    description: 'Months of the manufacturer basic warranty left at sale (0 when expired).',
  },
  basicWarrantyMilesRemaining: {
    type: 'number',
    description: 'Miles of the manufacturer basic warranty left at sale (0 when expired).',
  },
  powertrainWarrantyMonthsRemaining: {
    type: 'number',
    description: 'Months of the manufacturer powertrain warranty left at sale.',
  },
  powertrainWarrantyMilesRemaining: {
    type: 'number',
    description: 'Miles of the manufacturer powertrain warranty left at sale.',
  },
  termMonths: { type: 'number', description: 'The term being priced (term, rate and option criteria only).' },
  termMiles: { type: 'number', description: "The term's miles (term, rate and option criteria only)." },
  deductible: { type: 'number', description: 'The deductible amount being priced (rate and option criteria only).' },
}

export function isQuoteFact(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(QUOTE_FACTS, name)
}

/**
 * Where criteria would compare a quote fact with a value of another type (`odometer = 'HIGH'`), or
 * use a fact that is not a boolean as a condition: at quote time that is an evaluation error, so a
 * rate book carrying it is refused at import. Dates compare with DATE literals and with strings.
 */
export function factTypeProblems(node: CriteriaNode): string[] {
  const problems: string[] = []
  const typeOf = (o: Operand): FactType | 'null' | undefined => {
    if (o.type === 'fact') return QUOTE_FACTS[o.name]?.type
    return o.literal.kind === 'date' ? 'date' : o.literal.kind
  }
  const fits = (a: FactType, b: FactType) =>
    a === b || (a === 'date' && b === 'string') || (a === 'string' && b === 'date')
  const name = (o: Operand) => (o.type === 'fact' ? `'${o.name}'` : `${JSON.stringify(o.literal.value)}`)
  const pair = (a: Operand, b: Operand) => {
    const ta = typeOf(a)
    const tb = typeOf(b)
    if (ta && tb && ta !== 'null' && tb !== 'null' && !fits(ta, tb))
      problems.push(`${name(a)} (${ta}) is compared with ${name(b)} (${tb})`)
  }
  const walk = (n: CriteriaNode): void => {
    switch (n.type) {
      case 'and':
      case 'or':
        for (const c of n.operands) walk(c)
        break
      case 'not':
        walk(n.operand)
        break
      case 'compare':
        pair(n.left, n.right)
        break
      case 'between':
        pair(n.operand, n.low)
        pair(n.operand, n.high)
        break
      case 'in':
        for (const v of n.values) pair(n.operand, { type: 'literal', literal: v, start: 0, end: 0 })
        break
      case 'truth': {
        const t = typeOf(n.operand)
        if (t !== undefined && t !== 'boolean')
          problems.push(`${name(n.operand)} (${t}) is used as a condition; compare it with a value`)
        break
      }
      case 'isNull':
        break
    }
  }
  walk(node)
  return problems
}
