// Process entry: config → database → app → listen; graceful shutdown on SIGTERM/SIGINT.
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { demoInstructions, isEmptyDatabase, seedDemoTenant, writeDemoFile, type DemoTenant } from './demo.ts'
import { createModules } from './modules.ts'
import { createInvalidationBus } from './platform/cache.ts'
import { systemClock } from './platform/clock.ts'
import { DataDirBusy } from './platform/db/data-dir-lock.ts'
import { openConfiguredDatabase } from './platform/db/open.ts'

async function main(): Promise<void> {
  const config = loadConfig()
  const db = await openConfiguredDatabase(config, 'server')
  const bus = await createInvalidationBus(config.databaseUrl)
  const clock = systemClock

  let seeded: { demo: DemoTenant; file: string | undefined } | undefined
  if (config.seedDemo && (await isEmptyDatabase(db))) {
    const modules = createModules({ db, clock, bus, accessTokenTtlSeconds: config.accessTokenTtlSeconds })
    const demo = await seedDemoTenant(modules)
    seeded = { demo, file: config.databaseUrl ? undefined : writeDemoFile(config.dataDir, demo) }
  }

  const app = await buildApp({ config, db, clock, bus })
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    try {
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
  const { port } = app.server.address() as AddressInfo
  const displayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  const baseUrl = `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`
  if (seeded) {
    process.stdout.write(demoInstructions(seeded.demo, baseUrl, seeded.file))
  } else if (!config.databaseUrl && fs.existsSync(path.join(config.dataDir, 'demo-tenant.json'))) {
    process.stdout.write(`\nDemo tenant credentials: ${path.join(config.dataDir, 'demo-tenant.json')}\nAPI reference: ${baseUrl}/docs\n\n`)
  }
}

main().catch((err: unknown) => {
  if (err instanceof DataDirBusy || err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`)
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  }
  process.exit(1)
})
