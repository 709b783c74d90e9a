// The scale-out settings (docs/scale-out.md): where the bus listens and migrations run, and the read replica.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.ts'

const KEY = Buffer.alloc(32, 7).toString('base64')
const PRIMARY = 'postgres://vpp_app:pw@pgbouncer.internal:6432/vpp'
const DIRECT = 'postgres://vpp_app:pw@db.internal:5432/vpp'
const REPLICA = 'postgresql://vpp_app:pw@replica.internal:5432/vpp'

test('DATABASE_LISTEN_URL defaults to DATABASE_URL; DATABASE_READ_URL to none', () => {
  const config = loadConfig({ DATABASE_URL: PRIMARY, SECRETS_KEY: KEY })
  assert.equal(config.databaseListenUrl, PRIMARY)
  assert.equal(config.databaseReadUrl, undefined)
  const embedded = loadConfig({})
  assert.equal(embedded.databaseListenUrl, undefined)
  assert.equal(embedded.databaseReadUrl, undefined)
})

test('both are taken when given with DATABASE_URL', () => {
  const config = loadConfig({
    DATABASE_URL: PRIMARY,
    DATABASE_LISTEN_URL: DIRECT,
    DATABASE_READ_URL: REPLICA,
    SECRETS_KEY: KEY,
  })
  assert.equal(config.databaseListenUrl, DIRECT)
  assert.equal(config.databaseReadUrl, REPLICA)
})

test('each is refused, by name, when it is not a PostgreSQL URL or comes without DATABASE_URL', () => {
  assert.throws(
    () =>
      loadConfig({ DATABASE_URL: PRIMARY, SECRETS_KEY: KEY, DATABASE_LISTEN_URL: 'mysql://x', DATABASE_READ_URL: 'x' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      /DATABASE_LISTEN_URL must start with postgres:\/\//.test(err.message) &&
      /DATABASE_READ_URL must start with postgres:\/\//.test(err.message),
  )
  assert.throws(
    () => loadConfig({ DATABASE_LISTEN_URL: DIRECT, DATABASE_READ_URL: REPLICA }),
    (err: unknown) =>
      err instanceof ConfigError &&
      /DATABASE_LISTEN_URL needs DATABASE_URL/.test(err.message) &&
      /DATABASE_READ_URL needs DATABASE_URL/.test(err.message),
  )
})
