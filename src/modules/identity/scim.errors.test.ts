import assert from 'node:assert/strict'
import { test } from 'node:test'
import { platformErrors } from '../../platform/http/errors.ts'
import { identityErrors } from './identity.errors.ts'
import { ScimError, scimErrorBody, toScimFailure } from './scim.errors.ts'

const pick = (err: unknown) => {
  const f = toScimFailure(err)
  return { status: f.status, scimType: f.scimType, unexpected: f.unexpected }
}

test('toScimFailure: service, platform and framework errors in SCIM terms', () => {
  assert.deepEqual(pick(new ScimError(400, 'invalidFilter', 'x')), {
    status: 400,
    scimType: 'invalidFilter',
    unexpected: false,
  })
  assert.deepEqual(
    pick(
      identityErrors.create('email_address_taken', 'x', {
        errors: [{ field: 'emailAddress', code: 'taken', message: 'is taken' }],
      }),
    ),
    {
      status: 409,
      scimType: 'uniqueness',
      unexpected: false,
    },
  )
  assert.equal(
    toScimFailure(
      identityErrors.create('email_address_taken', 'x', {
        errors: [{ field: 'emailAddress', code: 'taken', message: 'is taken' }],
      }),
    ).detail,
    'userName is taken',
  )
  assert.deepEqual(pick(identityErrors.create('user_not_found', 'x')), {
    status: 404,
    scimType: undefined,
    unexpected: false,
  })
  assert.deepEqual(pick(platformErrors.create('permission_denied', 'x')), {
    status: 403,
    scimType: undefined,
    unexpected: false,
  })
  const limited = toScimFailure(platformErrors.create('rate_limited', 'x', { headers: { 'retry-after': '3' } }))
  assert.deepEqual([limited.status, limited.headers], [429, { 'retry-after': '3' }])
  assert.deepEqual(pick(Object.assign(new Error('bad'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })), {
    status: 400,
    scimType: 'invalidSyntax',
    unexpected: false,
  })
  assert.deepEqual(pick(Object.assign(new Error('big'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })), {
    status: 413,
    scimType: undefined,
    unexpected: false,
  })
  assert.deepEqual(
    pick(Object.assign(new Error('type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })),
    { status: 415, scimType: undefined, unexpected: false },
  )
  const validation = toScimFailure(
    Object.assign(new Error('v'), {
      statusCode: 400,
      validationContext: 'body',
      validation: [
        { instancePath: '/name/givenName', keyword: 'type', message: 'must be string', params: {} },
        { instancePath: '/name', keyword: 'type', message: 'must be null', params: {} },
        { instancePath: '', keyword: 'required', params: { missingProperty: 'userName' } },
      ],
    }),
  )
  assert.deepEqual(
    [validation.status, validation.scimType, validation.detail],
    [400, 'invalidValue', 'Invalid value: name.givenName must be string; userName is required'],
  )
})

test('toScimFailure: faults are 500 and say nothing of their cause', () => {
  const f = toScimFailure(new Error('relation "app_user" does not exist'))
  assert.deepEqual([f.status, f.scimType, f.unexpected], [500, undefined, true])
  assert.doesNotMatch(f.detail, /app_user/)
  assert.deepEqual(
    pick(Object.assign(new Error('x'), { code: 'FST_ERR_RESPONSE_SERIALIZATION', statusCode: 400 })).status,
    500,
  )
})

test('scimErrorBody', () => {
  assert.deepEqual(scimErrorBody({ status: 409, scimType: 'uniqueness', detail: 'd' }), {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: '409',
    scimType: 'uniqueness',
    detail: 'd',
  })
  assert.deepEqual(scimErrorBody({ status: 404, scimType: undefined, detail: 'd' }), {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: '404',
    detail: 'd',
  })
})
