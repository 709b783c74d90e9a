// The ledgers group of the bench (scripts/bench.ts --only ledgers; docs/ledgers.md): template
// contracts sold and finalized through the API, then copied in bulk with their CONTRACT_FINALIZED
// entries and lines (scripts/bench/contract-seed.ts: INSERT … SELECT per chunk, dates spread over 300
// days so every aging bucket is filled), then a dealer's ledger summary and unpaid items measured.
// No seed file of its own: the contract copies already carry the journal lines the views read.
import type { BenchServer } from './child.ts'
import type { Target } from './report.ts'
import { cloneContracts, sellTemplates } from './cancellations.ts'

export const LEDGER_CONTRACTS = { postgres: 100_000, pglite: 10_000 } as const
export const LEDGER_VIEW_TARGET: Target = { against: 'db-ceiling', minRatio: 0, maxP99Ms: 50 }

/** Contracts copied per POST /bench/clone-contracts. */
const CLONE_PER_REQUEST = 20_000

export type LedgersSetup = { dealerIds: number[]; contracts: number; lines: number; templateIds: number[] }

export async function prepareLedgers(
  server: BenchServer,
  headers: Record<string, string>,
  options: { templates: number; contracts: number; log: (line: string) => void },
): Promise<LedgersSetup> {
  let started = Date.now()
  const templateIds = await sellTemplates(server, headers, options.templates)
  options.log(
    `ledgers: sold and finalized ${templateIds.length} templates in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
  started = Date.now()
  // In requests of CLONE_PER_REQUEST copies: one request of 100,000 outlived the client's 300 s
  // headers timeout on a loaded machine.
  for (let done = 0; done < options.contracts; done += CLONE_PER_REQUEST) {
    const count = Math.min(CLONE_PER_REQUEST, options.contracts - done)
    await cloneContracts(server, { templateIds, count, firstSerial: done, returnIds: false })
  }
  // The dealers are the holders of a receivable: read from the view itself, so it is exercised once.
  const summary = (await (
    await fetch(`${server.baseUrl}/api/ledgerSummary?purpose=DEALER_RECEIVABLE`, { headers })
  ).json()) as { balances?: Array<{ accountHolderId: number }> }
  const dealers = new Set((summary.balances ?? []).map((b) => b.accountHolderId))
  const lines = await countLines(server, headers, [...dealers][0]!)
  options.log(
    `ledgers: copied ${options.contracts} contracts in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `${dealers.size} dealers; ${summary.balances?.length ?? 0} holder balances; first dealer has ${lines} lines`,
  )
  return { dealerIds: [...dealers], contracts: options.contracts, lines, templateIds }
}

export async function countLines(
  server: BenchServer,
  headers: Record<string, string>,
  dealerId: number,
): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/ledgers?accountHolderId=${dealerId}&pageSize=1`, { headers })
  return ((await res.json()) as { totalCount?: number }).totalCount ?? 0
}

export const summaryPath = (s: LedgersSetup) =>
  `/api/ledgerSummary?accountHolderId=${s.dealerIds[Math.floor(Math.random() * s.dealerIds.length)]}`
export const unpaidPath = (s: LedgersSetup) =>
  `/api/ledgers/unpaidLedgersProducts?dealerId=${s.dealerIds[Math.floor(Math.random() * s.dealerIds.length)]}`

export const summaryAnswers = (body: unknown) =>
  Array.isArray((body as { receivableAging?: unknown } | null)?.receivableAging) &&
  ((body as { balances: unknown[] }).balances?.length ?? 0) > 0
export const unpaidAnswers = (body: unknown) => {
  const page = body as { items?: unknown[]; totalCount?: number } | null
  return Array.isArray(page?.items) && (page.totalCount ?? 0) > 0
}

/** Applying one receipt to this many open items, oldest first (issue 15: < 1 s). */
export const CASH_APPLY_ITEMS = 1000
export const CASH_APPLY_TARGET_SECONDS = 1

export type CashApplyResult = { items: number; applied: number; seconds: number; status: number }

/**
 * One dealer's oldest CASH_APPLY_ITEMS open items (read from the unpaid view, pages of 100), then one
 * POST /api/cashtransactions of their exact sum without applications: the service reads the dealer's
 * open items, applies the receipt to them oldest first and posts CASH_RECEIVED and CASH_APPLIED (a
 * line per item). Timed from request to reply.
 */
export async function measureCashApply(
  server: BenchServer,
  headers: Record<string, string>,
  setup: LedgersSetup,
): Promise<CashApplyResult> {
  const dealerId = setup.dealerIds[0]!
  let cents = 0
  let items = 0
  for (let page = 1; items < CASH_APPLY_ITEMS; page++) {
    const res = await fetch(
      `${server.baseUrl}/api/ledgers/unpaidLedgersProducts?dealerId=${dealerId}&pageSize=100&pageNumber=${page}`,
      { headers },
    )
    const body = (await res.json()) as { items?: Array<{ openAmount: number }> }
    if (!body.items?.length) break
    for (const item of body.items.slice(0, CASH_APPLY_ITEMS - items)) {
      cents += Math.round(item.openAmount * 100)
      items++
    }
  }
  const started = performance.now()
  const res = await fetch(`${server.baseUrl}/api/cashtransactions`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      payerId: dealerId,
      paymentMethod: 'WIRE',
      amount: cents / 100,
      reference: `bench-${Date.now()}`,
      receivedDate: new Date().toISOString().slice(0, 10),
    }),
  })
  const body = (await res.json()) as { applications?: unknown[] }
  const seconds = (performance.now() - started) / 1000
  return { items, applied: body.applications?.length ?? 0, seconds, status: res.status }
}
