// User activity rules (spec §3): expiredDate in the past is stored as now; in the future it is
// stored as given and the user stops being active at that instant; null means active.

export function storedExpiredDate(requested: Date | null, now: Date, current: Date | null = null): Date | null {
  if (requested === null) return null
  // A replacement that repeats the stored moment (a GET reply sent back) leaves it as it was.
  if (current !== null && requested.getTime() === current.getTime()) return current
  return requested.getTime() < now.getTime() ? new Date(now.getTime()) : requested
}

export function isActive(expiredDate: Date | null, now: Date): boolean {
  return expiredDate === null || expiredDate.getTime() > now.getTime()
}

/** Email addresses compare case-insensitively, as mail systems do. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}
