// POST /api/Rates/criteria/evaluate: evaluates criteria text against facts (compiled once per text,
// cached), optionally explaining every sub-expression. Syntax and fact-type problems answer 422.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { FieldError } from '../../../platform/http/errors.ts'
import { PROBLEM_MEDIA_TYPE, problemResponse, problemResponses } from '../../../platform/http/schemas.ts'
import { CriteriaEvaluationError, type createCriteriaCache } from './criteria.evaluator.ts'
import { CriteriaSyntaxError, MAX_CRITERIA_DEPTH, MAX_CRITERIA_LENGTH } from './criteria.parser.ts'
import {
  CriteriaEvaluateBody,
  CriteriaEvaluateResultSchema,
  CriteriaExplanationSchema,
  CriteriaProblemSchema,
  MAX_FACTS,
} from './criteria.schemas.ts'
import { criteriaErrors } from './criteria.errors.ts'

export const criteriaRoutes: FastifyPluginAsyncTypebox<{ cache: ReturnType<typeof createCriteriaCache> }> = async (
  app,
  { cache },
) => {
  app.addSchema(CriteriaExplanationSchema)
  app.addSchema(CriteriaEvaluateResultSchema)
  app.addSchema(CriteriaProblemSchema)

  app.post(
    '/api/Rates/criteria/evaluate',
    {
      schema: {
        operationId: 'evaluateCriteria',
        tags: ['Rates'],
        summary: 'Evaluate eligibility criteria against facts',
        description: [
          'Parses `criteria` (the language of docs/criteria.md: comparisons, IN / NOT IN, BETWEEN, IS [NOT] NULL, AND / OR / NOT, parentheses; string, number, DATE and boolean literals) and evaluates it against `facts`.',
          'Three-valued logic: a comparison with a missing or null fact is unknown, and an unknown result is `false`. With `explain`, `explanation` gives the value of every sub-expression (skipped: not evaluated, by short circuit).',
          `Limits: ${MAX_CRITERIA_LENGTH} characters, ${MAX_CRITERIA_DEPTH} levels of nesting, ${MAX_FACTS} facts.`,
          'A syntax error answers 422 `invalid_criteria` with its position (offset, line, column) and what was expected in `errors[0]`; a fact of the wrong type for its comparison answers 422 `criteria_evaluation_failed` naming the fact.',
        ].join(' '),
        body: CriteriaEvaluateBody,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'CriteriaEvaluateResult#' }),
          ...problemResponses(),
          422: problemResponse(422, PROBLEM_MEDIA_TYPE, { $ref: 'CriteriaProblem#' }),
        },
      },
      config: { permission: 'rates:read' },
    },
    async (req) => {
      const { criteria, facts, explain } = req.body
      try {
        const compiled = cache.get(criteria)
        if (explain) return compiled.explain(facts)
        return { result: compiled.evaluate(facts) }
      } catch (err) {
        if (err instanceof CriteriaSyntaxError) {
          const error: FieldError & Record<string, unknown> = {
            field: 'criteria',
            code: 'invalid_format',
            message: err.message,
            ...err.position,
            expected: err.expected,
          }
          throw criteriaErrors.create('invalid_criteria', err.message, { errors: [error] })
        }
        if (err instanceof CriteriaEvaluationError) {
          throw criteriaErrors.create('criteria_evaluation_failed', err.message, {
            errors: [{ field: `facts.${err.fact}`, code: 'invalid_type', message: err.message }],
          })
        }
        throw err
      }
    },
  )
}
