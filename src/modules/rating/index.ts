// Rating: the criteria language (eligibility and surcharge rules) and its evaluation route. Other
// code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import { createCriteriaCache } from './criteria.evaluator.ts'
import { criteriaRoutes } from './criteria.routes.ts'

export { compileCriteria, createCriteriaCache, CriteriaEvaluationError, type CompiledCriteria, type Facts } from './criteria.evaluator.ts'
export { CriteriaSyntaxError, parseCriteria } from './criteria.parser.ts'
export { validateVin, decodeVin, type DecodedVin, type VinProblem } from './vin.rules.ts'

export function createRatingModule() {
  const cache = createCriteriaCache(1000)
  return {
    async routes(app: FastifyInstance) {
      await app.register(criteriaRoutes, { cache })
    },
  }
}
