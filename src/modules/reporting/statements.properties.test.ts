// A property over random books (docs/reporting.md "Reinsurance statements"), through HTTP on a fresh
// demo tenant per run: random sales in August and October, cancels in October and November (some
// reversed), claims paid or left unpaid in November, under a treaty of a random share. For every
// month end: the statement's month figures equal sums taken independently from the contracts'
// journal entries, earned + unearned = written − cancelled, the months of a quarter add up to the
// quarter; the reconciliation is empty. Few runs: each sells and cancels through the API.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from '../../../test/harness.ts'

type Sold = {
  id: number
  saleDate: string
  pricing: { lines: Array<{ code: string; group: string }> }
  terms: { cession: { shareBps: number } | null }
}
type Entry = {
  kind: string
  effectiveDate: string
  lines: Array<{
    purpose: string
    side: 'DEBIT' | 'CREDIT'
    amount: number
    contractId: number | null
    disbursementCode: string | null
  }>
}
type Cell = Record<string, number>
type Statement = { totals: { mtd: Cell; qtd: Cell; itd: Cell } }

let t: TestApp
before(async () => {
  t = await createTestApp({ now: new Date('2026-08-28T18:00:00Z') })
})
after(() => t.close())

const cents = (n: number) => Math.round(n * 100)
const share = (c: number, bps: number) => Math.floor((c * bps + 5000) / 10000)
const day = (month: string, d: number) => `2026-${month}-${String(d).padStart(2, '0')}`

const Book = fc.record({
  shareBps: fc.integer({ min: 1, max: 10000 }),
  cedingFeeBps: fc.integer({ min: 0, max: 1000 }),
  august: fc.uniqueArray(fc.integer({ min: 1, max: 27 }), { minLength: 1, maxLength: 3 }),
  october: fc.uniqueArray(fc.integer({ min: 1, max: 24 }), { maxLength: 2 }),
  octoberCancels: fc.array(fc.record({ which: fc.nat(), day: fc.integer({ min: 1, max: 24 }) }), { maxLength: 2 }),
  novemberCancel: fc.option(
    fc.record({ which: fc.nat(), day: fc.integer({ min: 1, max: 11 }), reverse: fc.boolean() }),
  ),
  claims: fc.array(fc.boolean(), { maxLength: 2 }),
})

test('statements tie to the journal month by month; quarters add up; the reconciliation is empty', async () => {
  await fc.assert(
    fc.asyncProperty(Book, async (b) => {
      t.clock.set(new Date('2026-08-28T18:00:00Z'))
      const demo: DemoTestTenant = await seedDemo(t)
      const login = async (d: string) => {
        t.clock.set(new Date(`${d}T18:00:00Z`))
        demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
      }
      const get = async <T>(url: string) => {
        const res = await t.app.inject({ method: 'GET', url, headers: demo.headers })
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
        return json<T>(res)
      }
      const post = async <T>(
        url: string,
        payload: unknown,
        headers: Record<string, string> = {},
        method: 'POST' | 'PATCH' = 'POST',
      ) => {
        const res = await t.app.inject({
          method,
          url,
          headers: { ...demo.headers, ...headers },
          payload: payload as object,
        })
        assert.ok(res.statusCode < 300, `${url}: ${res.body}`)
        return json<T>(res)
      }
      const companyId = Number(
        (await get<Array<{ id: number; companyCode: string }>>('/api/reinsurancecompanies')).find(
          (c) => c.companyCode === 'LSRE',
        )!.id,
      )
      const dealerId = (await get<Array<{ id: number }>>(`/api/dealers?dealerNumber=${DEMO.dealerNumber}`))[0]!.id
      const productId = (await get<Array<{ id: number; code: string }>>('/api/Rates/Products')).find(
        (p) => p.code === 'VSC',
      )!.id
      await post('/api/reinsurance/treaties', {
        reinsuranceCompanyId: companyId,
        name: 'Quota share',
        dealerIds: [dealerId],
        productIds: [productId],
        effectiveFrom: '2026-08-01',
        shareBps: b.shareBps,
        cedingFeeBps: b.cedingFeeBps,
      })
      const sell = (saleDate: string) =>
        sellDemoContract<Sold>(t, demo, {
          saleDate,
          finalize: true,
          quoteQuery: 'vehiclePurchasePrice=21500',
          deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
        })
      const cancelled = new Set<number>()
      // A contract once cancelled takes no claim (even reinstated, it was not in force in between).
      const everCancelled = new Set<number>()
      const cancel = async (c: Sold, cancelDate: string) => {
        cancelled.add(c.id)
        everCancelled.add(c.id)
        return (
          await post<{ id: number }>(`/api/contracts/${c.id}/cancels`, {
            cancelDate: cancelDate < c.saleDate ? c.saleDate : cancelDate,
            cancelOdometer: 43000,
            cancelReasonCode: 'CUSTOMER_REQUEST',
          })
        ).id
      }

      const sold: Sold[] = []
      for (const d of b.august) sold.push(await sell(day('08', d)))
      const august = [...sold]
      await login('2026-10-25')
      for (const d of b.october) sold.push(await sell(day('10', d)))
      for (const c of b.octoberCancels) {
        const target = sold[c.which % sold.length]!
        if (!cancelled.has(target.id)) await cancel(target, day('10', c.day))
      }
      await login('2026-11-12')
      if (b.novemberCancel) {
        const target = sold.filter((c) => !cancelled.has(c.id))[b.novemberCancel.which % sold.length]
        if (target) {
          const id = await cancel(target, day('11', b.novemberCancel.day))
          if (b.novemberCancel.reverse) {
            await post(`/api/cancels/${id}`, { action: 'REVERSE', reason: 'kept' })
            cancelled.delete(target.id)
          }
        }
      }
      const claimable = august.filter((c) => !everCancelled.has(c.id))
      for (const [i, paid] of b.claims.entries()) {
        const contract = claimable[i]
        if (!contract) break
        const first = async (url: string) => (await get<Array<{ id: number }>>(`${url}?limit=1`))[0]!.id
        const facility = (await get<Array<{ id: number; facilityCode: string }>>('/api/repairfacilities')).find(
          (f) => f.facilityCode === 'RF-ATX',
        )!.id
        const claim = await post<{ id: number }>('/api/claims', {
          contractId: contract.id,
          lossDate: '2026-11-05',
          odometer: 46000,
          repairFacilityId: facility,
          taxRate: 0,
          jobs: [
            {
              complaintId: await first('/api/claims/complaints'),
              causeId: await first('/api/claims/causes'),
              correctionId: await first('/api/claims/corrections'),
              coverageComponentCode: 'BLOCK',
              parts: [{ partNumber: 'P-1', description: 'Water pump', quantity: 1, unitPrice: 250, taxable: false }],
              labor: [{ operationCode: 'WP', hours: 1, rate: 100 }],
              sublet: [],
            },
          ],
        })
        await post(
          `/api/claims/${claim.id}`,
          [
            { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
            { op: 'replace', path: '/status', value: 'AUTHORIZED' },
          ],
          { 'content-type': 'application/json-patch+json' },
          'PATCH',
        )
        const request = await post<{ id: number }>(`/api/claims/${claim.id}/paymentrequests`, {
          invoiceNumber: `INV-${claim.id}`,
          invoiceDate: '2026-11-09',
          invoicedTotal: 300,
        })
        if (paid)
          await post(`/api/claims/${claim.id}/paymentrequests/${request.id}/payments`, {
            method: 'CHECK',
            amount: 300,
            paidAt: '2026-11-10',
            reference: `CHK ${claim.id}`,
          })
      }

      // Independent sums from each contract's journal entries.
      const journals = new Map<number, Entry[]>()
      for (const c of sold) journals.set(c.id, await get<Entry[]>(`/api/contracts/${c.id}/journalentries?limit=1000`))
      const sums = (through: string) => {
        const out = { written: 0, cancelled: 0, incurred: 0 }
        for (const c of sold) {
          const s = c.terms.cession!.shareBps
          const codes = new Set(c.pricing.lines.filter((l) => l.group === 'RESERVE').map((l) => l.code))
          const sum = { written: 0, cancelled: 0, incurred: 0 }
          for (const e of journals.get(c.id)!) {
            if (e.effectiveDate > through) continue
            for (const l of e.lines) {
              if (l.contractId !== c.id) continue
              const credit = (l.side === 'CREDIT' ? 1 : -1) * cents(l.amount)
              if (l.purpose === 'CLAIM_EXPENSE') sum.incurred -= credit
              else if (
                ['DISBURSEMENT_PAYABLE', 'UNEARNED_REVENUE'].includes(l.purpose) &&
                codes.has(l.disbursementCode ?? '')
              ) {
                if (e.kind === 'CONTRACT_FINALIZED') sum.written += credit
                if (e.kind === 'CONTRACT_CANCELLED' || e.kind === 'CANCEL_REVERSED') sum.cancelled -= credit
              }
            }
          }
          out.written += share(sum.written, s)
          out.cancelled += share(sum.cancelled, s)
          out.incurred += share(sum.incurred, s)
        }
        return out
      }
      const months = ['07', '08', '09', '10', '11'] as const
      const ends: Record<string, string> = {
        '07': '2026-07-31',
        '08': '2026-08-31',
        '09': '2026-09-30',
        '10': '2026-10-31',
        '11': '2026-11-30',
      }
      const statements: Record<string, Statement> = {}
      for (const [i, m] of months.entries()) {
        const s = await get<Statement>(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-${m}`)
        statements[m] = s
        if (i === 0) continue
        const [end, start] = [sums(ends[m]!), sums(ends[months[i - 1]!]!)]
        const mtd = s.totals.mtd
        assert.equal(cents(mtd.writtenPremium!), end.written - start.written, `${m} written`)
        assert.equal(cents(mtd.cancellations!), end.cancelled - start.cancelled, `${m} cancellations`)
        assert.equal(cents(mtd.claimsIncurred!), end.incurred - start.incurred, `${m} incurred`)
        const itd = s.totals.itd
        assert.equal(
          cents(itd.earnedPremium!) + cents(itd.unearnedPremium!),
          end.written - end.cancelled,
          `${m} earned + unearned`,
        )
        const r = await get<{ differences: unknown[] }>(`/api/reports/reconciliation?month=2026-${m}`)
        assert.deepEqual(r.differences, [], `${m} reconciliation`)
      }
      for (const f of [
        'writtenPremium',
        'cancellations',
        'earnedPremium',
        'claimsIncurred',
        'cedingFee',
        'underwritingResult',
      ]) {
        const q3 = ['07', '08', '09'].reduce((n, m) => n + cents(statements[m]!.totals.mtd[f]!), 0)
        assert.equal(q3, cents(statements['09']!.totals.qtd[f]!), `Q3 ${f}`)
        // Q4 to November: October + November.
        assert.equal(
          cents(statements['10']!.totals.mtd[f]!) + cents(statements['11']!.totals.mtd[f]!),
          cents(statements['11']!.totals.qtd[f]!),
          `Q4 ${f}`,
        )
      }
    }),
    { numRuns: 8, seed: 21 },
  )
})
