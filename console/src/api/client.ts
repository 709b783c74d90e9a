// The API client: openapi-fetch typed by the generated `paths`, so that every path, parameter and
// reply the console uses is checked against docs/openapi.json. It adds the tenant's API key and the
// user's token to each call, and a 401 ends the session (back to sign-in, the page kept).
import createClient from 'openapi-fetch'
import { useEffect, useState } from 'react'
import { ApiProblem, toProblem } from './problem.ts'
import type { paths, Problem } from './types.ts'
import { expire, getSession } from '../session.ts'

export const api = createClient<paths>({ baseUrl: window.location.origin })

api.use({
  onRequest({ request }) {
    const s = getSession()
    if (s?.apiKey && !request.headers.has('x-api-key')) request.headers.set('X-Api-Key', s.apiKey)
    if (s?.token && !request.headers.has('authorization')) request.headers.set('Authorization', `Bearer ${s.token}`)
    return request
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.toLowerCase().startsWith('/api/auth/token')) {
      expire()
    }
    return response
  },
})

/** The data of an openapi-fetch result, or an ApiProblem with the API's problem body. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new ApiProblem(toProblem(result.error, result.response))
  return result.data as T
}

export type Loaded<T> = { data: T | undefined; problem: Problem | undefined; loading: boolean }

/**
 * Runs `load` when `key` changes and keeps the last answer: the data, or the problem the API
 * answered (never a blank screen). A stale answer (the key changed meanwhile) is dropped.
 */
export function useApi<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T> & { key?: string }>({
    data: undefined,
    problem: undefined,
    loading: true,
  })
  useEffect(() => {
    let live = true
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => live && setState({ data, problem: undefined, loading: false, key }),
      (err: unknown) => live && setState({ data: undefined, problem: toProblem(err), loading: false, key }),
    )
    return () => {
      live = false
    }
    // `load` closes over what `key` names.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
  return state
}
