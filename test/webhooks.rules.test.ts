// Pure rules of webhooks (docs/webhooks.md): private addresses, URL checks, backoff, signature form.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { test } from 'node:test'
import {
  backoffMs,
  checkUrl,
  contractIdOf,
  isPrivateAddress,
  signature,
} from '../src/modules/webhooks/webhooks.rules.ts'

test('private, loopback, link-local and reserved addresses are recognised, v4, v6 and v4-mapped', () => {
  for (const a of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '[::1]',
  ])
    assert.equal(isPrivateAddress(a), true, a)
  for (const a of ['8.8.8.8', '203.0.113.10', '172.32.0.1', '2001:db8::1', '::ffff:8.8.8.8', 'hooks.example.com'])
    assert.equal(isPrivateAddress(a), false, a)
})

test('URLs: http(s) only, at most 2,000 characters, no credentials; private hosts only when allowed', () => {
  assert.ok('url' in checkUrl('https://hooks.example.com/x', false))
  assert.ok('url' in checkUrl('http://127.0.0.1:8080/x', true))
  for (const [url, code] of [
    ['ftp://hooks.example.com/', 'invalid'],
    ['//hooks.example.com/', 'invalid'],
    [`https://h.example.com/${'a'.repeat(1980)}`, 'too_long'],
    ['https://u:p@hooks.example.com/', 'invalid'],
    ['http://127.0.0.1/', 'private_address'],
    ['http://LOCALHOST:80/', 'private_address'],
    ['http://[::1]:8080/', 'private_address'],
  ] as const) {
    const r = checkUrl(url, false)
    assert.ok('error' in r, url)
    assert.equal(r.error.field, 'url')
    assert.equal(r.error.code, code, url)
  }
})

test('backoff doubles per attempt from 10 s, half fixed and half jitter, capped at 6 h', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => backoffMs(n, 0)),
    [5_000, 10_000, 20_000, 40_000],
  )
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => backoffMs(n, 0.999999)),
    [10_000, 20_000, 40_000, 80_000],
  )
  assert.equal(backoffMs(40, 0.5), 4.5 * 3600_000)
  assert.equal(backoffMs(40, 0), 3 * 3600_000)
})

test('the signature is v1= and the hex HMAC-SHA256 of "<timestamp>.<body>" under the secret as shown', () => {
  const secret = 'whsec_test'
  const body = '{"id":"evt_1"}'
  const expected = createHmac('sha256', Buffer.from(secret)).update(`1700000000.${body}`).digest('hex')
  assert.equal(signature(secret, 1700000000, body), `v1=${expected}`)
})

test('the ordering key is the payload contractId, when there is one', () => {
  assert.equal(contractIdOf({ contractId: 5 }), '5')
  assert.equal(contractIdOf({ contractId: 'C-1' }), 'C-1')
  assert.equal(contractIdOf({ claimId: 5 }), null)
  assert.equal(contractIdOf({ contractId: null }), null)
})
