// The process as `npm start` runs it: first start seeds the demo tenant and writes its credentials;
// the printed credentials work; SIGTERM finishes cleanly (exit 0) and releases the data directory.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { killAtEnd } from './harness.ts'

function start(env: Record<string, string>) {
  // expectDemo=yes: wait for the demo instructions too, printed right after listening. No timer of its
  // own decides that the server failed to start: the runner's test timeout bounds the wait, and the
  // process is killed when the file's tests end, whatever their outcome.
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  killAtEnd(child)
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m && (env.expectDemo !== 'yes' || out.includes('API reference:'))) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)))
  })
  listening.catch(() => {}) // awaited by callers that expect the server to come up
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, listening, exited, output: () => out }
}

// This test runs `npm start` on the embedded database whatever the environment says (DATABASE_URL
// is cleared below), so in the suite's PostgreSQL pass it would only repeat the embedded pass's run
// (about 20 s): skipped there.
const repeat = process.env.DATABASE_URL ? 'runs on the embedded database only: done in the embedded pass' : false

test('npm start: demo tenant, working credentials, graceful SIGTERM', { skip: repeat }, async () => {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-main-')), 'data')
  // The embedded database is what `npm start` uses; a DATABASE_URL from the environment must not leak
  // in, nor the URLs that only go with one (scripts/with-pgbouncer.sh sets DATABASE_LISTEN_URL).
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
    DATABASE_LISTEN_URL: '',
    DATABASE_READ_URL: '',
  }
  const server = start({ ...env, DATABASE_URL: '', expectDemo: 'yes' })
  const base = await server.listening
  try {
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tenant.json'), 'utf8')) as {
      tenantId: number
      apiKey: string
      adminEmail: string
      adminPassword: string
    }
    assert.equal(typeof demo.tenantId, 'number')
    assert.match(server.output(), new RegExp(demo.apiKey))
    assert.match(server.output(), new RegExp(`curl -s ${base}/api/v1/adminusers`))
    const tokenRes = await fetch(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'x-api-key': demo.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: demo.adminEmail, password: demo.adminPassword }),
    })
    assert.equal(tokenRes.status, 200)
    const { access_token: token } = (await tokenRes.json()) as { access_token: string }
    const users = await fetch(`${base}/api/v1/adminusers`, {
      headers: { 'x-api-key': demo.apiKey, authorization: `Bearer ${token}` },
    })
    assert.equal(users.status, 200)
    assert.equal(((await users.json()) as Array<{ emailAddress: string }>)[0]?.emailAddress, demo.adminEmail)
    assert.equal((await fetch(`${base}/health/ready`)).status, 200)

    // A second process may not open the same embedded database.
    const second = start({ ...env, DATABASE_URL: '' })
    assert.equal(await second.exited, 1)
    assert.match(second.output(), /in use by process/)
  } finally {
    server.child.kill('SIGTERM')
  }
  assert.equal(await server.exited, 0)
  assert.equal(fs.existsSync(path.join(dataDir, 'owner.lock')), false)

  // The credentials file lost (a first start stopped before writing it, or deleted): the next start
  // issues new credentials, prints them and writes the file again; they work.
  const lost = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tenant.json'), 'utf8')) as {
    tenantId: number
    adminPassword: string
  }
  fs.rmSync(path.join(dataDir, 'demo-tenant.json'))
  const again = start({ ...env, DATABASE_URL: '', expectDemo: 'yes' })
  const againBase = await again.listening
  try {
    assert.match(again.output(), /new credentials were issued/)
    const renewed = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tenant.json'), 'utf8')) as {
      tenantId: number
      apiKey: string
      adminEmail: string
      adminPassword: string
    }
    assert.equal(renewed.tenantId, lost.tenantId)
    assert.notEqual(renewed.adminPassword, lost.adminPassword)
    assert.match(again.output(), new RegExp(renewed.apiKey))
    const tokenRes = await fetch(`${againBase}/api/auth/token`, {
      method: 'POST',
      headers: { 'x-api-key': renewed.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: renewed.adminEmail, password: renewed.adminPassword }),
    })
    assert.equal(tokenRes.status, 200)
  } finally {
    again.child.kill('SIGTERM')
  }
  assert.equal(await again.exited, 0)
})
