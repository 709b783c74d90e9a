import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { extractPdfText, extractPdfTextItems, pdfInfo, pdfPageSizes } from '../../../test/pdf-text.ts'
import {
  contractTitle,
  DRAFT_MARK,
  formatPdfDate,
  formatPdfMoney,
  PDF_CHARACTER_SET,
  renderContractPdf,
  sanitizePdfText,
  type ContractDocument,
} from './contract.pdf.ts'

function sampleDocument(overrides: Partial<ContractDocument> = {}): ContractDocument {
  return {
    draft: false,
    reference: { label: 'Contract number', value: 'VSC-2026-000123' },
    formNumber: 'VSC-PLAT-0326',
    issuedOn: '2026-03-05',
    administrator: {
      name: 'Summit Warranty Administrators',
      address: { line1: '400 Commerce Way', city: 'Dallas', state: 'TX', postalCode: '75201' },
      phoneNumber: '800-555-0142',
    },
    dealer: {
      dealerNumber: '10001',
      name: 'Lakeside Honda',
      address: { line1: '1200 Lake Shore Blvd', city: 'Austin', state: 'TX', postalCode: '78701' },
    },
    customer: {
      firstName: 'Jane',
      lastName: 'Doe',
      address: {
        line1: '18 Elm Street',
        line2: 'Apt 4B',
        city: 'Round Rock',
        state: 'TX',
        postalCode: '78664',
        country: 'US',
      },
      emailAddress: 'jane.doe@example.com',
      phoneNumber: '512-555-0199',
    },
    coBuyer: { firstName: 'John', lastName: 'Roe' },
    lienHolder: {
      name: 'First Capital Auto Finance',
      address: { line1: 'PO Box 9000', city: 'Houston', state: 'TX', postalCode: '77001' },
      phoneNumber: '888-555-0110',
    },
    vehicle: {
      vin: '1HGCV1F37LA012345',
      year: 2020,
      make: 'Honda',
      model: 'Accord',
      trim: 'EX-L',
      condition: 'USED',
      odometer: 42150,
      inServiceDate: '2020-05-01',
      purchasePrice: 24500,
    },
    product: { code: 'VSC', name: 'Vehicle Service Contract', type: 'VSC' },
    program: { code: 'PLAT', name: 'Platinum Exclusionary' },
    plan: { code: 'PLAT-USED', name: 'Platinum Used' },
    term: { months: 48, miles: 48000 },
    deductible: { amount: 100, type: 'STANDARD' },
    options: [
      { code: 'RSA', name: 'Roadside assistance', retail: 75 },
      { code: 'RENT', name: 'Rental car reimbursement', retail: null },
    ],
    saleDate: '2026-03-05',
    effectiveDate: '2026-03-05',
    expiration: { date: '2030-03-05', odometer: 90150 },
    price: { retailPrice: 2695, salesTax: 222.34, total: 2917.34 },
    finance: { financeType: 'RETAIL_INSTALLMENT', amountFinanced: 21000, termMonths: 60, apr: 6.9 },
    customFields: [
      { label: 'Stock number', value: 'STK-88412' },
      { label: 'F&I manager', value: 'Pat Brennan' },
    ],
    distanceUnit: 'MILES',
    ...overrides,
  }
}

/** A coverage list of `count` components in groups of 20, long enough to span several pages. */
function longCoverage(count: number): NonNullable<ContractDocument['coverage']> {
  const groups: NonNullable<ContractDocument['coverage']> = []
  for (let i = 0; i < count; i++) {
    if (i % 20 === 0) groups.push({ group: `Component group ${i / 20 + 1}`, components: [] })
    groups
      .at(-1)!
      .components.push(
        `Covered component number ${i + 1}: housing, seals and gaskets when required by a covered repair`,
      )
  }
  return groups
}

const allText = async (bytes: Uint8Array) => (await extractPdfText(bytes)).join('\n')

describe('renderContractPdf content', () => {
  test('is a letter-size PDF that parses back', async () => {
    const bytes = await renderContractPdf(sampleDocument())
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), '%PDF-')
    const sizes = await pdfPageSizes(bytes)
    assert.ok(sizes.length >= 1)
    for (const size of sizes) assert.deepEqual(size, { width: 612, height: 792 })
  })

  const expected: Array<[string, string]> = [
    ['reference label and value', 'Contract number: VSC-2026-000123'],
    ['form number', 'VSC-PLAT-0326'],
    ['document title', 'Vehicle Service Contract'],
    ['administrator', 'Summit Warranty Administrators'],
    ['document date', '03/05/2026'],
    ['customer name', 'Jane Doe'],
    ['customer address', 'Round Rock, TX 78664'],
    ['customer email', 'jane.doe@example.com'],
    ['co-buyer name', 'John Roe'],
    ['lien holder', 'First Capital Auto Finance'],
    ['dealer name', 'Lakeside Honda'],
    ['dealer number', 'Dealer number 10001'],
    ['VIN', '1HGCV1F37LA012345'],
    ['vehicle', '2020 Honda Accord EX-L'],
    ['odometer', '42,150 miles'],
    ['condition', 'Used'],
    ['purchase price', '$24,500.00'],
    ['product', 'Vehicle Service Contract (VSC)'],
    ['program', 'Platinum Exclusionary (PLAT)'],
    ['plan', 'Platinum Used (PLAT-USED)'],
    ['term', '48 months / 48,000 miles'],
    ['deductible', '$100.00 (Standard)'],
    ['priced option', 'Roadside assistance'],
    ['option retail', '$75.00'],
    ['included option', 'Included'],
    ['sale date', 'Sale date'],
    ['expiration date', '03/05/2030'],
    ['expiration odometer', '90,150 miles'],
    ['retail price as money', '$2,695.00'],
    ['sales tax', '$222.34'],
    ['total', '$2,917.34'],
    ['finance type', 'Retail installment'],
    ['amount financed', '$21,000.00'],
    ['APR', '6.9%'],
    ['custom field label', 'Stock number'],
    ['custom field value', 'STK-88412'],
    ['custom field with an ampersand', 'F&I manager'],
    ['standard terms when none are given', 'Cancellation.'],
    ['contract holder signature line', 'Contract holder signature'],
    ['co-buyer signature line', 'Co-buyer signature'],
    ['dealer signature line', 'Dealer representative signature'],
  ]
  test('holds every part of the contract', async () => {
    const text = await allText(await renderContractPdf(sampleDocument()))
    for (const [what, needle] of expected)
      assert.ok(text.includes(needle), `${what}: "${needle}" not found in\n${text}`)
  })

  test('prints a long contract number whole in the page header, beside a long administrator name', async () => {
    const value = 'VSC-GOLD-U-0127-00001234'
    const [text = ''] = await extractPdfText(
      await renderContractPdf(
        sampleDocument({
          reference: { label: 'Contract number', value },
          administrator: { ...sampleDocument().administrator, name: 'Summit Warranty Administrators of North America' },
        }),
      ),
    )
    // Once in the header and once in the footer of the page, whole both times.
    assert.equal(text.split(`Contract number: ${value}`).length - 1, 2, text)
  })

  test('prints the quote reference of a draft without a contract', async () => {
    const text = await allText(
      await renderContractPdf(sampleDocument({ draft: true, reference: { label: 'Quote', value: 'Q-7731-AB' } })),
    )
    assert.ok(text.includes('Quote: Q-7731-AB'))
  })

  test('prints coverage details and given terms', async () => {
    const doc = sampleDocument({
      coverage: [
        { group: 'Engine', components: ['Cylinder block', 'Oil pump'] },
        { group: 'Transmission', components: ['Torque converter'] },
      ],
      terms: ['Transfer. This contract may be transferred to a later owner of the vehicle.'],
    })
    const text = await allText(await renderContractPdf(doc))
    for (const needle of [
      'What is covered'.toUpperCase(),
      'Engine',
      'Cylinder block',
      'Oil pump',
      'Transmission',
      'Torque converter',
      'Transfer. This contract',
    ]) {
      assert.ok(text.includes(needle), needle)
    }
    assert.ok(!text.includes('Cancellation.'), 'given terms replace the standard notice')
  })

  test('kilometres', async () => {
    const text = await allText(await renderContractPdf(sampleDocument({ distanceUnit: 'KILOMETERS' })))
    assert.ok(text.includes('48 months / 48,000 km'))
    assert.ok(text.includes('90,150 km'))
  })

  const titles: Array<[ContractDocument['product'], string]> = [
    [{ code: 'VSC', name: 'Powertrain', type: 'VSC' }, 'Vehicle Service Contract'],
    [{ code: 'GAP', name: 'GAP Plus', type: 'GAP' }, 'Guaranteed Asset Protection Contract'],
    [{ code: 'TW', name: 'Tire & Wheel', type: 'TIRE_WHEEL' }, 'Tire and Wheel Protection Contract'],
    [{ code: 'PPM', name: 'Maintenance', type: 'PPM' }, 'Prepaid Maintenance Contract'],
    [{ code: 'WS', name: 'Windshield Protection', type: 'OTHER' }, 'Windshield Protection'],
  ]
  for (const [product, title] of titles) {
    test(`title for ${product.type}: ${title}`, () => assert.equal(contractTitle(product), title))
  }
})

describe('draft marking', () => {
  test('a draft is marked DRAFT on every page of a multi-page document', async () => {
    const doc = sampleDocument({
      draft: true,
      coverage: longCoverage(200),
      terms: Array.from(
        { length: 12 },
        (_, i) => `Clause ${i + 1}. ${'The administrator will pay covered repairs as described. '.repeat(8)}`,
      ),
    })
    const pages = await extractPdfText(await renderContractPdf(doc))
    assert.ok(pages.length >= 3, `expected several pages, got ${pages.length}`)
    pages.forEach((page, i) => {
      assert.ok(page.includes(DRAFT_MARK), `page ${i + 1} lacks the header mark`)
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} lacks its number`)
    })
    const text = pages.join('\n')
    assert.ok(
      text.includes('Covered component number 1:') && text.includes('Covered component number 200:'),
      'every component is printed',
    )
  })

  test('the watermark is drawn on every page of a draft, rotated', async () => {
    const doc = sampleDocument({ draft: true, coverage: longCoverage(200) })
    const pages = await extractPdfTextItems(await renderContractPdf(doc))
    assert.ok(pages.length >= 2)
    for (const items of pages) {
      const watermark = items.find((item) => item.str === 'DRAFT')
      assert.ok(watermark, 'a large DRAFT item on the page')
      assert.ok(watermark.fontSize >= 100, `watermark font size ${watermark.fontSize}`)
    }
  })

  test('a final document has no DRAFT anywhere', async () => {
    const doc = sampleDocument({ draft: false, coverage: longCoverage(200) })
    const bytes = await renderContractPdf(doc)
    const pages = await extractPdfText(bytes)
    assert.ok(pages.length >= 2)
    for (const page of pages) assert.ok(!/draft/i.test(page), page)
    assert.ok(!/draft/i.test(String((await pdfInfo(bytes))['Title'])))
  })
})

describe('absent parts', () => {
  const bare = sampleDocument({
    coBuyer: null,
    lienHolder: null,
    deductible: null,
    finance: null,
    program: null,
    formNumber: null,
    options: [],
    customFields: [],
    price: { retailPrice: 1450 },
    term: { months: 36, miles: null },
    expiration: { date: '2029-03-05', odometer: null },
    administrator: { name: 'Summit Warranty Administrators' },
    dealer: { dealerNumber: '10002', name: 'Hill Country Motors' },
    customer: { companyName: 'Acme Fleet LLC' },
    vehicle: {
      vin: null,
      year: null,
      make: null,
      model: null,
      trim: null,
      condition: null,
      odometer: null,
      inServiceDate: null,
      purchasePrice: null,
    },
  })

  test('null co-buyer, lien holder, deductible and finance print no "null" or "undefined"', async () => {
    const text = await allText(await renderContractPdf(bare))
    assert.ok(!/null|undefined|NaN/i.test(text), text)
    assert.ok(!text.includes('Co-buyer'), 'no co-buyer block or signature line')
    assert.ok(!text.includes('Lien holder'.toUpperCase()))
    assert.ok(text.includes('Deductible') && text.includes('None'))
    assert.ok(text.includes('36 months') && !text.includes('36 months /'))
    assert.ok(text.includes('No mileage limit'))
    assert.ok(text.includes('Acme Fleet LLC'))
    assert.ok(text.includes('$1,450.00'))
  })

  test('the same holds for a draft', async () => {
    const text = await allText(await renderContractPdf({ ...bare, draft: true }))
    assert.ok(!/null|undefined|NaN/i.test(text), text)
  })
})

describe('hostile strings', () => {
  const huge = 'Ω'.repeat(2500) + ' ' + 'x'.repeat(2500)
  const hostile = [
    ['emoji', 'Jane 😀👨‍👩‍👧 Doe 🚗'],
    ['CJK', '山田太郎 株式会社'],
    ['control characters', 'Jane\u0000\u0007\u001b[31m\tDoe\r\nline\u2028two\u202Eevil'],
    ['lone surrogate', 'bad \uD800 surrogate \uDFFF'],
    ['a 5,000-character unbroken name', 'A'.repeat(5000)],
    ['a 5,000-character name of words', 'Lorem ipsum dolor '.repeat(280)],
    ['5,000 characters outside WinAnsi', huge],
  ] as const

  for (const [what, value] of hostile) {
    test(`${what}: renders, parses back and stays on the page`, async () => {
      const doc = sampleDocument({
        draft: true,
        reference: { label: 'Contract number', value },
        formNumber: value,
        administrator: {
          name: value,
          phoneNumber: value,
          address: { line1: value, city: value, state: value, postalCode: value },
        },
        dealer: { dealerNumber: value, name: value },
        customer: {
          firstName: value,
          lastName: value,
          companyName: value,
          emailAddress: value,
          address: { line1: value, city: 'X', state: 'TX', postalCode: '1' },
        },
        coBuyer: { firstName: value },
        lienHolder: { name: value },
        vehicle: { ...sampleDocument().vehicle, make: value, model: value, vin: value, condition: value },
        product: { code: value, name: value, type: value },
        plan: { code: value, name: value },
        deductible: { amount: 50, type: value },
        options: [{ code: value, name: value, retail: 10 }],
        customFields: [{ label: value, value }],
        coverage: [{ group: value, components: [value, value] }],
        terms: [value],
      })
      const bytes = await renderContractPdf(doc)
      const pages = await extractPdfTextItems(bytes)
      assert.ok(pages.length >= 1)
      for (const items of pages) {
        for (const item of items) {
          if (item.str === 'DRAFT') continue // the rotated watermark, centred by construction
          assert.ok(
            item.x >= 0 && item.x + item.width <= 612 + 0.5,
            `x ${item.x}+${item.width}: ${item.str.slice(0, 40)}`,
          )
          assert.ok(item.y >= 0 && item.y <= 792, `y ${item.y}: ${item.str.slice(0, 40)}`)
        }
      }
      const text = (await extractPdfText(bytes)).join('\n')
      assert.ok(text.includes(DRAFT_MARK))
    })
  }

  test('text stays inside the margins', async () => {
    const value = 'W'.repeat(3000)
    const bytes = await renderContractPdf(
      sampleDocument({ customer: { firstName: value }, terms: [value], customFields: [{ label: value, value }] }),
    )
    for (const items of await extractPdfTextItems(bytes)) {
      for (const item of items) assert.ok(item.x >= 49 && item.x + item.width <= 562 + 0.5, `x ${item.x}+${item.width}`)
    }
  })
})

describe('sanitizePdfText', () => {
  const cases: Array<[string, string]> = [
    ['plain ASCII', 'plain ASCII'],
    ['Café – “quoted” — €5 ™ • …', 'Café – “quoted” — €5 ™ • …'],
    ['Cafe\u0301', 'Café'], // combining accent composed (NFC)
    ['Dvořák Łódź', 'Dvorák ?ódz'], // no WinAnsi form: the base letter, or '?'
    ['a\tb\nc\r\nd', 'a b c  d'],
    ['a\u0000b\u0007c\u007fd\u0085e', 'a?b?c?d e'],
    ['x😀y', 'x?y'],
    ['👍🏽', '??'],
    ['❤️', '?'], // the variation selector is dropped
    ['👨‍👩‍👧', '???'], // zero-width joiners are dropped
    ['a\u200Bb\u202Ec\uFEFF', 'abc'],
    ['山田', '??'],
    ['\uD800x', '?x'],
    ['', ''],
  ]
  for (const [input, output] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(output)}`, () => assert.equal(sanitizePdfText(input), output))
  }

  test('lets through exactly what Helvetica encodes in WinAnsi', async () => {
    const pdf = await PDFDocument.create()
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    assert.deepEqual(
      [...PDF_CHARACTER_SET].toSorted((a, b) => a - b),
      font.getCharacterSet().toSorted((a, b) => a - b),
    )
  })

  test('every code point of the BMP and beyond comes out encodable', async () => {
    const pdf = await PDFDocument.create()
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    let all = ''
    for (let code = 0; code <= 0x1ffff; code++) all += String.fromCodePoint(code)
    const clean = sanitizePdfText(all)
    assert.doesNotThrow(() => font.encodeText(clean))
  })
})

describe('formatting', () => {
  const money: Array<[number, string]> = [
    [2695, '$2,695.00'],
    [0, '$0.00'],
    [0.1 + 0.2, '$0.30'],
    [1234567.891, '$1,234,567.89'],
    [2.675, '$2.68'], // half-up on the decimal value, not the binary one
    [999.995, '$1,000.00'],
    [-12.5, '-$12.50'],
    [Number.NaN, '—'],
  ]
  for (const [amount, text] of money)
    test(`money ${amount} → ${text}`, () => assert.equal(formatPdfMoney(amount), text))

  const dates: Array<[string | null, string]> = [
    ['2026-03-05', '03/05/2026'],
    ['2028-02-29', '02/29/2028'],
    ['2026-02-30', '2026-02-30'],
    ['soon', 'soon'],
    [null, '—'],
    ['', '—'],
  ]
  for (const [date, text] of dates) test(`date ${date} → ${text}`, () => assert.equal(formatPdfDate(date), text))
})

describe('metadata and determinism', () => {
  test('title, subject, creator and dates come from the document', async () => {
    const info = await pdfInfo(await renderContractPdf(sampleDocument({ draft: true })))
    assert.equal(info['Title'], 'DRAFT Vehicle Service Contract — Contract number VSC-2026-000123')
    assert.equal(info['Subject'], 'Vehicle Service Contract, Platinum Used, for Jane Doe')
    assert.equal(info['Creator'], 'vpp-admin-service')
    assert.equal(info['Author'], 'Summit Warranty Administrators')
    assert.match(String(info['CreationDate']), /^D:20260305000000/)
    assert.match(String(info['ModDate']), /^D:20260305000000/)
  })

  test('two renders of the same document are byte-identical', async () => {
    const doc = sampleDocument({ draft: true, coverage: longCoverage(60) })
    const first = await renderContractPdf(doc)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const second = await renderContractPdf(structuredClone(doc))
    assert.ok(Buffer.from(first).equals(Buffer.from(second)))
  })

  test('a different document gives different bytes', async () => {
    const first = await renderContractPdf(sampleDocument())
    const second = await renderContractPdf(
      sampleDocument({ vehicle: { ...sampleDocument().vehicle, vin: '1HGCV1F37LA012346' } }),
    )
    assert.ok(!Buffer.from(first).equals(Buffer.from(second)))
  })
})
