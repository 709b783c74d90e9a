// TypeBox schemas of POST /api/Rates/criteria/evaluate: criteria text and facts in; the result and,
// on request, the value of every sub-expression out; the 422 problem with the syntax error's position.
import { Type, type Static } from 'typebox'
import { MAX_CRITERIA_LENGTH } from './criteria.parser.ts'

export const MAX_FACTS = 200

const FactValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()], {
  description:
    "A fact's value: string, number, boolean, or null (unknown). Dates are strings 'YYYY-MM-DD', compared as dates with DATE literals.",
})

export const CriteriaEvaluateBody = Type.Object(
  {
    criteria: Type.String({
      minLength: 1,
      maxLength: MAX_CRITERIA_LENGTH,
      description: 'Criteria text in the language of docs/criteria.md.',
    }),
    facts: Type.Record(Type.String({ maxLength: 100 }), FactValue, {
      maxProperties: MAX_FACTS,
      description: `Named facts (at most ${MAX_FACTS}); a fact that is absent counts as null.`,
    }),
    explain: Type.Optional(
      Type.Boolean({ default: false, description: 'true: also return the value of every sub-expression.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        criteria: "vehicleAge <= 10 AND odometer < 125000 AND make NOT IN ('TESLA', 'FERRARI') AND condition = 'USED'",
        facts: { vehicleAge: 4, odometer: 48000, make: 'TOYOTA', condition: 'USED' },
        explain: true,
      },
    ],
  },
)
export type CriteriaEvaluateRequest = Static<typeof CriteriaEvaluateBody>

/** Recursive: each node is one sub-expression with its value and, for AND / OR / NOT, its operands. */
export const CriteriaExplanationSchema = {
  $id: 'CriteriaExplanation',
  type: 'object',
  description:
    'One sub-expression: its text, its value (true, false, or null for unknown), and its operands. skipped: not evaluated (short circuit).',
  required: ['text', 'value'],
  properties: {
    text: { type: 'string' },
    value: { type: ['boolean', 'null'] },
    skipped: { type: 'boolean' },
    children: { type: 'array', items: { $ref: 'CriteriaExplanation#' } },
  },
} as const

export const CriteriaEvaluateResultSchema = Type.Object(
  {
    result: Type.Boolean({
      description: 'true when the criteria hold; a criteria whose value is unknown (null facts) is false.',
    }),
    explanation: Type.Optional(Type.Unsafe<Record<string, unknown>>({ $ref: 'CriteriaExplanation#' })),
  },
  {
    $id: 'CriteriaEvaluateResult',
    examples: [
      {
        result: false,
        explanation: {
          text: "vehicleAge <= 10 AND make NOT IN ('TESLA')",
          value: false,
          children: [
            { text: 'vehicleAge <= 10', value: true },
            { text: "make NOT IN ('TESLA')", value: false },
          ],
        },
      },
    ],
  },
)

/** The 422 problem: errors[0] carries the position of a syntax error and what was expected. */
export const CriteriaProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    code: Type.String({
      description: 'invalid_criteria (syntax) or criteria_evaluation_failed (a fact of the wrong type).',
    }),
    requestId: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: '`criteria`, or `facts.<name>` for a fact of the wrong type.' }),
          code: Type.String(),
          message: Type.String(),
          offset: Type.Optional(Type.Integer({ description: 'Syntax errors: 0-based offset in the criteria.' })),
          line: Type.Optional(Type.Integer({ description: 'Syntax errors: 1-based line.' })),
          column: Type.Optional(Type.Integer({ description: 'Syntax errors: 1-based column.' })),
          expected: Type.Optional(Type.String({ description: 'Syntax errors: what the parser expected there.' })),
        }),
      ),
    ),
  },
  {
    $id: 'CriteriaProblem',
    additionalProperties: true,
    examples: [
      {
        type: 'urn:problem-type:vpp:invalid_criteria',
        title: 'The criteria are not valid',
        status: 422,
        detail: "expected a value after '<=' at 1:15",
        instance: '/api/Rates/criteria/evaluate',
        code: 'invalid_criteria',
        requestId: 'req-1',
        errors: [
          {
            field: 'criteria',
            code: 'invalid_format',
            message: "expected a value after '<=' at 1:15",
            offset: 14,
            line: 1,
            column: 15,
            expected: 'a value',
          },
        ],
      },
    ],
  },
)
