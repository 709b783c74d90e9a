// Resolved from this folder, openapi-typescript finds the TypeScript 5 installed beside it, not the
// project's TypeScript 7 (which has no compiler API for it to call).
export { default, astToString } from 'openapi-typescript'
