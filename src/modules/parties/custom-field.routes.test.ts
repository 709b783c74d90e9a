// Custom fields through HTTP: add → list → read → patch (both formats) → delete on agents, dealer
// groups and dealers; value rules per type; per-tenant definitions (allowed values, max length,
// required, type); duplicates; 404 for unknown, other-tenant and wrong-kind ids; 403; audit.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

type Field = {
  id: number
  name: string
  type: string
  value: unknown
  label?: string
  createdAt: string
  updatedAt: string
  version: number
}
type Definition = {
  id: number
  appliesTo: string
  name: string
  label: string
  type: string
  required: boolean
  allowedValues: string[] | null
  maxLength: number | null
  version: number
}
type Problem = {
  status: number
  code: string
  errors?: Array<{ field: string; code: string; message: string }>
  conflictingFields?: Array<{ accountHolderId: number; fieldId: number; member: string }>
}

let t: TestApp
let seq = 0

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
})
after(() => t.close())

const PARENTS = [
  { kind: 'AGENT', path: '/api/agents', body: () => ({ agentCode: `AG-${++seq}`, legalName: 'Acme Agency LLC' }) },
  {
    kind: 'DEALER_GROUP',
    path: '/api/dealergroups',
    body: () => ({ groupCode: `GRP-${++seq}`, legalName: 'Lone Star Automotive Group, Inc.' }),
  },
  {
    kind: 'DEALER',
    path: '/api/dealers',
    body: () => ({ dealerNumber: `D-${++seq}`, legalName: 'Main Street Motors LLC' }),
  },
] as const
type Parent = (typeof PARENTS)[number]
const DEALER = PARENTS[2]
const DEFINITIONS = '/api/customfielddefinitions'

const request = (
  tenant: TestTenant | Record<string, string>,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...('headers' in tenant ? (tenant.headers as Record<string, string>) : tenant), ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
const patch = (
  tenant: TestTenant | Record<string, string>,
  url: string,
  payload: unknown,
  contentType = 'application/merge-patch+json',
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: {
      ...('headers' in tenant ? (tenant.headers as Record<string, string>) : tenant),
      'content-type': contentType,
      ...headers,
    },
    payload: JSON.stringify(payload),
  })

async function holder(tenant: TestTenant, parent: Parent): Promise<number> {
  const res = await request(tenant, 'POST', parent.path, parent.body())
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

async function addField(tenant: TestTenant, url: string, body: Record<string, unknown>): Promise<Field> {
  const res = await request(tenant, 'POST', url, body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Field>(res)
}

async function define(tenant: TestTenant, body: Record<string, unknown>): Promise<Definition> {
  const res = await request(tenant, 'POST', DEFINITIONS, body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Definition>(res)
}

function assertProblem(
  res: { statusCode: number; body: string },
  status: number,
  code: string,
  fields?: Array<[string, string]>,
) {
  assert.equal(res.statusCode, status, res.body)
  const p = JSON.parse(res.body) as Problem
  assert.equal(p.code, code, res.body)
  if (fields)
    assert.deepEqual(
      (p.errors ?? []).map((e) => [e.field, e.code]),
      fields,
      res.body,
    )
}

async function auditActions(tenant: TestTenant, entityType: string, entityId: number) {
  const rows = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('tenant_id', '=', tenant.tenantId)
      .where('entity_type', '=', entityType)
      .where('entity_id', '=', String(entityId))
      .orderBy('id')
      .execute(),
  )
  return rows
}

describe('add → list → read → patch (both formats) → delete, on each parent kind', () => {
  for (const parent of PARENTS) {
    test(parent.path, async () => {
      const tenant = await createTenant(t)
      const id = await holder(tenant, parent)
      const base = `${parent.path}/${id}/customfields`
      const at = t.clock.now()

      const empty = await request(tenant, 'GET', base)
      assert.equal(empty.statusCode, 200, empty.body)
      assert.deepEqual(json(empty), [])
      assert.equal(empty.headers['x-total-count'], '0')
      assert.equal(empty.headers['x-missing-required-fields'], undefined)

      const created = await request(tenant, 'POST', base, { name: 'dmsProvider', type: 'STRING', value: 'CDK' })
      assert.equal(created.statusCode, 201, created.body)
      const field = json<Field>(created)
      assert.equal(created.headers.location, `${base}/${field.id}`)
      assert.equal(created.headers.etag, '"1"')
      assert.deepEqual(field, {
        id: field.id,
        name: 'dmsProvider',
        type: 'STRING',
        value: 'CDK',
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
        version: 1,
      })

      const others = [
        await addField(tenant, base, { name: 'employees', type: 'INTEGER', value: 42 }),
        await addField(tenant, base, { name: 'creditLimit', type: 'DECIMAL', value: 25000.5 }),
        await addField(tenant, base, { name: 'signedOn', type: 'DATE', value: '2024-02-29' }),
        await addField(tenant, base, { name: 'preferred', type: 'BOOLEAN', value: false }),
      ]
      assert.deepEqual(
        others.map((f) => f.value),
        [42, 25000.5, '2024-02-29', false],
      )

      const listed = await request(tenant, 'GET', base)
      assert.equal(listed.statusCode, 200)
      assert.equal(listed.headers['x-total-count'], '5')
      assert.deepEqual(
        json<Field[]>(listed).map((f) => f.id),
        [field.id, ...others.map((f) => f.id)],
      )
      const page = await request(tenant, 'GET', `${base}?limit=2&offset=1`)
      assert.equal(page.headers['x-total-count'], '5')
      assert.deepEqual(
        json<Field[]>(page).map((f) => f.name),
        ['employees', 'creditLimit'],
      )
      const byName = await request(tenant, 'GET', `${base}?name=CREDITLIMIT`)
      assert.deepEqual(
        json<Field[]>(byName).map((f) => f.name),
        ['creditLimit'],
      )
      assert.equal(byName.headers['x-total-count'], '1')
      assertProblem(await request(tenant, 'GET', `${base}?limit=0`), 400, 'validation_failed')

      const read = await request(tenant, 'GET', `${base}/${field.id}`)
      assert.equal(read.statusCode, 200)
      assert.equal(read.headers.etag, '"1"')
      assert.deepEqual(json(read), field)

      t.clock.advance(60_000)
      const merged = await patch(tenant, `${base}/${field.id}`, { value: 'Reynolds' })
      assert.equal(merged.statusCode, 200, merged.body)
      assert.equal(merged.headers.etag, '"2"')
      assert.deepEqual(json(merged), {
        ...field,
        value: 'Reynolds',
        updatedAt: new Date(at.getTime() + 60_000).toISOString(),
        version: 2,
      })

      const jsonPatched = await patch(
        tenant,
        `${base}/${field.id}`,
        [
          { op: 'test', path: '/value', value: 'Reynolds' },
          { op: 'replace', path: '/value', value: 'Dealertrack' },
        ],
        'application/json-patch+json',
      )
      assert.equal(jsonPatched.statusCode, 200, jsonPatched.body)
      assert.equal(json<Field>(jsonPatched).value, 'Dealertrack')
      assert.equal(json<Field>(jsonPatched).version, 3)

      // Plain application/json is a merge patch; If-Match must name the current version.
      assertProblem(
        await patch(tenant, `${base}/${field.id}`, { value: 'Stale' }, 'application/json', { 'if-match': '"2"' }),
        412,
        'precondition_failed',
      )
      const plain = await patch(tenant, `${base}/${field.id}`, { value: 'Tekion' }, 'application/json', {
        'if-match': '"3"',
      })
      assert.equal(plain.statusCode, 200, plain.body)
      assert.equal(json<Field>(plain).version, 4)

      const intPatched = await patch(
        tenant,
        `${base}/${others[0]!.id}`,
        [{ op: 'replace', path: '/value', value: 43 }],
        'application/json-patch+json',
      )
      assert.equal(json<Field>(intPatched).value, 43)

      assertProblem(
        await request(tenant, 'DELETE', `${base}/${field.id}`, undefined, { 'if-match': '"1"' }),
        412,
        'precondition_failed',
      )
      const deleted = await request(tenant, 'DELETE', `${base}/${field.id}`, undefined, { 'if-match': '"4"' })
      assert.equal(deleted.statusCode, 204, deleted.body)
      assert.equal(deleted.body, '')
      assertProblem(await request(tenant, 'GET', `${base}/${field.id}`), 404, 'custom_field_not_found')
      assertProblem(await request(tenant, 'DELETE', `${base}/${field.id}`), 404, 'custom_field_not_found')
      assert.equal((await request(tenant, 'GET', base)).headers['x-total-count'], '4')

      const audit = await auditActions(tenant, 'custom_field', field.id)
      assert.deepEqual(
        audit.map((a) => a.action),
        [
          'custom_field.created',
          'custom_field.updated',
          'custom_field.updated',
          'custom_field.updated',
          'custom_field.deleted',
        ],
      )
      const firstUpdate = audit[1]!.changes as { accountHolderId: number; kind: string; before: Field; after: Field }
      assert.equal(firstUpdate.accountHolderId, id)
      assert.equal(firstUpdate.kind, parent.kind)
      assert.equal(firstUpdate.before.value, 'CDK')
      assert.equal(firstUpdate.after.value, 'Reynolds')
    })
  }
})

test('values are validated per type (422 naming value) and the body by its schema (400)', async () => {
  const tenant = await createTenant(t)
  const base = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
  const refused: Array<[string, unknown, string]> = [
    ['STRING', '', 'too_short'],
    ['STRING', 'x'.repeat(1001), 'too_long'],
    ['STRING', 'bell\u0007', 'invalid_format'],
    ['STRING', 5, 'invalid_type'],
    ['INTEGER', 1.5, 'invalid_type'],
    ['INTEGER', '7', 'invalid_type'],
    ['INTEGER', 2 ** 60, 'out_of_range'],
    ['DECIMAL', 10.005, 'too_precise'],
    ['DECIMAL', 1e13, 'out_of_range'],
    ['DECIMAL', true, 'invalid_type'],
    ['DATE', '2026-02-30', 'invalid_format'],
    ['DATE', '06/01/2026', 'invalid_format'],
    ['BOOLEAN', 'yes', 'invalid_type'],
  ]
  let n = 0
  for (const [type, value, code] of refused) {
    const res = await request(tenant, 'POST', base, { name: `f${++n}`, type, value })
    assertProblem(res, 422, 'invalid_custom_field_value', [['value', code]])
  }
  assertProblem(
    await request(tenant, 'POST', base, { name: 'choice', type: 'LIST', value: 'A' }),
    422,
    'invalid_custom_field_value',
    [['type', 'definition_required']],
  )
  // A NUL no column can store is refused by the platform, for every route, before these rules.
  assertProblem(
    await request(tenant, 'POST', base, { name: 'nul', type: 'STRING', value: 'nul\u0000' }),
    400,
    'validation_failed',
    [['value', 'invalid_value']],
  )
  const accepted: Array<[string, unknown]> = [
    ['STRING', 'x'.repeat(1000)],
    ['INTEGER', -12],
    ['DECIMAL', 0.1],
    ['DECIMAL', -999999999999.99],
    ['DATE', '1999-12-31'],
    ['BOOLEAN', true],
  ]
  for (const [type, value] of accepted) {
    const res = await request(tenant, 'POST', base, { name: `ok${++n}`, type, value })
    assert.equal(res.statusCode, 201, `${type} ${JSON.stringify(value)}: ${res.body}`)
    assert.deepEqual(json<Field>(res).value, value)
  }
  for (const [body, field] of [
    [{ type: 'STRING', value: 'x' }, 'name'],
    [{ name: 'x', value: 'x' }, 'type'],
    [{ name: 'x', type: 'STRING' }, 'value'],
    [{ name: 'x', type: 'TEXT', value: 'x' }, 'type'],
    [{ name: ' padded', type: 'STRING', value: 'x' }, 'name'],
    [{ name: 'a,b', type: 'STRING', value: 'x' }, 'name'],
    [{ name: 'x', type: 'STRING', value: { nested: true } }, 'value'],
    [{ name: 'x', type: 'STRING', value: null }, 'value'],
    [{ name: 'x', type: 'STRING', value: 'x', label: 'no' }, 'label'],
  ] as Array<[Record<string, unknown>, string]>) {
    const res = await request(tenant, 'POST', base, body)
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`)
    assert.ok(
      json<Problem>(res).errors?.some((e) => e.field === field),
      `${JSON.stringify(body)} names ${field}: ${res.body}`,
    )
  }
  // Nothing refused was stored.
  assert.equal((await request(tenant, 'GET', base)).headers['x-total-count'], String(accepted.length))
})

test('PATCH changes only the value, and validates the result', async () => {
  const tenant = await createTenant(t)
  const base = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
  const field = await addField(tenant, base, { name: 'employees', type: 'INTEGER', value: 10 })
  const url = `${base}/${field.id}`
  assertProblem(await patch(tenant, url, { name: 'staff' }), 422, 'immutable_field', [['name', 'immutable']])
  assertProblem(await patch(tenant, url, { type: 'STRING', value: 'ten' }), 422, 'immutable_field', [
    ['type', 'immutable'],
  ])
  assertProblem(
    await patch(
      tenant,
      url,
      [
        { op: 'replace', path: '/id', value: 1 },
        { op: 'replace', path: '/version', value: 9 },
      ],
      'application/json-patch+json',
    ),
    422,
    'immutable_field',
    [
      ['id', 'immutable'],
      ['version', 'immutable'],
    ],
  )
  assertProblem(await patch(tenant, url, { label: 'Head count' }), 422, 'immutable_field', [['label', 'immutable']])
  assertProblem(await patch(tenant, url, { value: null }), 422, 'patched_resource_invalid', [['value', 'required']])
  assertProblem(await patch(tenant, url, { colour: 'red' }), 422, 'patched_resource_invalid', [
    ['colour', 'unknown_field'],
  ])
  assertProblem(await patch(tenant, url, { value: 'ten' }), 422, 'invalid_custom_field_value', [
    ['value', 'invalid_type'],
  ])
  assertProblem(await patch(tenant, url, { value: 10.5 }), 422, 'invalid_custom_field_value', [
    ['value', 'invalid_type'],
  ])
  assertProblem(
    await patch(tenant, url, [{ op: 'replace', path: '/nothing/here', value: 1 }], 'application/json-patch+json'),
    422,
    'invalid_patch',
  )
  assertProblem(
    await patch(
      tenant,
      url,
      [
        { op: 'test', path: '/value', value: 11 },
        { op: 'replace', path: '/value', value: 12 },
      ],
      'application/json-patch+json',
    ),
    422,
    'invalid_patch',
  )
  const read = json<Field>(await request(tenant, 'GET', url))
  assert.equal(read.value, 10)
  assert.equal(read.version, 1)
})

test('names are unique per account holder, ignoring case (409)', async () => {
  const tenant = await createTenant(t)
  const a = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
  const b = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
  await addField(tenant, a, { name: 'Region Code', type: 'STRING', value: 'W1' })
  for (const name of ['Region Code', 'region code', 'REGION CODE']) {
    assertProblem(
      await request(tenant, 'POST', a, { name, type: 'INTEGER', value: 1 }),
      409,
      'custom_field_name_taken',
      [['name', 'taken']],
    )
  }
  await addField(tenant, b, { name: 'region code', type: 'STRING', value: 'E2' })
  assert.equal((await request(tenant, 'GET', a)).headers['x-total-count'], '1')
})

describe('definitions', () => {
  test('create → list → read → patch (both formats) → delete, audited', async () => {
    const tenant = await createTenant(t)
    const created = await request(tenant, 'POST', DEFINITIONS, {
      appliesTo: 'DEALER',
      name: 'region',
      label: 'Sales region',
      type: 'LIST',
      allowedValues: ['East', 'West'],
    })
    assert.equal(created.statusCode, 201, created.body)
    const def = json<Definition>(created)
    assert.equal(created.headers.location, `${DEFINITIONS}/${def.id}`)
    assert.equal(created.headers.etag, '"1"')
    assert.deepEqual(
      { ...def, id: 0 },
      {
        id: 0,
        appliesTo: 'DEALER',
        name: 'region',
        label: 'Sales region',
        type: 'LIST',
        required: false,
        allowedValues: ['East', 'West'],
        maxLength: null,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
        version: 1,
      },
    )
    const tier = await define(tenant, {
      appliesTo: 'AGENT',
      name: 'tier',
      type: 'STRING',
      maxLength: 10,
      required: true,
    })
    assert.equal(tier.label, 'tier')
    await define(tenant, { appliesTo: 'DEALER_GROUP', name: 'region', type: 'STRING' })

    const all = await request(tenant, 'GET', DEFINITIONS)
    assert.equal(all.headers['x-total-count'], '3')
    assert.deepEqual(
      json<Definition[]>(all).map((d) => d.id),
      [def.id, tier.id, def.id + 2],
    )
    assert.deepEqual(
      json<Definition[]>(await request(tenant, 'GET', `${DEFINITIONS}?appliesTo=AGENT`)).map((d) => d.id),
      [tier.id],
    )
    assert.deepEqual(
      json<Definition[]>(await request(tenant, 'GET', `${DEFINITIONS}?name=REGION&appliesTo=DEALER`)).map((d) => d.id),
      [def.id],
    )
    const paged = await request(tenant, 'GET', `${DEFINITIONS}?limit=1&offset=1`)
    assert.deepEqual(
      json<Definition[]>(paged).map((d) => d.id),
      [tier.id],
    )
    assert.equal(paged.headers['x-total-count'], '3')
    assertProblem(await request(tenant, 'GET', `${DEFINITIONS}?appliesTo=CUSTOMER`), 400, 'validation_failed')

    const read = await request(tenant, 'GET', `${DEFINITIONS}/${def.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, '"1"')
    assert.deepEqual(json(read), def)

    const merged = await patch(tenant, `${DEFINITIONS}/${def.id}`, { label: 'Region', required: true })
    assert.equal(merged.statusCode, 200, merged.body)
    assert.equal(json<Definition>(merged).label, 'Region')
    assert.equal(json<Definition>(merged).required, true)
    assert.equal(json<Definition>(merged).version, 2)
    const jsonPatched = await patch(
      tenant,
      `${DEFINITIONS}/${def.id}`,
      [{ op: 'add', path: '/allowedValues/-', value: 'Central' }],
      'application/json-patch+json',
      { 'if-match': '"2"' },
    )
    assert.equal(jsonPatched.statusCode, 200, jsonPatched.body)
    assert.deepEqual(json<Definition>(jsonPatched).allowedValues, ['East', 'West', 'Central'])
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { label: 'x' }, 'application/json', { 'if-match': '"2"' }),
      412,
      'precondition_failed',
    )
    // maxLength can be dropped with a merge patch null; it can only be set on STRING.
    const dropped = await patch(tenant, `${DEFINITIONS}/${tier.id}`, { maxLength: null })
    assert.equal(json<Definition>(dropped).maxLength, null)

    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { name: 'area', type: 'STRING', appliesTo: 'AGENT' }),
      422,
      'immutable_field',
      [
        ['appliesTo', 'immutable'],
        ['name', 'immutable'],
        ['type', 'immutable'],
      ],
    )
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { allowedValues: null }),
      422,
      'invalid_custom_field_definition',
      [['allowedValues', 'required']],
    )
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { maxLength: 10 }),
      422,
      'invalid_custom_field_definition',
      [['maxLength', 'not_allowed']],
    )
    assertProblem(await patch(tenant, `${DEFINITIONS}/${def.id}`, { label: '' }), 422, 'patched_resource_invalid', [
      ['label', 'invalid_value'],
    ])
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { allowedValues: ['A', 'A'] }),
      422,
      'patched_resource_invalid',
    )

    assertProblem(
      await request(tenant, 'DELETE', `${DEFINITIONS}/${tier.id}`, undefined, { 'if-match': '"1"' }),
      412,
      'precondition_failed',
    )
    const deleted = await request(tenant, 'DELETE', `${DEFINITIONS}/${tier.id}`, undefined, { 'if-match': '"2"' })
    assert.equal(deleted.statusCode, 204, deleted.body)
    assertProblem(await request(tenant, 'GET', `${DEFINITIONS}/${tier.id}`), 404, 'custom_field_definition_not_found')
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${tier.id}`, { label: 'x' }),
      404,
      'custom_field_definition_not_found',
    )

    assert.deepEqual(
      (await auditActions(tenant, 'custom_field_definition', def.id)).map((a) => a.action),
      ['custom_field_definition.created', 'custom_field_definition.updated', 'custom_field_definition.updated'],
    )
    assert.deepEqual(
      (await auditActions(tenant, 'custom_field_definition', tier.id)).map((a) => a.action),
      ['custom_field_definition.created', 'custom_field_definition.updated', 'custom_field_definition.deleted'],
    )
  })

  test('bad definitions: 400 by schema, 422 when incoherent, 409 on a duplicate name', async () => {
    const tenant = await createTenant(t)
    await define(tenant, { appliesTo: 'DEALER', name: 'Region', type: 'LIST', allowedValues: ['East'] })
    assertProblem(
      await request(tenant, 'POST', DEFINITIONS, { appliesTo: 'DEALER', name: 'REGION', type: 'STRING' }),
      409,
      'custom_field_definition_name_taken',
      [['name', 'taken']],
    )
    await define(tenant, { appliesTo: 'AGENT', name: 'region', type: 'STRING' })
    assertProblem(
      await request(tenant, 'POST', DEFINITIONS, { appliesTo: 'DEALER', name: 'area', type: 'LIST' }),
      422,
      'invalid_custom_field_definition',
      [['allowedValues', 'required']],
    )
    assertProblem(
      await request(tenant, 'POST', DEFINITIONS, {
        appliesTo: 'DEALER',
        name: 'area',
        type: 'INTEGER',
        allowedValues: ['1'],
        maxLength: 3,
      }),
      422,
      'invalid_custom_field_definition',
      [
        ['allowedValues', 'not_allowed'],
        ['maxLength', 'not_allowed'],
      ],
    )
    for (const body of [
      { appliesTo: 'CUSTOMER', name: 'x', type: 'STRING' },
      { appliesTo: 'DEALER', name: 'x', type: 'STRING', maxLength: 1001 },
      { appliesTo: 'DEALER', name: 'x', type: 'STRING', maxLength: 0 },
      { appliesTo: 'DEALER', name: 'x', type: 'LIST', allowedValues: ['A', 'A'] },
      { appliesTo: 'DEALER', name: 'x', type: 'LIST', allowedValues: [] },
      { appliesTo: 'DEALER', name: 'x', type: 'STRING', colour: 'red' },
      { appliesTo: 'DEALER', type: 'STRING' },
    ]) {
      assertProblem(await request(tenant, 'POST', DEFINITIONS, body), 400, 'validation_failed')
    }
    assert.equal((await request(tenant, 'GET', DEFINITIONS)).headers['x-total-count'], '2')
  })

  test('a definition governs fields of its name on its kind: type, allowed values, max length, spelling, label', async () => {
    const tenant = await createTenant(t)
    const dealer = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
    const agent = `/api/agents/${await holder(tenant, PARENTS[0])}/customfields`
    await define(tenant, {
      appliesTo: 'DEALER',
      name: 'region',
      label: 'Sales region',
      type: 'LIST',
      allowedValues: ['East', 'West'],
    })
    await define(tenant, { appliesTo: 'DEALER', name: 'dmsCode', type: 'STRING', maxLength: 5 })

    assertProblem(
      await request(tenant, 'POST', dealer, { name: 'region', type: 'LIST', value: 'North' }),
      422,
      'invalid_custom_field_value',
      [['value', 'not_allowed']],
    )
    assertProblem(
      await request(tenant, 'POST', dealer, { name: 'region', type: 'LIST', value: 'west' }),
      422,
      'invalid_custom_field_value',
      [['value', 'not_allowed']],
    )
    assertProblem(
      await request(tenant, 'POST', dealer, { name: 'Region', type: 'STRING', value: 'West' }),
      422,
      'invalid_custom_field_value',
      [['type', 'mismatch']],
    )
    assertProblem(
      await request(tenant, 'POST', dealer, { name: 'dmsCode', type: 'STRING', value: 'ABCDEF' }),
      422,
      'invalid_custom_field_value',
      [['value', 'too_long']],
    )

    const region = await addField(tenant, dealer, { name: 'REGION', type: 'LIST', value: 'West' })
    assert.equal(region.name, 'region', "takes the definition's spelling")
    assert.equal(region.label, 'Sales region')
    const dms = await addField(tenant, dealer, { name: 'dmscode', type: 'STRING', value: 'ABCDE' })
    assert.equal(dms.label, 'dmsCode')

    assertProblem(
      await patch(tenant, `${dealer}/${region.id}`, { value: 'North' }),
      422,
      'invalid_custom_field_value',
      [['value', 'not_allowed']],
    )
    assert.equal(json<Field>(await patch(tenant, `${dealer}/${region.id}`, { value: 'East' })).value, 'East')

    // Definitions apply to their kind only: an agent's field of the same name is free.
    const free = await addField(tenant, agent, { name: 'region', type: 'STRING', value: 'North by northwest' })
    assert.equal(free.label, undefined)
    assert.equal('label' in free, false)
  })

  test('existing fields must satisfy a new or changed definition (409), and LIST fields keep theirs', async () => {
    const tenant = await createTenant(t)
    const dealerId = await holder(tenant, DEALER)
    const dealer = `${DEALER.path}/${dealerId}/customfields`
    const tier = await addField(tenant, dealer, { name: 'tier', type: 'STRING', value: 'Platinum' })
    await addField(tenant, `/api/agents/${await holder(tenant, PARENTS[0])}/customfields`, {
      name: 'tier',
      type: 'INTEGER',
      value: 3,
    })

    const tooShort = await request(tenant, 'POST', DEFINITIONS, {
      appliesTo: 'DEALER',
      name: 'Tier',
      type: 'STRING',
      maxLength: 5,
    })
    assertProblem(tooShort, 409, 'custom_field_definition_conflict', [['maxLength', 'conflict']])
    assert.deepEqual(json<Problem>(tooShort).conflictingFields, [
      { accountHolderId: dealerId, fieldId: tier.id, member: 'maxLength' },
    ])
    assertProblem(
      await request(tenant, 'POST', DEFINITIONS, { appliesTo: 'DEALER', name: 'tier', type: 'INTEGER' }),
      409,
      'custom_field_definition_conflict',
      [['type', 'conflict']],
    )
    assertProblem(
      await request(tenant, 'POST', DEFINITIONS, {
        appliesTo: 'DEALER',
        name: 'tier',
        type: 'LIST',
        allowedValues: ['Gold'],
      }),
      409,
      'custom_field_definition_conflict',
      [['type', 'conflict']],
    )

    const def = await define(tenant, { appliesTo: 'DEALER', name: 'tier', type: 'STRING', maxLength: 8 })
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${def.id}`, { maxLength: 7 }),
      409,
      'custom_field_definition_conflict',
      [['maxLength', 'conflict']],
    )
    assert.equal(json<Definition>(await request(tenant, 'GET', `${DEFINITIONS}/${def.id}`)).maxLength, 8)

    const list = await define(tenant, {
      appliesTo: 'DEALER',
      name: 'region',
      type: 'LIST',
      allowedValues: ['East', 'West'],
    })
    const region = await addField(tenant, dealer, { name: 'region', type: 'LIST', value: 'West' })
    assertProblem(
      await patch(tenant, `${DEFINITIONS}/${list.id}`, { allowedValues: ['East'] }),
      409,
      'custom_field_definition_conflict',
      [['allowedValues', 'conflict']],
    )
    assert.equal(
      (await patch(tenant, `${DEFINITIONS}/${list.id}`, { allowedValues: ['West', 'Central'] })).statusCode,
      200,
    )
    assertProblem(
      await request(tenant, 'DELETE', `${DEFINITIONS}/${list.id}`),
      409,
      'custom_field_definition_conflict',
      [['type', 'conflict']],
    )
    assert.equal((await request(tenant, 'DELETE', `${dealer}/${region.id}`)).statusCode, 204)
    assert.equal((await request(tenant, 'DELETE', `${DEFINITIONS}/${list.id}`)).statusCode, 204)

    // Without its definition a STRING field follows the type's own rules again.
    assert.equal((await request(tenant, 'DELETE', `${DEFINITIONS}/${def.id}`)).statusCode, 204)
    assert.equal(
      json<Field>(await patch(tenant, `${dealer}/${tier.id}`, { value: 'Platinum Plus Elite' })).value,
      'Platinum Plus Elite',
    )
  })

  test('required: the field cannot be deleted, and lists report holders that lack it', async () => {
    const tenant = await createTenant(t)
    const dealer = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
    const group = `/api/dealergroups/${await holder(tenant, PARENTS[1])}/customfields`
    const territory = await define(tenant, { appliesTo: 'DEALER', name: 'territory', type: 'STRING', required: true })
    await define(tenant, { appliesTo: 'DEALER', name: 'Area Code', type: 'INTEGER', required: true })
    await define(tenant, { appliesTo: 'DEALER', name: 'optional', type: 'BOOLEAN' })

    assert.equal((await request(tenant, 'GET', dealer)).headers['x-missing-required-fields'], 'Area Code, territory')
    assert.equal((await request(tenant, 'GET', group)).headers['x-missing-required-fields'], undefined)
    const field = await addField(tenant, dealer, { name: 'Territory', type: 'STRING', value: 'North Texas' })
    assert.equal((await request(tenant, 'GET', dealer)).headers['x-missing-required-fields'], 'Area Code')
    await addField(tenant, dealer, { name: 'area code', type: 'INTEGER', value: 512 })
    const complete = await request(tenant, 'GET', dealer)
    assert.equal(complete.headers['x-missing-required-fields'], undefined)
    assert.equal(complete.headers['x-total-count'], '2')

    assertProblem(await request(tenant, 'DELETE', `${dealer}/${field.id}`), 409, 'custom_field_required')
    assert.equal(
      json<Field>(await patch(tenant, `${dealer}/${field.id}`, { value: 'South Texas' })).value,
      'South Texas',
    )
    assert.equal((await patch(tenant, `${DEFINITIONS}/${territory.id}`, { required: false })).statusCode, 200)
    assert.equal((await request(tenant, 'DELETE', `${dealer}/${field.id}`)).statusCode, 204)
  })
})

test('unknown, other-tenant and wrong-kind ids → 404 on every route', async () => {
  const tenant = await createTenant(t)
  const other = await createTenant(t)
  const ids = {
    AGENT: await holder(tenant, PARENTS[0]),
    DEALER_GROUP: await holder(tenant, PARENTS[1]),
    DEALER: await holder(tenant, PARENTS[2]),
  }
  const fields = {
    AGENT: await addField(tenant, `/api/agents/${ids.AGENT}/customfields`, { name: 'x', type: 'STRING', value: 'a' }),
    DEALER_GROUP: await addField(tenant, `/api/dealergroups/${ids.DEALER_GROUP}/customfields`, {
      name: 'x',
      type: 'STRING',
      value: 'g',
    }),
    DEALER: await addField(tenant, `${DEALER.path}/${ids.DEALER}/customfields`, {
      name: 'x',
      type: 'STRING',
      value: 'd',
    }),
  }
  const def = await define(tenant, { appliesTo: 'DEALER', name: 'other', type: 'STRING' })
  const secondDealer = await holder(tenant, DEALER)

  const routes = (base: string, fieldId: number | string, headers: Record<string, string> = tenant.headers) => [
    () => request(headers, 'GET', base),
    () => request(headers, 'POST', base, { name: 'y', type: 'STRING', value: 'v' }),
    () => request(headers, 'GET', `${base}/${fieldId}`),
    () => patch(headers, `${base}/${fieldId}`, { value: 'v' }),
    () => request(headers, 'DELETE', `${base}/${fieldId}`),
  ]

  for (const parent of PARENTS) {
    const field = fields[parent.kind]
    const own = `${parent.path}/${ids[parent.kind]}/customfields`
    // Another tenant: its own credentials see nothing of ours.
    for (const call of routes(own, field.id, other.headers))
      assertProblem(await call(), 404, 'account_holder_not_found')
    // Unknown and unstorable parent ids.
    for (const bad of [987654321, '99999999999999999999']) {
      for (const call of routes(`${parent.path}/${bad}/customfields`, field.id))
        assertProblem(await call(), 404, 'account_holder_not_found')
    }
    // Wrong kind: a valid id of another kind under this path.
    for (const [kind, id] of Object.entries(ids)) {
      if (kind === parent.kind) continue
      for (const call of routes(`${parent.path}/${id}/customfields`, field.id))
        assertProblem(await call(), 404, 'account_holder_not_found')
    }
    // The right parent, but a field that is not its own (unknown, too large, of another parent).
    for (const fieldId of [
      987654321,
      '99999999999999999999',
      fields[parent.kind === 'DEALER' ? 'AGENT' : 'DEALER'].id,
    ]) {
      for (const call of routes(own, fieldId).slice(2)) assertProblem(await call(), 404, 'custom_field_not_found')
    }
  }
  // A field of one dealer through another dealer of the same tenant.
  for (const call of routes(`${DEALER.path}/${secondDealer}/customfields`, fields.DEALER.id).slice(2))
    assertProblem(await call(), 404, 'custom_field_not_found')
  // The field survived every attempt.
  assert.equal(
    json<Field>(await request(tenant, 'GET', `${DEALER.path}/${ids.DEALER}/customfields/${fields.DEALER.id}`)).value,
    'd',
  )

  // Definitions of another tenant, unknown or unstorable ids.
  for (const [headers, id] of [
    [other.headers, def.id],
    [tenant.headers, 987654321],
    [tenant.headers, '99999999999999999999'],
  ] as const) {
    assertProblem(await request(headers, 'GET', `${DEFINITIONS}/${id}`), 404, 'custom_field_definition_not_found')
    assertProblem(
      await patch(headers, `${DEFINITIONS}/${id}`, { label: 'x' }),
      404,
      'custom_field_definition_not_found',
    )
    assertProblem(await request(headers, 'DELETE', `${DEFINITIONS}/${id}`), 404, 'custom_field_definition_not_found')
  }
  assert.deepEqual(json(await request(other.headers, 'GET', DEFINITIONS)), [])
  // Another tenant's definition of the same name does not govern this one's fields.
  await define(other, { appliesTo: 'DEALER', name: 'x', type: 'INTEGER' })
  assert.equal(
    json<Field>(
      await patch(tenant, `${DEALER.path}/${ids.DEALER}/customfields/${fields.DEALER.id}`, { value: 'still text' }),
    ).value,
    'still text',
  )
})

test('a read-only user may read but not write (403), and nothing changes', async () => {
  const tenant = await createTenant(t)
  const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
  const base = `${DEALER.path}/${await holder(tenant, DEALER)}/customfields`
  const field = await addField(tenant, base, { name: 'x', type: 'STRING', value: 'v' })
  const def = await define(tenant, { appliesTo: 'DEALER', name: 'y', type: 'STRING' })

  assert.equal((await request(reader.headers, 'GET', base)).statusCode, 200)
  assert.equal((await request(reader.headers, 'GET', `${base}/${field.id}`)).statusCode, 200)
  assert.equal((await request(reader.headers, 'GET', DEFINITIONS)).statusCode, 200)
  assert.equal((await request(reader.headers, 'GET', `${DEFINITIONS}/${def.id}`)).statusCode, 200)

  for (const res of [
    await request(reader.headers, 'POST', base, { name: 'z', type: 'STRING', value: 'v' }),
    await patch(reader.headers, `${base}/${field.id}`, { value: 'w' }),
    await request(reader.headers, 'DELETE', `${base}/${field.id}`),
    await request(reader.headers, 'POST', DEFINITIONS, { appliesTo: 'DEALER', name: 'z', type: 'STRING' }),
    await patch(reader.headers, `${DEFINITIONS}/${def.id}`, { label: 'w' }),
    await request(reader.headers, 'DELETE', `${DEFINITIONS}/${def.id}`),
  ])
    assertProblem(res, 403, 'permission_denied')

  assert.equal(json<Field>(await request(tenant, 'GET', `${base}/${field.id}`)).version, 1)
  assert.equal((await request(tenant, 'GET', DEFINITIONS)).headers['x-total-count'], '1')
})

test('a dealer-side user reaches the fields of its own dealers only', async () => {
  const tenant = await createTenant(t)
  const mine = await holder(tenant, DEALER)
  const theirs = await holder(tenant, DEALER)
  const agent = await holder(tenant, PARENTS[0])
  const mineField = await addField(tenant, `${DEALER.path}/${mine}/customfields`, {
    name: 'x',
    type: 'STRING',
    value: 'mine',
  })
  const theirField = await addField(tenant, `${DEALER.path}/${theirs}/customfields`, {
    name: 'x',
    type: 'STRING',
    value: 'theirs',
  })
  await addField(tenant, `/api/agents/${agent}/customfields`, { name: 'x', type: 'STRING', value: 'agent' })
  const groupId = await t.db.transaction(tenant.tenantId, async (tx) => {
    const group = await tx
      .insertInto('membership_group')
      .values({ tenant_id: tenant.tenantId, code: 'PORTAL-CF', name: 'Portal', description: '', kind: 'DEALER' })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('membership_group_account_holder')
      .values({ tenant_id: tenant.tenantId, group_id: group.id, account_holder_id: mine })
      .execute()
    return group.id
  })
  const dealerUser = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [{ id: groupId }] })

  assert.deepEqual(
    json<Field[]>(await request(dealerUser.headers, 'GET', `${DEALER.path}/${mine}/customfields`)).map((f) => f.id),
    [mineField.id],
  )
  assert.equal(
    json<Field>(await request(dealerUser.headers, 'GET', `${DEALER.path}/${mine}/customfields/${mineField.id}`)).value,
    'mine',
  )
  assertProblem(
    await request(dealerUser.headers, 'GET', `${DEALER.path}/${theirs}/customfields`),
    404,
    'account_holder_not_found',
  )
  assertProblem(
    await request(dealerUser.headers, 'GET', `${DEALER.path}/${theirs}/customfields/${theirField.id}`),
    404,
    'account_holder_not_found',
  )
  // The agent is not one of its dealer's agents, so it is invisible too.
  assertProblem(
    await request(dealerUser.headers, 'GET', `/api/agents/${agent}/customfields`),
    404,
    'account_holder_not_found',
  )
})
