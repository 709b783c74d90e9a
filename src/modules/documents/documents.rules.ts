// Pure rules of stored documents: the accepted content types and the check that the bytes are what
// their type says, file names, the Content-Disposition of a download, and the signed-link payload.
import { platformErrors } from '../../platform/http/errors.ts'
import { documentErrors } from './documents.errors.ts'

/** Media types an upload may have; anything else is 415. */
export const ALLOWED_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/tiff',
  'text/plain',
] as const
export type AllowedContentType = (typeof ALLOWED_CONTENT_TYPES)[number]

/** Versions one document may have: bounds every reply that lists them. */
export const MAX_VERSIONS = 100

export const MAX_FILE_NAME_LENGTH = 255

/** Owner types and kinds are codes of the owning module: upper case, as the database checks. */
export const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,39}$/

const EXTENSIONS: Record<AllowedContentType, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'text/plain': 'txt',
}

function unsupported(detail: string) {
  return platformErrors.create('unsupported_media_type', detail, {
    extensions: { accepted: [...ALLOWED_CONTENT_TYPES] },
  })
}

/**
 * The stored content type of an upload's Content-Type header: the media type in lower case, with
 * `charset=utf-8` for text (the only text encoding accepted; US-ASCII is a subset of it). Throws
 * 415 for anything outside the allow-list.
 */
export function normalizeContentType(header: string | undefined): { stored: string; type: AllowedContentType } {
  if (header === undefined || header.trim() === '')
    throw unsupported(`A Content-Type header is required; accepted: ${ALLOWED_CONTENT_TYPES.join(', ')}`)
  const [essence = '', ...params] = header.split(';')
  const type = essence.trim().toLowerCase()
  if (!(ALLOWED_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw unsupported(
      `Content type ${JSON.stringify(type.slice(0, 100))} is not accepted; accepted: ${ALLOWED_CONTENT_TYPES.join(', ')}`,
    )
  }
  const allowed = type as AllowedContentType
  if (allowed !== 'text/plain') return { stored: allowed, type: allowed }
  for (const param of params) {
    const [name = '', value = ''] = param.split('=')
    if (name.trim().toLowerCase() !== 'charset') continue
    const charset = value.trim().replace(/^"|"$/g, '').toLowerCase()
    if (charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
      throw unsupported(`text/plain must be UTF-8 (charset=utf-8), not ${JSON.stringify(charset.slice(0, 40))}`)
    }
  }
  return { stored: 'text/plain; charset=utf-8', type: allowed }
}

/** Checks the bytes of an upload as they stream past: throws as soon as they cannot be of `type`. */
export type ContentCheck = { update(chunk: Uint8Array): void; finish(): void }

const HEAD_BYTES = 1024

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((b, i) => head[at + i] === b)
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** Whether `head` (the first bytes, up to 1024) can begin a file of `type`; text is checked separately. */
export function headMatches(type: Exclude<AllowedContentType, 'text/plain'>, head: Uint8Array): boolean {
  switch (type) {
    case 'application/pdf': {
      // ISO 32000 lets the header appear anywhere in the first 1024 bytes.
      const marker = ascii('%PDF-')
      for (let i = 0; i + marker.length <= head.length; i++) if (startsWith(head, marker, i)) return true
      return false
    }
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff])
    case 'image/gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))
    case 'image/webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)
    case 'image/tiff':
      return startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])
  }
}

/**
 * The check of an upload declared as `type`: binary types by their signature in the first bytes
 * (so an HTML page labelled image/png is refused), text as well-formed UTF-8 without NUL bytes.
 */
export function createContentCheck(type: AllowedContentType): ContentCheck {
  const mismatch = () =>
    documentErrors.create(
      'document_content_mismatch',
      `The content is not ${type === 'text/plain' ? 'UTF-8 text' : `a ${EXTENSIONS[type].toUpperCase()} file`} as its content type ${type} says`,
    )
  if (type === 'text/plain') {
    const decoder = new TextDecoder('utf-8', { fatal: true })
    return {
      update(chunk) {
        if (chunk.includes(0)) throw mismatch()
        try {
          decoder.decode(chunk, { stream: true })
        } catch {
          throw mismatch()
        }
      },
      finish() {
        try {
          decoder.decode()
        } catch {
          throw mismatch()
        }
      },
    }
  }
  let head = new Uint8Array(0)
  let decided = false
  const decide = () => {
    decided = true
    if (!headMatches(type, head)) throw mismatch()
  }
  return {
    update(chunk) {
      if (decided) return
      const next = new Uint8Array(Math.min(HEAD_BYTES, head.length + chunk.length))
      next.set(head)
      next.set(chunk.subarray(0, next.length - head.length), head.length)
      head = next
      if (head.length >= HEAD_BYTES) decide()
    },
    finish() {
      if (!decided) decide()
    },
  }
}

/**
 * The file name kept for an upload: the last path segment of what the client sent (browsers and
 * tools send paths), trimmed. Nothing usable left, control characters, or more than 255
 * characters: a problem saying which.
 */
export function cleanFileName(raw: string): { name: string } | { problem: string } {
  const base = raw.split(/[/\\]/).pop()?.trim() ?? ''
  if (base === '' || base === '.' || base === '..') return { problem: 'must name a file' }
  // oxlint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(base)) return { problem: 'must not contain control characters' }
  if ([...base].length > MAX_FILE_NAME_LENGTH) return { problem: `must be at most ${MAX_FILE_NAME_LENGTH} characters` }
  return { name: base }
}

/** A document title: trimmed, 1 to 255 characters, no control characters. */
export function cleanTitle(raw: string): { name: string } | { problem: string } {
  const title = raw.trim()
  if (title === '') return { problem: 'must not be empty' }
  // oxlint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(title)) return { problem: 'must not contain control characters' }
  if ([...title].length > MAX_FILE_NAME_LENGTH) return { problem: `must be at most ${MAX_FILE_NAME_LENGTH} characters` }
  return { name: title }
}

/** The name given to an upload that names none: `document.<extension of its type>`. */
export function defaultFileName(type: AllowedContentType): string {
  return `document.${EXTENSIONS[type]}`
}

/**
 * The file name of a request's Content-Disposition header (RFC 6266): `filename*` (RFC 8187,
 * UTF-8) preferred over `filename`. Undefined when the header names none or cannot be read.
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header)
  if (extended) {
    const match = /^utf-8'[^']*'(.+)$/i.exec((extended[1] ?? '').trim())
    if (match) {
      try {
        return decodeURIComponent(match[1] ?? '')
      } catch {
        return undefined
      }
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header)
  if (!plain) return undefined
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]
}

/**
 * Content-Disposition of a download (RFC 6266): an ASCII `filename` for old clients and the exact
 * name as RFC 8187 `filename*`. Always `attachment`: stored content is never rendered in the
 * service's origin.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

/** What a download link's signature covers: the tenant, the file and the expiry (Unix seconds). */
export function linkPayload(tenantId: number, fileId: number, expires: number): string {
  return `vpp-file-link:v1:${tenantId}:${fileId}:${expires}`
}

/** The expiry (Unix seconds, rounded up) of a link made at `now` living `ttlSeconds`. */
export function linkExpiry(now: Date, ttlSeconds: number): number {
  return Math.ceil(now.getTime() / 1000) + ttlSeconds
}

/** The relative URL of a signed download link. */
export function linkUrl(tenantId: number, fileId: number, expires: number, signature: string): string {
  return `/api/files/${fileId}?t=${tenantId}&expires=${expires}&signature=${signature}`
}
