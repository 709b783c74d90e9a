// The API's types, generated from docs/openapi.json into test/openapi-types.ts by
// `npm run openapi:client` (a test keeps that file equal to the committed document): the console
// declares none of its own.
export type { components, operations, paths } from '../../../test/openapi-types.ts'
import type { components } from '../../../test/openapi-types.ts'

export type Schemas = components['schemas']
export type Problem = Schemas['Problem']
export type ContractSummary = Schemas['ContractSummary']
export type Contract = Schemas['Contract']
export type ContractStatus = ContractSummary['status']
