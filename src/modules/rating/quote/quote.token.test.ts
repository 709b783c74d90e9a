// Quote ids: signed, self-describing, and refused when altered in any way, signed with another key,
// or malformed (each malformed case is correctly signed, so it is the parsing that refuses it).
import assert from 'node:assert/strict'
import { createHmac, randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { encodeQuoteId, MAX_QUOTE_ID_LENGTH, verifyQuoteId, type QuoteClaims } from './quote.token.ts'

const key = randomBytes(32)
const otherKey = randomBytes(32)

const claims: QuoteClaims = {
  tenantId: 7,
  dealerId: 12,
  bookId: 3,
  issuedAt: 1_795_348_800,
  expiresAt: 1_795_435_200,
  disbursements: 'nZmqjUg3_cw8VmH1',
  inputs: {
    dealerNumber: '10001',
    assetType: 'AUTO',
    saleDate: '2026-11-22',
    vin: '1HGCV1F37LA012345',
    vehicleCondition: 'USED',
    odometer: 42150,
    vehiclePurchasePrice: '28500.00',
    productTypes: ['VSC', 'GAP'],
    productIds: [5, 9],
    vehicleModel: 'CITROËN C4 — ÉLAN',
  },
}

/** An id over any payload text, signed the way quote.token.ts signs. */
function signedId(payloadText: string, k = key): string {
  const payload = Buffer.from(payloadText).toString('base64url')
  const signature = createHmac('sha256', k).update(`q1.${payload}`).digest().subarray(0, 16).toString('base64url')
  return `q1.${payload}.${signature}`
}
const parts = (id: string) => id.split('.') as [string, string, string]
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

describe('quote ids', () => {
  test('encode then verify gives the claims back', () => {
    const id = encodeQuoteId(key, claims)
    assert.match(id, /^q1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
    assert.deepEqual(verifyQuoteId(key, id), claims)
  })

  test('the same claims give the same id; other claims another', () => {
    assert.equal(encodeQuoteId(key, claims), encodeQuoteId(key, structuredClone(claims)))
    assert.notEqual(encodeQuoteId(key, claims), encodeQuoteId(key, { ...claims, expiresAt: claims.expiresAt + 1 }))
  })

  test('my signing helper signs as the module does', () => {
    assert.equal(
      signedId(JSON.stringify([7, 12, 3, 1, 2, 'x', {}])),
      encodeQuoteId(key, {
        tenantId: 7,
        dealerId: 12,
        bookId: 3,
        issuedAt: 1,
        expiresAt: 2,
        disbursements: 'x',
        inputs: {} as QuoteClaims['inputs'],
      }),
    )
  })

  test('another key does not verify it', () => {
    assert.equal(verifyQuoteId(otherKey, encodeQuoteId(key, claims)), undefined)
  })

  describe('a tampered payload is refused', () => {
    const id = encodeQuoteId(key, claims)
    const [prefix, payload, signature] = parts(id)
    const cases: Array<[string, string]> = [
      [
        'another tenant, old signature',
        `${prefix}.${parts(encodeQuoteId(key, { ...claims, tenantId: 8 }))[1]}.${signature}`,
      ],
      [
        'a later expiry, old signature',
        `${prefix}.${parts(encodeQuoteId(key, { ...claims, expiresAt: claims.expiresAt + 86_400 }))[1]}.${signature}`,
      ],
      [
        'other inputs, old signature',
        `${prefix}.${parts(encodeQuoteId(key, { ...claims, inputs: { ...claims.inputs, odometer: 1 } }))[1]}.${signature}`,
      ],
      [
        'one character changed',
        `${prefix}.${payload.slice(0, 10)}${payload[10] === 'A' ? 'B' : 'A'}${payload.slice(11)}.${signature}`,
      ],
      ['padding added to the payload (decodes the same)', `${prefix}.${payload}==.${signature}`],
      ['the payload cut short', `${prefix}.${payload.slice(0, -4)}.${signature}`],
    ]
    for (const [name, tampered] of cases) {
      test(name, () => {
        assert.notEqual(tampered, id)
        assert.equal(verifyQuoteId(key, tampered), undefined)
      })
    }
  })

  describe('a tampered signature is refused', () => {
    const id = encodeQuoteId(key, claims)
    const [prefix, payload, signature] = parts(id)
    const last = signature.at(-1)!
    // 16 bytes are 22 base64url characters: the last carries 2 bits, so 15 other characters decode to the same bytes.
    const sameBytes = [...B64URL].find((ch) => ch !== last && B64URL.indexOf(ch) >> 4 === B64URL.indexOf(last) >> 4)!
    const cases: Array<[string, string]> = [
      ['the first character changed', `${prefix}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`],
      [
        'the last character changed to one that decodes to the same bytes',
        `${prefix}.${payload}.${signature.slice(0, -1)}${sameBytes}`,
      ],
      ['padding appended', `${prefix}.${payload}.${signature}==`],
      ['a character that is not base64url appended', `${prefix}.${payload}.${signature}!`],
      // 'Ł' is U+0141: read as latin1 it would be the byte 0x41, 'A'.
      [
        'an A replaced by a character whose low byte is A',
        `${prefix}.${payload}.${signature.includes('A') ? signature.replace('A', 'Ł') : `${signature.slice(0, -1)}Ł`}`,
      ],
      ['cut short', `${prefix}.${payload}.${signature.slice(0, -2)}`],
      ['empty', `${prefix}.${payload}.`],
      [
        'the signature of another payload',
        `${prefix}.${payload}.${parts(encodeQuoteId(key, { ...claims, bookId: 4 }))[2]}`,
      ],
    ]
    for (const [name, tampered] of cases) {
      test(name, () => {
        assert.notEqual(tampered, id)
        assert.equal(verifyQuoteId(key, tampered), undefined)
      })
    }
  })

  describe('malformed ids are refused, even correctly signed', () => {
    const good = JSON.stringify([7, 12, 3, 1, 2, 'fp', { dealerNumber: '1' }])
    const cases: Array<[string, string]> = [
      ['empty', ''],
      ['no dots', 'q1'],
      ['two parts', `q1.${parts(signedId(good))[1]}`],
      ['four parts', `${signedId(good)}.x`],
      ['wrong prefix', signedId(good).replace(/^q1\./, 'q2.')],
      ['prefix in capitals', signedId(good).replace(/^q1\./, 'Q1.')],
      ['bad base64 in the payload', 'q1.!!!$$$.AAAAAAAAAAAAAAAAAAAAAA'],
      ['bad JSON', signedId('{"tenantId": 7')],
      ['JSON that is not an array', signedId(JSON.stringify({ tenantId: 7 }))],
      ['an array of 6', signedId(JSON.stringify([7, 12, 3, 1, 2, 'fp']))],
      ['an array of 8', signedId(JSON.stringify([7, 12, 3, 1, 2, 'fp', {}, 9]))],
      ['a tenant id that is not an integer', signedId(JSON.stringify([7.5, 12, 3, 1, 2, 'fp', {}]))],
      ['a tenant id as text', signedId(JSON.stringify(['7', 12, 3, 1, 2, 'fp', {}]))],
      ['an unsafe integer', signedId(JSON.stringify([7, 12, 3, 2 ** 53, 2, 'fp', {}]))],
      ['a null book id', signedId(JSON.stringify([7, 12, null, 1, 2, 'fp', {}]))],
      ['a fingerprint that is not text', signedId(JSON.stringify([7, 12, 3, 1, 2, 5, {}]))],
      ['inputs that are an array', signedId(JSON.stringify([7, 12, 3, 1, 2, 'fp', []]))],
      ['inputs that are null', signedId(JSON.stringify([7, 12, 3, 1, 2, 'fp', null]))],
      ['overlong, though signed', signedId(JSON.stringify([7, 12, 3, 1, 2, 'x'.repeat(MAX_QUOTE_ID_LENGTH), {}]))],
    ]
    for (const [name, id] of cases) {
      test(name, () => {
        assert.equal(verifyQuoteId(key, id), undefined)
      })
    }
    test('the well-formed control case verifies', () => {
      assert.deepEqual(verifyQuoteId(key, signedId(good)), {
        tenantId: 7,
        dealerId: 12,
        bookId: 3,
        issuedAt: 1,
        expiresAt: 2,
        disbursements: 'fp',
        inputs: { dealerNumber: '1' },
      })
    })
    test('just under the length limit is read', () => {
      // Base64 writes 3 bytes as 4 characters.
      const filler = 'x'.repeat(
        Math.floor(((MAX_QUOTE_ID_LENGTH - signedId(JSON.stringify([7, 12, 3, 1, 2, '', {}])).length) * 3) / 4) - 2,
      )
      const id = signedId(JSON.stringify([7, 12, 3, 1, 2, filler, {}]))
      assert.ok(id.length <= MAX_QUOTE_ID_LENGTH && id.length > MAX_QUOTE_ID_LENGTH - 8, String(id.length))
      assert.equal(verifyQuoteId(key, id)?.disbursements, filler)
    })
  })
})
