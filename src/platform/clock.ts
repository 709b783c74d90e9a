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
