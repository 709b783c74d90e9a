/** Injected time source, so tests can move time (expiry, earnings, free-look). */
export type Clock = { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until moved; for tests and simulations. */
export function createManualClock(start: Date = new Date()): Clock & { set(d: Date): void; advance(ms: number): void } {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    set: (d: Date) => {
      current = d.getTime()
    },
    advance: (ms: number) => {
      current += ms
    },
  }
}

const dateFormats = new Map<string, { format: Intl.DateTimeFormat; minute: number; date: string }>()

/** The calendar date (YYYY-MM-DD) of `instant` in the IANA time zone `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  let zone = dateFormats.get(timeZone)
  if (!zone) {
    // en-CA writes dates as YYYY-MM-DD.
    zone = {
      format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
      minute: Number.NaN,
      date: '',
    }
    dateFormats.set(timeZone, zone)
  }
  // Zone offsets are whole minutes, so the date changes only on a minute: the last one is kept.
  const minute = Math.floor(instant.getTime() / 60_000)
  if (minute !== zone.minute) {
    zone.date = zone.format.format(instant)
    zone.minute = minute
  }
  return zone.date
}
