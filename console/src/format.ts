// Money and dates as the console shows them. Amounts arrive as decimal numbers of dollars with at
// most two decimals (docs/money.md); sums are taken in integer cents. Timestamps are shown in the
// tenant's time zone (the `timeZone` general setting); calendar dates (a sale date) are shown as
// they are, since they are already the tenant's days.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })

export const toCents = (amount: number): number => Math.round(amount * 100)
export const money = (amount: number): string => usd.format(amount)
export const moneyFromCents = (cents: number): string => usd.format(cents / 100)
export const moneyShort = (amount: number): string => usdWhole.format(amount)
export const count = (n: number): string => n.toLocaleString('en-US')

let zone = Intl.DateTimeFormat().resolvedOptions().timeZone
let zoneIsTenants = false

const browserZone = zone

/** The tenant's zone (undefined: not readable by this user, the browser's is used). */
export function setTenantTimeZone(tz: string | undefined) {
  zone = tz ?? browserZone
  zoneIsTenants = tz !== undefined
}

export const timeZone = () => ({ zone, tenants: zoneIsTenants })

/** "Nov 26, 2026, 10:45 AM CST" in the tenant's zone. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  }).format(new Date(iso))
}

/** A calendar date "2026-11-21" as "Nov 21, 2026" (no zone: it is a day, not an instant). */
export function day(date: string | null | undefined): string {
  if (!date) return '—'
  const [y, m, d] = date.split('-').map(Number)
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(y!, m! - 1, d!))
}

/** Today's date in the tenant's zone, "2026-11-27". */
export function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  )
}

/** The calendar date `n` days before `date`. */
export function daysBefore(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! - n)).toISOString().slice(0, 10)
}
