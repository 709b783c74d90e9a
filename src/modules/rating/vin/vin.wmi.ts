// World manufacturer identifiers (VIN positions 1-3) of the major makes sold in the US. Deliberately
// small and conservative: a code is listed only when it is well established; anything else decodes
// with region only. `make` is left out where one WMI is shared by several makes (for example FCA's
// 1C4, used by Chrysler, Dodge and Jeep). Small manufacturers (third character 9, with positions
// 12-14 completing the code) are not covered. Scope and limits: docs/vin.md.

export type WmiEntry = { readonly manufacturer: string; readonly make?: string; readonly country: string }

const US = 'United States'
const CA = 'Canada'
const MX = 'Mexico'
const JP = 'Japan'
const KR = 'South Korea'
const DE = 'Germany'
const UK = 'United Kingdom'
const IT = 'Italy'
const SE = 'Sweden'
const CN = 'China'

const e = (manufacturer: string, make: string | undefined, country: string): WmiEntry =>
  make === undefined ? { manufacturer, country } : { manufacturer, make, country }

export const WMI: ReadonlyMap<string, WmiEntry> = new Map<string, WmiEntry>([
  // Honda / Acura
  ['1HG', e('Honda', 'Honda', US)],
  ['19X', e('Honda', 'Honda', US)],
  ['5FN', e('Honda', 'Honda', US)],
  ['5J6', e('Honda', 'Honda', US)],
  ['2HG', e('Honda', 'Honda', CA)],
  ['2HK', e('Honda', 'Honda', CA)],
  ['JHM', e('Honda', 'Honda', JP)],
  ['JHL', e('Honda', 'Honda', JP)],
  ['19U', e('Honda', 'Acura', US)],
  ['5J8', e('Honda', 'Acura', US)],
  ['2HN', e('Honda', 'Acura', CA)],
  ['JH4', e('Honda', 'Acura', JP)],
  // Toyota / Lexus
  ['4T1', e('Toyota', 'Toyota', US)],
  ['5TD', e('Toyota', 'Toyota', US)],
  ['5TF', e('Toyota', 'Toyota', US)],
  ['5YF', e('Toyota', 'Toyota', US)],
  ['2T1', e('Toyota', 'Toyota', CA)],
  ['2T3', e('Toyota', 'Toyota', CA)],
  ['3TM', e('Toyota', 'Toyota', MX)],
  ['JT2', e('Toyota', 'Toyota', JP)],
  ['JTD', e('Toyota', 'Toyota', JP)],
  ['JTE', e('Toyota', 'Toyota', JP)],
  ['JTM', e('Toyota', 'Toyota', JP)],
  ['JTN', e('Toyota', 'Toyota', JP)],
  ['JTH', e('Toyota', 'Lexus', JP)],
  ['JTJ', e('Toyota', 'Lexus', JP)],
  ['2T2', e('Toyota', 'Lexus', CA)],
  // Ford / Lincoln
  ['1FA', e('Ford', 'Ford', US)],
  ['1FB', e('Ford', 'Ford', US)],
  ['1FD', e('Ford', 'Ford', US)],
  ['1FM', e('Ford', 'Ford', US)],
  ['1FT', e('Ford', 'Ford', US)],
  ['1ZV', e('Ford', 'Ford', US)],
  ['2FA', e('Ford', 'Ford', CA)],
  ['2FM', e('Ford', 'Ford', CA)],
  ['2FT', e('Ford', 'Ford', CA)],
  ['3FA', e('Ford', 'Ford', MX)],
  ['3FM', e('Ford', 'Ford', MX)],
  ['WF0', e('Ford', 'Ford', DE)],
  ['1LN', e('Ford', 'Lincoln', US)],
  ['5LM', e('Ford', 'Lincoln', US)],
  ['2LM', e('Ford', 'Lincoln', CA)],
  ['3LN', e('Ford', 'Lincoln', MX)],
  // General Motors
  ['1G1', e('General Motors', 'Chevrolet', US)],
  ['1GB', e('General Motors', 'Chevrolet', US)],
  ['1GC', e('General Motors', 'Chevrolet', US)],
  ['1GN', e('General Motors', 'Chevrolet', US)],
  ['2G1', e('General Motors', 'Chevrolet', CA)],
  ['2GN', e('General Motors', 'Chevrolet', CA)],
  ['3GC', e('General Motors', 'Chevrolet', MX)],
  ['3GN', e('General Motors', 'Chevrolet', MX)],
  ['KL1', e('General Motors', 'Chevrolet', KR)],
  ['1GT', e('General Motors', 'GMC', US)],
  ['1GK', e('General Motors', 'GMC', US)],
  ['2GT', e('General Motors', 'GMC', CA)],
  ['3GT', e('General Motors', 'GMC', MX)],
  ['1G6', e('General Motors', 'Cadillac', US)],
  ['1GY', e('General Motors', 'Cadillac', US)],
  ['1G4', e('General Motors', 'Buick', US)],
  ['5GA', e('General Motors', 'Buick', US)],
  ['2G4', e('General Motors', 'Buick', CA)],
  ['1G2', e('General Motors', 'Pontiac', US)],
  // Stellantis (FCA US): Chrysler, Dodge, Jeep, Ram
  ['1C3', e('FCA US (Chrysler)', undefined, US)],
  ['1C4', e('FCA US (Chrysler)', undefined, US)],
  ['1C6', e('FCA US (Chrysler)', 'Ram', US)],
  ['2C3', e('FCA US (Chrysler)', undefined, CA)],
  ['2C4', e('FCA US (Chrysler)', undefined, CA)],
  ['3C4', e('FCA US (Chrysler)', undefined, MX)],
  ['3C6', e('FCA US (Chrysler)', 'Ram', MX)],
  ['1B3', e('Chrysler', 'Dodge', US)],
  ['1B7', e('Chrysler', 'Dodge', US)],
  ['1D7', e('Chrysler', 'Dodge', US)],
  ['2B3', e('Chrysler', 'Dodge', CA)],
  ['3D7', e('Chrysler', 'Dodge', MX)],
  ['1J4', e('Chrysler', 'Jeep', US)],
  ['1J8', e('Chrysler', 'Jeep', US)],
  ['ZAC', e('FCA Italy', 'Jeep', IT)],
  // Nissan / Infiniti
  ['1N4', e('Nissan', 'Nissan', US)],
  ['1N6', e('Nissan', 'Nissan', US)],
  ['5N1', e('Nissan', undefined, US)],
  ['3N1', e('Nissan', 'Nissan', MX)],
  ['JN1', e('Nissan', undefined, JP)],
  ['JN8', e('Nissan', undefined, JP)],
  ['JNK', e('Nissan', 'Infiniti', JP)],
  ['JNR', e('Nissan', 'Infiniti', JP)],
  // Hyundai / Kia / Genesis
  ['KMH', e('Hyundai', undefined, KR)],
  ['KM8', e('Hyundai', 'Hyundai', KR)],
  ['5NP', e('Hyundai', 'Hyundai', US)],
  ['5NM', e('Hyundai', 'Hyundai', US)],
  ['KMT', e('Hyundai', 'Genesis', KR)],
  ['KNA', e('Kia', 'Kia', KR)],
  ['KND', e('Kia', 'Kia', KR)],
  ['5XX', e('Kia', 'Kia', US)],
  ['5XY', e('Kia', 'Kia', US)],
  ['3KP', e('Kia', 'Kia', MX)],
  // Subaru, Mazda, Mitsubishi
  ['JF1', e('Subaru', 'Subaru', JP)],
  ['JF2', e('Subaru', 'Subaru', JP)],
  ['4S3', e('Subaru', 'Subaru', US)],
  ['4S4', e('Subaru', 'Subaru', US)],
  ['JM1', e('Mazda', 'Mazda', JP)],
  ['JM3', e('Mazda', 'Mazda', JP)],
  ['3MZ', e('Mazda', 'Mazda', MX)],
  ['7MM', e('Mazda Toyota Manufacturing', 'Mazda', US)],
  ['JA3', e('Mitsubishi', 'Mitsubishi', JP)],
  ['JA4', e('Mitsubishi', 'Mitsubishi', JP)],
  ['4A3', e('Mitsubishi', 'Mitsubishi', US)],
  ['4A4', e('Mitsubishi', 'Mitsubishi', US)],
  ['ML3', e('Mitsubishi', 'Mitsubishi', 'Thailand')],
  // Volkswagen group
  ['WVW', e('Volkswagen', 'Volkswagen', DE)],
  ['WVG', e('Volkswagen', 'Volkswagen', DE)],
  ['WV1', e('Volkswagen', 'Volkswagen', DE)],
  ['WV2', e('Volkswagen', 'Volkswagen', DE)],
  ['1VW', e('Volkswagen', 'Volkswagen', US)],
  ['1V2', e('Volkswagen', 'Volkswagen', US)],
  ['3VW', e('Volkswagen', 'Volkswagen', MX)],
  ['3VV', e('Volkswagen', 'Volkswagen', MX)],
  ['WAU', e('Audi', 'Audi', DE)],
  ['WA1', e('Audi', 'Audi', DE)],
  ['WUA', e('Audi', 'Audi', DE)],
  ['TRU', e('Audi', 'Audi', 'Hungary')],
  ['WP0', e('Porsche', 'Porsche', DE)],
  ['WP1', e('Porsche', 'Porsche', DE)],
  // BMW / MINI
  ['WBA', e('BMW', 'BMW', DE)],
  ['WBS', e('BMW', 'BMW', DE)],
  ['WBX', e('BMW', 'BMW', DE)],
  ['WBY', e('BMW', 'BMW', DE)],
  ['5UX', e('BMW', 'BMW', US)],
  ['5YM', e('BMW', 'BMW', US)],
  ['4US', e('BMW', 'BMW', US)],
  ['WMW', e('BMW', 'MINI', DE)],
  // Mercedes-Benz
  ['WDB', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['WDC', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['WDD', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['W1K', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['W1N', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['W1V', e('Mercedes-Benz', 'Mercedes-Benz', DE)],
  ['4JG', e('Mercedes-Benz', 'Mercedes-Benz', US)],
  ['55S', e('Mercedes-Benz', 'Mercedes-Benz', US)],
  // Volvo
  ['YV1', e('Volvo Cars', 'Volvo', SE)],
  ['YV4', e('Volvo Cars', 'Volvo', SE)],
  ['7JR', e('Volvo Cars', 'Volvo', US)],
  ['LYV', e('Volvo Cars', 'Volvo', CN)],
  // Tesla, Rivian, Polestar
  ['5YJ', e('Tesla', 'Tesla', US)],
  ['7SA', e('Tesla', 'Tesla', US)],
  ['LRW', e('Tesla', 'Tesla', CN)],
  ['XP7', e('Tesla', 'Tesla', DE)],
  ['7FC', e('Rivian', 'Rivian', US)],
  ['LPS', e('Polestar', 'Polestar', CN)],
  // Jaguar Land Rover
  ['SAL', e('Jaguar Land Rover', 'Land Rover', UK)],
  ['SAJ', e('Jaguar Land Rover', 'Jaguar', UK)],
  ['SAD', e('Jaguar Land Rover', 'Jaguar', UK)],
  // Italian makes
  ['ZFA', e('Fiat', 'Fiat', IT)],
  ['ZAR', e('Alfa Romeo', 'Alfa Romeo', IT)],
  ['ZAM', e('Maserati', 'Maserati', IT)],
  ['ZFF', e('Ferrari', 'Ferrari', IT)],
  ['ZHW', e('Lamborghini', 'Lamborghini', IT)],
])

/**
 * The continent (and for the most common first characters, the country) a VIN's first character is
 * allocated to under ISO 3780 / SAE J1044. Country is given only where the whole character is one
 * country; `7` is New Zealand's range but the US also holds some of it, hence the WMI table first.
 */
export function regionOf(firstChar: string): { region: string; country?: string } {
  const c = firstChar
  if (c === '1' || c === '4' || c === '5') return { region: 'North America', country: US }
  if (c === '2') return { region: 'North America', country: CA }
  if (c === '3') return { region: 'North America' }
  if (c === '6' || c === '7') return { region: 'Oceania' }
  if (c === '8' || c === '9') return { region: 'South America' }
  if (c >= 'A' && c <= 'H') return { region: 'Africa' }
  if (c === 'J') return { region: 'Asia', country: JP }
  if (c >= 'K' && c <= 'R') return { region: 'Asia' }
  if (c >= 'S' && c <= 'Z') return { region: 'Europe' }
  return { region: 'Unknown' }
}
