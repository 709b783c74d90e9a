import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { DEFAULT_ROLES, PERMISSIONS } from './permissions.rules.ts'

test('default roles only use catalogued permissions, and the catalogue is documented', () => {
  const known = new Set([...Object.keys(PERMISSIONS), '*'])
  for (const role of DEFAULT_ROLES) {
    for (const p of role.permissions) assert.ok(known.has(p), `${role.code}: ${p}`)
  }
  const codes = DEFAULT_ROLES.map((r) => r.code)
  for (const required of [
    'ADMINISTRATOR',
    'USER_ADMINISTRATOR',
    'CONTRACT_ADMINISTRATOR',
    'CLAIMS_ADJUSTER',
    'ACCOUNTING',
    'DEALER_USER',
    'READ_ONLY',
  ]) {
    assert.ok(codes.includes(required), required)
  }
  const doc = fs.readFileSync(new URL('../../../docs/permissions.md', import.meta.url), 'utf8')
  for (const p of Object.keys(PERMISSIONS)) assert.ok(doc.includes(`\`${p}\``), `docs/permissions.md lists ${p}`)
  for (const c of codes) assert.ok(doc.includes(`\`${c}\``), `docs/permissions.md lists ${c}`)
})

test('read-only holds no write permission and no bank details', () => {
  const readOnly = DEFAULT_ROLES.find((r) => r.code === 'READ_ONLY')!
  assert.ok(readOnly.permissions.every((p) => p.endsWith(':read') && p !== 'bankdetails:read'))
})
