// The console's static serving (console.ts): files, the SPA fallback for deep links, caching, gzip,
// paths that leave the folder, a missing build; and the build's staleness check.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { after, test } from 'node:test'
import Fastify from 'fastify'
import { consoleBuildState, consoleRoutes, consoleSourceHash, SOURCE_HASH_FILE } from './console.ts'
import { installErrorHandling } from './error-handler.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-console-static-'))
const dist = path.join(root, 'dist')
fs.mkdirSync(path.join(dist, 'assets'), { recursive: true })
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>')
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("hi")')
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync('console.log("hi")'))
fs.writeFileSync(path.join(root, 'secret.txt'), 'outside the build')
after(() => fs.rmSync(root, { recursive: true, force: true }))

async function app(dir = dist) {
  const a = Fastify()
  installErrorHandling(a)
  await a.register(consoleRoutes, { dir })
  return a
}

test('deep links are the application, never cached, with its content security policy', async () => {
  const a = await app()
  for (const url of ['/console', '/console/', '/console/contracts/42?status=ACTIVE', '/console/signin']) {
    const res = await a.inject({ url })
    assert.equal(res.statusCode, 200, url)
    assert.match(res.headers['content-type'] as string, /^text\/html/)
    assert.equal(res.headers['cache-control'], 'no-cache')
    assert.match(res.headers['content-security-policy'] as string, /default-src 'self'/)
    assert.match(res.body, /id="root"/)
  }
})

test('hashed assets are cached for a year, gzipped for clients that accept it', async () => {
  const a = await app()
  const plain = await a.inject({ url: '/console/assets/index-abc123.js' })
  assert.equal(plain.statusCode, 200)
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.match(plain.headers['content-type'] as string, /^text\/javascript/)
  assert.equal(plain.body, 'console.log("hi")')
  assert.equal(plain.headers['content-encoding'], undefined)
  const gz = await a.inject({ url: '/console/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } })
  assert.equal(gz.headers['content-encoding'], 'gzip')
  assert.equal(zlib.gunzipSync(gz.rawPayload).toString(), 'console.log("hi")')
})

test('a missing asset is a 404 problem; paths out of the folder are not served', async () => {
  const a = await app()
  const missing = await a.inject({ url: '/console/assets/gone-000.js' })
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().code, 'route_not_found')
  for (const url of ['/console/../secret.txt', '/console/%2e%2e/secret.txt', '/console/assets/..%2f..%2fsecret.txt']) {
    const res = await a.inject({ url })
    assert.doesNotMatch(res.body, /outside the build/, url)
  }
})

test('without a build: 503 naming the command that builds it', async () => {
  const a = await app(path.join(root, 'nothing'))
  const res = await a.inject({ url: '/console/' })
  assert.equal(res.statusCode, 503)
  assert.match(res.json().detail, /npm run console:build/)
})

test('the build is missing, current or stale by the hash of its sources', () => {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-console-src-'))
  const consoleDir = path.join(src, 'console')
  fs.mkdirSync(path.join(consoleDir, 'src'), { recursive: true })
  fs.writeFileSync(path.join(src, 'package-lock.json'), '{}')
  fs.writeFileSync(path.join(consoleDir, 'src', 'main.tsx'), 'one')
  try {
    assert.equal(consoleBuildState(consoleDir), 'missing')
    fs.mkdirSync(path.join(consoleDir, 'dist'))
    fs.writeFileSync(path.join(consoleDir, 'dist', 'index.html'), '')
    fs.writeFileSync(path.join(consoleDir, 'dist', SOURCE_HASH_FILE), consoleSourceHash(consoleDir))
    assert.equal(consoleBuildState(consoleDir), 'current')
    fs.writeFileSync(path.join(consoleDir, 'src', 'main.tsx'), 'two')
    assert.equal(consoleBuildState(consoleDir), 'stale')
  } finally {
    fs.rmSync(src, { recursive: true, force: true })
  }
})
