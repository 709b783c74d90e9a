// Rate books through HTTP: import (201 + Location), dry run, identical re-import, 422 listing every
// problem with its location and storing nothing, CSV rates, the version list and which version is in
// force (moving the clock past a future version's date), reading and exporting a version (the export
// re-imports to the same checksum), 404s, permissions, tenant isolation, payees that must exist, and
// the quote using a new version at once.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../../test/harness.ts'
import { seedDemoTenant } from '../../../demo.ts'
import { demoRateBook } from './demo-ratebook.ts'
import type { RateQuote } from '../quote/index.ts'
import type { RateBookInput } from './ratebook.format.ts'

// Half an hour before midnight, so a book effective tomorrow comes into force within the tokens' lifetime.
// 23:30 on 2026-11-22 in the tenant's time zone (the default, America/Chicago: UTC-6 in November).
const NOW = new Date('2026-11-23T05:30:00Z')
const URL = '/api/Rates/ratebooks'

let t: TestApp
let demoBookRates: number

before(async () => {
  t = await createTestApp({ now: NOW })
  demoBookRates = demoRateBook('2026-01-01').rates!.length
})
after(() => t.close())

type Headers = Record<string, string>
type Problem = {
  status: number
  code: string
  detail: string
  errors: Array<{ file: string; path?: string; row?: number; field: string; code: string; message: string }>
}
type ImportResult = {
  dryRun: boolean
  unchanged: boolean
  version: number | null
  id: number | null
  effectiveDate: string
  checksum: string
  summary: Record<string, number>
}
type Version = {
  version: number
  id: number
  effectiveDate: string
  description: string | null
  checksum: string
  summary: Record<string, number>
  importedAt: string
  importedBy: string
  inForce: boolean
}

/** The demo book without fixed payees, so it imports into a tenant that has no insurers. */
function book(effectiveDate = '2026-01-01', change?: (b: RateBookInput) => void): RateBookInput {
  const b = demoRateBook(effectiveDate)
  b.disbursementCodes = b.disbursementCodes.map(({ payee: _payee, ...c }) => c)
  change?.(b)
  return b
}

const post = (headers: Headers, body: unknown, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `${URL}${query}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })
const get = (headers: Headers, path = '') => t.app.inject({ method: 'GET', url: `${URL}${path}`, headers })
const versions = async (headers: Headers) => {
  const res = await get(headers)
  assert.equal(res.statusCode, 200, res.body)
  return json<Version[]>(res)
}

async function imported(tenant: TestTenant, body: unknown = book()): Promise<ImportResult> {
  const res = await post(tenant.headers, body)
  assert.equal(res.statusCode, 201, res.body)
  return json<ImportResult>(res)
}

const DEMO_SUMMARY = {
  products: 4,
  programs: 6,
  plans: 7,
  terms: 25,
  vehicles: 44,
  factorTables: 1,
  disbursementCodes: 10,
}

describe('importing a rate book', () => {
  test('201 with Location and the summary; an identical book is not stored twice; the import is audited', async () => {
    const tenant = await createTenant(t, 'Rate books import')
    const res = await post(tenant.headers, book())
    assert.equal(res.statusCode, 201, res.body)
    const first = json<ImportResult>(res)
    assert.equal(res.headers.location, `${URL}/1`)
    assert.deepEqual(
      { ...first, id: 0, checksum: '' },
      {
        dryRun: false,
        unchanged: false,
        version: 1,
        id: 0,
        effectiveDate: '2026-01-01',
        checksum: '',
        summary: { ...DEMO_SUMMARY, rates: demoBookRates },
      },
    )
    assert.ok(Number.isInteger(first.id))
    assert.match(first.checksum, /^[0-9a-f]{64}$/)

    const again = await post(tenant.headers, book())
    assert.equal(again.statusCode, 200, again.body)
    assert.equal(again.headers.location, undefined)
    assert.deepEqual(json(again), { ...first, unchanged: true })
    // The same book with its members in another order is the same book.
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .toReversed()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v
    const reordered = await post(tenant.headers, reversed(book()) as RateBookInput)
    assert.equal(reordered.statusCode, 200, reordered.body)
    assert.deepEqual(json(reordered), { ...first, unchanged: true })
    assert.equal((await versions(tenant.headers)).length, 1)

    const audit = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('tenant_id', '=', tenant.tenantId)
        .where('action', '=', 'rate_book.imported')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => [a.action, Number(a.entity_id)]),
      [['rate_book.imported', first.id]],
    )
  })

  test('a dry run checks the book and stores nothing', async () => {
    const tenant = await createTenant(t, 'Rate books dry run')
    const dry = await post(tenant.headers, book(), '?dryRun=true')
    assert.equal(dry.statusCode, 200, dry.body)
    const checked = json<ImportResult>(dry)
    assert.deepEqual(
      { ...checked, checksum: '' },
      {
        dryRun: true,
        unchanged: false,
        version: null,
        id: null,
        effectiveDate: '2026-01-01',
        checksum: '',
        summary: { ...DEMO_SUMMARY, rates: demoBookRates },
      },
    )
    assert.deepEqual(await versions(tenant.headers), [])
    // The checksum is the one the real import gets.
    assert.equal((await imported(tenant)).checksum, checked.checksum)
  })

  test('an invalid book: 422 invalid_rate_book listing every problem with its location, and nothing stored', async () => {
    const tenant = await createTenant(t, 'Rate books invalid')
    await imported(tenant)
    const catalogue = async () =>
      (
        await t.db.read(tenant.tenantId, (x) =>
          x.selectFrom('rating_catalogue_item').select('id').where('tenant_id', '=', tenant.tenantId).execute(),
        )
      ).length
    const itemsBefore = await catalogue()
    const bad = book('2026-06-01', (b) => {
      b.products[0]!.criteria = 'vehicleAg <= 12'
      b.products[0]!.code = 'VSC2' // a new catalogue item, which must not be created either
      b.rates![0]!.plan = 'NOPE'
      b.rates![1]!.suggestedRetail = '1790.005'
      b.vehicles[0]!.vehicleClass = 'Z'
    })
    const res = await post(tenant.headers, bad)
    assert.equal(res.statusCode, 422, res.body)
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
    const problem = json<Problem>(res)
    assert.equal(problem.code, 'invalid_rate_book')
    assert.equal(problem.detail, 'the rate book has 4 problem(s)')
    assert.deepEqual(problem.errors.map((e) => [e.file, e.path, e.field, e.code]).toSorted(), [
      ['body', '/products/0/criteria', '/products/0/criteria', 'unknown_fact'],
      ['body', '/rates/0/plan', '/rates/0/plan', 'unknown_reference'],
      ['body', '/rates/1/suggestedRetail', '/rates/1/suggestedRetail', 'invalid_money'],
      ['body', '/vehicles/0/vehicleClass', '/vehicles/0/vehicleClass', 'unknown_reference'],
    ])
    assert.ok(problem.errors.every((e) => e.message.length > 0))
    // The dry run refuses it the same way.
    assert.deepEqual(json<Problem>(await post(tenant.headers, bad, '?dryRun=true')).errors, problem.errors)

    const list = await versions(tenant.headers)
    assert.deepEqual(
      list.map((v) => v.version),
      [1],
    )
    assert.equal(await catalogue(), itemsBefore)
  })

  test('structural problems are listed by JSON pointer; a body that is not a book at all too', async () => {
    const tenant = await createTenant(t, 'Rate books shape')
    const res = await post(tenant.headers, { formatVersion: 1, effectiveDate: '2026-01-01', vehicles: [], extra: true })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res)
        .errors.map((e) => [e.path, e.code])
        .toSorted(),
      [
        ['/disbursementCodes', 'required'],
        ['/extra', 'unknown_field'],
        ['/products', 'required'],
        ['/vehicleClasses', 'required'],
      ],
    )
    const array = await post(tenant.headers, [1, 2])
    assert.equal(array.statusCode, 422, array.body)
    assert.deepEqual(
      json<Problem>(array).errors.map((e) => [e.path, e.field, e.code]),
      [['', '', 'invalid_type']],
    )
    const notJson = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"formatVersion":',
    })
    assert.equal(notJson.statusCode, 400, notJson.body)
    assert.deepEqual(await versions(tenant.headers), [])
  })

  test('rates as CSV in ratesCsv: merged with the JSON rates; a bad cell is reported with its row and column', async () => {
    const tenant = await createTenant(t, 'Rate books CSV')
    const csv = [
      'plan,term,deductible,vehicleClass,odometerFrom,odometerTo,RES,PRM,ADM,COM,suggestedRetail,minRetail,maxRetail',
      'PLAT-USED,24-24000,D100,A,100001,150000,900,54,175,150,2200,1279,3500',
      'PLAT-USED,36-36000,D100,A,100001,150000,1000,60,175,150,2400,1385,3800',
    ].join('\n')
    const withCsv = book('2026-01-01', (b) => {
      b.ratesCsv = csv
    })
    const result = await imported(tenant, withCsv)
    assert.equal(result.summary.rates, demoBookRates + 2)
    const doc = json<{ rates: Array<Record<string, unknown>>; ratesCsv?: string }>(
      await get(tenant.headers, '/1/document'),
    )
    assert.equal(doc.ratesCsv, undefined)
    assert.equal(doc.rates.length, demoBookRates + 2)
    const last = doc.rates.at(-1)!
    assert.deepEqual(
      [last.plan, last.term, last.deductible, last.vehicleClass, last.odometerFrom, last.odometerTo, last.retailLocked],
      ['PLAT-USED', '36-36000', 'D100', 'A', 100001, 150000, false],
    )
    assert.deepEqual(
      Object.fromEntries(Object.entries(last.buckets as Record<string, unknown>).map(([k, v]) => [k, Number(v)])),
      { RES: 1000, PRM: 60, ADM: 175, COM: 150 },
    )

    const bad = await post(
      tenant.headers,
      book('2026-01-01', (b) => {
        b.ratesCsv = `${csv}\nPLAT-USED,48-48000,D100,A,100001,150000,1100.001,66,175,150,2600,1491,4100\nPLAT-USED,60-60000,D100,Q,100001,150000,1200,72,175,150,2800,1597,4400`
      }),
    )
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual(
      json<Problem>(bad).errors.map((e) => [e.file, e.row, e.field, e.code]),
      [
        ['body#ratesCsv', 4, 'RES', 'invalid_money'],
        ['body#ratesCsv', 5, 'vehicleClass', 'unknown_reference'],
      ],
    )
    const unknownColumn = await post(
      tenant.headers,
      book('2026-01-01', (b) => {
        b.ratesCsv = 'plan,term,deductible,vehicleClass,suggestedRetail,RES,BOGUS\n'
      }),
    )
    assert.deepEqual(
      json<Problem>(unknownColumn).errors.map((e) => [e.row, e.field, e.code]),
      [[1, 'BOGUS', 'unknown_column']],
    )
    assert.deepEqual(
      (await versions(tenant.headers)).map((v) => v.version),
      [1],
    )
  })

  test('atomicity: a payee account holder that does not exist refuses the whole book; nothing is stored', async () => {
    const tenant = await createTenant(t, 'Rate books payees')
    const res = await post(tenant.headers, demoRateBook('2026-01-01'))
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors.map((e) => [e.path, e.code]),
      [
        ['/disbursementCodes/0/payee/businessKey', 'unknown_reference'],
        ['/disbursementCodes/1/payee/businessKey', 'unknown_reference'],
        ['/disbursementCodes/2/payee/businessKey', 'unknown_reference'],
        ['/disbursementCodes/3/payee/businessKey', 'unknown_reference'],
      ],
    )
    assert.match(json<Problem>(res).errors[0]!.message, /no INSURER with business key 'INS-FCI'/)
    assert.deepEqual(await versions(tenant.headers), [])
    const items = await t.db.read(tenant.tenantId, (x) =>
      x.selectFrom('rating_catalogue_item').select('id').where('tenant_id', '=', tenant.tenantId).execute(),
    )
    assert.deepEqual(items, [])

    // With the insurers in place the same book is accepted (their codes match in any case).
    for (const insurerCode of ['ins-fci', 'INS-GPI']) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/insurers',
        headers: tenant.headers,
        payload: { insurerCode, legalName: `Insurer ${insurerCode}` },
      })
      assert.equal(created.statusCode, 201, created.body)
    }
    assert.equal((await imported(tenant, demoRateBook('2026-01-01'))).version, 1)
  })
})

describe('versions', () => {
  test('newest first with inForce; a future-dated version comes into force on its date; read one, or the active one', async () => {
    const tenant = await createTenant(t, 'Rate books versions')
    const v1 = await imported(tenant, book('2026-01-01'))
    const v2 = await imported(
      tenant,
      book('2026-11-23', (b) => {
        b.description = 'From tomorrow'
      }),
    )
    assert.equal(v2.version, 2)

    const list = await versions(tenant.headers)
    assert.deepEqual(
      list.map((v) => [v.version, v.effectiveDate, v.inForce]),
      [
        [2, '2026-11-23', false],
        [1, '2026-01-01', true],
      ],
    )
    assert.deepEqual(list[1], {
      version: 1,
      id: v1.id,
      effectiveDate: '2026-01-01',
      description: 'Demo rate book: VSC, GAP, tire & wheel and prepaid maintenance',
      checksum: v1.checksum,
      summary: v1.summary,
      importedAt: NOW.toISOString(),
      importedBy: tenant.adminEmail,
      inForce: true,
    })
    assert.equal(list[0]!.description, 'From tomorrow')

    const one = await get(tenant.headers, '/2')
    assert.equal(one.statusCode, 200, one.body)
    assert.deepEqual(json(one), list[0])
    assert.deepEqual(json(await get(tenant.headers, '/active')), list[1])

    t.clock.advance(45 * 60_000) // 00:15 on 2026-11-23 in Chicago
    try {
      const later = await versions(tenant.headers)
      assert.deepEqual(
        later.map((v) => [v.version, v.inForce]),
        [
          [2, true],
          [1, false],
        ],
      )
      assert.equal(json<Version>(await get(tenant.headers, '/active')).version, 2)
      assert.equal(json<Version>(await get(tenant.headers, '/1')).inForce, false)
    } finally {
      t.clock.set(NOW)
    }
    assert.equal(json<Version>(await get(tenant.headers, '/active')).version, 1)
  })

  test('the export is the stored book in the import format, and re-imports to the same checksum', async () => {
    const tenant = await createTenant(t, 'Rate books export')
    const first = await imported(tenant)
    const res = await get(tenant.headers, '/1/document')
    assert.equal(res.statusCode, 200, res.body)
    const doc = json<Record<string, unknown> & { rates: unknown[] }>(res)
    assert.equal(doc.formatVersion, 1)
    assert.equal(doc.rates.length, demoBookRates)
    assert.deepEqual(json(await get(tenant.headers, '/active/document')), doc)

    const again = await post(tenant.headers, doc)
    assert.equal(again.statusCode, 200, again.body)
    assert.deepEqual(json(again), { ...first, unchanged: true })
    assert.equal((await versions(tenant.headers)).length, 1)

    // Into another tenant: the same checksum.
    const other = await createTenant(t, 'Rate books export target')
    assert.equal((await imported(other, doc)).checksum, first.checksum)
  })

  test('404 for a version that does not exist, or when no version is in force; 400 for a version that is not a number', async () => {
    const tenant = await createTenant(t, 'Rate books 404')
    for (const path of ['/active', '/active/document', '/1', '/1/document']) {
      const res = await get(tenant.headers, path)
      assert.equal(res.statusCode, 404, `${path}: ${res.body}`)
      assert.equal(json<Problem>(res).code, 'rate_book_not_found')
    }
    await imported(tenant, book('2026-12-01')) // only a future version
    assert.equal((await get(tenant.headers, '/active')).statusCode, 404)
    assert.equal((await get(tenant.headers, '/1')).statusCode, 200)
    for (const path of ['/2', '/2/document', '/2147483647'])
      assert.equal((await get(tenant.headers, path)).statusCode, 404, path)
    for (const path of ['/abc', '/0', '/-1', '/1.5'])
      assert.equal((await get(tenant.headers, path)).statusCode, 400, path)
  })
})

describe('who may import and see rate books', () => {
  test('importing needs rates:write (403 for a read-only user, who may still read); no credentials 401', async () => {
    const tenant = await createTenant(t, 'Rate books permissions')
    await imported(tenant)
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    const refused = await post(reader.headers, book('2026-02-01'))
    assert.equal(refused.statusCode, 403, refused.body)
    assert.equal(json<Problem>(refused).code, 'permission_denied')
    assert.equal((await post(reader.headers, book('2026-02-01'), '?dryRun=true')).statusCode, 403)
    assert.deepEqual(
      (await versions(reader.headers)).map((v) => v.version),
      [1],
    )
    assert.equal((await get(reader.headers, '/1/document')).statusCode, 200)
    const nobody = await get({ 'x-api-key': tenant.apiKey })
    assert.equal(nobody.statusCode, 401)
    const noRates = await createUserWithRoles(t, tenant, ['CLAIMS_ADJUSTER'])
    assert.equal((await get(noRates.headers)).statusCode, 403)
  })

  test('another tenant sees none of the versions', async () => {
    const tenant = await createTenant(t, 'Rate books owner')
    const mine = await imported(tenant)
    const other = await createTenant(t, 'Rate books stranger')
    assert.deepEqual(await versions(other.headers), [])
    for (const path of ['/1', '/1/document', '/active', `/${mine.id}`])
      assert.equal((await get(other.headers, path)).statusCode, 404, path)
    // Its own first version is its version 1, with no effect on ours.
    await imported(other, book('2026-03-01'))
    assert.deepEqual(
      (await versions(tenant.headers)).map((v) => [v.version, v.effectiveDate]),
      [[1, '2026-01-01']],
    )
  })
})

describe('the quote after an import', () => {
  test('uses the new version at once (the version cache is invalidated)', async () => {
    const demo = await seedDemoTenant(t.modules, t.db)
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': demo.apiKey },
      payload: { grant_type: 'password', username: demo.adminEmail, password: demo.adminPassword },
    })
    const headers = {
      'x-api-key': demo.apiKey,
      authorization: `Bearer ${json<{ access_token: string }>(token).access_token}`,
    }
    const quote = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/Rates/rateQuote/10001?vin=1HGCV1F37LA012345&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&productTypes=VSC',
        headers,
      })
      assert.equal(res.statusCode, 200, res.body)
      return json<RateQuote>(res)
    }
    const costOf = (q: RateQuote) => {
      const plan = q.products[0]!.programs.flatMap((g) => g.plans).find((p) => p.planCode === 'PLAT-USED')!
      return Math.round(plan.terms[0]!.deductibles.find((d) => d.code === 'D100')!.rate.dealerCost * 100)
    }
    const first = await quote()
    assert.equal(first.rateBook?.version, 1)

    // Version 2: the admin fee of every VSC rate 25.00 lower.
    const v2 = demoRateBook('2025-01-01')
    v2.description = 'Lower VSC admin fee'
    for (const r of v2.rates!) if (r.buckets.ADM === '175.00') r.buckets.ADM = '150.00'
    const res = await post(headers, v2)
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(json<ImportResult>(res).version, 2)

    const second = await quote()
    assert.equal(second.rateBook?.version, 2)
    assert.equal(costOf(second), costOf(first) - 2500)
  })
})

describe('who may read rate books', () => {
  test('a dealer-side user (limited to some dealers) gets 403 for the list, a version and the export; staff see them', async () => {
    const tenant = await createTenant(t, 'Rate books staff only')
    await imported(tenant, book('2026-01-01'))
    const dealerUser = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [] })
    for (const path of ['', '/1', '/1/document']) {
      const res = await get(dealerUser.headers, path)
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`)
      assert.equal(res.statusCode === 403 && json<{ code: string }>(res).code, 'permission_denied')
      assert.equal((await get(tenant.headers, path)).statusCode, 200, path)
    }
  })

  test('the version list is bounded: limit/offset and X-Total-Count', async () => {
    const tenant = await createTenant(t, 'Rate books paged')
    await imported(tenant, book('2026-01-01'))
    await imported(
      tenant,
      book('2026-02-01', (b) => {
        b.description = 'second'
      }),
    )
    const res = await get(tenant.headers, '?limit=1&offset=1')
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['x-total-count'], '2')
    assert.deepEqual(
      json<Version[]>(res).map((v) => v.version),
      [1],
    )
  })
})
