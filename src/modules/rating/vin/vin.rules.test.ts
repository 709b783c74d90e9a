// VIN rules: length, characters and the check digit with each problem it reports; model-year
// decoding (position 7 rule, reference year, open years); WMI lookups; and a property test of the
// check digit: setting position 9 always validates, and any single other change is caught.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  decodeVin,
  InvalidVinError,
  validateVin,
  VIN_ALPHABET,
  vinCharValue,
  vinCheckDigit,
  type DecodedVin,
} from './vin.rules.ts'

/** Puts the right check digit at position 9 of a 17-character VIN. */
function withCheckDigit(vin: string): string {
  return vin.slice(0, 8) + vinCheckDigit(vin) + vin.slice(9)
}

describe('check digit', () => {
  test('a well-known Honda VIN: 1HGCM82633A004352 has check digit 3', () => {
    assert.equal(vinCheckDigit('1HGCM82633A004352'), '3')
  })
  test('all ones: the weights sum to 89, 89 mod 11 = 1', () => {
    assert.equal(vinCheckDigit('11111111111111111'), '1')
  })
  test('a remainder of 10 is written X', () => {
    assert.equal(vinCheckDigit('1G1ZD5STXJF123456'), 'X')
    assert.deepEqual(validateVin('1G1ZD5STXJF123456'), [])
  })
})

describe('valid VINs', () => {
  const valid = [
    '1HGCM82633A004352',
    '11111111111111111',
    '5YJ3E1EA6KF123456',
    'JHMFC1F38MX000123',
    'WBA8E9G54GNU12345',
    'KNDPM3AC8L7123456',
    '1FTFW1E57MFA12345',
    'SALGS2RE4MA123456',
    '3VW2B7AJ8HM123456',
    '1G1ZD5STXJF123456',
    'ZFF79ALA6G0123456',
    'VF1RFB00XN0123456',
  ]
  for (const vin of valid) test(vin, () => assert.deepEqual(validateVin(vin), []))
  test('input is upper-cased first', () => assert.deepEqual(validateVin('1hgcm82633a004352'), []))
})

describe('invalid VINs', () => {
  const cases: Array<[string, string, unknown[]]> = [
    [
      'one character changed breaks the check digit',
      '1HGCM82633A004353',
      [{ code: 'check_digit', expected: '5', actual: '3' }],
    ],
    ['wrong check digit', '1HGCM82643A004352', [{ code: 'check_digit', expected: '3', actual: '4' }]],
    ['a letter other than X at position 9', '1HGCM826A3A004352', [{ code: 'check_digit', expected: '3', actual: 'A' }]],
    ['too short', '1HGCM82633A00435', [{ code: 'length', actual: 16 }]],
    ['too long', '1HGCM82633A0043520', [{ code: 'length', actual: 18 }]],
    ['empty', '', [{ code: 'length', actual: 0 }]],
    ['I', '1HGCM82633I004352', [{ code: 'invalid_character', position: 11, character: 'I' }]],
    ['O', 'OHGCM82633A004352', [{ code: 'invalid_character', position: 1, character: 'O' }]],
    [
      'Q (lower case is upper-cased first)',
      '1HGCM82633A00435q',
      [{ code: 'invalid_character', position: 17, character: 'Q' }],
    ],
    ['spaces are not trimmed', ' 1HGCM82633A00435', [{ code: 'invalid_character', position: 1, character: ' ' }]],
    ['punctuation', '1HGCM8-633A004352', [{ code: 'invalid_character', position: 7, character: '-' }]],
    [
      'every problem is listed',
      '1HGCM82633A0043I5O',
      [
        { code: 'length', actual: 18 },
        { code: 'invalid_character', position: 16, character: 'I' },
        { code: 'invalid_character', position: 18, character: 'O' },
      ],
    ],
  ]
  for (const [name, vin, expected] of cases) {
    test(name, () => {
      const problems = validateVin(vin)
      assert.deepEqual(
        problems.map(({ message, ...rest }) => {
          assert.ok(message.length > 0)
          return rest
        }),
        expected,
      )
    })
  }

  test('decodeVin refuses an invalid VIN with its problems', () => {
    assert.throws(
      () => decodeVin('1HGCM82633A004353'),
      (err: unknown) =>
        err instanceof InvalidVinError && err.problems.length === 1 && err.problems[0]?.code === 'check_digit',
    )
  })
})

describe('model year', () => {
  const cases: Array<
    [string, string, number | undefined, Pick<DecodedVin, 'modelYear' | 'modelYearBasis' | 'modelYearCandidates'>]
  > = [
    [
      'North America, numeric position 7: 1980-2009 cycle',
      '1HGCM82633A004352',
      undefined,
      { modelYear: 2003, modelYearBasis: 'position-7', modelYearCandidates: [2003, 2033] },
    ],
    [
      'North America, letter at position 7: 2010-2039 cycle',
      '5YJ3E1EA6KF123456',
      undefined,
      { modelYear: 2019, modelYearBasis: 'position-7', modelYearCandidates: [1989, 2019] },
    ],
    [
      'digit year code, numeric position 7',
      '11111111111111111',
      undefined,
      { modelYear: 2001, modelYearBasis: 'position-7', modelYearCandidates: [2001, 2031] },
    ],
    [
      'Mexico (first character 3)',
      '3VW2B7AJ8HM123456',
      undefined,
      { modelYear: 2017, modelYearBasis: 'position-7', modelYearCandidates: [1987, 2017] },
    ],
    [
      'position 7 choice kept when plausible for the reference year',
      '1HGCM82633A004352',
      2002,
      { modelYear: 2003, modelYearBasis: 'position-7', modelYearCandidates: [2003, 2033] },
    ],
    ['no candidate plausible for the reference year', '1HGCM82633A004352', 2001, { modelYearCandidates: [2003, 2033] }],
    [
      'position 7 choice after the reference year + 1 gives way',
      '1FTFW1E57MFA12345',
      1995,
      { modelYear: 1991, modelYearBasis: 'reference-year', modelYearCandidates: [1991, 2021] },
    ],
    [
      'outside North America and no reference year: left open',
      'JHMFC1F38MX000123',
      undefined,
      { modelYearCandidates: [1991, 2021] },
    ],
    [
      'outside North America: latest candidate not after the reference year + 1',
      'JHMFC1F38MX000123',
      2024,
      { modelYear: 2021, modelYearBasis: 'reference-year', modelYearCandidates: [1991, 2021] },
    ],
    [
      'a model year one year ahead of the reference year',
      'KNDPM3AC8L7123456',
      2019,
      { modelYear: 2020, modelYearBasis: 'reference-year', modelYearCandidates: [1990, 2020] },
    ],
    [
      'an old reference year picks the first cycle',
      'JHMFC1F38MX000123',
      1995,
      { modelYear: 1991, modelYearBasis: 'reference-year', modelYearCandidates: [1991, 2021] },
    ],
    [
      'Y is 2000 or 2030',
      withCheckDigit('ZFF79ALA0Y0123456'),
      2024,
      { modelYear: 2000, modelYearBasis: 'reference-year', modelYearCandidates: [2000, 2030] },
    ],
    [
      'a US WMI starting with 7 follows the position 7 rule',
      withCheckDigit('7SAYGDEE0PF123456'),
      undefined,
      { modelYear: 2023, modelYearBasis: 'position-7', modelYearCandidates: [1993, 2023] },
    ],
  ]
  for (const [name, vin, referenceYear, expected] of cases) {
    test(name, () => {
      const d = decodeVin(vin, referenceYear === undefined ? {} : { referenceYear })
      assert.deepEqual(
        { modelYear: d.modelYear, modelYearBasis: d.modelYearBasis, modelYearCandidates: d.modelYearCandidates },
        { modelYear: undefined, modelYearBasis: undefined, ...expected },
      )
    })
  }
  for (const code of ['0', 'U', 'Z']) {
    test(`${code} at position 10 is not a year code`, () => {
      const d = decodeVin(withCheckDigit(`1HGCM8263${code}A004352`))
      assert.deepEqual(d.modelYearCandidates, [])
      assert.equal(d.modelYear, undefined)
    })
  }
})

describe('decoding and WMI lookup', () => {
  test('all parts of a VIN', () => {
    assert.deepEqual(decodeVin('1hgcm82633a004352'), {
      vin: '1HGCM82633A004352',
      wmi: '1HG',
      vds: 'CM826',
      manufacturer: 'Honda',
      make: 'Honda',
      country: 'United States',
      region: 'North America',
      modelYear: 2003,
      modelYearBasis: 'position-7',
      modelYearCandidates: [2003, 2033],
      plantCode: 'A',
      serialNumber: '004352',
    })
  })
  const cases: Array<[string, Pick<DecodedVin, 'manufacturer' | 'make' | 'country' | 'region'>]> = [
    ['5YJ3E1EA6KF123456', { manufacturer: 'Tesla', make: 'Tesla', country: 'United States', region: 'North America' }],
    ['JHMFC1F38MX000123', { manufacturer: 'Honda', make: 'Honda', country: 'Japan', region: 'Asia' }],
    ['WBA8E9G54GNU12345', { manufacturer: 'BMW', make: 'BMW', country: 'Germany', region: 'Europe' }],
    ['KNDPM3AC8L7123456', { manufacturer: 'Kia', make: 'Kia', country: 'South Korea', region: 'Asia' }],
    ['1FTFW1E57MFA12345', { manufacturer: 'Ford', make: 'Ford', country: 'United States', region: 'North America' }],
    [
      'SALGS2RE4MA123456',
      { manufacturer: 'Jaguar Land Rover', make: 'Land Rover', country: 'United Kingdom', region: 'Europe' },
    ],
    [
      '3VW2B7AJ8HM123456',
      { manufacturer: 'Volkswagen', make: 'Volkswagen', country: 'Mexico', region: 'North America' },
    ],
    [
      '1G1ZD5STXJF123456',
      { manufacturer: 'General Motors', make: 'Chevrolet', country: 'United States', region: 'North America' },
    ],
    ['ZFF79ALA6G0123456', { manufacturer: 'Ferrari', make: 'Ferrari', country: 'Italy', region: 'Europe' }],
    // A WMI shared by several makes gives the manufacturer only.
    [
      withCheckDigit('1C4RJFAG0FC123456'),
      { manufacturer: 'FCA US (Chrysler)', country: 'United States', region: 'North America' },
    ],
    // Unknown WMIs: region (and country where the first character is one country) only.
    ['VF1RFB00XN0123456', { region: 'Europe' }],
    ['11111111111111111', { country: 'United States', region: 'North America' }],
    [withCheckDigit('2A4GP54L06R123456'), { country: 'Canada', region: 'North America' }],
    [withCheckDigit('9BWSU19F08B123456'), { region: 'South America' }],
  ]
  for (const [vin, expected] of cases) {
    test(vin, () => {
      const { manufacturer, make, country, region } = decodeVin(vin)
      assert.deepEqual(
        { manufacturer, make, country, region },
        { manufacturer: undefined, make: undefined, country: undefined, ...expected },
      )
    })
  }
})

describe('property: the check digit', () => {
  const vinChars = fc.array(fc.constantFrom(...VIN_ALPHABET), { minLength: 17, maxLength: 17 })
  test('setting position 9 to the computed digit validates; any other single change with a different value does not', () => {
    fc.assert(
      fc.property(
        vinChars,
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom(...VIN_ALPHABET),
        (chars, pick, replacement) => {
          const vin = withCheckDigit(chars.join(''))
          assert.deepEqual(validateVin(vin), [])
          const index = pick < 8 ? pick : pick + 1 // any position but 9
          const original = vin.charAt(index)
          fc.pre(vinCharValue(replacement) !== vinCharValue(original))
          const changed = vin.slice(0, index) + replacement + vin.slice(index + 1)
          const problems = validateVin(changed)
          assert.equal(problems.length, 1)
          assert.equal(problems[0]?.code, 'check_digit')
        },
      ),
      { numRuns: 2000 },
    )
  })
})
