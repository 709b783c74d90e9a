// Contact data rules for account holders: US states, ZIP codes, phone numbers, tax ids. Encoded as
// schema patterns so that every bad field is reported together (400 on input, 422 after a patch).

/** USPS codes: the 50 states, DC, and the territories where contracts are sold. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'PR',
  'GU',
  'VI',
  'AS',
  'MP',
] as const

export type UsState = (typeof US_STATES)[number]

/** 5-digit ZIP or ZIP+4. */
export const ZIP_PATTERN = '^[0-9]{5}(-[0-9]{4})?$'

/**
 * E.164 (+15125550100) or the North American national form: 10 digits, optionally with a leading
 * 1, parentheses around the area code, and spaces, dots or dashes between groups.
 */
export const PHONE_PATTERN =
  '^(\\+[1-9][0-9]{6,14}|(1[ .-]?)?(\\([2-9][0-9]{2}\\)|[2-9][0-9]{2})[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4})$'

/** EIN (12-3456789) or SSN/ITIN (123-45-6789), dashes optional. */
export const TAX_ID_PATTERN = '^([0-9]{2}-?[0-9]{7}|[0-9]{3}-?[0-9]{2}-?[0-9]{4})$'

/** Phone numbers are stored as given; this is the canonical E.164 form for comparisons. */
export function phoneToE164(phone: string): string {
  const digits = phone.replace(/[^0-9+]/g, '')
  if (digits.startsWith('+')) return digits
  return digits.length === 10 ? `+1${digits}` : `+${digits}`
}

/** Shown instead of a tax id to callers without bank-details permission: last four digits only. */
export function maskTaxId(taxId: string | null): string | null {
  if (taxId === null) return null
  const digits = taxId.replace(/[^0-9]/g, '')
  return `*****${digits.slice(-4)}`
}

/** An account holder can take new business while active and not past its expired date. */
export function isActiveAccountHolder(
  row: { status: 'ACTIVE' | 'INACTIVE'; expired_date: Date | null },
  now: Date,
): boolean {
  return row.status === 'ACTIVE' && (row.expired_date === null || row.expired_date.getTime() > now.getTime())
}
