// The server process (started by src/main.ts): config → database → app → listen; graceful shutdown on SIGTERM/SIGINT.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { demoBookDeps, demoInstructions, prepareDemoTenant } from './demo.ts'
import { createModules } from './modules.ts'
import { createInvalidationBus } from './platform/cache.ts'
import { systemClock } from './platform/clock.ts'
import { DataDirBusy } from './platform/db/data-dir-lock.ts'
import { consoleBuildState } from './platform/http/console.ts'
import { openConfiguredDatabase } from './platform/db/open.ts'
import { compilePendingInBackground } from './platform/http/validation.ts'
import { loadSecretBox, SecretsError } from './platform/secrets.ts'

/**
 * The staff console is built at install (`npm install` runs scripts/console-build.ts); a build that
 * is missing or older than its sources (a pull, an edit) is made here, before listening, in a few
 * seconds. A current build costs a hash of the console's sources (milliseconds).
 */
function ensureConsoleBuilt(): void {
  const state = consoleBuildState()
  if (state === 'current') return
  const script = fileURLToPath(new URL('../scripts/console-build.ts', import.meta.url))
  spawnSync(process.execPath, [script, '--if-stale'], { stdio: 'inherit' })
}

/** Where to open the console; with the demo tenant, a link that fills in its API key and email. */
function consoleLine(baseUrl: string, demo: { apiKey: string; adminEmail: string } | undefined): string {
  const link = demo
    ? `${baseUrl}/console/#${new URLSearchParams({ apiKey: demo.apiKey, email: demo.adminEmail }).toString()}`
    : `${baseUrl}/console`
  return `Console: ${link}\n\n`
}

function demoFile(dataDir: string): { apiKey: string; adminEmail: string } | undefined {
  try {
    const file = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-tenant.json'), 'utf8')) as Record<string, unknown>
    return typeof file.apiKey === 'string' && typeof file.adminEmail === 'string'
      ? { apiKey: file.apiKey, adminEmail: file.adminEmail }
      : undefined
  } catch {
    return undefined
  }
}

async function main(): Promise<void> {
  const config = loadConfig()
  ensureConsoleBuilt()
  // What happens beside requests (connections lost and regained) is logged like the requests are.
  const log = pino({ level: config.logLevel })
  const db = await openConfiguredDatabase(config, 'server', log.child({ component: 'database' }))
  const bus = await createInvalidationBus(config.databaseListenUrl, {
    log: log.child({ component: 'invalidation-bus' }),
  })
  const clock = systemClock
  // After the database is open: the embedded data directory is ours, and its key file with it.
  const secrets = loadSecretBox(config)

  // One module graph, from the whole config: the demo tenant is seeded by the graph that then serves.
  const modules = createModules({ config, db, clock, bus, secrets })
  const seeded = config.seedDemo
    ? await prepareDemoTenant(
        modules,
        db,
        config.databaseUrl ? undefined : config.dataDir,
        // The demo's year of business (src/demo-book.ts), seeded on the first start only.
        config.seedDemoBook ? demoBookDeps(modules, { config, db, bus, secrets }, () => clock.now()) : undefined,
      )
    : undefined

  const app = await buildApp({ config, db, clock, bus, modules })
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    try {
      // app.close() stops the webhook deliverer too (after the attempt in flight).
      await app.close()
      await bus.close()
      await db.close()
      process.exit(0)
    } catch (err) {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ host: config.host, port: config.port })
  // Webhooks are delivered out of band, beside the requests (docs/webhooks.md).
  modules.webhooks.deliverer.start({ onError: (err) => app.log.error({ err }, 'webhook delivery pass failed') })
  // Automatic processes run on their daily schedules (docs/processes.md); app.close() stops the loop.
  modules.processes.scheduler.start({ onError: (err) => app.log.error({ err }, 'automatic process pass failed') })
  // Report runs (all the statements of a closed month) are worked in the background (docs/reporting.md).
  modules.reporting.runLoop.start({ onError: (err) => app.log.error({ err }, 'report run pass failed') })
  // Route schemas compile at their first use; the rest now, in the background (platform/http/validation.ts).
  compilePendingInBackground((err) => app.log.error({ err }, 'a route schema does not compile'))
  const { port } = app.server.address() as AddressInfo
  const displayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  const baseUrl = `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`
  if (seeded) {
    process.stdout.write(demoInstructions(seeded.demo, baseUrl, seeded.file, seeded.reissued))
    process.stdout.write(consoleLine(baseUrl, seeded.demo))
  } else if (!config.databaseUrl && fs.existsSync(path.join(config.dataDir, 'demo-tenant.json'))) {
    process.stdout.write(
      `\nDemo tenant credentials: ${path.join(config.dataDir, 'demo-tenant.json')}\nAPI reference: ${baseUrl}/docs\n\n`,
    )
    process.stdout.write(consoleLine(baseUrl, demoFile(config.dataDir)))
  } else {
    process.stdout.write(consoleLine(baseUrl, undefined))
  }
}

main().catch((err: unknown) => {
  if (err instanceof DataDirBusy || err instanceof ConfigError || err instanceof SecretsError) {
    process.stderr.write(`${err.message}\n`)
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  }
  process.exit(1)
})
