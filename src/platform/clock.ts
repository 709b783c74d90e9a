/** Injected time source, so tests can move time (expiry, earnings, free-look). */
export type Clock = { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until moved; for tests and simulations. */
export function createManualClock(start: Date = new Date()): Clock & { set(d: Date): void; advance(ms: number): void } {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    set: (d: Date) => { current = d.getTime() },
    advance: (ms: number) => { current += ms },
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** The calendar date (YYYY-MM-DD) of `instant` in the IANA time zone `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone)
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dateFormats.set(timeZone, format)
  }
  return format.format(instant)
}
