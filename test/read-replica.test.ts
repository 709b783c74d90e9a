// The read replica (DATABASE_READ_URL) on a real streaming standby, started by
// `WITH_POSTGRES_REPLICA=1 scripts/with-postgres.sh`: report-style lists are served by it, so they
// lag behind the primary; reads by id and every write go to the primary. The standby is held
// behind on purpose by pausing its WAL replay (the script lets the app role do that), so nothing
// here depends on how fast replication is: every wait is for a state, bounded by a deadline.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { openPostgres } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { closeAtEnd, createTenant, createTestApp, json } from './harness.ts'

const PRIMARY_URL = process.env.DATABASE_URL
const REPLICA_URL = process.env.WITH_POSTGRES_REPLICA_URL
const NEEDS_REPLICA =
  PRIMARY_URL && REPLICA_URL
    ? false
    : 'needs WITH_POSTGRES_REPLICA_URL (scripts/with-postgres.sh with WITH_POSTGRES_REPLICA=1)'

async function eventually(what: string, check: () => Promise<boolean>, seconds = 30): Promise<void> {
  const deadline = Date.now() + seconds * 1000
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`still not true after ${seconds} s: ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

type Dealer = { id: number; legalName: string }

test(
  'lists read the replica (and lag while its replay is paused); reads by id and writes use the primary',
  { skip: NEEDS_REPLICA },
  async () => {
    const db = await openPostgres(PRIMARY_URL!, 4, { readUrl: REPLICA_URL! })
    closeAtEnd(() => db.close())
    await migrateToLatest(db)
    assert.equal(db.hasReadReplica, true)

    // A session of the app role on the standby, to hold and release its replay. Released at the
    // end whatever happened, so a failure here cannot leave the standby paused for what runs next.
    const standby = new pg.Client({ connectionString: REPLICA_URL })
    await standby.connect()
    const resume = () => standby.query('select pg_wal_replay_resume()')
    closeAtEnd(async () => {
      await resume().catch(() => {})
      await standby.end()
    })
    const replayState = async () =>
      (await standby.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state')).rows[0]!.state
    assert.equal((await standby.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0]!.r, true)

    /**
     * The primary's WAL position now: where it inserts, not where it has written (with
     * synchronous_commit off, as the test cluster runs, a commit can sit in the WAL buffers a while,
     * and the written position lags behind the write the test just made).
     */
    const primaryLsn = async () =>
      (await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(db.kysely)).rows[0]!.lsn
    const replayedUpTo = async (lsn: string) =>
      (
        await standby.query<{ ok: boolean }>('select coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) as ok', [
          lsn,
        ])
      ).rows[0]!.ok

    const t = await createTestApp({ db })
    const tenant = await createTenant(t, 'Read replica')
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: tenant.headers })
    const listedIds = async (url: string) => {
      const res = await get(url)
      assert.equal(res.statusCode, 200, res.body)
      return json<Dealer[]>(res).map((d) => d.id)
    }

    // The standby has the tenant (its API key and user are read on the primary; its rows on the replica).
    const created = await primaryLsn()
    await eventually('the replica replays the new tenant', () => replayedUpTo(created))
    const before = await listedIds('/api/dealers')

    try {
      await standby.query('select pg_wal_replay_pause()')
      await eventually('replay on the replica is paused', async () => (await replayState()) === 'paused')

      // A write while the standby is held: it goes to the primary, which answers as always.
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/dealers',
        headers: tenant.headers,
        payload: { dealerNumber: 'R-LAG-1', legalName: 'Behind the replica' },
      })
      assert.equal(post.statusCode, 201, post.body)
      const dealer = json<Dealer>(post)
      assert.equal(await replayedUpTo(await primaryLsn()), false, 'the replica is behind the primary')

      // By id: the primary, so the caller sees its own write at once.
      const byId = await get(`/api/dealers/${dealer.id}`)
      assert.equal(byId.statusCode, 200, byId.body)
      assert.equal(json<Dealer>(byId).legalName, 'Behind the replica')

      // The lists (both shapes that read account holders): the replica, which has not seen it yet.
      assert.deepEqual(await listedIds('/api/dealers'), before)
      assert.equal((await listedIds('/api/accountholders?kind=DEALER')).includes(dealer.id), false)
      assert.equal((await get('/api/dealers')).headers['x-total-count'], String(before.length))

      // Another write while paused: a change of the same record, also on the primary.
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/dealers/${dealer.id}`,
        headers: { ...tenant.headers, 'content-type': 'application/merge-patch+json' },
        payload: JSON.stringify({ legalName: 'Renamed behind the replica' }),
      })
      assert.equal(patch.statusCode, 200, patch.body)
      assert.equal(json<Dealer>(await get(`/api/dealers/${dealer.id}`)).legalName, 'Renamed behind the replica')
      assert.equal((await listedIds('/api/dealers')).includes(dealer.id), false)

      await resume()
      // Once replayed, the list shows the dealer as the primary has it (the change included).
      await eventually('the list shows the new dealer once replay resumes', async () => {
        const res = await get('/api/dealers')
        assert.equal(res.statusCode, 200, res.body)
        return json<Dealer[]>(res).some((d) => d.id === dealer.id && d.legalName === 'Renamed behind the replica')
      })
      assert.equal((await listedIds('/api/accountholders?kind=DEALER')).includes(dealer.id), true)
    } finally {
      await resume()
    }
  },
)
