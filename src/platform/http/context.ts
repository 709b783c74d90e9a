// The request context: who is calling, for which tenant, with which permissions. Built once by
// authentication and passed to services as `ctx` (never individual actor fields).
export type Principal = {
  userId: number
  emailAddress: string
  permissions: ReadonlySet<string>
  /**
   * Dealers a dealer-side user may see (those of its DEALER groups); null for members of a STAFF
   * group, who see every account holder. A user in no group sees no dealer.
   */
  visibleAccountHolderIds: ReadonlySet<number> | null
}

export type RequestContext = {
  requestId: string
  tenantId: number
  apiKeyId: number
  /** Absent only on routes that need an API key but no user (the token endpoint). */
  principal: Principal | undefined
}

export type AuthenticatedContext = RequestContext & { principal: Principal }

/**
 * The context of a request to a route that names a permission: authentication has put a user in
 * it. A route without a permission (the token endpoint) reads `req.ctx` itself. Throws (a 500,
 * logged) when the route was declared without a permission by mistake, rather than letting an
 * anonymous caller through.
 */
export function authenticatedContext(req: { ctx: RequestContext }): AuthenticatedContext {
  const ctx = req.ctx
  if (!ctx?.principal) throw new Error('route needs a permission: the request has no authenticated user')
  return ctx as AuthenticatedContext
}

/** Label of the actor for audit records: the user's email, or the API key. */
export function actorLabel(ctx: RequestContext): string {
  return ctx.principal ? ctx.principal.emailAddress : `api-key:${ctx.apiKeyId}`
}

/** Context for work done by an operator (CLI) or the system itself, outside any request. */
export function systemContext(tenantId: number, label = 'system'): AuthenticatedContext {
  return {
    requestId: label,
    tenantId,
    apiKeyId: 0,
    principal: { userId: 0, emailAddress: label, permissions: new Set(['*']), visibleAccountHolderIds: null },
  }
}

export function hasPermission(permissions: ReadonlySet<string>, permission: string): boolean {
  return permissions.has('*') || permissions.has(permission)
}
