import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  assetTypes,
  classifyVehicle,
  deductibleItems,
  factorTableItem,
  planItem,
  productFilter,
  productItem,
  selectVehicleRows,
  vehicleClasses,
  vehicleItem,
  vehicleRows,
  windowOf,
  yearMatches,
  type VehicleFilter,
  type VehicleList,
} from './catalogue.rules.ts'
import {
  catalogueItemsOf,
  catalogueKey,
  checkRateBook,
  compileRateBook,
  demoRateBook,
  type RateBook,
} from '../ratebook/index.ts'

/** A book's vehicles as stored: make, model, series and trims upper-cased; one make left mixed-case to show folding. */
const VEHICLES: RateBook['vehicles'] = [
  {
    make: 'HONDA',
    model: 'ACCORD',
    trims: ['LX', 'EX'],
    bodyStyles: ['Sedan'],
    yearFrom: 2010,
    yearTo: 2020,
    vehicleClass: 'A',
  },
  {
    make: 'HONDA',
    model: 'CIVIC',
    trims: ['SI', 'LX'],
    bodyStyles: ['Sedan', 'Hatchback'],
    yearFrom: 2015,
    vehicleClass: 'A',
  },
  {
    make: 'FORD',
    model: 'F-150',
    series: 'F-SERIES',
    trims: ['XL', 'RAPTOR'],
    bodyStyles: ['Pickup'],
    yearFrom: 2010,
    yearTo: 2027,
    vehicleClass: 'B',
  },
  {
    make: 'FORD',
    model: 'F-150',
    series: 'F-SERIES',
    trims: ['RAPTOR'],
    bodyStyles: ['PICKUP', 'Crew cab'],
    yearFrom: 2021,
    vehicleClass: 'C',
  },
  { make: 'HONDA', vehicleClass: 'A' },
  { make: 'Kia', vehicleClass: 'A' },
  { make: 'BMW', series: 'M', trims: ['M3'], yearTo: 2012, vehicleClass: 'C' },
]

const list = (kind: VehicleList, filter: VehicleFilter) =>
  selectVehicleRows(vehicleRows(VEHICLES, kind), filter).map((r) => vehicleItem(kind, r))

describe('vehicle lists', () => {
  const cases: Array<[string, VehicleList, VehicleFilter, Array<Record<string, string | null>>]> = [
    [
      'every make, sorted, each once',
      'makes',
      {},
      [{ make: 'BMW' }, { make: 'FORD' }, { make: 'HONDA' }, { make: 'Kia' }],
    ],
    [
      'makes of a year: entries without years match every year',
      'makes',
      { year: 2025 },
      [{ make: 'FORD' }, { make: 'HONDA' }, { make: 'Kia' }],
    ],
    [
      'makes of a year before every range',
      'makes',
      { year: 1990 },
      [{ make: 'BMW' }, { make: 'HONDA' }, { make: 'Kia' }],
    ],
    [
      'models: make-only entries are not models',
      'models',
      {},
      [
        { make: 'FORD', model: 'F-150' },
        { make: 'HONDA', model: 'ACCORD' },
        { make: 'HONDA', model: 'CIVIC' },
      ],
    ],
    [
      'models of a make, any case, blanks ignored',
      'models',
      { make: ' honda ' },
      [
        { make: 'HONDA', model: 'ACCORD' },
        { make: 'HONDA', model: 'CIVIC' },
      ],
    ],
    ['models of a make and year', 'models', { make: 'Honda', year: 2022 }, [{ make: 'HONDA', model: 'CIVIC' }]],
    [
      'a mixed-case make matches in any case',
      'makes',
      { year: 2000 },
      [{ make: 'BMW' }, { make: 'HONDA' }, { make: 'Kia' }],
    ],
    ['models of an unknown make', 'models', { make: 'Tesla' }, []],
    [
      'series, a model-less entry first within its make',
      'series',
      {},
      [
        { make: 'BMW', model: null, series: 'M' },
        { make: 'FORD', model: 'F-150', series: 'F-SERIES' },
      ],
    ],
    [
      'series of a model',
      'series',
      { make: 'ford', model: 'f-150' },
      [{ make: 'FORD', model: 'F-150', series: 'F-SERIES' }],
    ],
    ['a model filter leaves out model-less entries', 'series', { make: 'bmw', model: 'M3' }, []],
    [
      'trims of two entries of one model, each once, sorted',
      'trims',
      { make: 'FORD', model: 'F-150' },
      [
        { make: 'FORD', model: 'F-150', trim: 'RAPTOR' },
        { make: 'FORD', model: 'F-150', trim: 'XL' },
      ],
    ],
    [
      'trims of a year only one entry covers',
      'trims',
      { make: 'FORD', model: 'F-150', year: 2012 },
      [
        { make: 'FORD', model: 'F-150', trim: 'RAPTOR' },
        { make: 'FORD', model: 'F-150', trim: 'XL' },
      ],
    ],
    [
      'trims of a model filter alone, across makes',
      'trims',
      { model: 'civic' },
      [
        { make: 'HONDA', model: 'CIVIC', trim: 'LX' },
        { make: 'HONDA', model: 'CIVIC', trim: 'SI' },
      ],
    ],
    ['trims of a year outside the range', 'trims', { make: 'HONDA', model: 'ACCORD', year: 2021 }, []],
    [
      'body styles: the same style in another case counts once (first spelling)',
      'bodyStyles',
      { make: 'FORD' },
      [
        { make: 'FORD', model: 'F-150', bodyStyle: 'Crew cab' },
        { make: 'FORD', model: 'F-150', bodyStyle: 'Pickup' },
      ],
    ],
    ['body styles of a newer year', 'bodyStyles', { make: 'FORD', year: 2009 }, []],
    [
      'body styles of every Honda',
      'bodyStyles',
      { make: 'HONDA' },
      [
        { make: 'HONDA', model: 'ACCORD', bodyStyle: 'Sedan' },
        { make: 'HONDA', model: 'CIVIC', bodyStyle: 'Hatchback' },
        { make: 'HONDA', model: 'CIVIC', bodyStyle: 'Sedan' },
      ],
    ],
  ]
  for (const [name, kind, filter, expected] of cases) {
    test(name, () => assert.deepEqual(list(kind, filter), expected))
  }

  test('rows are built without touching the book', () => {
    const before = JSON.stringify(VEHICLES)
    for (const kind of ['makes', 'models', 'series', 'trims', 'bodyStyles'] as const) vehicleRows(VEHICLES, kind)
    assert.equal(JSON.stringify(VEHICLES), before)
  })
})

describe('yearMatches', () => {
  const cases: Array<[string, { yearFrom?: number; yearTo?: number }, number, boolean]> = [
    ['no years', {}, 1950, true],
    ['inside the range', { yearFrom: 2010, yearTo: 2020 }, 2015, true],
    ['the first year', { yearFrom: 2010, yearTo: 2020 }, 2010, true],
    ['the last year', { yearFrom: 2010, yearTo: 2020 }, 2020, true],
    ['before', { yearFrom: 2010, yearTo: 2020 }, 2009, false],
    ['after', { yearFrom: 2010, yearTo: 2020 }, 2021, false],
    ['open-ended from', { yearFrom: 2010 }, 2099, true],
    ['open-ended to', { yearTo: 2010 }, 1901, true],
  ]
  for (const [name, entry, year, expected] of cases) test(name, () => assert.equal(yearMatches(entry, year), expected))
})

describe('the demo book through its index', () => {
  const checked = checkRateBook(demoRateBook('2025-01-01'), { file: 'body' })
  assert.ok(checked.ok)
  const book = checked.book
  const ids = new Map(catalogueItemsOf(book).map((it, i) => [catalogueKey(it.kind, it.code), i + 1]))
  const index = compileRateBook(1, 1, book, ids)
  const idOf = (kind: Parameters<typeof catalogueKey>[0], code: string) => ids.get(catalogueKey(kind, code))!

  describe('classifyVehicle', () => {
    const cases: Array<[string, Parameters<typeof classifyVehicle>[1], string | undefined, string | undefined]> = [
      ['a model entry, any case', { make: 'ford', model: 'f-150', trim: 'xl', year: 2022 }, 'B', 'ENTRY'],
      ['a model entry over its make entry', { make: 'bmw', model: 'x5', trim: 'XDRIVE40I', year: 2022 }, 'D', 'ENTRY'],
      ['the make entry when the year is unknown', { make: 'Honda', model: 'Pilot', trim: 'Elite' }, 'A', 'ENTRY'],
      [
        'the model entry with its year and trim',
        { make: 'Honda', model: 'Pilot', trim: 'Elite', year: 2020 },
        'B',
        'ENTRY',
      ],
      ['a make alone', { make: 'porsche' }, 'D', 'ENTRY'],
      ['an unknown make and no default class', { make: 'Yugo' }, undefined, undefined],
    ]
    for (const [name, vehicle, cls, by] of cases) {
      test(name, () => {
        const found = classifyVehicle(index, vehicle)
        assert.deepEqual(
          found.map((c) => c.vehicleClass),
          cls ? [cls] : [],
        )
        assert.equal(found[0]?.matchedBy, by)
      })
    }
    test('the default class, when the book has one', () => {
      const withDefault = { ...index, book: { ...book, defaultVehicleClass: 'B' } }
      const classify: typeof index.classify = (v) => index.classify(v) ?? { vehicleClass: 'B', entry: null }
      assert.deepEqual(classifyVehicle({ book: withDefault.book, classify }, { make: 'Yugo' }), [
        { vehicleClass: 'B', description: 'Domestic cars, trucks and SUVs', isDefault: true, matchedBy: 'DEFAULT' },
      ])
    })
  })

  test('vehicle classes, by code, with descriptions', () => {
    assert.deepEqual(
      vehicleClasses({ ...book, vehicleClasses: book.vehicleClasses.toReversed(), defaultVehicleClass: 'A' }).map(
        (c) => [c.vehicleClass, c.isDefault, c.description],
      ),
      [
        ['A', true, 'Economy and mainstream imports'],
        ['B', false, 'Domestic cars, trucks and SUVs'],
        ['C', false, 'Premium and luxury'],
        ['D', false, 'High-risk luxury'],
      ],
    )
  })

  test('asset types list every type with the products sold for it', () => {
    const types = assetTypes(index.products)
    assert.deepEqual(
      types.map((t) => [t.code, t.products.map((p) => p.code)]),
      [
        ['AUTO', ['VSC', 'GAP', 'TW', 'PPM']],
        ['RV', ['GAP']],
        ['MARINE', []],
        ['POWERSPORTS', ['GAP']],
        ['OTHER', []],
      ],
    )
    assert.ok(types.every((t) => t.description.length > 0))
    assert.deepEqual(
      assetTypes([]).map((t) => t.products),
      [[], [], [], [], []],
    )
  })

  test('products: filters and the reply shape', () => {
    const codes = (f: Parameters<typeof productFilter>[0]) => index.products.filter(productFilter(f)).map((p) => p.code)
    assert.deepEqual(codes({}), ['VSC', 'GAP', 'TW', 'PPM'])
    assert.deepEqual(codes({ type: 'GAP' }), ['GAP'])
    assert.deepEqual(codes({ assetType: 'RV' }), ['GAP'])
    assert.deepEqual(codes({ type: 'VSC', assetType: 'RV' }), [])
    assert.deepEqual(productItem(index.productById.get(idOf('PRODUCT', 'GAP'))!), {
      id: idOf('PRODUCT', 'GAP'),
      code: 'GAP',
      name: 'Guaranteed Asset Protection',
      type: 'GAP',
      assetTypes: ['AUTO', 'RV', 'POWERSPORTS'],
      requiredInputs: ['vehicle', 'vehiclePurchasePrice', 'financeType', 'amountFinanced', 'financeTermMonths', 'apr'],
      effectiveFrom: null,
      effectiveTo: null,
      deductibleCount: 1,
      programCount: 1,
      factorTableIds: [],
    })
  })

  test('plans carry conditions in canonical order, services and custom fields', () => {
    const ppm = planItem(index.planById.get(idOf('PLAN', 'PPM-NEW'))!)
    assert.deepEqual(ppm.conditions, ['NEW', 'CERTIFIED'])
    assert.deepEqual(ppm.ppmServices[0], {
      code: 'OIL_CHANGE',
      name: 'Synthetic oil and filter change',
      intervalMonths: 6,
      intervalMiles: 7500,
      count: 6,
    })
    const tw = planItem(index.planById.get(idOf('PLAN', 'TW-STD'))!)
    assert.deepEqual(tw.customFields, [
      {
        key: 'tireBrand',
        label: 'Tire brand',
        type: 'LIST',
        required: false,
        unique: false,
        order: 1,
        level: 'PRODUCT',
        options: [
          { value: 'MICH', label: 'Michelin' },
          { value: 'GOOD', label: 'Goodyear' },
          { value: 'BRID', label: 'Bridgestone' },
          { value: 'OTHER', label: 'Other' },
        ],
      },
    ])
    assert.deepEqual(tw.coverageGroups, [])
  })

  test('deductible amounts and factors as JSON numbers', () => {
    assert.deepEqual(
      deductibleItems(index.productById.get(idOf('PRODUCT', 'VSC'))!).map((d) => [d.code, d.amount, d.type]),
      [
        ['D0', 0, 'STANDARD'],
        ['D100', 100, 'STANDARD'],
        ['D250', 250, 'STANDARD'],
        ['D100DIS', 100, 'DISAPPEARING'],
      ],
    )
    assert.deepEqual(factorTableItem(index.factorTableById.get(idOf('FACTOR_TABLE', 'STATE_RESERVE'))!), {
      id: idOf('FACTOR_TABLE', 'STATE_RESERVE'),
      code: 'STATE_RESERVE',
      name: 'State reserve factor',
      fact: 'customerState',
      defaultFactor: 1,
      entries: { FL: 1.1, NY: 1.08, CA: 1.05 },
    })
  })
})

test('fractional amounts and factors are written as exactly the decimals of the book', () => {
  const source = demoRateBook('2025-01-01')
  const deductibles = [
    { code: 'D62', amount: '62.55', type: 'REDUCED' },
    { code: 'DCENT', amount: 0.01, type: 'STANDARD' },
    { code: 'DBIG', amount: '1234567890.12', type: 'STANDARD' },
  ]
  const book = {
    ...source,
    factorTables: [
      {
        code: 'STATE_RESERVE',
        name: 'State reserve factor',
        fact: 'customerState',
        defaultFactor: '0.000001',
        entries: [
          { key: 'FL', factor: '9.123456' },
          { key: 'NY', factor: 0.1 },
          { key: 'CA', factor: '2.300000' },
        ],
      },
    ],
    products: source.products.map((p) =>
      p.code === 'VSC' ? { ...p, deductibles: [...p.deductibles, ...deductibles] } : p,
    ),
  }
  const checked = checkRateBook(book, { file: 'body' })
  assert.ok(checked.ok, JSON.stringify(checked))
  const ids = new Map(catalogueItemsOf(checked.book).map((it, i) => [catalogueKey(it.kind, it.code), i + 1]))
  const index = compileRateBook(1, 1, checked.book, ids)
  const items = deductibleItems(index.productById.get(ids.get(catalogueKey('PRODUCT', 'VSC'))!)!).slice(-3)
  assert.equal(JSON.stringify(items.map((d) => d.amount)), '[62.55,0.01,1234567890.12]')
  const table = factorTableItem(index.factorTableById.get(ids.get(catalogueKey('FACTOR_TABLE', 'STATE_RESERVE'))!)!)
  assert.equal(JSON.stringify([table.defaultFactor, table.entries]), '[0.000001,{"FL":9.123456,"NY":0.1,"CA":2.3}]')
})

describe('windowOf', () => {
  const items = [1, 2, 3, 4, 5]
  const cases: Array<[string, { limit: number; offset: number }, number[]]> = [
    ['the first page', { limit: 2, offset: 0 }, [1, 2]],
    ['a middle page', { limit: 2, offset: 2 }, [3, 4]],
    ['a short last page', { limit: 2, offset: 4 }, [5]],
    ['past the end', { limit: 2, offset: 9 }, []],
  ]
  for (const [name, window, expected] of cases) {
    test(name, () => assert.deepEqual(windowOf(items, window), { items: expected, totalCount: 5 }))
  }
})
