// The demo parties: seeded on a fresh tenant, they have the documented counts, every record is
// valid as a whole (an empty merge patch re-validates it), dealers span the states and carry their
// groups and agents, and the repair facilities serve their dealers.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTenant, createTestApp, json, type TestApp, type TestTenant } from '../../../test/harness.ts'
import { KINDS } from './account-holder.kinds.ts'
import { DEMO_COUNTS, seedDemoParties } from './demo.ts'

type Summary = { id: number; kind: keyof typeof KINDS; businessKey: string; state: string | null; isActive: boolean }

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t, 'Demo Administrator, Inc.')
  await seedDemoParties({ db: t.db, clock: t.clock }, t.modules.parties.accountHolders, tenant.tenantId)
})
after(() => t.close())

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: tenant.headers })

test('the demo tenant gets the documented parties', async () => {
  const all = json<Summary[]>(await get('/api/accountholders?limit=1000')).filter(
    (s) => s.kind !== ('ADMIN_COMPANY' as string),
  )
  const counts: Record<string, number> = {}
  for (const s of all) counts[s.kind] = (counts[s.kind] ?? 0) + 1
  assert.deepEqual(counts, DEMO_COUNTS)
  assert.deepEqual(DEMO_COUNTS, {
    DEALER_GROUP: 3,
    AGENT: 4,
    DEALER: 20,
    INSURER: 2,
    LIEN_HOLDER: 4,
    REPAIR_FACILITY: 3,
    INSPECTION_COMPANY: 1,
    CLAIM_PAYEE: 2,
    REINSURANCE_COMPANY: 1,
  })
  assert.ok(all.every((s) => s.isActive && s.state !== null))
  const dealerStates = new Set(all.filter((s) => s.kind === 'DEALER').map((s) => s.state))
  assert.deepEqual([...dealerStates].toSorted(), ['AZ', 'CA', 'FL', 'GA', 'OK', 'TX'])
})

test('every demo record is valid as a whole', async () => {
  const all = json<Summary[]>(await get('/api/accountholders?limit=1000')).filter(
    (s) => s.kind !== ('ADMIN_COMPANY' as string),
  )
  for (const s of all) {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${KINDS[s.kind].path}/${s.id}`,
      headers: { ...tenant.headers, 'content-type': 'application/merge-patch+json' },
      payload: '{}',
    })
    assert.equal(res.statusCode, 200, `${s.kind} ${s.businessKey}: ${res.body}`)
  }
})

test('dealers carry groups and agents; repair facilities serve dealers and groups', async () => {
  const dealers = json<
    Array<{
      id: number
      dealerNumber: string
      dealerGroupId: number | null
      agentIds: number[]
      franchiseMakes?: string[]
    }>
  >(await get('/api/dealers?limit=1000'))
  assert.ok(dealers.filter((d) => d.dealerGroupId !== null).length >= 12)
  assert.ok(dealers.every((d) => d.agentIds.length >= 1))
  const byNumber = new Map(dealers.map((d) => [d.dealerNumber, d]))
  assert.deepEqual(byNumber.get('10001')?.franchiseMakes, ['HONDA'])

  const facilitiesOf = async (number: string) =>
    json<Array<{ facilityCode: string; via: string }>>(
      await get(`/api/repairfacilities/repairfacilityofdealer/${byNumber.get(number)!.id}`),
    ).map((f) => [f.facilityCode, f.via])
  assert.deepEqual(await facilitiesOf('10017'), [['RF-PHX', 'DEALER']])
  assert.deepEqual(await facilitiesOf('10018'), [['RF-PHX', 'DEALER_GROUP']])
  assert.deepEqual(await facilitiesOf('10005'), [['RF-ATX', 'DEALER']])
  assert.deepEqual(await facilitiesOf('10001'), [['RF-ATX', 'DEALER_GROUP']])
  assert.deepEqual(await facilitiesOf('10020'), [])
})
