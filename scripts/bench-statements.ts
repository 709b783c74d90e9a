// Statement generation (docs/statements.md "Performance", issue 15's bench): a dealer with
// `--lines` journal lines (default 10,000) posted in bulk through the ledger, then
// - a CSV statement made by the background path (streamed page by page into the staging file):
//   the process's RSS before and after, and its peak while the statement is written (target: growth
//   under 50 MB);
// - a PDF statement made in the request: its time (target: under 5 s).
// On PGlite in memory, or on PostgreSQL when DATABASE_URL is set (scripts/with-postgres.sh).
// A missed target is reported, not an error (as in scripts/bench.ts).
//
//   node scripts/bench-statements.ts [--lines 10000]
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createModules } from '../src/modules.ts'
import { createInvalidationBus } from '../src/platform/cache.ts'
import { systemClock } from '../src/platform/clock.ts'
import { openPglite, openPostgres } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { systemContext } from '../src/platform/http/context.ts'
import { createSecretBox } from '../src/platform/secrets.ts'
import { seedDemoTenant } from '../src/demo.ts'
import type { PostEntryInput } from '../src/modules/finance/index.ts'

export const CSV_GROWTH_TARGET_MB = 50
export const PDF_TARGET_MS = 5000

const { values } = parseArgs({ options: { lines: { type: 'string', default: '10000' } } })
const lineCount = Number(values.lines)

const url = process.env.DATABASE_URL
const db = url ? await openPostgres(url, 10) : await openPglite('memory://')
await migrateToLatest(db)
const modules = createModules({
  config: {
    accessTokenTtlSeconds: 3600,
    documents: {
      storage: 'database',
      dir: path.join(os.tmpdir(), 'vpp-bench-statements'),
      maxBytes: 100 * 1024 * 1024,
      linkTtlSeconds: 300,
    },
  },
  db,
  clock: systemClock,
  bus: await createInvalidationBus(undefined),
  secrets: createSecretBox([randomBytes(32)]),
})
const demo = await seedDemoTenant(modules, db)
const tenantId = demo.tenantId
const ctx = systemContext(tenantId, 'bench-statements')
const holders = await db.read(tenantId, (x) =>
  x
    .selectFrom('account_holder')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('kind', 'in', ['DEALER', 'ADMIN_COMPANY'])
    .orderBy('id')
    .execute(),
)
const dealerId = holders.find((h) => h.kind === 'DEALER')!.id
const adminId = holders.find((h) => h.kind === 'ADMIN_COMPANY')!.id
const today = await modules.finance.ledger.postingDate(tenantId)

// The dealer's lines: entries of two lines each (the dealer's receivable, the administrator's revenue).
const seedStart = performance.now()
for (let i = 0; i < lineCount; i += 500) {
  const batch: PostEntryInput[] = []
  for (let j = i; j < Math.min(lineCount, i + 500); j++) {
    const amount = `${100 + (j % 900)}.${String(j % 100).padStart(2, '0')}`
    batch.push({
      kind: 'CONTRACT_FINALIZED',
      source: { type: 'CONTRACT', id: 1_000_000 + j },
      effectiveDate: today,
      memo: `Bench sale ${j}, "quoted", with a comma`,
      lines: [
        { accountHolderId: dealerId, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', amount },
        { accountHolderId: adminId, purpose: 'ADMINISTRATOR_REVENUE', side: 'CREDIT', amount },
      ],
    })
  }
  await modules.finance.ledger.postMany(ctx, batch)
}
const seedMs = performance.now() - seedStart

const statements = modules.finance.statements
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10

// CSV through the background path: streamed.
statements.options.syncLineLimit = 0
globalThis.gc?.()
const rssBefore = process.memoryUsage().rss
let rssPeak = rssBefore
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10)
const csvStart = performance.now()
const queued = await statements.request(ctx, dealerId, { from: today, to: today, format: 'CSV' })
await statements.idle()
const csvMs = performance.now() - csvStart
clearInterval(sampler)
const rssAfter = process.memoryUsage().rss
const csv = await statements.get(ctx, dealerId, queued.request.id)

// PDF in the request.
statements.options.syncLineLimit = lineCount + 1
const pdfStart = performance.now()
const pdf = await statements.request(ctx, dealerId, { from: today, to: today, format: 'PDF' })
const pdfMs = performance.now() - pdfStart
const pdfDoc = await modules.documents.service.get(tenantId, pdf.request.documentId!)

const report = {
  database: db.engine,
  lines: lineCount,
  seedMs: Math.round(seedMs),
  csv: {
    status: csv.status,
    lineCount: csv.lineCount,
    closingBalance: csv.closingBalance,
    ms: Math.round(csvMs),
    rssBeforeMb: mb(rssBefore),
    rssAfterMb: mb(rssAfter),
    rssPeakMb: mb(rssPeak),
    growthMb: mb(rssPeak - rssBefore),
    targetGrowthMb: CSV_GROWTH_TARGET_MB,
    met: rssPeak - rssBefore < CSV_GROWTH_TARGET_MB * 1024 * 1024,
  },
  pdf: {
    status: pdf.request.status,
    lineCount: pdf.request.lineCount,
    sizeBytes: pdfDoc?.versions[0]?.sizeBytes,
    ms: Math.round(pdfMs),
    targetMs: PDF_TARGET_MS,
    met: pdfMs < PDF_TARGET_MS,
  },
}
console.log(JSON.stringify(report, null, 2))
await db.close()
