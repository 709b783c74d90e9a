// Strong ETags from row versions; If-Match on writes (optional, 412 on mismatch).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { platformErrors } from './errors.ts'

export function etagOf(version: number): string {
  return `"${version}"`
}

export function setEtag(reply: FastifyReply, version: number): void {
  reply.header('etag', etagOf(version))
}

/** Throws 412 when the request's If-Match names none of the current version. */
export function assertIfMatch(request: FastifyRequest, currentVersion: number): void {
  const header = request.headers['if-match']
  if (header === undefined) return
  const tags = header.split(',').map((t) => t.trim())
  if (tags.includes('*') || tags.includes(etagOf(currentVersion))) return
  throw platformErrors.create(
    'precondition_failed',
    `If-Match ${header} does not match the current version ${etagOf(currentVersion)}`,
  )
}

/** The version the request expects, if any: lets a service check it inside its transaction. */
export function expectedVersion(request: FastifyRequest): (current: number) => void {
  return (current) => assertIfMatch(request, current)
}
