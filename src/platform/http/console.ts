// The staff console (console/, docs/console.md): its built files served at /console. Hashed assets
// (console/dist/assets/*) are cached for a year; every other path under /console that is not a file
// is the single-page application's index.html (a deep link such as /console/contracts/42), never
// cached, so that a new build is picked up at the next load. Files the build compressed (*.gz) are
// sent compressed to clients that accept gzip. No authentication: the console calls the /api routes
// with the user's own credentials, like any other client.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { platformErrors } from './errors.ts'

/** The repository's console folder, and where its build is written. */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../../console/', import.meta.url))
export const CONSOLE_DIST = path.join(CONSOLE_ROOT, 'dist')
/** Written by scripts/console-build.ts beside the build: the hash of the sources it was built from. */
export const SOURCE_HASH_FILE = '.source-hash'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

/** The console's own policy: its scripts and styles from /console only; the API on the same origin. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables in style attributes and one style element.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The contract wizard shows the draft PDF it was sent (a blob: URL) in a frame.
  "frame-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ')

const SAFE_PATH = /^[\w.-]+(?:\/[\w.-]+)*$/

/** Every file the build depends on, relative to the repository root, sorted. */
function sourceFiles(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      // dist and dist.<pid>-<time> (a build under way) are outputs, not sources.
      if (entry.name.startsWith('dist') || entry.name === 'node_modules' || entry.name.startsWith('.')) continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else out.push(full)
    }
  }
  walk(root)
  return out.toSorted()
}

/**
 * The hash of what a build is made from: every file of console/ (but its build) and the lock file
 * (a changed dependency changes the bundle). A few dozen small files: a few milliseconds.
 */
export function consoleSourceHash(root = CONSOLE_ROOT): string {
  const hash = createHash('sha256')
  const files = [...sourceFiles(root), path.join(root, '..', 'package-lock.json')]
  for (const file of files) {
    hash.update(path.relative(path.join(root, '..'), file))
    hash.update('\0')
    hash.update(fs.readFileSync(file))
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** 'current', 'missing' (never built) or 'stale' (built from other sources). */
export function consoleBuildState(
  root = CONSOLE_ROOT,
  dist = path.join(root, 'dist'),
): 'current' | 'missing' | 'stale' {
  let built: string
  try {
    built = fs.readFileSync(path.join(dist, SOURCE_HASH_FILE), 'utf8').trim()
    fs.accessSync(path.join(dist, 'index.html'))
  } catch {
    return 'missing'
  }
  return built === consoleSourceHash(root) ? 'current' : 'stale'
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.promises.readFile(file)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined
    throw err
  }
}

export async function consoleRoutes(app: FastifyInstance, { dir = CONSOLE_DIST }: { dir?: string } = {}) {
  const send = async (req: FastifyRequest, reply: FastifyReply, relative: string) => {
    const asset = relative.startsWith('assets/')
    const file = path.join(dir, relative)
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
    let body = gzip ? await readIfFile(`${file}.gz`) : undefined
    const compressed = body !== undefined
    body ??= await readIfFile(file)
    if (body === undefined) return false
    reply
      .header('content-type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding')
    if (compressed) reply.header('content-encoding', 'gzip')
    if (relative === 'index.html') {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('referrer-policy', 'no-referrer')
    }
    await reply.send(body)
    return true
  }

  const handler = async (req: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
    const rest = req.params['*'] ?? ''
    if (rest !== '' && SAFE_PATH.test(rest) && !rest.split('/').includes('..') && (await send(req, reply, rest))) return
    // A missing hashed asset is a 404 (an old page after a new build), not the application.
    if (rest.startsWith('assets/')) throw platformErrors.create('route_not_found', `No console file ${rest}`)
    if (await send(req, reply, 'index.html')) return
    throw platformErrors.create(
      'service_unavailable',
      'The console is not built: run `npm run console:build` (npm install and npm start build it too)',
    )
  }
  const options = { schema: { hide: true }, config: { auth: 'none' as const } }
  app.get('/console', options, handler)
  app.get('/console/*', options, handler)
}
