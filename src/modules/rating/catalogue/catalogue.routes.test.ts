// The rating catalogue through HTTP: every route's reply over the demo book, the filters, the
// version read (today, `date`, `version`), 404s, no book, another tenant, credentials.
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
import { systemContext } from '../../../platform/http/context.ts'
import { demoRateBook } from '../index.ts'

let t: TestApp

let w: World

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  w = await world()
})
after(() => t.close())

type Headers = Record<string, string>
type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string }> }
type World = { tenant: TestTenant; id(kind: string, code: string): number }

/** The demo book without fixed payees (a fresh tenant has no insurers to pay). */
function book(effectiveDate: string, change: (b: ReturnType<typeof demoRateBook>) => void = () => {}) {
  const b = demoRateBook(effectiveDate)
  b.disbursementCodes = b.disbursementCodes.map(({ payee: _payee, ...c }) => c)
  change(b)
  return b
}

async function importBook(
  tenant: TestTenant,
  effectiveDate: string,
  change?: (b: ReturnType<typeof demoRateBook>) => void,
) {
  await t.modules.rating.rateBooks.importBook(systemContext(tenant.tenantId), book(effectiveDate, change), {
    dryRun: false,
  })
}

async function world(name = 'Catalogue'): Promise<World> {
  const tenant = await createTenant(t, name)
  await importBook(tenant, '2026-01-01')
  const items = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('rating_catalogue_item')
      .select(['id', 'kind', 'code'])
      .where('tenant_id', '=', tenant.tenantId)
      .execute(),
  )
  return {
    tenant,
    id(kind, code) {
      const found = items.find((i) => i.kind === kind && i.code === code)
      assert.ok(found, `${kind} ${code}`)
      return found.id
    },
  }
}

const get = (headers: Headers, url: string) => t.app.inject({ method: 'GET', url, headers })
async function ok<T = Array<Record<string, unknown>>>(headers: Headers, url: string): Promise<T> {
  const res = await get(headers, url)
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return json<T>(res)
}
async function problem(headers: Headers, url: string, status: number, code: string): Promise<Problem> {
  const res = await get(headers, url)
  assert.equal(res.statusCode, status, `${url}: ${res.body}`)
  assert.match(String(res.headers['content-type']), /application\/problem\+json/)
  const body = json<Problem>(res)
  assert.equal(body.code, code)
  return body
}
const codes = (items: Array<Record<string, unknown>>, key = 'code') => items.map((i) => i[key])

describe('products, programs, plans, terms, deductibles, asset types', () => {
  test('asset types: all five, each with the products sold for it; the version read is in a header', async () => {
    const res = await get(w.tenant.headers, '/api/Rates/AssetTypes')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-rate-book-version'], '1')
    const types =
      json<Array<{ code: string; description: string; products: Array<{ id: number; code: string; name: string }> }>>(
        res,
      )
    assert.deepEqual(
      types.map((a) => [a.code, a.products.map((p) => p.code)]),
      [
        ['AUTO', ['VSC', 'GAP', 'TW', 'PPM']],
        ['RV', ['GAP']],
        ['MARINE', []],
        ['POWERSPORTS', ['GAP']],
        ['OTHER', []],
      ],
    )
    assert.deepEqual(types[1]!.products[0], {
      id: w.id('PRODUCT', 'GAP'),
      code: 'GAP',
      name: 'Guaranteed Asset Protection',
    })
    assert.ok(types.every((a) => a.description.length > 0))
  })

  test('products: every field, filters in any case, windowed with X-Total-Count', async () => {
    const res = await get(w.tenant.headers, '/api/Rates/Products')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-total-count'], '4')
    const products = json<Array<Record<string, unknown>>>(res)
    assert.deepEqual(codes(products), ['VSC', 'GAP', 'TW', 'PPM'])
    assert.deepEqual(products[0], {
      id: w.id('PRODUCT', 'VSC'),
      code: 'VSC',
      name: 'Vehicle Service Contract',
      type: 'VSC',
      assetTypes: ['AUTO'],
      requiredInputs: ['vehicle', 'vehicleCondition', 'odometer', 'inServiceDate'],
      effectiveFrom: null,
      effectiveTo: null,
      deductibleCount: 4,
      programCount: 3,
      factorTableIds: [w.id('FACTOR_TABLE', 'STATE_RESERVE')],
    })
    assert.deepEqual(codes(await ok(w.tenant.headers, '/api/Rates/Products?type=gap')), ['GAP'])
    assert.deepEqual(codes(await ok(w.tenant.headers, '/api/Rates/Products?assetType=Powersports')), ['GAP'])
    assert.deepEqual(codes(await ok(w.tenant.headers, '/api/Rates/Products?assetType=AUTO&type=TIRE_WHEEL')), ['TW'])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/Products?assetType=MARINE'), [])
    const page = await get(w.tenant.headers, '/api/Rates/Products?limit=2&offset=1')
    assert.deepEqual(codes(json(page)), ['GAP', 'TW'])
    assert.equal(page.headers['x-total-count'], '4')
    const bad = await problem(w.tenant.headers, '/api/Rates/Products?type=CAR&assetType=boat', 400, 'validation_failed')
    assert.deepEqual(bad.errors!.map((e) => e.field).toSorted(), ['assetType', 'type'])
  })

  test('programs: each with its product and plans; filtered by product', async () => {
    const all = await ok(w.tenant.headers, '/api/Rates/Programs')
    assert.deepEqual(codes(all), ['PLAT', 'GOLD', 'PWT', 'GAP', 'TW', 'PPM'])
    assert.deepEqual(all[0], {
      id: w.id('PROGRAM', 'PLAT'),
      code: 'PLAT',
      name: 'Platinum Exclusionary',
      product: { id: w.id('PRODUCT', 'VSC'), code: 'VSC', name: 'Vehicle Service Contract', type: 'VSC' },
      plans: [
        { id: w.id('PLAN', 'PLAT-NEW'), code: 'PLAT-NEW', name: 'Platinum - New' },
        { id: w.id('PLAN', 'PLAT-USED'), code: 'PLAT-USED', name: 'Platinum - Used' },
      ],
    })
    assert.deepEqual(codes(await ok(w.tenant.headers, `/api/Rates/Programs?productId=${w.id('PRODUCT', 'VSC')}`)), [
      'PLAT',
      'GOLD',
      'PWT',
    ])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/Programs?productId=999999999'), [])
    assert.deepEqual(
      await ok(w.tenant.headers, `/api/Rates/Programs?productId=${w.id('PLAN', 'GAP-STD')}`),
      [],
      'a plan id is not a product id',
    )
  })

  test('plans of a product: program, conditions, form, coverage, services, custom fields', async () => {
    const plans = await ok<Array<Record<string, unknown>>>(
      w.tenant.headers,
      `/api/Rates/Plans/${w.id('PRODUCT', 'VSC')}`,
    )
    assert.deepEqual(codes(plans), ['PLAT-NEW', 'PLAT-USED', 'GOLD-USED', 'PWT-USED'])
    const used = plans[1]!
    assert.equal(used.id, w.id('PLAN', 'PLAT-USED'))
    assert.deepEqual(used.program, { id: w.id('PROGRAM', 'PLAT'), code: 'PLAT', name: 'Platinum Exclusionary' })
    assert.deepEqual(used.conditions, ['USED', 'CERTIFIED'])
    assert.equal(used.formNumber, 'VSC-PLAT-U-0126')
    assert.equal(used.effectiveFrom, null)
    assert.deepEqual(
      (used.coverageGroups as Array<{ code: string }>).map((g) => g.code),
      ['ENGINE', 'TRANS', 'DRIVE', 'AC', 'ELEC', 'STEER', 'HITECH'],
    )
    assert.deepEqual((used.coverageGroups as Array<{ components: unknown[] }>)[0]!.components[0], {
      code: 'BLOCK',
      name: 'Cylinder block',
    })
    assert.deepEqual(used.ppmServices, [])
    assert.deepEqual(used.customFields, [
      {
        key: 'financeManagerCode',
        label: 'F&I manager code',
        type: 'STRING',
        required: true,
        unique: false,
        order: 1,
        level: 'PRODUCT',
        maxLength: 10,
      },
      {
        key: 'stockNumber',
        label: 'Stock #',
        type: 'STRING',
        required: false,
        unique: false,
        order: 2,
        level: 'PRODUCT',
        maxLength: 20,
      },
    ])
    const [ppm] = await ok<Array<{ ppmServices: unknown[]; coverageGroups: unknown[] }>>(
      w.tenant.headers,
      `/api/Rates/Plans/${w.id('PRODUCT', 'PPM')}`,
    )
    assert.equal(ppm!.ppmServices.length, 3)
    assert.deepEqual(ppm!.coverageGroups, [])
    await problem(w.tenant.headers, '/api/Rates/Plans/999999999', 404, 'catalogue_item_not_found')
    await problem(w.tenant.headers, `/api/Rates/Plans/${w.id('PROGRAM', 'PLAT')}`, 404, 'catalogue_item_not_found')
    await problem(w.tenant.headers, '/api/Rates/Plans/99999999999999999999999', 404, 'catalogue_item_not_found')
    await problem(w.tenant.headers, '/api/Rates/Plans/abc', 400, 'validation_failed')
  })

  test('terms of a plan; deductibles of a product', async () => {
    const terms = await ok(w.tenant.headers, `/api/Rates/Terms/Plan/${w.id('PLAN', 'PLAT-NEW')}`)
    assert.deepEqual(terms[0], {
      id: w.id('TERM', 'PLAT-NEW/36-36000'),
      code: '36-36000',
      months: 36,
      miles: 36000,
      milesBasis: 'FROM_ZERO',
    })
    assert.deepEqual(codes(terms), ['36-36000', '48-60000', '60-75000', '72-100000'])
    const gap = await ok(w.tenant.headers, `/api/Rates/Terms/Plan/${w.id('PLAN', 'GAP-STD')}`)
    assert.deepEqual(
      gap.map((x) => [x.months, x.miles, x.milesBasis]),
      [
        [36, 0, 'FROM_SALE_ODOMETER'],
        [48, 0, 'FROM_SALE_ODOMETER'],
        [60, 0, 'FROM_SALE_ODOMETER'],
        [72, 0, 'FROM_SALE_ODOMETER'],
        [84, 0, 'FROM_SALE_ODOMETER'],
      ],
    )
    await problem(w.tenant.headers, `/api/Rates/Terms/Plan/${w.id('PRODUCT', 'GAP')}`, 404, 'catalogue_item_not_found')

    const deductibles = await ok(w.tenant.headers, `/api/Rates/DeductiblesByProduct/${w.id('PRODUCT', 'VSC')}`)
    assert.deepEqual(deductibles, [
      { id: w.id('DEDUCTIBLE', 'VSC/D0'), code: 'D0', amount: 0, type: 'STANDARD' },
      { id: w.id('DEDUCTIBLE', 'VSC/D100'), code: 'D100', amount: 100, type: 'STANDARD' },
      { id: w.id('DEDUCTIBLE', 'VSC/D250'), code: 'D250', amount: 250, type: 'STANDARD' },
      { id: w.id('DEDUCTIBLE', 'VSC/D100DIS'), code: 'D100DIS', amount: 100, type: 'DISAPPEARING' },
    ])
    await problem(w.tenant.headers, '/api/Rates/DeductiblesByProduct/999999999', 404, 'catalogue_item_not_found')
  })

  test('a factor table by id', async () => {
    const id = w.id('FACTOR_TABLE', 'STATE_RESERVE')
    const res = await get(w.tenant.headers, `/api/factorTables/${id}`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-rate-book-version'], '1')
    assert.deepEqual(json(res), {
      id,
      code: 'STATE_RESERVE',
      name: 'State reserve factor',
      fact: 'customerState',
      defaultFactor: 1,
      entries: { FL: 1.1, NY: 1.08, CA: 1.05 },
    })
    assert.match(res.body, /"defaultFactor":1,"entries":\{"FL":1\.1,"NY":1\.08,"CA":1\.05\}/)
    await problem(w.tenant.headers, `/api/FACTORTABLES/${w.id('PRODUCT', 'VSC')}`, 404, 'catalogue_item_not_found')
    await problem(w.tenant.headers, '/api/factorTables/0', 404, 'catalogue_item_not_found')
  })
})

describe('vehicles', () => {
  test('makes: sorted, de-duplicated, windowed', async () => {
    const res = await get(w.tenant.headers, '/api/Rates/VehicleMakes')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-total-count'], '29')
    const makes = json<Array<{ make: string }>>(res).map((m) => m.make)
    assert.equal(makes.length, 29)
    assert.deepEqual(makes.slice(0, 4), ['ACURA', 'AUDI', 'BMW', 'BUICK'])
    assert.deepEqual(makes, makes.toSorted())
    const page = await get(w.tenant.headers, '/api/Rates/VehicleMakes?limit=2&offset=2')
    assert.deepEqual(json(page), [{ make: 'BMW' }, { make: 'BUICK' }])
    assert.equal(page.headers['x-total-count'], '29')
  })

  test('models by make (any case) and year', async () => {
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleModels?make=honda'), [
      { make: 'HONDA', model: 'ACCORD' },
      { make: 'HONDA', model: 'CIVIC' },
      { make: 'HONDA', model: 'CR-V' },
      { make: 'HONDA', model: 'PILOT' },
    ])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleModels?make=Honda&year=2009'), [])
    assert.deepEqual(
      await ok(w.tenant.headers, '/api/Rates/VehicleModels?make=Hyundai'),
      [],
      'a make-only entry has no models',
    )
    const all = await get(w.tenant.headers, '/api/Rates/VehicleModels')
    assert.equal(all.headers['x-total-count'], '14', 'the two F-150 entries are one model')
  })

  test('series, trims and body styles', async () => {
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleSeries'), [
      { make: 'CHEVROLET', model: 'SILVERADO 1500', series: 'SILVERADO' },
      { make: 'FORD', model: 'F-150', series: 'F-SERIES' },
    ])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleSeries?make=ford&model=F-150'), [
      { make: 'FORD', model: 'F-150', series: 'F-SERIES' },
    ])
    const trims = await ok(w.tenant.headers, '/api/Rates/VehicleTrims?make=FORD&model=f-150&year=2020')
    assert.deepEqual(codes(trims, 'trim'), ['KING RANCH', 'LARIAT', 'PLATINUM', 'RAPTOR', 'XL', 'XLT'])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleTrims?make=FORD&model=f-150&year=2030'), [])
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleBodyStyles?make=honda&model=civic'), [
      { make: 'HONDA', model: 'CIVIC', bodyStyle: 'Hatchback' },
      { make: 'HONDA', model: 'CIVIC', bodyStyle: 'Sedan' },
    ])
    const styles = await ok(w.tenant.headers, '/api/Rates/VehicleBodyStyles?make=Toyota')
    assert.deepEqual(
      styles.map((s) => `${s.model}/${s.bodyStyle}`),
      ['CAMRY/Sedan', 'COROLLA/Hatchback', 'COROLLA/Sedan', 'RAV4/SUV', 'TACOMA/Pickup'],
    )
  })

  test('segmentations: every class, or the class of one vehicle', async () => {
    assert.deepEqual(await ok(w.tenant.headers, '/api/Rates/VehicleSegmentations'), [
      { vehicleClass: 'A', description: 'Economy and mainstream imports', isDefault: false },
      { vehicleClass: 'B', description: 'Domestic cars, trucks and SUVs', isDefault: false },
      { vehicleClass: 'C', description: 'Premium and luxury', isDefault: false },
      { vehicleClass: 'D', description: 'High-risk luxury', isDefault: false },
    ])
    assert.deepEqual(
      await ok(w.tenant.headers, '/api/Rates/VehicleSegmentations?make=bmw&model=x5&trim=xDrive40i&year=2022'),
      [{ vehicleClass: 'D', description: 'High-risk luxury', isDefault: false, matchedBy: 'ENTRY' }],
    )
    assert.deepEqual(codes(await ok(w.tenant.headers, '/api/Rates/VehicleSegmentations?make=BMW'), 'vehicleClass'), [
      'C',
    ])
    assert.deepEqual(
      await ok(w.tenant.headers, '/api/Rates/VehicleSegmentations?make=Yugo'),
      [],
      'no entry and no default class',
    )
    const bad = await problem(w.tenant.headers, '/api/Rates/VehicleSegmentations?model=X5', 400, 'validation_failed')
    assert.deepEqual(
      bad.errors!.map((e) => [e.field, e.code]),
      [['make', 'required']],
    )
  })

  test('bad filters are 400 listing each', async () => {
    const bad = await problem(
      w.tenant.headers,
      '/api/Rates/VehicleTrims?year=1800&make=%20&color=red',
      400,
      'validation_failed',
    )
    assert.deepEqual(bad.errors!.map((e) => e.field).toSorted(), ['color', 'make', 'year'])
    await problem(w.tenant.headers, '/api/Rates/VehicleMakes?limit=0', 400, 'validation_failed')
  })
})

describe('which rate book', () => {
  test('no book in force: lists are empty, by-id routes 404 rate_book_not_found', async () => {
    const earlier = '?date=2025-12-31'
    for (const path of [
      'Products',
      'Programs',
      'VehicleMakes',
      'VehicleModels',
      'VehicleSeries',
      'VehicleTrims',
      'VehicleBodyStyles',
      'VehicleSegmentations',
    ]) {
      const res = await get(w.tenant.headers, `/api/Rates/${path}${earlier}`)
      assert.equal(res.statusCode, 200, path)
      assert.deepEqual(json(res), [], path)
      assert.equal(res.headers['x-total-count'], '0', path)
      assert.equal(res.headers['x-rate-book-version'], undefined, path)
    }
    const types = await ok<Array<{ products: unknown[] }>>(w.tenant.headers, `/api/Rates/AssetTypes${earlier}`)
    assert.equal(types.length, 5)
    assert.ok(types.every((a) => a.products.length === 0))
    await problem(w.tenant.headers, `/api/Rates/Plans/${w.id('PRODUCT', 'VSC')}${earlier}`, 404, 'rate_book_not_found')
    await problem(
      w.tenant.headers,
      `/api/Rates/Terms/Plan/${w.id('PLAN', 'GAP-STD')}${earlier}`,
      404,
      'rate_book_not_found',
    )
    await problem(
      w.tenant.headers,
      `/api/Rates/DeductiblesByProduct/${w.id('PRODUCT', 'VSC')}${earlier}`,
      404,
      'rate_book_not_found',
    )
    await problem(
      w.tenant.headers,
      `/api/factorTables/${w.id('FACTOR_TABLE', 'STATE_RESERVE')}${earlier}`,
      404,
      'rate_book_not_found',
    )
  })

  test('a later version: today still reads the one in force; date and version choose', async () => {
    const v = await world('Two versions')
    await importBook(v.tenant, '2026-07-01', (b) => {
      b.products = b.products.filter((p) => p.code !== 'TW')
      b.products[0]!.name = 'Vehicle Service Contract 2026'
      b.rates = b.rates!.filter((r) => r.plan !== 'TW-STD')
    })
    const h = v.tenant.headers
    const today = await get(h, '/api/Rates/Products')
    assert.equal(today.headers['x-rate-book-version'], '1')
    assert.deepEqual(codes(json(today)), ['VSC', 'GAP', 'TW', 'PPM'])
    const july = await get(h, '/api/Rates/Products?date=2026-07-01')
    assert.equal(july.headers['x-rate-book-version'], '2')
    assert.deepEqual(
      json<Array<{ name: string }>>(july).map((p) => p.name),
      ['Vehicle Service Contract 2026', 'Guaranteed Asset Protection', 'Prepaid Maintenance'],
    )
    assert.deepEqual(codes(await ok(h, '/api/Rates/Products?version=2')), ['VSC', 'GAP', 'PPM'])
    assert.deepEqual(codes(await ok(h, '/api/Rates/Products?version=1&type=tire_wheel')), ['TW'])
    // Catalogue ids are kept across versions; an item the version lacks is 404.
    assert.equal((await ok(h, `/api/Rates/Plans/${v.id('PRODUCT', 'VSC')}?version=2`)).length, 4)
    await problem(h, `/api/Rates/Plans/${v.id('PRODUCT', 'TW')}?version=2`, 404, 'catalogue_item_not_found')
    assert.equal((await ok(h, `/api/Rates/Plans/${v.id('PRODUCT', 'TW')}`)).length, 1)
    await problem(h, '/api/Rates/Products?version=9', 404, 'rate_book_not_found')
    await problem(h, '/api/Rates/AssetTypes?version=9', 404, 'rate_book_not_found')
    const both = await problem(h, '/api/Rates/Products?version=1&date=2026-07-01', 400, 'validation_failed')
    assert.deepEqual(
      both.errors!.map((e) => [e.field, e.code]),
      [['version', 'conflict']],
    )
    await problem(h, '/api/Rates/Products?date=2026-02-30', 400, 'validation_failed')
  })
})

describe('tenancy and credentials', () => {
  test('another tenant sees nothing of this one', async () => {
    const other = await createTenant(t, 'Other')
    const h = other.headers
    assert.deepEqual(await ok(h, '/api/Rates/Products'), [])
    assert.deepEqual(await ok(h, '/api/Rates/VehicleMakes'), [])
    await problem(h, `/api/Rates/Plans/${w.id('PRODUCT', 'VSC')}`, 404, 'rate_book_not_found')
    await problem(h, '/api/Rates/Products?version=1', 404, 'rate_book_not_found')
    // With a book of its own, the first tenant's ids are still unknown to it.
    await importBook(other, '2026-01-01')
    assert.equal((await ok(h, '/api/Rates/Products')).length, 4)
    await problem(h, `/api/Rates/Plans/${w.id('PRODUCT', 'VSC')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/Rates/Terms/Plan/${w.id('PLAN', 'PLAT-NEW')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/Rates/DeductiblesByProduct/${w.id('PRODUCT', 'VSC')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/factorTables/${w.id('FACTOR_TABLE', 'STATE_RESERVE')}`, 404, 'catalogue_item_not_found')
    assert.deepEqual(await ok(h, `/api/Rates/Programs?productId=${w.id('PRODUCT', 'VSC')}`), [])
  })

  test('401 without credentials; 403 without rates:read', async () => {
    const nobody = await createUserWithRoles(t, w.tenant, [])
    for (const url of [
      '/api/Rates/AssetTypes',
      '/api/Rates/Products',
      `/api/Rates/Plans/${w.id('PRODUCT', 'VSC')}`,
      '/api/Rates/VehicleMakes',
      `/api/factorTables/${w.id('FACTOR_TABLE', 'STATE_RESERVE')}`,
    ]) {
      const none = await t.app.inject({ method: 'GET', url })
      assert.equal(none.statusCode, 401, url)
      assert.equal(json(none).code, 'unauthenticated')
      const keyOnly = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': w.tenant.apiKey } })
      assert.equal(keyOnly.statusCode, 401, url)
      const denied = await get(nobody.headers, url)
      assert.equal(denied.statusCode, 403, url)
      assert.equal(json(denied).code, 'permission_denied')
    }
  })
})
