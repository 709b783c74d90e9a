import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { testDatabase } from '../../../test/harness.ts'
import { advisoryLock, advisoryLockKey, tryAdvisoryLock, type LockNamespace } from './advisory-lock.ts'

describe('advisory lock keys', () => {
  test('are fixed: a release that derived other keys would not exclude the instances of the one before', () => {
    const pinned: Array<[LockNamespace, readonly (string | number)[], string]> = [
      ['rate_book_import', [1], '-836952813742033427'],
      ['idempotency_key', [1, 'abc'], '6864722966690740689'],
      ['custom_field_name', [7, 'DEALER', 'region'], '-472608355790408537'],
      ['contract_deal', [7, 12, '1HGCV1F37LA012345', 3, '2026-11-21'], '1325718059253018524'],
    ]
    for (const [namespace, keys, key] of pinned) {
      assert.equal(advisoryLockKey(namespace, keys as never), key, namespace)
    }
  })

  test('differ between namespaces, tenants and key lists that join to the same text', () => {
    const keys = [
      advisoryLockKey('rate_book_import', [1]),
      advisoryLockKey('rate_book_import', [2]),
      advisoryLockKey('idempotency_key', [1, '']),
      advisoryLockKey('idempotency_key', [1, 'a|b']),
      advisoryLockKey('custom_field_name', [1, 'a', 'b']),
      advisoryLockKey('custom_field_name', [1, 'a|b', '']),
      // A number and its text are different keys.
      advisoryLockKey('custom_field_name', [1, '1', 'x']),
      advisoryLockKey('custom_field_name', ['1' as never, '1', 'x']),
    ]
    assert.equal(new Set(keys).size, keys.length)
  })

  test('are signed 64-bit integers, as pg_advisory_xact_lock(bigint) takes them', () => {
    for (let tenant = 1; tenant <= 200; tenant++) {
      const key = BigInt(advisoryLockKey('rate_book_import', [tenant]))
      assert.ok(key >= -(2n ** 63n) && key < 2n ** 63n)
    }
  })
})

describe('advisory locks in the database', () => {
  test('are taken inside a transaction and released with it', async () => {
    const db = await testDatabase()
    await db.transaction(null, async (tx) => {
      await advisoryLock(tx, 'rate_book_import', [1])
      await advisoryLock(tx, 'custom_field_name', [1, 'DEALER', 'x'], 'shared')
      assert.equal(await tryAdvisoryLock(tx, 'idempotency_key', [1, 'k']), true)
    })
    // Released at commit: taken again at once.
    await db.transaction(null, async (tx) => assert.equal(await tryAdvisoryLock(tx, 'rate_book_import', [1]), true))
  })

  test(
    'exclude other transactions: exclusive against any, shared only against exclusive; other keys are free',
    { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL: the embedded database has one session' },
    async () => {
      const db = await testDatabase()
      const tenant = 1_000_000 + Math.floor(Math.random() * 1_000_000)
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let taken!: () => void
      const holding = new Promise<void>((resolve) => (taken = resolve))
      const holder = db.transaction(null, async (tx) => {
        await advisoryLock(tx, 'custom_field_name', [tenant, 'DEALER', 'x'], 'shared')
        await advisoryLock(tx, 'rate_book_import', [tenant])
        taken()
        await held
      })
      await holding
      try {
        await db.transaction(null, async (tx) => {
          assert.equal(await tryAdvisoryLock(tx, 'rate_book_import', [tenant]), false, 'held exclusively')
          assert.equal(await tryAdvisoryLock(tx, 'custom_field_name', [tenant, 'DEALER', 'x']), false, 'held shared')
          // A shared lock beside a shared one is granted at once (a wait would time the test out).
          await advisoryLock(tx, 'custom_field_name', [tenant, 'DEALER', 'x'], 'shared')
          assert.equal(await tryAdvisoryLock(tx, 'rate_book_import', [tenant + 1]), true, 'another tenant')
          assert.equal(await tryAdvisoryLock(tx, 'idempotency_key', [tenant, '']), true, 'another namespace')
        })
      } finally {
        release()
        await holder
      }
      await db.transaction(null, async (tx) =>
        assert.equal(await tryAdvisoryLock(tx, 'rate_book_import', [tenant]), true, 'released at commit'),
      )
    },
  )
})
