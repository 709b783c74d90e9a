// A small router over the History API: the console's screens are a handful of paths under
// /console, and every list keeps its search, sort and page in the query string so a URL can be shared.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react'

export const BASE = '/console'

const listeners = new Set<() => void>()
const notify = () => {
  for (const l of listeners) l()
}
window.addEventListener('popstate', notify)

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

const snapshot = () => window.location.pathname + window.location.search

/** The path under /console ("/", "/contracts", "/contracts/42") and the query. */
export function useLocation(): { path: string; query: URLSearchParams; href: string } {
  const href = useSyncExternalStore(subscribe, snapshot)
  const url = new URL(href, window.location.origin)
  let path = url.pathname.slice(BASE.length) || '/'
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  return { path, query: url.searchParams, href: path + url.search }
}

/** `to` is a console path such as "/contracts?status=ACTIVE". */
export function navigate(to: string, { replace = false } = {}) {
  const url = BASE + (to.startsWith('/') ? to : `/${to}`)
  if (url === snapshot()) return
  if (replace) window.history.replaceState(null, '', url)
  else window.history.pushState(null, '', url)
  notify()
  window.scrollTo(0, 0)
}

/** The query string of `params`, without empty values. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `?${s}` : ''
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }

/** A link that navigates in place (and opens a new tab with the usual modifiers). */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(to)
  }
  return <a href={BASE + to} onClick={click} {...rest} />
}
