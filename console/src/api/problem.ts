// Errors of the API (application/problem+json, docs/errors.md) as the screens show them: the
// `errors[]` that name a field next to that field, the rest above the form.
import type { Problem } from './types.ts'

export class ApiProblem extends Error {
  readonly problem: Problem
  constructor(problem: Problem) {
    super(problem.detail || problem.title)
    this.name = 'ApiProblem'
    this.problem = problem
  }
  get status(): number {
    return this.problem.status
  }
}

/** Whatever a failed call gave (a problem body, a network failure) as one problem. */
export function toProblem(err: unknown, response?: Response): Problem {
  if (err instanceof ApiProblem) return err.problem
  if (err && typeof err === 'object' && 'code' in err && 'status' in err) return err as Problem
  const status = response?.status ?? 0
  const detail =
    err instanceof Error ? err.message : status ? `The service answered ${status}` : 'The service could not be reached'
  return {
    type: 'about:blank',
    title: 'Request failed',
    status,
    detail,
    instance: '',
    code: 'request_failed',
    requestId: '',
  }
}

/** The message of each field named in `errors[]`, by field name (the first message wins). */
export function fieldErrors(problem: Problem | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of problem?.errors ?? []) out[e.field] ??= e.message
  return out
}

/** The problem's errors that name none of `shown` (they are listed above the form). */
export function otherErrors(problem: Problem | undefined, shown: readonly string[]) {
  return (problem?.errors ?? []).filter((e) => !shown.includes(e.field))
}
