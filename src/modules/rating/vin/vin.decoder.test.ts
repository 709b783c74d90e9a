// The vPIC VIN decoder: real VINs against the committed data (make, model and the rest; years the
// data settles; makes of shared WMIs; the WMI table's makes against vPIC's), the result cache (keyed without the serial number, bounded,
// loaded lazily), vPIC's choice among matching patterns on a small hand-made data set, and the
// pattern-key syntax.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createVinDecoder, lookupVehicle, patternKey, vpicWmi, type VehicleDecodedVin } from './vin.decoder.ts'
import { ELEMENT, loadVinData, matchesKey, type PatternGroup, type VinData, type WmiRecord } from './vin.data.ts'
import { decodeVin, InvalidVinError, validateVin, vinCheckDigit } from './vin.rules.ts'
import { WMI } from './vin.wmi.ts'

const withCheckDigit = (vin: string) => vin.slice(0, 8) + vinCheckDigit(vin) + vin.slice(9)

// One decoder for the file: the data is loaded once and shared anyway.
const decoder = createVinDecoder()

describe('real VINs', () => {
  const cases: Array<[string, string, Partial<VehicleDecodedVin>]> = [
    [
      'Honda Accord 2003 (the classic sample VIN)',
      '1HGCM82633A004352',
      {
        make: 'Honda',
        model: 'Accord',
        modelYear: 2003,
        modelYearBasis: 'position-7',
        trim: 'EX-V6',
        bodyStyle: 'Coupe',
        doors: 2,
        cylinders: 6,
        engineModel: 'J30A4',
        fuelType: 'Gasoline',
        vehicleType: 'Passenger Car',
      },
    ],
    [
      'Tesla Model 3 2019',
      '5YJ3E1EA2KF317000',
      {
        make: 'Tesla',
        model: 'Model 3',
        modelYear: 2019,
        bodyStyle: 'Sedan/Saloon',
        doors: 4,
        fuelType: 'Electric',
      },
    ],
    [
      'Ford F-150 2021, 5.0 V8',
      '1FTFW1E57MFA12345',
      {
        make: 'Ford',
        model: 'F-150',
        modelYear: 2021,
        bodyStyle: 'Pickup',
        cylinders: 8,
        displacementL: 5,
        vehicleType: 'Truck',
        gvwr: 'Class 2F: 7,001 - 8,000 lb (3,175 - 3,629 kg)',
      },
    ],
    [
      'Toyota Camry 2007, 2AZ-FE',
      '4T1BE46K67U162207',
      {
        make: 'Toyota',
        model: 'Camry',
        modelYear: 2007,
        bodyStyle: 'Sedan/Saloon',
        cylinders: 4,
        displacementL: 2.4,
        engineModel: '2AZ-FE',
      },
    ],
    [
      'Chevrolet Silverado 2500HD 2007, 6.0 V8',
      '1GCHK29U87E198693',
      {
        make: 'Chevrolet',
        model: 'Silverado',
        modelYear: 2007,
        series: '3/4 Ton',
        trim: 'LT',
        bodyStyle: 'Pickup',
        cylinders: 8,
        displacementL: 6,
        engineModel: 'LQ4',
      },
    ],
    [
      'Chevrolet Silverado 1500 2020',
      '1GCUYDED2LZ123456',
      {
        make: 'Chevrolet',
        model: 'Silverado',
        modelYear: 2020,
        series: '1500',
        trim: 'LT',
        cylinders: 8,
        displacementL: 5.3,
      },
    ],
    [
      'Chevrolet Tahoe 2003, flexible fuel',
      '1GNEK13ZX3R298984',
      {
        make: 'Chevrolet',
        model: 'Tahoe',
        modelYear: 2003,
        fuelType: 'Flexible Fuel Vehicle (FFV)',
        vehicleType: 'Multipurpose Passenger Vehicle (MPV)',
      },
    ],
    [
      'Chevrolet Malibu 2018, turbocharged',
      '1G1ZD5STXJF123456',
      { make: 'Chevrolet', model: 'Malibu', modelYear: 2018, turbo: true },
    ],
    [
      'a shared WMI (1C4): the make comes from the model',
      '1C4RJFAG6FC123456',
      {
        manufacturer: 'FCA US (Chrysler)',
        make: 'Jeep',
        model: 'Grand Cherokee',
        modelYear: 2015,
        trim: 'Laredo',
        turbo: false,
      },
    ],
    [
      'the WMI table spells the make (Rivian, not RIVIAN)',
      '7FCTGAAA6NN123456',
      { make: 'Rivian', model: 'R1T', modelYear: 2022, fuelType: 'Electric' },
    ],
    [
      'a Japanese Prius: the data settles the year, and shows the hybrid',
      'JTDKN3DU6A0123456',
      {
        make: 'Toyota',
        model: 'Prius',
        modelYear: 2010,
        modelYearBasis: 'vin-data',
        fuelType: 'Gasoline',
        fuelTypeSecondary: 'Electric',
      },
    ],
    [
      'a Korean Kia: the data settles the year',
      'KNDPM3AC8L7123456',
      { make: 'Kia', model: 'Sportage', modelYear: 2020, modelYearBasis: 'vin-data' },
    ],
  ]
  for (const [name, vin, expected] of cases) {
    test(`${name}: ${vin}`, () => {
      assert.deepEqual(validateVin(vin), [], 'the test VIN itself must be valid')
      const decoded = decoder.decode(vin)
      const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, decoded[k as keyof VehicleDecodedVin]]))
      assert.deepEqual(picked, expected)
    })
  }

  test('what decodeVin gives is kept: position 10, plant, serial, region', () => {
    const fields = [
      'vin',
      'wmi',
      'vds',
      'manufacturer',
      'make',
      'country',
      'region',
      'modelYear',
      'modelYearBasis',
      'modelYearCandidates',
      'plantCode',
      'serialNumber',
    ] as const
    for (const vin of ['1HGCM82633A004352', '4T1BE46K67U162207', '5YJ3E1EA2KF317000']) {
      const base = decodeVin(vin)
      const full = decoder.decode(vin)
      assert.deepEqual(
        fields.map((f) => full[f]),
        fields.map((f) => base[f]),
        vin,
      )
    }
  })

  test('a WMI vPIC does not know decodes as decodeVin alone', () => {
    assert.deepEqual(decoder.decode('VF1RFB00XN0123456'), decodeVin('VF1RFB00XN0123456'))
  })

  test('input is upper-cased first', () => {
    assert.equal(decoder.decode('1hgcm82633a004352').model, 'Accord')
  })

  test('an invalid VIN is refused as decodeVin refuses it', () => {
    assert.throws(
      () => decoder.decode('1HGCM82633A004353'),
      (err: unknown) => err instanceof InvalidVinError && err.problems[0]?.code === 'check_digit',
    )
  })

  test('a reference year keeps the year open rather than guessing from the data', () => {
    // 1990 and 2020 are both more than a year after 1985: neither is plausible.
    const decoded = decoder.decode('KNDPM3AC8L7123456', { referenceYear: 1985 })
    assert.equal(decoded.modelYear, undefined)
    assert.equal(decoded.model, undefined)
    assert.equal(decoder.decode('KNDPM3AC8L7123456', { referenceYear: 2021 }).modelYearBasis, 'reference-year')
  })

  test('the data set names its source', () => {
    assert.match(decoder.source().package, /^@cardog\/corgi@\d/)
  })

  test('the hand-kept WMI table agrees with vPIC on every make it names', () => {
    const data = loadVinData()
    const disagreements = [...WMI].flatMap(([code, entry]) => {
      const makes = data.wmi(code)?.makes
      // vPIC lacks a few WMIs the table lists (Tesla's Chinese and German plants, W1V).
      if (makes === undefined || entry.make === undefined) return []
      return makes.some((m) => m.toLowerCase() === entry.make?.toLowerCase())
        ? []
        : [`${code}: ${entry.make} vs ${makes.join(', ')}`]
    })
    assert.deepEqual(disagreements, [])
  })
})

describe('result cache', () => {
  test('loads the data on first use only', () => {
    const fresh = createVinDecoder()
    assert.equal(fresh.stats().loaded, false)
    fresh.decode('1HGCM82633A004352')
    assert.equal(fresh.stats().loaded, true)
  })

  test('VINs that differ only in the serial number share one entry', () => {
    const d = createVinDecoder()
    const a = d.decode(withCheckDigit('1HGCM82603A111111'))
    const b = d.decode(withCheckDigit('1HGCM82603A222222'))
    assert.equal(a.model, 'Accord')
    assert.equal(b.trim, a.trim)
    assert.equal(b.serialNumber, '222222')
    const { cached, hits, misses } = d.stats()
    assert.deepEqual({ cached, hits, misses }, { cached: 1, hits: 1, misses: 1 })
  })

  test('a different year is a different entry', () => {
    const d = createVinDecoder()
    d.decode('KNDPM3AC8L7123456', { referenceYear: 2021 })
    d.decode('KNDPM3AC8L7123456', { referenceYear: 1995 })
    assert.equal(d.stats().cached, 2)
  })

  test('bounded: the least recently used entry goes first', () => {
    const d = createVinDecoder({ cacheSize: 2 })
    const honda = '1HGCM82633A004352'
    const camry = '4T1BE46K67U162207'
    const tahoe = '1GNEK13ZX3R298984'
    d.decode(honda)
    d.decode(camry)
    d.decode(honda) // hit: the Camry is now the oldest
    d.decode(tahoe) // evicts the Camry
    d.decode(honda) // still cached
    assert.deepEqual(
      { hits: d.stats().hits, misses: d.stats().misses, cached: d.stats().cached },
      { hits: 2, misses: 3, cached: 2 },
    )
    d.decode(camry)
    assert.equal(d.stats().misses, 4)
  })

  test('cacheSize 0 caches nothing and still decodes', () => {
    const d = createVinDecoder({ cacheSize: 0 })
    assert.equal(d.decode('1HGCM82633A004352').model, 'Accord')
    assert.equal(d.decode('1HGCM82633A004352').model, 'Accord')
    assert.deepEqual({ hits: d.stats().hits, cached: d.stats().cached }, { hits: 0, cached: 0 })
  })

  test('a cached result cannot be changed through an answer', () => {
    const d = createVinDecoder()
    const answer = d.decode('1HGCM82633A004352')
    answer.model = 'Civic'
    assert.equal(d.decode('1HGCM82633A004352').model, 'Accord')
  })

  test('a negative cache size is refused', () => {
    assert.throws(() => createVinDecoder({ cacheSize: -1 }), RangeError)
  })
})

describe('choosing among matching patterns (vPIC rules, hand-made data)', () => {
  const model = ELEMENT.model
  const cylinders = ELEMENT.cylinders
  const trim = ELEMENT.trim
  const fuel = ELEMENT.fuelType
  const schemas: PatternGroup[][] = [
    // 0: a broad schema from 2000 on
    [
      [
        'AB',
        [
          [model, 'Old name', 1, 'Acme'],
          [trim, 'Base', 5],
          [cylinders, '5', 3],
        ],
      ],
      ['A', [[cylinders, '4', 2]]],
    ],
    // 1: a narrower schema from 2010 on: its model wins over schema 0's for 2010+
    [
      [
        'ABC',
        [
          [model, 'New name', 9, 'Acme'],
          [fuel, 'Gasoline', 3],
        ],
      ],
      ['AB[C-E]', [[trim, 'Sport', 4]]],
    ],
    // 2: a formula: cylinders from position 8 when no pattern names them
    [
      ['***#', [[cylinders, null, 0]]],
      [
        'XY',
        [
          [model, 'Other', 1, 'Zenith'],
          [ELEMENT.engineModel, ' V6-ENG ', 1],
        ],
      ],
    ],
  ]
  const data: VinData = {
    source: { package: 'test', integrity: '', vpicLatestChange: '' },
    wmi: () => undefined,
    schema: (i) => ({ groups: schemas[i] ?? [] }),
    engine: (name) =>
      name === 'v6-eng'
        ? [
            [ELEMENT.cylinders, '6'],
            [ELEMENT.fuelType, 'Diesel'],
            [ELEMENT.cylinders, '8'],
          ]
        : undefined,
    parsedSchemas: 0,
  }
  const wmi = (links: WmiRecord['schemas'], makes: string[] = []): WmiRecord => ({
    manufacturer: 'M',
    makes,
    country: '',
    vehicleType: 'Truck',
    reach: 8,
    schemas: links,
  })
  const all = wmi([
    { schema: 0, yearFrom: 2000, yearTo: 2999 },
    { schema: 1, yearFrom: 2010, yearTo: 2999 },
    { schema: 2, yearFrom: 2000, yearTo: 2999 },
  ])

  test('a schema starting later beats an earlier one; equal priority goes to the lower rank', () => {
    const { vehicle, make } = lookupVehicle(data, all, 'ABC12|K', 2015)
    assert.deepEqual(
      { model: vehicle.model, trim: vehicle.trim, cylinders: vehicle.cylinders, fuel: vehicle.fuelType, make },
      { model: 'New name', trim: 'Sport', cylinders: 4, fuel: 'Gasoline', make: 'Acme' },
    )
  })

  test('schemas outside the model year are not read', () => {
    const { vehicle } = lookupVehicle(data, all, 'ABC12|K', 2005)
    assert.deepEqual(
      { model: vehicle.model, trim: vehicle.trim, cylinders: vehicle.cylinders },
      { model: 'Old name', trim: 'Base', cylinders: 4 },
    )
  })

  test('a formula and an engine model fill only what no pattern decoded', () => {
    const { vehicle, make } = lookupVehicle(data, all, 'XYZ7|K', 2015)
    // Cylinders: the formula (priority 100) beats the engine's 6 (50); fuel comes from the engine.
    assert.deepEqual(
      { model: vehicle.model, cylinders: vehicle.cylinders, fuel: vehicle.fuelType, engine: vehicle.engineModel, make },
      { model: 'Other', cylinders: 7, fuel: 'Diesel', engine: ' V6-ENG ', make: 'Zenith' },
    )
    const noFormula = lookupVehicle(data, all, 'XYZA|K', 2015).vehicle
    assert.equal(noFormula.cylinders, 6)
  })

  test("without a model the make is the WMI's only make, and none when it has several", () => {
    assert.equal(lookupVehicle(data, wmi([], ['Solo']), 'QQQQQ|K', 2015).make, 'Solo')
    assert.equal(lookupVehicle(data, wmi([], ['One', 'Two']), 'QQQQQ|K', 2015).make, undefined)
  })
})

describe('pattern keys', () => {
  const cases: Array<[string, string, boolean]> = [
    ['CM826', 'CM826|3A004352', true],
    ['CM82', 'CM826|3A004352', true],
    ['CM827', 'CM826|3A004352', false],
    ['C*8', 'CM826|3A004352', true],
    ['CM8[1-3]', 'CM826|3A004352', true],
    ['CM8[13]', 'CM826|3A004352', false],
    ['CM8[A2-3]6', 'CM826|3A004352', true],
    ['*****|3', 'CM826|3A004352', true],
    ['*****|4', 'CM826|3A004352', false],
    ['*****|***0', 'CM826|3A004352', true],
    ['***#', 'CM826|3A004352', true],
    ['*#', 'CM826|3A004352', false],
    ['', 'CM826|3A004352', true],
    ['*****|*********', 'CM826|3A004352', false],
  ]
  for (const [keys, key, expected] of cases)
    test(`${keys} ${expected ? 'matches' : 'does not match'} ${key}`, () =>
      assert.equal(matchesKey(keys, key), expected))

  test('the key is positions 4-8, a bar for the check digit, then 10-17', () => {
    assert.equal(patternKey('1HGCM82633A004352'), 'CM826|3A004352')
  })
  test("a small manufacturer's WMI takes positions 12-14 too", () => {
    assert.equal(vpicWmi('1E9AB12C5P1751234'), '1E9751')
    assert.equal(vpicWmi('1HGCM82633A004352'), '1HG')
  })
})
