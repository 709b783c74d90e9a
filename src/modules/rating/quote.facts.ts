// The facts criteria can name (docs/criteria.md "Quote facts"): the quote's inputs and values
// derived from them. A rate book whose criteria name anything else is refused at import, so a typo
// cannot silently exclude a plan forever.

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
  vehicleAge: { type: 'number', description: 'Sale-date year minus model year (0 for the current model year, never negative).' },
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
  loanToValue: { type: 'number', description: 'amountFinanced / msrp (or / purchasePrice without MSRP), 4 decimals: 1.25 is 125%.' },
  customerState: { type: 'string', description: 'Customer state (defaults to the dealer\'s state).' },
  dealerState: { type: 'string', description: 'The dealer\'s state.' },
  dealerNumber: { type: 'string', description: 'The dealer number.' },
  basicWarrantyMonthsRemaining: { type: 'number', description: 'Months of the manufacturer basic warranty left at sale (0 when expired).' },
  basicWarrantyMilesRemaining: { type: 'number', description: 'Miles of the manufacturer basic warranty left at sale (0 when expired).' },
  powertrainWarrantyMonthsRemaining: { type: 'number', description: 'Months of the manufacturer powertrain warranty left at sale.' },
  powertrainWarrantyMilesRemaining: { type: 'number', description: 'Miles of the manufacturer powertrain warranty left at sale.' },
  termMonths: { type: 'number', description: 'The term being priced (term, rate and option criteria only).' },
  termMiles: { type: 'number', description: 'The term\'s miles (term, rate and option criteria only).' },
  deductible: { type: 'number', description: 'The deductible amount being priced (rate and option criteria only).' },
}

export function isQuoteFact(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(QUOTE_FACTS, name)
}
