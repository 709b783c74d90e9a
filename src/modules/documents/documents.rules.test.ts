import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AppError } from '../../platform/http/errors.ts'
import {
  cleanFileName,
  cleanTitle,
  contentDisposition,
  createContentCheck,
  fileNameFromDisposition,
  headMatches,
  linkExpiry,
  linkPayload,
  normalizeContentType,
  type AllowedContentType,
} from './documents.rules.ts'

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn()
    return undefined
  } catch (err) {
    return err instanceof AppError ? err.code : 'not an AppError'
  }
}

test('normalizeContentType keeps the allow-list, lower-cased, text as UTF-8', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['application/pdf', 'application/pdf'],
    ['Application/PDF; name=x', 'application/pdf'],
    ['image/png', 'image/png'],
    ['image/jpeg', 'image/jpeg'],
    ['image/tiff', 'image/tiff'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['text/plain; charset="US-ASCII"', 'text/plain; charset=utf-8'],
    ['text/plain;charset=utf8', 'text/plain; charset=utf-8'],
    ['text/plain; charset=iso-8859-1', undefined],
    ['text/html', undefined],
    ['image/svg+xml', undefined],
    ['application/octet-stream', undefined],
    ['', undefined],
    [undefined, undefined],
  ]
  for (const [header, stored] of cases) {
    if (stored === undefined)
      assert.equal(
        codeOf(() => normalizeContentType(header)),
        'unsupported_media_type',
        String(header),
      )
    else assert.equal(normalizeContentType(header).stored, stored, header)
  }
})

test('headMatches recognises each binary type by its signature', () => {
  const b = (...bytes: Array<number | string>) =>
    new Uint8Array(bytes.flatMap((x) => (typeof x === 'string' ? [...x].map((c) => c.charCodeAt(0)) : [x])))
  const cases: Array<[Exclude<AllowedContentType, 'text/plain'>, Uint8Array, boolean]> = [
    ['application/pdf', b('%PDF-1.7'), true],
    ['application/pdf', b(0xef, 0xbb, 0xbf, '%PDF-1.4'), true],
    ['application/pdf', b('<html>'), false],
    ['image/png', b(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a), true],
    ['image/png', b(0x89, 'PNG'), false],
    ['image/jpeg', b(0xff, 0xd8, 0xff, 0xe0), true],
    ['image/jpeg', b(0xff, 0xd8), false],
    ['image/gif', b('GIF89a'), true],
    ['image/gif', b('GIF87a'), true],
    ['image/gif', b('GIF90a'), false],
    ['image/webp', b('RIFF', 0, 0, 0, 0, 'WEBP'), true],
    ['image/webp', b('RIFF', 0, 0, 0, 0, 'WAVE'), false],
    ['image/tiff', b('II', 42, 0), true],
    ['image/tiff', b('MM', 0, 42), true],
    ['image/tiff', b('MM', 42, 0), false],
  ]
  for (const [type, head, expected] of cases)
    assert.equal(headMatches(type, head), expected, `${type} ${[...head].join(',')}`)
})

test('createContentCheck decides on the first 1024 bytes, across chunks; text must be UTF-8 without NUL', () => {
  const run = (type: AllowedContentType, chunks: Uint8Array[]) =>
    codeOf(() => {
      const check = createContentCheck(type)
      for (const c of chunks) check.update(c)
      check.finish()
    })
  const enc = (s: string) => new TextEncoder().encode(s)
  assert.equal(run('application/pdf', [enc('%PD'), enc('F-1.4 rest')]), undefined)
  assert.equal(run('application/pdf', [new Uint8Array(1100), enc('%PDF-')]), 'document_content_mismatch')
  assert.equal(run('image/gif', [enc('GIF8'), enc('9a')]), undefined)
  assert.equal(run('image/gif', [enc('GIF')]), 'document_content_mismatch')
  const euro = enc('€')
  assert.equal(run('text/plain', [euro.subarray(0, 1), euro.subarray(1)]), undefined, 'a character split across chunks')
  assert.equal(run('text/plain', [euro.subarray(0, 2)]), 'document_content_mismatch', 'a truncated character')
  assert.equal(run('text/plain', [new Uint8Array([0xc3, 0x28])]), 'document_content_mismatch')
  assert.equal(run('text/plain', [enc('a\u0000')]), 'document_content_mismatch')
})

test('cleanFileName keeps the last path segment and refuses unusable names; cleanTitle trims', () => {
  const cases: Array<[string, string | undefined]> = [
    ['invoice.pdf', 'invoice.pdf'],
    ['  spaced name.pdf ', 'spaced name.pdf'],
    ['C:\\Users\\me\\scan.png', 'scan.png'],
    ['../../etc/passwd', 'passwd'],
    ['dégât.jpg', 'dégât.jpg'],
    ['dir/', undefined],
    ['..', undefined],
    ['', undefined],
    ['a\nb.txt', undefined],
    ['x'.repeat(255), 'x'.repeat(255)],
    ['x'.repeat(256), undefined],
  ]
  for (const [raw, name] of cases) {
    const result = cleanFileName(raw)
    assert.equal('name' in result ? result.name : undefined, name, JSON.stringify(raw))
  }
  assert.deepEqual(cleanTitle('  a / b  '), { name: 'a / b' })
  assert.ok('problem' in cleanTitle('   '))
})

test('fileNameFromDisposition prefers filename*, decodes quoted names, tolerates junk', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['attachment; filename="a.pdf"', 'a.pdf'],
    ['attachment; filename=a.pdf', 'a.pdf'],
    ['attachment; filename="quo\\"te.pdf"', 'quo"te.pdf'],
    ['attachment; filename="fallback.pdf"; filename*=UTF-8\'\'%E2%82%AC%20rates.pdf', '€ rates.pdf'],
    ["attachment; filename*=utf-8'en'caf%C3%A9.txt", 'café.txt'],
    ["attachment; filename*=UTF-8''%E2%82", undefined],
    ['attachment', undefined],
    ['inline; name="x"', undefined],
    [undefined, undefined],
  ]
  for (const [header, name] of cases) assert.equal(fileNameFromDisposition(header), name, header)
})

test('contentDisposition: an ASCII fallback and the exact name per RFC 8187', () => {
  assert.equal(contentDisposition('report.pdf'), 'attachment; filename="report.pdf"; filename*=UTF-8\'\'report.pdf')
  assert.equal(
    contentDisposition('€ "q";(1)*.pdf'),
    'attachment; filename="_ _q__(1)*.pdf"; filename*=UTF-8\'\'%E2%82%AC%20%22q%22%3B%281%29%2A.pdf',
  )
})

test('links: expiry in whole seconds, rounded up; the payload names tenant, file and expiry', () => {
  assert.equal(linkExpiry(new Date('2026-06-01T12:00:00.000Z'), 300), Date.parse('2026-06-01T12:05:00Z') / 1000)
  assert.equal(linkExpiry(new Date('2026-06-01T12:00:00.001Z'), 300), Date.parse('2026-06-01T12:05:01Z') / 1000)
  assert.notEqual(linkPayload(1, 23, 4), linkPayload(12, 3, 4))
})
