// The claim lookups over HTTP (docs/claims.md "Lookups"): every list answers the tenant's defaults in
// their order, with X-Total-Count and limit/offset; the filters (type, active, complaintId…); another
// tenant's rows never show; a new tenant is seeded by the initializer exactly as migration 0020 seeded
// the tenants that existed then (its frozen copy agrees with the defaults); dealer-side users holding
// claims:read read them, users without it get 403.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import {
  CLAIM_COMBINATION_DEFAULTS,
  CLAIM_LOOKUP_DEFAULTS,
  type ClaimLookupKind,
} from '../src/modules/claims/claim-lookups.defaults.ts'
import {
  DEFAULT_CLAIM_COMBINATIONS,
  DEFAULT_CLAIM_LOOKUPS,
  insertDefaultClaimLookups,
} from '../src/platform/db/migrations/2026_11_26_0020_claim_lookups.ts'
import { createTenant, createUserWithRoles, json, type TestApp, type TestTenant, createTestApp } from './harness.ts'

type Lookup = { id: number; code: string; name: string; type?: string; active: boolean; sortOrder: number }
type Ref = { id: number; code: string; name: string }
type Combination = {
  id: number
  type: string | null
  complaint: Ref
  cause: Ref
  correction: Ref
  active: boolean
  sortOrder: number
}

/** Each list route and the kind it answers. */
const ROUTES: Array<[string, ClaimLookupKind]> = [
  ['/api/claims/complaintscausescorrectionstypes', 'TYPE'],
  ['/api/claims/complaints', 'COMPLAINT'],
  ['/api/claims/causes', 'CAUSE'],
  ['/api/claims/corrections', 'CORRECTION'],
  ['/api/claims/deniedReasons', 'DENIED_REASON'],
  ['/api/claims/holdReasons', 'HOLD_REASON'],
  ['/api/inspectionreasons', 'INSPECTION_REASON'],
  ['/api/rejectinspectionreasons', 'REJECT_INSPECTION_REASON'],
]
const TYPED = new Set<ClaimLookupKind>(['COMPLAINT', 'CAUSE', 'CORRECTION'])

let t: TestApp
let a: TestTenant
let b: TestTenant

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-26T12:00:00Z') })
  a = await createTenant(t, 'Claim lookups A')
  b = await createTenant(t, 'Claim lookups B')
})
after(() => t.close())

const get = (url: string, headers: Record<string, string> = a.headers) => t.app.inject({ method: 'GET', url, headers })

async function list<T = Lookup>(url: string, headers?: Record<string, string>): Promise<{ items: T[]; total: number }> {
  const res = await get(url, headers)
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return { items: json<T[]>(res), total: Number(res.headers['x-total-count']) }
}

const defaultsOf = (kind: ClaimLookupKind) => CLAIM_LOOKUP_DEFAULTS.filter((d) => d.kind === kind)

describe('the lists answer the defaults', () => {
  for (const [url, kind] of ROUTES) {
    test(`${url}: the default ${kind} entries in their order`, async () => {
      const { items, total } = await list(url)
      const expected = defaultsOf(kind)
      assert.ok(expected.length >= 7, `a realistic default list of ${kind}`)
      assert.equal(total, expected.length)
      assert.deepEqual(
        items.map(({ id: _id, ...rest }) => rest),
        expected.map((d, i) => ({
          code: d.code,
          name: d.name,
          ...(TYPED.has(kind) ? { type: d.type } : {}),
          active: true,
          sortOrder: i + 1,
        })),
      )
      assert.ok(items.every((i) => Number.isInteger(i.id) && i.id > 0))
    })
  }

  test('the denied reasons hold the usual ones', async () => {
    const codes = (await list('/api/claims/deniedReasons')).items.map((i) => i.code)
    for (const code of [
      'NOT_COVERED',
      'PRE_EXISTING',
      'WEAR_AND_TEAR',
      'LACK_OF_MAINTENANCE',
      'WAITING_PERIOD',
      'EXCEEDS_LIMIT',
    ])
      assert.ok(codes.includes(code), code)
  })

  test('every complaint, cause and correction is of a listed type', async () => {
    const types = new Set((await list('/api/claims/complaintscausescorrectionstypes')).items.map((i) => i.code))
    for (const url of ['/api/claims/complaints', '/api/claims/causes', '/api/claims/corrections'])
      for (const item of (await list(url)).items) assert.ok(types.has(item.type!), `${url} ${item.code}: ${item.type}`)
  })

  test('/api/claims/complaintcausecorrections: the default combinations, naming the listed entries', async () => {
    const { items, total } = await list<Combination>('/api/claims/complaintcausecorrections')
    assert.equal(total, CLAIM_COMBINATION_DEFAULTS.length)
    const complaints = new Map((await list('/api/claims/complaints')).items.map((i) => [i.id, i]))
    const causes = new Map((await list('/api/claims/causes')).items.map((i) => [i.id, i]))
    const corrections = new Map((await list('/api/claims/corrections')).items.map((i) => [i.id, i]))
    assert.deepEqual(
      items.map((c) => [c.complaint.code, c.cause.code, c.correction.code]),
      CLAIM_COMBINATION_DEFAULTS.map((c) => [c.complaint, c.cause, c.correction]),
    )
    items.forEach((c, i) => {
      assert.equal(c.sortOrder, i + 1)
      assert.equal(c.active, true)
      const complaint = complaints.get(c.complaint.id)!
      assert.deepEqual(c.complaint, { id: complaint.id, code: complaint.code, name: complaint.name })
      assert.equal(c.type, complaint.type)
      assert.equal(causes.get(c.cause.id)?.code, c.cause.code)
      assert.equal(corrections.get(c.correction.id)?.code, c.correction.code)
    })
  })
})

describe('paging and filters', () => {
  test('limit and offset window the list; the total stays the whole list', async () => {
    const all = (await list('/api/claims/complaints')).items
    const page = await list('/api/claims/complaints?limit=3&offset=2')
    assert.equal(page.total, all.length)
    assert.deepEqual(page.items, all.slice(2, 5))
  })

  test('type filters the three Cs, in any case; an unknown type lists nothing', async () => {
    for (const url of ['/api/claims/complaints', '/api/claims/causes', '/api/claims/corrections']) {
      const all = (await list(url)).items
      const cooling = await list(`${url}?type=cooling`)
      assert.ok(cooling.items.length > 0)
      assert.deepEqual(
        cooling.items,
        all.filter((i) => i.type === 'COOLING'),
      )
      assert.equal(cooling.total, cooling.items.length)
      assert.deepEqual(await list(`${url}?type=NO_SUCH_TYPE`), { items: [], total: 0 })
    }
  })

  test('the reason lists take no type filter (400)', async () => {
    const res = await get('/api/claims/deniedReasons?type=ENGINE')
    assert.equal(res.statusCode, 400, res.body)
  })

  test('complaintId, causeId, correctionId and type filter the combinations', async () => {
    const all = (await list<Combination>('/api/claims/complaintcausecorrections')).items
    const absLight = all.find((c) => c.complaint.code === 'ABS_LIGHT')!.complaint.id
    const byComplaint = await list<Combination>(`/api/claims/complaintcausecorrections?complaintId=${absLight}`)
    assert.deepEqual(
      byComplaint.items.map((c) => c.cause.code),
      ['WHEEL_SPEED_SENSOR_FAILED', 'ABS_MODULE_FAILED'],
    )
    assert.equal(byComplaint.total, 2)
    const coil = all.find((c) => c.cause.code === 'IGNITION_COIL_FAILED')!.cause.id
    assert.deepEqual(
      (await list<Combination>(`/api/claims/complaintcausecorrections?causeId=${coil}`)).items.map(
        (c) => c.complaint.code,
      ),
      ['CHECK_ENGINE_LIGHT', 'ROUGH_IDLE'],
    )
    const pump = all.find((c) => c.correction.code === 'REPLACE_WATER_PUMP')!.correction.id
    assert.deepEqual(
      (await list<Combination>(`/api/claims/complaintcausecorrections?correctionId=${pump}`)).items.map(
        (c) => c.complaint.code,
      ),
      ['OVERHEATING', 'COOLANT_LEAK'],
    )
    assert.deepEqual(
      (await list<Combination>('/api/claims/complaintcausecorrections?type=brakes')).items,
      all.filter((c) => c.type === 'BRAKES'),
    )
    assert.deepEqual(await list('/api/claims/complaintcausecorrections?complaintId=987654321'), { items: [], total: 0 })
  })

  test('active filters the entries and the combinations', async () => {
    const all = (await list('/api/claims/holdReasons')).items
    const all3c = (await list<Combination>('/api/claims/complaintcausecorrections')).items
    const off = all[1]!
    const offCombination = all3c[0]!
    await setActive('claim_lookup', off.id, false)
    await setActive('claim_lookup_combination', offCombination.id, false)
    try {
      const active = await list('/api/claims/holdReasons?active=true')
      assert.deepEqual(
        active.items.map((i) => i.code),
        all.filter((i) => i.id !== off.id).map((i) => i.code),
      )
      assert.deepEqual(
        (await list('/api/claims/holdReasons?active=false')).items.map((i) => [i.code, i.active]),
        [[off.code, false]],
      )
      assert.equal((await list('/api/claims/holdReasons')).total, all.length)
      assert.deepEqual(
        (await list<Combination>('/api/claims/complaintcausecorrections?active=false')).items.map((c) => c.id),
        [offCombination.id],
      )
      assert.equal(
        (await list<Combination>('/api/claims/complaintcausecorrections?active=true')).total,
        all3c.length - 1,
      )
    } finally {
      await setActive('claim_lookup', off.id, true)
      await setActive('claim_lookup_combination', offCombination.id, true)
    }
  })

  test('bad query values are 400', async () => {
    for (const url of [
      '/api/claims/complaints?limit=0',
      '/api/claims/complaints?active=maybe',
      '/api/claims/complaintcausecorrections?complaintId=abc',
      '/api/claims/complaintcausecorrections?complaintId=0',
      '/api/claims/causes?unknown=1',
    ]) {
      const res = await get(url)
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
    }
  })
})

async function setActive(table: 'claim_lookup' | 'claim_lookup_combination', id: number, active: boolean) {
  await t.db.transaction(a.tenantId, (tx) =>
    tx.updateTable(table).set({ active }).where('tenant_id', '=', a.tenantId).where('id', '=', id).execute(),
  )
}

describe('tenants', () => {
  test("another tenant's entries never show", async () => {
    for (const [url] of [...ROUTES, ['/api/claims/complaintcausecorrections']]) {
      const ofA = new Set((await list(url!)).items.map((i) => i.id))
      const ofB = await list(url!, b.headers)
      assert.ok(ofB.items.length > 0)
      assert.ok(
        ofB.items.every((i) => !ofA.has(i.id)),
        `${url}: B sees none of A's ids`,
      )
    }
    const aComplaint = (await list('/api/claims/complaints')).items[0]!.id
    assert.deepEqual(await list(`/api/claims/complaintcausecorrections?complaintId=${aComplaint}`, b.headers), {
      items: [],
      total: 0,
    })
  })

  test('a new tenant is seeded with every default list', async () => {
    const fresh = await createTenant(t, 'Claim lookups fresh')
    const counts = await t.db.read(fresh.tenantId, (x) =>
      x
        .selectFrom('claim_lookup')
        .select(['kind', (eb) => eb.fn.countAll<string>().as('n')])
        .where('tenant_id', '=', fresh.tenantId)
        .groupBy('kind')
        .execute(),
    )
    assert.deepEqual(
      Object.fromEntries(counts.map((c) => [c.kind, Number(c.n)])),
      Object.fromEntries(ROUTES.map(([, kind]) => [kind, defaultsOf(kind).length])),
    )
    assert.equal(
      (await list('/api/claims/complaintcausecorrections', fresh.headers)).total,
      CLAIM_COMBINATION_DEFAULTS.length,
    )
  })

  test("migration 0020's frozen defaults are the module's", () => {
    assert.deepEqual(
      DEFAULT_CLAIM_LOOKUPS.map(([kind, code, name, type]) => ({ kind, code, name, type })),
      CLAIM_LOOKUP_DEFAULTS,
    )
    assert.deepEqual(
      DEFAULT_CLAIM_COMBINATIONS.map(([complaint, cause, correction]) => ({ complaint, cause, correction })),
      CLAIM_COMBINATION_DEFAULTS,
    )
  })

  test('migration 0020 seeds an existing tenant as the initializer seeds a new one', async () => {
    const snapshot = (tx: Parameters<Parameters<TestApp['db']['transaction']>[1]>[0], tenantId: number) =>
      sql<{ row: string }>`
        select concat_ws('|', l.kind, l.code, l.name, l.type_code, l.active, l.sort_order) as row
          from claim_lookup l where l.tenant_id = ${tenantId}
        union all
        select concat_ws('|', 'COMBINATION', a.code, b.code, c.code, m.active, m.sort_order)
          from claim_lookup_combination m
          join claim_lookup a on a.tenant_id = ${tenantId} and a.id = m.complaint_id
          join claim_lookup b on b.tenant_id = ${tenantId} and b.id = m.cause_id
          join claim_lookup c on c.tenant_id = ${tenantId} and c.id = m.correction_id
         where m.tenant_id = ${tenantId}
         order by 1`
        .execute(tx)
        .then((r) => r.rows.map((x) => x.row))
    const rollback = new Error('rollback')
    let seeded: string[] = []
    let migrated: string[] = []
    await t.db
      .transaction(b.tenantId, async (tx) => {
        seeded = await snapshot(tx, b.tenantId)
        await sql`delete from claim_lookup_combination where tenant_id = ${b.tenantId}`.execute(tx)
        await sql`delete from claim_lookup where tenant_id = ${b.tenantId}`.execute(tx)
        await insertDefaultClaimLookups(tx, b.tenantId)
        await sql`select set_config('app.tenant_id', ${String(b.tenantId)}, true)`.execute(tx)
        migrated = await snapshot(tx, b.tenantId)
        throw rollback
      })
      .catch((err: unknown) => {
        if (err !== rollback) throw err
      })
    assert.equal(seeded.length, CLAIM_LOOKUP_DEFAULTS.length + CLAIM_COMBINATION_DEFAULTS.length)
    assert.deepEqual(migrated, seeded)
  })
})

describe('who may read', () => {
  test('a dealer-side user holding claims:read reads every list; without it, 403', async () => {
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/portalvisibilitygroups',
      headers: a.headers,
      payload: { code: 'PORTAL-CLAIMS', name: 'Claims portal' },
    })
    assert.equal(group.statusCode, 201, group.body)
    const groups = [{ id: json<{ id: number }>(group).id }]
    const reader = await createUserWithRoles(t, a, ['DEALER_USER', 'CLAIMS_ADJUSTER'], { groups })
    const seller = await createUserWithRoles(t, a, ['DEALER_USER'], { groups })
    for (const [url] of [...ROUTES, ['/api/claims/complaintcausecorrections']]) {
      const asAdmin = await list(url!)
      assert.deepEqual(await list(url!, reader.headers), asAdmin, url)
      const refused = await get(url!, seller.headers)
      assert.equal(refused.statusCode, 403, `${url}: ${refused.body}`)
    }
  })

  test('no credentials: 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/claims/causes' })
    assert.equal(res.statusCode, 401)
  })
})
