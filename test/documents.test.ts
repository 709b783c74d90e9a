// Documents through HTTP: uploads (PDF, text, images) with versions and checksums, exact byte
// round trips, the size limit (413, nothing stored), the content-type allow-list and content checks
// (415), signed links (no credentials; altered or expired 403), tenant isolation, permissions,
// Idempotency-Key on uploads, and both blob stores. The owner collection is mounted on a test-only
// owner ('TEST', ids below 1000 exist), so nothing here depends on the contracts module.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { platformErrors } from '../src/platform/http/errors.ts'
import { createTenant, createTestApp, createUserWithRoles, type TestApp, type TestTenant } from './harness.ts'

const NOW = new Date('2026-06-01T12:00:00Z')
const MAX_BYTES = 64 * 1024
const OWNER = '/api/testowners'

type Version = {
  fileId: number
  versionNo: number
  fileName: string
  contentType: string
  sizeBytes: number
  sha256: string
  metadata: Record<string, unknown>
  downloadUrl: string
  downloadUrlExpiresAt: string
}
type Doc = {
  documentId: number
  ownerType: string
  ownerId: number
  kind: string
  title: string
  currentVersion: number
  versions: Version[]
}
type Problem = { status: number; code: string; detail: string }

const tempDirs: string[] = []
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

/** An app with the test owner's file collection mounted, storing in the database or in a fresh directory. */
type DocumentsTestApp = TestApp & { dir: string }

async function documentsApp(
  storage: 'database' | 'filesystem',
  sharedDir?: string,
  maxBytes = MAX_BYTES,
): Promise<DocumentsTestApp> {
  const dir = sharedDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-documents-test-'))
  tempDirs.push(dir)
  const t = await createTestApp({
    now: NOW,
    config: { documents: { storage, dir, maxBytes, linkTtlSeconds: 300 } },
    register: (app, modules) =>
      app.register(
        modules.documents.ownerFileRoutes({
          prefix: `${OWNER}/:ownerId`,
          param: 'ownerId',
          itemParam: 'testFileId',
          ownerType: 'TEST',
          kind: 'TEST_FILE',
          tag: 'Test owners',
          readPermission: 'documents:read',
          writePermission: 'documents:write',
          resolveOwner: async (_ctx, ownerId) => {
            if (ownerId >= 1000) throw platformErrors.create('route_not_found', `No test owner ${ownerId}`)
          },
        }),
      ),
  })
  return { ...t, dir }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
/** A PDF-looking body: the header, then every byte value, then random bytes. */
const pdfBytes = (size = 4000) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(size)])
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)])

function upload(
  t: TestApp,
  headers: Record<string, string>,
  ownerId: number,
  body: Buffer | string | Readable | undefined,
  contentType: string | undefined,
  query = '',
) {
  return t.app.inject({
    method: 'POST',
    url: `${OWNER}/${ownerId}/files${query}`,
    headers: { ...headers, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { payload: body }),
  })
}

async function uploaded(
  t: TestApp,
  tenant: TestTenant,
  ownerId: number,
  body: Buffer | string,
  contentType: string,
  query = '',
): Promise<Doc> {
  const res = await upload(t, tenant.headers, ownerId, body, contentType, query)
  assert.equal(res.statusCode, 201, res.body)
  return res.json() as Doc
}

async function ownerDocumentCount(t: TestApp, tenant: TestTenant): Promise<number> {
  const rows = await t.db.read(tenant.tenantId, (x) =>
    x.selectFrom('document').select('id').where('tenant_id', '=', tenant.tenantId).execute(),
  )
  return rows.length
}

for (const storage of ['database', 'filesystem'] as const) {
  describe(`documents stored in the ${storage}`, () => {
    let t: TestApp
    before(async () => {
      t = await documentsApp(storage)
    })
    after(() => t.close())

    test('a PDF upload and a new version: versions, checksums, exact bytes, audit', async () => {
      const tenant = await createTenant(t, 'Documents')
      const first = pdfBytes()
      const doc = await uploaded(
        t,
        tenant,
        7,
        first,
        'application/pdf',
        '?fileName=Signed%20contract%20%C3%A9t%C3%A9.pdf',
      )
      assert.equal(doc.ownerType, 'TEST')
      assert.equal(doc.ownerId, 7)
      assert.equal(doc.kind, 'TEST_FILE')
      assert.equal(doc.title, 'Signed contract été.pdf')
      assert.equal(doc.currentVersion, 1)
      assert.equal(doc.versions.length, 1)
      const v1 = doc.versions[0] as Version
      assert.deepEqual(
        [v1.versionNo, v1.contentType, v1.sizeBytes, v1.sha256, v1.fileName],
        [1, 'application/pdf', first.length, sha256(first), 'Signed contract été.pdf'],
      )

      const second = pdfBytes(9000)
      const res = await upload(t, tenant.headers, 7, second, 'application/pdf', `?documentId=${doc.documentId}`)
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(res.headers.location, `${OWNER}/7/files/${doc.documentId}`)
      const updated = res.json() as Doc
      assert.equal(updated.documentId, doc.documentId)
      assert.equal(updated.currentVersion, 2)
      assert.deepEqual(
        updated.versions.map((v) => [v.versionNo, v.sha256]),
        [
          [1, sha256(first)],
          [2, sha256(second)],
        ],
      )
      // A version without a file name of its own is named after its type.
      assert.equal(updated.versions[1]?.fileName, 'document.pdf')

      for (const [version, bytes] of [
        [updated.versions[0], first],
        [updated.versions[1], second],
      ] as const) {
        const file = await t.app.inject({
          method: 'GET',
          url: `/api/files/${version?.fileId}`,
          headers: tenant.headers,
        })
        assert.equal(file.statusCode, 200)
        assert.ok(file.rawPayload.equals(bytes), 'bytes round-trip exactly')
        assert.equal(file.headers['content-type'], 'application/pdf')
        assert.equal(file.headers['content-length'], String(bytes.length))
        assert.equal(file.headers.etag, `"${sha256(bytes)}"`)
        assert.equal(file.headers['x-content-type-options'], 'nosniff')
      }
      const named = await t.app.inject({ method: 'GET', url: `/api/files/${v1.fileId}`, headers: tenant.headers })
      assert.equal(
        named.headers['content-disposition'],
        'attachment; filename="Signed contract _t_.pdf"; filename*=UTF-8\'\'Signed%20contract%20%C3%A9t%C3%A9.pdf',
      )

      const read = await t.app.inject({
        method: 'GET',
        url: `/api/documents/${doc.documentId}`,
        headers: tenant.headers,
      })
      assert.equal(read.statusCode, 200)
      assert.equal(read.headers.etag, '"2"')
      assert.deepEqual(
        (read.json() as Doc).versions.map((v) => v.fileId),
        updated.versions.map((v) => v.fileId),
      )

      const item = await t.app.inject({
        method: 'GET',
        url: `${OWNER}/7/files/${doc.documentId}`,
        headers: tenant.headers,
      })
      assert.equal(item.statusCode, 200)
      assert.equal((item.json() as Doc).currentVersion, 2)

      const audit = await t.db.read(tenant.tenantId, (x) =>
        x
          .selectFrom('audit_log')
          .select(['action', 'entity_id'])
          .where('tenant_id', '=', tenant.tenantId)
          .where('entity_type', '=', 'document')
          .orderBy('id')
          .execute(),
      )
      assert.deepEqual(
        audit.map((a) => [a.action, a.entity_id]),
        [
          ['document.created', String(doc.documentId)],
          ['document.version_added', String(doc.documentId)],
        ],
      )
    })

    test('text and image uploads; HEAD and If-None-Match; a Content-Disposition file name', async () => {
      const tenant = await createTenant(t, 'Documents')
      const text = 'Grüße\nline two\n'
      const doc = await uploaded(t, tenant, 8, text, 'text/plain; charset=UTF-8')
      const version = doc.versions[0] as Version
      assert.equal(version.contentType, 'text/plain; charset=utf-8')
      assert.equal(version.sha256, sha256(Buffer.from(text)))
      assert.equal(version.fileName, 'document.txt')
      const file = await t.app.inject({ method: 'GET', url: `/api/files/${version.fileId}`, headers: tenant.headers })
      assert.equal(file.body, text)
      assert.equal(file.headers['content-type'], 'text/plain; charset=utf-8')

      const head = await t.app.inject({ method: 'HEAD', url: `/api/files/${version.fileId}`, headers: tenant.headers })
      assert.equal(head.statusCode, 200)
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(text)))
      assert.equal(head.body, '')
      const cached = await t.app.inject({
        method: 'GET',
        url: `/api/files/${version.fileId}`,
        headers: { ...tenant.headers, 'if-none-match': `"${version.sha256}"` },
      })
      assert.equal(cached.statusCode, 304)
      assert.equal(cached.body, '')

      const res = await t.app.inject({
        method: 'POST',
        url: `${OWNER}/8/files`,
        payload: PNG,
        headers: {
          ...tenant.headers,
          'content-type': 'image/png',
          'content-disposition':
            'attachment; filename="C:\\\\photos\\\\old.png"; filename*=UTF-8\'\'d%C3%A9g%C3%A2t.png',
        },
      })
      assert.equal(res.statusCode, 201, res.body)
      assert.equal((res.json() as Doc).versions[0]?.fileName, 'dégât.png')
      const plain = await t.app.inject({
        method: 'POST',
        url: `${OWNER}/8/files`,
        payload: PNG,
        headers: {
          ...tenant.headers,
          'content-type': 'image/png',
          'content-disposition': 'attachment; filename="C:\\\\photos\\\\damage.png"',
        },
      })
      assert.equal((plain.json() as Doc).versions[0]?.fileName, 'damage.png')

      const list = await t.app.inject({
        method: 'GET',
        url: `${OWNER}/8/files?limit=2&offset=1`,
        headers: tenant.headers,
      })
      assert.equal(list.statusCode, 200)
      assert.equal(list.headers['x-total-count'], '3')
      assert.deepEqual(
        (list.json() as Doc[]).map((d) => d.versions[0]?.fileName),
        ['dégât.png', 'damage.png'],
      )
      const none = await t.app.inject({ method: 'GET', url: `${OWNER}/9/files`, headers: tenant.headers })
      assert.deepEqual([none.statusCode, none.json(), none.headers['x-total-count']], [200, [], '0'])
    })

    test('too large: 413 whether declared or streamed, and nothing stored', async () => {
      const tenant = await createTenant(t, 'Documents')
      const big = pdfBytes(MAX_BYTES)
      const declared = await upload(t, tenant.headers, 7, big, 'application/pdf')
      assert.equal(declared.statusCode, 413, declared.body)
      assert.equal((declared.json() as Problem).code, 'payload_too_large')
      assert.match(declared.headers['content-type'] as string, /^application\/problem\+json/)

      // No Content-Length: the limit is found while streaming.
      const streamed = await upload(
        t,
        tenant.headers,
        7,
        Readable.from([big.subarray(0, 40_000), big.subarray(40_000)]),
        'application/pdf',
      )
      assert.equal(streamed.statusCode, 413, streamed.body)
      assert.equal(await ownerDocumentCount(t, tenant), 0)

      const exact = pdfBytes(MAX_BYTES - 265)
      assert.equal(exact.length, MAX_BYTES)
      assert.equal((await upload(t, tenant.headers, 7, exact, 'application/pdf')).statusCode, 201)
      assert.equal(await ownerDocumentCount(t, tenant), 1)
    })

    test('415 off the allow-list or when the bytes are not of the type; 400 when empty', async () => {
      const tenant = await createTenant(t, 'Documents')
      const cases: Array<[Buffer | string, string | undefined, number, string]> = [
        ['{"a":1}', 'application/json', 415, 'unsupported_media_type'],
        ['<html><script>alert(1)</script></html>', 'text/html', 415, 'unsupported_media_type'],
        ['x', 'application/octet-stream', 415, 'unsupported_media_type'],
        ['x', 'text/plain; charset=iso-8859-1', 415, 'unsupported_media_type'],
        ['not a type', 'nonsense', 415, 'unsupported_media_type'],
        [pdfBytes(), undefined, 415, 'unsupported_media_type'],
        ['<html></html>', 'image/png', 415, 'document_content_mismatch'],
        [PNG, 'application/pdf', 415, 'document_content_mismatch'],
        [Buffer.from([0x66, 0x6f, 0xff, 0xfe]), 'text/plain', 415, 'document_content_mismatch'],
        [Buffer.from('a\u0000b'), 'text/plain', 415, 'document_content_mismatch'],
        ['', 'application/pdf', 400, 'document_empty'],
      ]
      for (const [body, contentType, status, code] of cases) {
        const res = await upload(t, tenant.headers, 7, body, contentType)
        assert.equal(res.statusCode, status, `${contentType}: ${res.body}`)
        assert.equal((res.json() as Problem).code, code, `${contentType}: ${res.body}`)
      }
      const nothing = await upload(t, tenant.headers, 7, undefined, undefined)
      assert.equal(nothing.statusCode, 400, nothing.body)
      assert.equal(await ownerDocumentCount(t, tenant), 0)
    })

    test('signed links: no credentials needed; altered or expired links 403', async () => {
      const tenant = await createTenant(t, 'Documents')
      const bytes = pdfBytes()
      const doc = await uploaded(t, tenant, 7, bytes, 'application/pdf')
      const version = doc.versions[0] as Version
      assert.equal(version.downloadUrlExpiresAt, new Date(NOW.getTime() + 300_000).toISOString())
      const ok = await t.app.inject({ method: 'GET', url: version.downloadUrl })
      assert.equal(ok.statusCode, 200, ok.body)
      assert.ok(ok.rawPayload.equals(bytes))

      const url = new URL(version.downloadUrl, 'http://x')
      const other = await uploaded(t, tenant, 7, pdfBytes(), 'application/pdf')
      const signature = url.searchParams.get('signature') as string
      const altered = (changes: Record<string, string>, pathname = url.pathname) => {
        const q = new URLSearchParams(url.searchParams)
        for (const [k, v] of Object.entries(changes)) q.set(k, v)
        return `${pathname}?${q}`
      }
      const forged = [
        altered({ signature: (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1) }),
        altered({ expires: String(Number(url.searchParams.get('expires')) + 3600) }),
        altered({ t: String(tenant.tenantId + 1) }),
        altered({}, `/api/files/${other.versions[0]?.fileId}`),
        altered({ signature: 'short' }),
        altered({ expires: 'soon' }),
        `${url.pathname}?t=${tenant.tenantId}`,
        `${url.pathname}?signature=${signature}`,
      ]
      for (const link of forged) {
        const res = await t.app.inject({ method: 'GET', url: link })
        assert.equal(res.statusCode, 403, `${link}: ${res.body}`)
        assert.equal((res.json() as Problem).code, 'download_link_invalid', link)
      }
      // An altered link fails even with valid credentials: the link is what is checked.
      assert.equal(
        (await t.app.inject({ method: 'GET', url: forged[0] as string, headers: tenant.headers })).statusCode,
        403,
      )

      t.clock.set(new Date(NOW.getTime() + 299_000))
      assert.equal((await t.app.inject({ method: 'GET', url: version.downloadUrl })).statusCode, 200)
      t.clock.set(new Date(NOW.getTime() + 300_000))
      const expired = await t.app.inject({ method: 'GET', url: version.downloadUrl })
      t.clock.set(NOW)
      assert.equal(expired.statusCode, 403)
      assert.equal((expired.json() as Problem).code, 'download_link_expired')
    })

    test("another tenant's documents and files answer 404, its links do not transfer", async () => {
      const a = await createTenant(t, 'Documents A')
      const b = await createTenant(t, 'Documents B')
      const doc = await uploaded(t, a, 7, pdfBytes(), 'application/pdf')
      const fileId = doc.versions[0]?.fileId
      for (const url of [
        `/api/documents/${doc.documentId}`,
        `/api/files/${fileId}`,
        `${OWNER}/7/files/${doc.documentId}`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: b.headers })
        assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
      }
      const list = await t.app.inject({ method: 'GET', url: `${OWNER}/7/files`, headers: b.headers })
      assert.deepEqual(list.json(), [])
      const version = await upload(t, b.headers, 7, pdfBytes(), 'application/pdf', `?documentId=${doc.documentId}`)
      assert.equal(version.statusCode, 404)
      // B's own file id under A's tenant id in a link: the signature is A's, so it does not verify.
      const bDoc = await uploaded(t, b, 7, pdfBytes(), 'application/pdf')
      const bUrl = new URL(bDoc.versions[0]?.downloadUrl as string, 'http://x')
      bUrl.searchParams.set('t', String(a.tenantId))
      assert.equal((await t.app.inject({ method: 'GET', url: `${bUrl.pathname}${bUrl.search}` })).statusCode, 403)
    })

    test("the owner's answer, other owners' documents, file names and ids that cannot exist", async () => {
      const tenant = await createTenant(t, 'Documents')
      const doc = await uploaded(t, tenant, 7, pdfBytes(), 'application/pdf')
      const cases: Array<[string, string, number]> = [
        ['POST', `${OWNER}/1000/files`, 404],
        ['GET', `${OWNER}/1000/files`, 404],
        ['GET', `${OWNER}/8/files/${doc.documentId}`, 404],
        ['POST', `${OWNER}/8/files?documentId=${doc.documentId}`, 404],
        ['POST', `${OWNER}/7/files?documentId=99999999999999999`, 404],
        ['POST', `${OWNER}/7/files?fileName=${encodeURIComponent('a\u0001b.pdf')}`, 400],
        ['POST', `${OWNER}/7/files?fileName=${encodeURIComponent('../')}`, 400],
        ['POST', `${OWNER}/7/files?bogus=1`, 400],
        ['GET', '/api/documents/99999999999999999999', 404],
        ['GET', '/api/documents/abc', 400],
        ['GET', '/api/files/0', 404],
        ['GET', '/api/files/99999999999999999999', 404],
      ]
      for (const [method, url, status] of cases) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...tenant.headers, 'content-type': 'application/pdf' },
          ...(method === 'POST' ? { payload: pdfBytes() } : {}),
        })
        assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`)
        assert.match(res.headers['content-type'] as string, /^application\/problem\+json/, url)
      }
      const traversal = await uploaded(
        t,
        tenant,
        7,
        pdfBytes(),
        'application/pdf',
        `?fileName=${encodeURIComponent('../../etc/passwd.pdf')}&title=${encodeURIComponent('  Damage photos ')}`,
      )
      assert.deepEqual([traversal.versions[0]?.fileName, traversal.title], ['passwd.pdf', 'Damage photos'])
      assert.equal(await ownerDocumentCount(t, tenant), 2)
    })

    test('Idempotency-Key: the same upload replays, different bytes under the same key 422', async () => {
      const tenant = await createTenant(t, 'Documents')
      const bytes = pdfBytes()
      const headers = { ...tenant.headers, 'idempotency-key': 'upload-1' }
      const first = await upload(t, headers, 7, bytes, 'application/pdf')
      const again = await upload(t, headers, 7, bytes, 'application/pdf')
      assert.deepEqual([first.statusCode, again.statusCode, again.headers['idempotent-replayed']], [201, 201, 'true'])
      assert.equal((again.json() as Doc).documentId, (first.json() as Doc).documentId)
      const different = await upload(t, headers, 7, pdfBytes(), 'application/pdf')
      assert.equal(different.statusCode, 422, different.body)
      assert.equal(await ownerDocumentCount(t, tenant), 1)
    })

    test('401 without credentials, 403 without the permission', async () => {
      const tenant = await createTenant(t, 'Documents')
      const doc = await uploaded(t, tenant, 7, pdfBytes(), 'application/pdf')
      const fileId = doc.versions[0]?.fileId
      const reads = [
        `/api/documents/${doc.documentId}`,
        `/api/files/${fileId}`,
        `${OWNER}/7/files`,
        `${OWNER}/7/files/${doc.documentId}`,
      ]
      for (const url of reads) assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401, url)
      assert.equal((await upload(t, {}, 7, pdfBytes(), 'application/pdf')).statusCode, 401)

      const nobody = await createUserWithRoles(t, tenant, [])
      for (const url of reads)
        assert.equal((await t.app.inject({ method: 'GET', url, headers: nobody.headers })).statusCode, 403, url)
      const reader = await createUserWithRoles(t, tenant, ['ACCOUNTING'])
      for (const url of reads)
        assert.equal((await t.app.inject({ method: 'GET', url, headers: reader.headers })).statusCode, 200, url)
      const refused = await upload(t, reader.headers, 7, pdfBytes(), 'application/pdf')
      assert.equal(refused.statusCode, 403)
      assert.equal(
        (await upload(t, nobody.headers, 7, 'x', 'application/json')).statusCode,
        403,
        'permission before the body',
      )
      // A signed link needs neither.
      assert.equal((await t.app.inject({ method: 'GET', url: doc.versions[0]?.downloadUrl as string })).statusCode, 200)
    })
  })
}

describe('blob stores and the service API', () => {
  let t: DocumentsTestApp
  before(async () => {
    t = await documentsApp('filesystem')
  })
  after(() => t.close())

  test("files are written whole under the tenant's directory; refused uploads leave nothing", async () => {
    const tenant = await createTenant(t, 'Documents')
    const dir = t.dir
    const doc = await uploaded(t, tenant, 7, pdfBytes(), 'application/pdf')
    const tenantDir = path.join(dir, `tenant-${tenant.tenantId}`)
    const stored = fs.readdirSync(tenantDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    assert.equal(stored.length, 1)
    const onDisk = fs.readFileSync(path.join(stored[0]?.parentPath as string, stored[0]?.name as string))
    assert.equal(sha256(onDisk), doc.versions[0]?.sha256)
    assert.equal((await upload(t, tenant.headers, 7, pdfBytes(MAX_BYTES), 'application/pdf')).statusCode, 413)
    assert.equal((await upload(t, tenant.headers, 7, '<html>', 'image/gif')).statusCode, 415)
    assert.equal(
      fs.readdirSync(tenantDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
      1,
    )
    assert.deepEqual(fs.readdirSync(path.join(dir, '.staging')), [])
  })

  test('a version stays readable where it was written after the storage setting changes', async () => {
    const tenant = await createTenant(t, 'Documents')
    // Another instance (or this one restarted) with DOCUMENT_STORAGE=database and the same DOCUMENT_DIR.
    const databaseApp = await documentsApp('database', t.dir)
    try {
      const fromDatabase = await uploaded(databaseApp, tenant, 7, pdfBytes(30_000), 'application/pdf')
      const fromFiles = await uploaded(t, tenant, 7, pdfBytes(), 'application/pdf')
      for (const [app, doc] of [
        [t, fromDatabase],
        [databaseApp, fromFiles],
      ] as const) {
        const res = await app.app.inject({
          method: 'GET',
          url: `/api/files/${doc.versions[0]?.fileId}`,
          headers: tenant.headers,
        })
        assert.equal(res.statusCode, 200)
        assert.equal(sha256(res.rawPayload), doc.versions[0]?.sha256)
      }
    } finally {
      await databaseApp.close()
    }
  })

  test('large documents: many database chunks round-trip; over a socket a streamed upload past the limit is 413', async () => {
    const tenant = await createTenant(t, 'Documents')
    const large = await documentsApp('database', undefined, 2 * 1024 * 1024)
    try {
      // Five 256 KiB chunks and a bit: more than one batch of reads.
      const bytes = pdfBytes(1_400_000)
      const doc = await uploaded(large, tenant, 7, bytes, 'application/pdf')
      const chunks = await large.db.read(tenant.tenantId, (x) =>
        x.selectFrom('document_blob_chunk').select('seq').where('tenant_id', '=', tenant.tenantId).execute(),
      )
      assert.equal(chunks.length, 6)
      const res = await large.app.inject({ method: 'GET', url: doc.versions[0]?.downloadUrl as string })
      assert.ok(res.rawPayload.equals(bytes))

      await large.app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = large.app.server.address() as { port: number }
      const body = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * 1024 * 1024, 7)])
      async function* chunked() {
        for (let i = 0; i < body.length; i += 64 * 1024) yield body.subarray(i, i + 64 * 1024)
      }
      const refused = await fetch(`http://127.0.0.1:${port}${OWNER}/7/files`, {
        method: 'POST',
        headers: { ...tenant.headers, 'content-type': 'application/pdf' },
        body: Readable.toWeb(Readable.from(chunked())) as ReadableStream,
        duplex: 'half',
      } as RequestInit)
      assert.equal(refused.status, 413)
      assert.equal(((await refused.json()) as Problem).code, 'payload_too_large')
      assert.equal(await ownerDocumentCount(large, tenant), 1)
    } finally {
      await large.close()
    }
  })

  test('store() for owner modules: metadata, a guard inside the transaction, streamed content; owners guard reads by id', async () => {
    const tenant = await createTenant(t, 'Documents')
    const documents = t.modules.documents.service
    const ctx = systemContext(tenant.tenantId, 'contracts-test')
    const chunks = [Buffer.from('%PDF-1.4\n'), randomBytes(1000), Buffer.from('%%EOF')]
    const stored = await documents.store(ctx, {
      ownerType: 'CLAIM',
      ownerId: 1500,
      kind: 'CLAIM_INVOICE',
      fileName: 'invoice.pdf',
      contentType: 'application/pdf',
      content: Readable.from(chunks),
      metadata: { draft: true },
    })
    assert.deepEqual(stored.versions[0]?.metadata, { draft: true })
    assert.equal(stored.versions[0]?.sha256, sha256(Buffer.concat(chunks)))
    const listed = await documents.listForOwner(tenant.tenantId, 'CLAIM', 1500, { kind: 'CLAIM_INVOICE' })
    assert.deepEqual(
      listed.map((d) => d.documentId),
      [stored.documentId],
    )
    assert.deepEqual(await documents.listForOwner(tenant.tenantId, 'CLAIM', 1500, { kind: 'OTHER' }), [])

    await assert.rejects(
      documents.store(ctx, {
        ownerType: 'CLAIM',
        ownerId: 1500,
        kind: 'CLAIM_INVOICE',
        fileName: 'v2.pdf',
        contentType: 'application/pdf',
        content: pdfBytes(),
        documentId: stored.documentId,
        guard: async () => {
          throw platformErrors.create('precondition_failed', 'claim closed')
        },
      }),
      /claim closed/,
    )
    assert.equal((await documents.get(tenant.tenantId, stored.documentId))?.currentVersion, 1)

    const file = await documents.getFile(tenant.tenantId, stored.versions[0]?.fileId as number)
    const bytes: Buffer[] = []
    for await (const chunk of file?.stream ?? []) bytes.push(chunk as Buffer)
    assert.ok(Buffer.concat(bytes).equals(Buffer.concat(chunks)))
    assert.equal(await documents.getFile(tenant.tenantId + 100_000, stored.versions[0]?.fileId as number), undefined)

    // Once the claims module says who may read claim 1500, reads by id ask it.
    documents.registerOwner('CLAIM', async (_ctx, ownerId) => {
      if (ownerId === 1500) throw platformErrors.create('route_not_found', 'not visible')
    })
    await assert.rejects(
      documents.getForCaller(ctx, stored.documentId),
      (err: Problem) => err.code === 'document_not_found',
    )
    await assert.rejects(
      documents.openFile(ctx, stored.versions[0]?.fileId as number, false),
      (err: Problem) => err.code === 'file_not_found',
    )
    const signed = await documents.openFile(ctx, stored.versions[0]?.fileId as number, true)
    signed.stream.destroy()
    assert.equal(signed.version.sha256, stored.versions[0]?.sha256)
  })
})
