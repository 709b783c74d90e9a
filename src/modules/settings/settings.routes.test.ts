import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { Decimal } from 'decimal.js'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'
import { systemContext } from '../../platform/http/context.ts'
import { createSettingsModule, SETTINGS, SettingsOperatorError, type SettingView } from './index.ts'

let t: TestApp

before(async () => {
  t = await createTestApp()
})

after(async () => {
  await t.close()
})

const URL = '/api/generalsettings'

type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string; message: string }> }

async function put(tenant: TestTenant, idOrKey: string | number, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'PUT',
    url: `${URL}/${idOrKey}`,
    headers: { ...tenant.headers, ...headers },
    payload: body as Record<string, unknown>,
  })
}

async function get(tenant: TestTenant, path: string) {
  return t.app.inject({ method: 'GET', url: `${URL}${path}`, headers: tenant.headers })
}

async function auditRows(tenant: TestTenant, entityId: number) {
  return t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .where('entity_type', '=', 'general_setting')
      .where('entity_id', '=', String(entityId))
      .orderBy('id')
      .execute(),
  )
}

test('lists every setting with defaults, bounded, with X-Total-Count, filtered by group', async () => {
  const tenant = await createTenant(t)
  const res = await get(tenant, '')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-total-count'], String(SETTINGS.length))
  const items = json<SettingView[]>(res)
  assert.deepEqual(
    items.map((s) => s.id),
    SETTINGS.map((s) => s.id),
  )
  for (const s of items) {
    assert.equal(s.isDefault, true, s.key)
    assert.deepEqual(s.value, s.defaultValue, s.key)
    assert.equal(s.version, 0)
    assert.equal(s.updatedAt, null)
    assert.equal(s.updatedBy, null)
  }
  const lookBack = items.find((s) => s.key === 'saleDateLookBackDays')
  assert.deepEqual(lookBack, {
    id: 3,
    key: 'saleDateLookBackDays',
    name: 'Sale date look-back days',
    group: 'RATING',
    groupId: 2,
    type: 'integer',
    description: lookBack?.description,
    value: 60,
    defaultValue: 60,
    isDefault: true,
    constraints: { nullable: false, minimum: 0, maximum: 365 },
    updatedAt: null,
    updatedBy: null,
    version: 0,
  })
  assert.deepEqual(items.find((s) => s.key === 'distanceUnit')?.constraints, {
    nullable: false,
    allowedValues: ['MILES', 'KILOMETERS'],
  })
  assert.deepEqual(items.find((s) => s.key === 'quoteLifetime')?.constraints, {
    nullable: false,
    minimum: 'PT1M',
    maximum: 'P30D',
  })
  assert.equal(items.find((s) => s.key === 'defaultCancelFee')?.value, 50)

  const page = await get(tenant, '?limit=2&offset=1')
  assert.equal(page.statusCode, 200)
  assert.equal(page.headers['x-total-count'], String(SETTINGS.length))
  assert.deepEqual(
    json<SettingView[]>(page).map((s) => s.id),
    [2, 3],
  )

  for (const group of ['RATING', 'rating', '2']) {
    const rating = await get(tenant, `?group=${group}`)
    assert.equal(rating.statusCode, 200)
    assert.deepEqual(
      json<SettingView[]>(rating).map((s) => s.key),
      ['saleDateLookBackDays', 'quoteLifetime'],
      group,
    )
    assert.equal(rating.headers['x-total-count'], '2')
  }
  const none = await get(tenant, '?group=NOPE')
  assert.deepEqual(json(none), [])
  assert.equal(none.headers['x-total-count'], '0')

  for (const bad of ['?limit=0', '?limit=1001', '?offset=-1', '?limit=abc', '?colour=blue']) {
    const r = await get(tenant, bad)
    assert.equal(r.statusCode, 400, bad)
    assert.equal(json<Problem>(r).code, 'validation_failed', bad)
  }
})

test('reads one setting by id or key, with an ETag; unknown is 404, malformed 400', async () => {
  const tenant = await createTenant(t)
  for (const path of ['/3', '/saleDateLookBackDays', '/SALEDATELOOKBACKDAYS', '/saledatelookbackdays']) {
    const res = await get(tenant, path)
    assert.equal(res.statusCode, 200, path)
    assert.equal(json<SettingView>(res).key, 'saleDateLookBackDays')
    assert.equal(res.headers.etag, '"0"')
  }
  const mixedCasePath = await t.app.inject({
    method: 'GET',
    url: '/API/GeneralSettings/freeLookDays',
    headers: tenant.headers,
  })
  assert.equal(json<SettingView>(mixedCasePath).value, 30)

  for (const path of ['/999', '/0', '/noSuchSetting']) {
    const res = await get(tenant, path)
    assert.equal(res.statusCode, 404, path)
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
    assert.equal(json<Problem>(res).code, 'setting_not_found', path)
  }
  for (const path of ['/a-b', '/1234567890123', `/${'x'.repeat(80)}`, '/%27%3B--']) {
    const res = await get(tenant, path)
    assert.equal(res.statusCode, 400, path)
    assert.equal(json<Problem>(res).code, 'validation_failed', path)
  }
})

test('lists setting groups and setting types', async () => {
  const tenant = await createTenant(t)
  const groups = await get(tenant, '/settinggroups')
  assert.equal(groups.statusCode, 200)
  const g = json<Array<{ id: number; code: string; name: string; description: string; settingIds: number[] }>>(groups)
  assert.deepEqual(
    g.map((x) => x.code),
    ['GENERAL', 'RATING', 'CONTRACTS', 'CANCELLATIONS', 'FINANCE', 'CLAIMS'],
  )
  assert.deepEqual(
    g.find((x) => x.code === 'RATING'),
    {
      id: 2,
      code: 'RATING',
      name: 'Rating',
      description: g.find((x) => x.code === 'RATING')?.description,
      settingIds: [3, 4],
    },
  )
  assert.deepEqual(
    g.flatMap((x) => x.settingIds).toSorted((a, b) => a - b),
    SETTINGS.map((s) => s.id),
    'every setting in exactly one group',
  )

  const types = await get(tenant, '/settingtypes')
  assert.equal(types.statusCode, 200)
  const ty =
    json<Array<{ code: string; jsonType: string; format?: string; rules: string[]; constraints: string[] }>>(types)
  assert.deepEqual(
    ty.map((x) => x.code),
    ['integer', 'decimal', 'boolean', 'string', 'date', 'list', 'duration'],
  )
  assert.equal(ty.find((x) => x.code === 'decimal')?.jsonType, 'number')
  assert.equal(ty.find((x) => x.code === 'duration')?.format, 'duration')
  assert.ok(ty.every((x) => x.rules.length > 0 && x.constraints.includes('nullable')))
})

test('updates a setting of each type; the value reads back and the ETag is the version', async () => {
  const tenant = await createTenant(t)
  const cases: Array<[string, unknown, unknown]> = [
    ['saleDateLookBackDays', 75, 75],
    ['defaultCancelFee', 49.99, 49.99],
    ['deductClaimsPaidFromRefund', true, true],
    ['timeZone', 'america/new_york', 'America/New_York'],
    ['contractNumberFormat', '{formPrefix}{yy}-{sequence:6}', '{formPrefix}{yy}-{sequence:6}'],
    ['booksClosedThrough', '2026-12-31', '2026-12-31'],
    ['distanceUnit', 'KILOMETERS', 'KILOMETERS'],
    ['quoteLifetime', 'pt30m', 'PT30M'],
  ]
  for (const [key, sent, stored] of cases) {
    const res = await put(tenant, key, { value: sent })
    assert.equal(res.statusCode, 200, `${key}: ${res.body}`)
    assert.equal(res.headers.etag, '"1"', key)
    const body = json<SettingView>(res)
    assert.deepEqual(body.value, stored, key)
    assert.equal(body.isDefault, false, key)
    assert.equal(body.version, 1, key)
    assert.equal(body.updatedBy, tenant.adminEmail, key)
    assert.equal(body.updatedAt, t.clock.now().toISOString(), key)
    const back = await get(tenant, `/${body.id}`)
    assert.deepEqual(json<SettingView>(back).value, stored, key)
    assert.equal(back.headers.etag, '"1"', key)
  }
  // A nullable setting goes back to null; by id this time.
  const cleared = await put(tenant, 10, { value: null })
  assert.equal(cleared.statusCode, 200)
  assert.equal(json<SettingView>(cleared).value, null)
  assert.equal(json<SettingView>(cleared).isDefault, false)
  assert.equal(cleared.headers.etag, '"2"')

  // A GET reply with a new value is accepted; its read-only members are ignored.
  const current = json<SettingView>(await get(tenant, '/freeLookDays'))
  const replaced = await put(tenant, 'freeLookDays', { ...current, value: 45, isDefault: true, version: 99 })
  assert.equal(replaced.statusCode, 200, replaced.body)
  assert.equal(json<SettingView>(replaced).value, 45)
  assert.equal(json<SettingView>(replaced).version, 1)
})

test('refuses values that do not fit the type or constraints with 422 naming value; bad bodies are 400', async () => {
  const tenant = await createTenant(t)
  const cases: Array<[string, unknown, string]> = [
    ['saleDateLookBackDays', '75', 'invalid_type'],
    ['saleDateLookBackDays', 7.5, 'invalid_type'],
    ['saleDateLookBackDays', 366, 'out_of_range'],
    ['saleDateLookBackDays', -1, 'out_of_range'],
    ['saleDateLookBackDays', null, 'null_not_allowed'],
    ['saleDateLookBackDays', [75], 'invalid_type'],
    ['saleDateLookBackDays', { days: 75 }, 'invalid_type'],
    ['defaultCancelFee', 49.999, 'too_precise'],
    ['defaultCancelFee', '49.99', 'invalid_type'],
    ['defaultCancelFee', 1000.01, 'out_of_range'],
    ['deductClaimsPaidFromRefund', 'yes', 'invalid_type'],
    ['deductClaimsPaidFromRefund', 1, 'invalid_type'],
    ['timeZone', 'Mars/Olympus_Mons', 'invalid_format'],
    ['timeZone', '', 'too_short'],
    ['timeZone', 'x'.repeat(65), 'too_long'],
    ['contractNumberFormat', '{formPrefix}-NUMBER', 'invalid_format'],
    ['contractNumberFormat', '{formPrefix} {sequence}', 'invalid_format'],
    ['booksClosedThrough', '2026-02-30', 'invalid_format'],
    ['booksClosedThrough', '1999-12-31', 'out_of_range'],
    ['distanceUnit', 'FURLONGS', 'not_allowed'],
    ['distanceUnit', 'kilometers', 'not_allowed'],
    ['quoteLifetime', 'P1M', 'invalid_format'],
    ['quoteLifetime', 'P31D', 'out_of_range'],
    ['quoteLifetime', 1800, 'invalid_type'],
  ]
  for (const [key, value, code] of cases) {
    const res = await put(tenant, key, { value })
    assert.equal(res.statusCode, 422, `${key} ${JSON.stringify(value)}: ${res.body}`)
    const problem = json<Problem>(res)
    assert.equal(problem.code, 'invalid_setting_value')
    assert.equal(problem.errors?.length, 1)
    assert.equal(problem.errors?.[0]?.field, 'value')
    assert.equal(problem.errors?.[0]?.code, code, `${key} ${JSON.stringify(value)}`)
  }
  const unchanged = json<SettingView[]>(await get(tenant, ''))
  assert.ok(
    unchanged.every((s) => s.isDefault),
    'no refused value was stored',
  )

  const bodies: Array<[unknown, string, string]> = [
    [{}, 'validation_failed', 'value'],
    [{ value: 75, colour: 'blue' }, 'validation_failed', 'colour'],
    [{ value: 75, id: 4 }, 'id_mismatch', 'id'],
    [{ value: 75, key: 'freeLookDays' }, 'id_mismatch', 'key'],
  ]
  for (const [body, code, field] of bodies) {
    const res = await put(tenant, 'saleDateLookBackDays', body)
    assert.equal(res.statusCode, 400, JSON.stringify(body))
    assert.equal(json<Problem>(res).code, code)
    assert.equal(json<Problem>(res).errors?.[0]?.field, field)
  }
  const malformed = await t.app.inject({
    method: 'PUT',
    url: `${URL}/3`,
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    payload: '{"value":',
  })
  assert.equal(malformed.statusCode, 400)
  assert.equal(json<Problem>(malformed).code, 'malformed_json')
  const missing = await put(tenant, 'noSuchSetting', { value: 1 })
  assert.equal(missing.statusCode, 404)
  assert.equal(json<Problem>(missing).code, 'setting_not_found')
})

test('If-Match: a stale version is 412, the current one or * passes; DELETE resets to the default', async () => {
  const tenant = await createTenant(t)
  const first = await put(tenant, 'freeLookDays', { value: 20 }, { 'if-match': '"0"' })
  assert.equal(first.statusCode, 200)
  assert.equal(first.headers.etag, '"1"')
  const stale = await put(tenant, 'freeLookDays', { value: 25 }, { 'if-match': '"0"' })
  assert.equal(stale.statusCode, 412)
  assert.equal(json<Problem>(stale).code, 'precondition_failed')
  const fresh = await put(tenant, 'freeLookDays', { value: 25 }, { 'if-match': '"1"' })
  assert.equal(fresh.statusCode, 200)
  assert.equal(fresh.headers.etag, '"2"')
  const star = await put(tenant, 'freeLookDays', { value: 26 }, { 'if-match': '*' })
  assert.equal(star.statusCode, 200)
  assert.equal(json<SettingView>(await get(tenant, '/freeLookDays')).value, 26)

  const staleDelete = await t.app.inject({
    method: 'DELETE',
    url: `${URL}/freeLookDays`,
    headers: { ...tenant.headers, 'if-match': '"2"' },
  })
  assert.equal(staleDelete.statusCode, 412)
  const reset = await t.app.inject({
    method: 'DELETE',
    url: `${URL}/freeLookDays`,
    headers: { ...tenant.headers, 'if-match': '"3"' },
  })
  assert.equal(reset.statusCode, 200)
  assert.equal(reset.headers.etag, '"0"')
  assert.deepEqual(
    (({ value, isDefault, version, updatedAt, updatedBy }) => ({ value, isDefault, version, updatedAt, updatedBy }))(
      json<SettingView>(reset),
    ),
    { value: 30, isDefault: true, version: 0, updatedAt: null, updatedBy: null },
  )
  const again = await t.app.inject({ method: 'DELETE', url: `${URL}/freeLookDays`, headers: tenant.headers })
  assert.equal(again.statusCode, 200, 'resetting a default changes nothing')
  const unknown = await t.app.inject({ method: 'DELETE', url: `${URL}/999`, headers: tenant.headers })
  assert.equal(unknown.statusCode, 404)
})

test('concurrent writes apply one after another; with If-Match only one wins', async () => {
  const tenant = await createTenant(t)
  const blind = await Promise.all([61, 62, 63, 64, 65].map((value) => put(tenant, 'saleDateLookBackDays', { value })))
  assert.deepEqual(
    blind.map((r) => r.statusCode),
    [200, 200, 200, 200, 200],
  )
  assert.deepEqual(
    blind.map((r) => json<SettingView>(r).version).toSorted((a, b) => a - b),
    [1, 2, 3, 4, 5],
  )
  const guarded = await Promise.all(
    [31, 32, 33, 34].map((value) => put(tenant, 'freeLookDays', { value }, { 'if-match': '"0"' })),
  )
  assert.deepEqual(
    guarded.map((r) => r.statusCode).toSorted((a, b) => a - b),
    [200, 412, 412, 412],
  )
  assert.equal(json<SettingView>(await get(tenant, '/freeLookDays')).version, 1)
})

test('writes are audited in the same transaction with the values before and after', async () => {
  const tenant = await createTenant(t)
  await put(tenant, 'saleDateLookBackDays', { value: 75 })
  await put(tenant, 'saleDateLookBackDays', { value: 80 })
  await t.app.inject({ method: 'DELETE', url: `${URL}/3`, headers: tenant.headers })
  const rows = await auditRows(tenant, 3)
  assert.deepEqual(
    rows.map((r) => r.action),
    ['setting.updated', 'setting.updated', 'setting.reset'],
  )
  assert.deepEqual(
    rows.map((r) => r.changes),
    [
      {
        key: 'saleDateLookBackDays',
        before: { value: 60, isDefault: true, version: 0 },
        after: { value: 75, isDefault: false, version: 1 },
      },
      {
        key: 'saleDateLookBackDays',
        before: { value: 75, isDefault: false, version: 1 },
        after: { value: 80, isDefault: false, version: 2 },
      },
      {
        key: 'saleDateLookBackDays',
        before: { value: 80, isDefault: false, version: 2 },
        after: { value: 60, isDefault: true, version: 0 },
      },
    ],
  )
  for (const r of rows) {
    assert.equal(r.actor_label, tenant.adminEmail)
    assert.equal(r.actor_user_id, tenant.adminUserId)
    assert.ok(r.request_id)
  }
  // A refused value leaves no trace.
  await put(tenant, 'saleDateLookBackDays', { value: 9999 })
  assert.equal((await auditRows(tenant, 3)).length, 3)
})

test('settings are per tenant: a change in one tenant is invisible to another', async () => {
  const a = await createTenant(t, 'Tenant A')
  const b = await createTenant(t, 'Tenant B')
  assert.equal((await put(a, 'saleDateLookBackDays', { value: 90 })).statusCode, 200)
  assert.equal((await put(a, 'defaultCancelFee', { value: 25 })).statusCode, 200)
  const seenByB = json<SettingView>(await get(b, '/saleDateLookBackDays'))
  assert.equal(seenByB.value, 60)
  assert.equal(seenByB.isDefault, true)
  assert.ok(json<SettingView[]>(await get(b, '')).every((s) => s.isDefault))
  assert.equal(json<SettingView>(await get(a, '/saleDateLookBackDays')).value, 90)
  // B's If-Match "1" is stale for B even though A is at version 1.
  assert.equal((await put(b, 'saleDateLookBackDays', { value: 61 }, { 'if-match': '"1"' })).statusCode, 412)
  // B's reset does not touch A's value.
  await t.app.inject({ method: 'DELETE', url: `${URL}/saleDateLookBackDays`, headers: b.headers })
  assert.equal(json<SettingView>(await get(a, '/saleDateLookBackDays')).value, 90)
  assert.equal((await auditRows(b, 3)).length, 0)
})

test('permissions: settings:read to read, settings:write to change; no credentials 401', async () => {
  const tenant = await createTenant(t)
  const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
  const nobody = await createUserWithRoles(t, tenant, [])
  const routes: Array<{ method: 'GET' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> }> = [
    { method: 'GET', url: URL },
    { method: 'GET', url: `${URL}/3` },
    { method: 'GET', url: `${URL}/settinggroups` },
    { method: 'GET', url: `${URL}/settingtypes` },
    { method: 'PUT', url: `${URL}/3`, payload: { value: 70 } },
    { method: 'DELETE', url: `${URL}/3` },
  ]
  for (const r of routes) {
    const anonymous = await t.app.inject({ ...r })
    assert.equal(anonymous.statusCode, 401, `${r.method} ${r.url} anonymous`)
    const keyOnly = await t.app.inject({ ...r, headers: { 'x-api-key': tenant.apiKey } })
    assert.equal(keyOnly.statusCode, 401, `${r.method} ${r.url} api key only`)
    const denied = await t.app.inject({ ...r, headers: nobody.headers })
    assert.equal(denied.statusCode, 403, `${r.method} ${r.url} no roles`)
    assert.equal(json<Problem>(denied).code, 'permission_denied')
    const asReader = await t.app.inject({ ...r, headers: reader.headers })
    assert.equal(asReader.statusCode, r.method === 'GET' ? 200 : 403, `${r.method} ${r.url} read-only`)
  }
  assert.equal(json<SettingView>(await get(tenant, '/3')).value, 60, 'nothing was changed')
})

test('service.get: typed values, per tenant, and caches that see writes from any instance at once', async () => {
  const a = await createTenant(t)
  const b = await createTenant(t)
  // A second instance of the module on the same bus stands for another server process.
  const other = createSettingsModule({ db: t.db, clock: t.clock, bus: t.bus }).service
  assert.equal(await other.get(a.tenantId, 'saleDateLookBackDays'), 60)
  const fee = await other.get(a.tenantId, 'defaultCancelFee')
  assert.ok(fee instanceof Decimal)
  assert.equal(fee.toFixed(2), '50.00')
  assert.deepEqual(await other.get(a.tenantId, 'quoteLifetime'), { iso: 'PT24H', milliseconds: 86_400_000 })
  assert.equal(await other.get(a.tenantId, 'booksClosedThrough'), null)

  await put(a, 'saleDateLookBackDays', { value: 85 })
  await put(a, 'defaultCancelFee', { value: 37.5 })
  await put(a, 'quoteLifetime', { value: 'PT15M' })
  assert.equal(await other.get(a.tenantId, 'saleDateLookBackDays'), 85)
  assert.equal((await other.get(a.tenantId, 'defaultCancelFee')).toFixed(2), '37.50')
  assert.equal((await other.get(a.tenantId, 'quoteLifetime')).milliseconds, 15 * 60_000)
  assert.equal(await other.get(b.tenantId, 'saleDateLookBackDays'), 60)

  await t.app.inject({ method: 'DELETE', url: `${URL}/saleDateLookBackDays`, headers: a.headers })
  assert.equal(await other.get(a.tenantId, 'saleDateLookBackDays'), 60)
})

test('operator methods: set from CLI text, list, reset; clear errors on bad input', async () => {
  const tenant = await createTenant(t)
  const { service } = createSettingsModule({ db: t.db, clock: t.clock, bus: t.bus })
  // The CLI's context: the operator's system context in the tenant.
  const jdoe = (tenantId: number) => systemContext(tenantId, 'operator:jdoe')
  const cases: Array<[string, string, unknown]> = [
    ['saleDateLookBackDays', '75', 75],
    ['defaultCancelFee', '49.99', 49.99],
    ['deductClaimsPaidFromRefund', 'TRUE', true],
    ['booksClosedThrough', '2026-01-01', '2026-01-01'],
    ['quoteLifetime', 'PT30M', 'PT30M'],
    ['distanceUnit', 'kilometers', 'KILOMETERS'],
    ['8', '12.5', 12.5],
    ['timeZone', 'America/Denver', 'America/Denver'],
  ]
  for (const [key, raw, value] of cases) {
    const view = await service.setForOperator(jdoe(tenant.tenantId), key, raw)
    assert.deepEqual(view.value, value, key)
    assert.equal(view.updatedBy, 'operator:jdoe')
  }
  const viaHttp = json<SettingView>(await get(tenant, '/saleDateLookBackDays'))
  assert.equal(viaHttp.value, 75)
  const [audit] = await auditRows(tenant, 3)
  assert.equal(audit?.actor_label, 'operator:jdoe')
  assert.equal(audit?.actor_user_id, null)

  const listed = await service.listForOperator(tenant.tenantId)
  assert.equal(listed.length, SETTINGS.length)
  assert.equal(listed.find((s) => s.key === 'quoteLifetime')?.value, 'PT30M')

  const reset = await service.resetForOperator(jdoe(tenant.tenantId), 'booksClosedThrough')
  assert.equal(reset.value, null)
  assert.equal(reset.isDefault, true)
  assert.equal((await service.setForOperator(jdoe(tenant.tenantId), 'booksClosedThrough', 'null')).value, null)

  const refusals: Array<[number, string, string, RegExp]> = [
    [tenant.tenantId, 'saleDateLookBackDays', 'abc', /saleDateLookBackDays \(integer\): 'abc' is not an integer/],
    [tenant.tenantId, 'saleDateLookBackDays', '400', /between 0 and 365/],
    [tenant.tenantId, 'defaultCancelFee', '49.999', /at most 2 decimal places/],
    [tenant.tenantId, 'distanceUnit', 'leagues', /one of MILES, KILOMETERS/],
    [tenant.tenantId, 'quoteLifetime', 'P1Y', /ISO 8601 duration/],
    [tenant.tenantId, 'noSuchSetting', '1', /Unknown setting 'noSuchSetting'. Known settings: timeZone, /],
    [987_654_321, 'saleDateLookBackDays', '75', /Tenant 987654321 does not exist/],
    [-1, 'saleDateLookBackDays', '75', /Tenant -1 does not exist/],
  ]
  for (const [tenantId, key, raw, message] of refusals) {
    await assert.rejects(
      service.setForOperator(jdoe(tenantId), key, raw),
      (err: unknown) => {
        assert.ok(err instanceof SettingsOperatorError)
        assert.match(err.message, message)
        return true
      },
      `${key} ${raw}`,
    )
  }
  await assert.rejects(service.listForOperator(987_654_321), SettingsOperatorError)
})

test('the routes are in the OpenAPI document under the Settings tag', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
  const doc = json<{
    paths: Record<
      string,
      Record<
        string,
        { tags?: string[]; responses: Record<string, unknown>; security?: unknown[]; description?: string }
      >
    >
  }>(res)
  const expected: Array<[string, string[]]> = [
    ['/api/generalsettings', ['get']],
    ['/api/generalsettings/settinggroups', ['get']],
    ['/api/generalsettings/settingtypes', ['get']],
    ['/api/generalsettings/{generalSettingId}', ['get', 'put', 'delete']],
  ]
  for (const [path, methods] of expected) {
    for (const m of methods) {
      const op = doc.paths[path]?.[m]
      assert.ok(op, `${m} ${path}`)
      assert.deepEqual(op.tags, ['Settings'])
      assert.ok(op.responses['200'] && op.responses['401'] && op.responses['403'], `${m} ${path} responses`)
      assert.match(op.description ?? '', /Requires permission `settings:(read|write)`/)
    }
  }
})
