// Schema errors and domain-rule errors of one value, merged into the one `errors[]` list a 400 or
// 422 carries. One precedence for every caller (each module's *.rules.ts judges what its schema
// cannot: check digits, members required by another member, decimal places):
//
//   For a field both judge, the rule's errors replace the schema's: the rule says what is wrong in
//   the domain's words ("fails the ABA check digit", not "must match pattern"). Rules leave a member
//   of the wrong JSON type to the schema, so a type error is never hidden by a rule.
//
// Order: the schema's errors in its order, a replaced field's rule errors where its first schema
// error was; then the errors of fields only the rules judge, in the rules' order. Every rule error
// is kept; a field is never listed twice from the schema once a rule judges it.
import type { FieldError } from './errors.ts'

export function mergeFieldErrors(schemaErrors: readonly FieldError[], ruleErrors: readonly FieldError[]): FieldError[] {
  if (ruleErrors.length === 0) return [...schemaErrors]
  const byField = Map.groupBy(ruleErrors, (e) => e.field)
  const merged: FieldError[] = []
  const placed = new Set<string>()
  for (const e of schemaErrors) {
    const rules = byField.get(e.field)
    if (rules === undefined) merged.push(e)
    else if (!placed.has(e.field)) {
      placed.add(e.field)
      merged.push(...rules)
    }
  }
  for (const e of ruleErrors) if (!placed.has(e.field)) merged.push(e)
  return merged
}
