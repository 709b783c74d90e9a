// The staff console's browser-test world, shared by every test/console*.e2e.test.ts file: the service
// started by `npm start`'s code on a fresh embedded database (the demo tenant and its year of
// business), headless Chromium (Debian's `chromium`, launched by playwright-core with an explicit
// executable path), the API as a given user, axe-core and screenshots into artifacts/console/.
//
// Each file starts its own service and browser (`startConsoleWorld` in its `before`), so files run
// side by side; screenshots carry the file's prefix. Without a Chromium the files are skipped locally
// with a message; under CI (CI=true) they fail instead, since .ci/run installs the package.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { buildConsole } from '../scripts/console-build.ts'
import { consoleBuildState } from '../src/platform/http/console.ts'
import { closeAtEnd, killAtEnd } from './harness.ts'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const ARTIFACTS = path.join(ROOT, 'artifacts', 'console')
const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => !!p,
)
const chromium = CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p))

/** The `skip` option of a console describe block. */
export const skip = process.env.DATABASE_URL
  ? 'runs the service on the embedded database: done in the embedded pass'
  : !chromium && process.env.CI !== 'true'
    ? `no Chromium at ${CHROMIUM_CANDIDATES.join(', ')}: apt-get install chromium (or set CHROMIUM_PATH) to run the console's browser tests`
    : false

/** Money as the console shows it (US dollars, cents). */
export const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export type Demo = { tenantId: number; apiKey: string; adminEmail: string; adminPassword: string }

/** The world of one test file; filled by startConsoleWorld. */
export const world = {
  base: '',
  consoleLink: '',
  demo: undefined as unknown as Demo,
  browser: undefined as unknown as Browser,
  context: undefined as unknown as BrowserContext,
  page: undefined as unknown as Page,
  prefix: '',
  step: 0,
}

const axeSource = () => fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

function startServer(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DATABASE_LISTEN_URL: '',
      DATABASE_READ_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  killAtEnd(child)
  let out = ''
  return new Promise((resolve, reject) => {
    const look = (d: Buffer) => {
      out += d.toString()
      const m = /Console: (http:\/\/127\.0\.0\.1:\d+)(\/console\/#\S+)/.exec(out)
      if (m) {
        world.base = m[1]!
        world.consoleLink = m[1]! + m[2]!
        resolve()
      }
    }
    child.stdout.on('data', look)
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)))
  })
}

/**
 * The `before` of a console test file: builds the console when stale, starts the service on a fresh
 * data directory (CONSOLE_E2E_DATA_DIR: one seeded before, for faster reruns while working on the
 * console), opens a page. `prefix` names this file's screenshots (its old ones are removed).
 */
export async function startConsoleWorld(prefix: string): Promise<void> {
  assert.ok(chromium, `CI must install Chromium (.ci/run): none at ${CHROMIUM_CANDIDATES.join(', ')}`)
  world.prefix = prefix
  if (consoleBuildState() !== 'current') await buildConsole({ quiet: true })
  fs.mkdirSync(ARTIFACTS, { recursive: true })
  for (const f of fs.readdirSync(ARTIFACTS))
    if (f.startsWith(`${prefix}-`) && f.endsWith('.png')) fs.rmSync(path.join(ARTIFACTS, f))
  let dataDir = process.env.CONSOLE_E2E_DATA_DIR
  if (!dataDir) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-console-'))
    // Registered before the server, so removed after it is killed (closeAtEnd runs in reverse).
    closeAtEnd(async () => fs.rmSync(tmp, { recursive: true, force: true }))
    dataDir = path.join(tmp, 'data')
  }
  await startServer(dataDir)
  world.demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tenant.json'), 'utf8')) as Demo
  const { chromium: launcher } = await import('playwright-core')
  world.browser = await launcher.launch({
    executablePath: chromium!,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
  closeAtEnd(() => world.browser.close())
  // bypassCSP: axe-core is injected as an inline script, which the console's policy refuses.
  world.context = await world.browser.newContext({
    viewport: { width: 1366, height: 900 },
    timezoneId: 'UTC',
    bypassCSP: true,
    acceptDownloads: true,
  })
  const page = await world.context.newPage()
  world.page = page
  // The browser's own errors end up in the test's output.
  page.on('pageerror', (err) => console.log(`console page error: ${err.stack ?? err.message}`))
  page.on('console', (m) => {
    // Answers of 4xx the screens expect (a refused search, a 403 panel) are not errors of the page.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      console.log(`console browser error: ${m.text()}`)
  })
}

/** A call to the API as a given user (fixtures and the figures the screens must match). */
export async function call<T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(world.base + url, {
    method,
    headers: {
      'x-api-key': world.demo.apiKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  assert.ok(res.ok, `${method} ${url}: ${res.status} ${text}`)
  return (text ? JSON.parse(text) : undefined) as T
}

export async function tokenOf(email: string, password: string): Promise<string> {
  const r = await call<{ access_token: string }>('POST', '/api/auth/token', null, {
    grant_type: 'password',
    username: email,
    password,
  })
  return r.access_token
}

/** A full-page screenshot, numbered within the file: artifacts/console/<prefix>-NN-<name>.png. */
export async function shot(name: string) {
  world.step += 1
  await world.page.screenshot({
    path: path.join(ARTIFACTS, `${world.prefix}-${String(world.step).padStart(2, '0')}-${name}.png`),
    fullPage: true,
  })
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function accessible(what: string) {
  const page = world.page
  // Code run in the page is given as text: this file is typed for Node, not the DOM.
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.addScriptTag({ content: axeSource() })
  const violations = await page.evaluate<
    Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }>
  >("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)")
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`),
    [],
    `${what}: accessibility violations`,
  )
}

/** Tab until the element labelled `label` has the focus (keyboard only); fails after 30 presses. */
export async function tabTo(label: string) {
  for (let i = 0; i < 30; i++) {
    const focused = await world.page.evaluate<string>(
      "(document.activeElement?.labels?.[0]?.textContent ?? document.activeElement?.getAttribute('aria-label')) ?? ''",
    )
    if (focused.startsWith(label)) return
    await world.page.keyboard.press('Tab')
  }
  assert.fail(`no focusable field labelled ${label}`)
}

export async function signInByKeyboard(email: string, password: string) {
  const page = world.page
  await tabTo('Email')
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type(email)
  await tabTo('Password')
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type(password)
  await page.keyboard.press('Enter')
}

/**
 * A dealer-side user made through the API: a portal visibility group of `dealerIds` and the
 * DEALER_USER role (found in GET /api/MembershipRoles), signed in once (its token returned).
 */
export async function createDealerUser(admin: string, dealerIds: number[], label: string) {
  const group = await call<{ id: number }>('POST', '/api/portalvisibilitygroups', admin, {
    code: `CONSOLE-${label.toUpperCase()}-${Date.now()}`,
    name: `Console end-to-end dealer (${label})`,
    dealerIds,
  })
  const roles = await call<Array<{ id: number; code: string }>>('GET', '/api/MembershipRoles?limit=1000', admin)
  const role = roles.find((r) => r.code === 'DEALER_USER')
  assert.ok(role, 'the DEALER_USER role')
  const email = `${label}.dealer.${Date.now()}@console-e2e.example`
  const password = 'console-e2e-Pass-1'
  await call('POST', '/api/v1/adminusers', admin, {
    emailAddress: email,
    password,
    roles: [{ id: role.id }],
    groups: [{ id: group.id }],
  })
  return { email, password, token: await tokenOf(email, password) }
}

/** Signs in through the printed link (the key and email filled in) and waits for the dashboard. */
export async function signInAsAdmin() {
  await world.page.goto(world.consoleLink)
  await world.page.waitForURL(/\/console\/signin/)
  await signInByKeyboard(world.demo.adminEmail, world.demo.adminPassword)
  await world.page.locator('[data-testid="dashboard"][data-ready="true"]').waitFor({ timeout: 120_000 })
}
