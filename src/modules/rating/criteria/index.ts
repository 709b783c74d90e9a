// The criteria language (docs/criteria.md): parser, compiler to closures, and the evaluation route.
// The rest of rating reaches it only through this file.
export {
  compileCriteria,
  createCriteriaCache,
  CriteriaEvaluationError,
  type CompiledCriteria,
  type Explanation,
  type FactValue,
  type Facts,
} from './criteria.evaluator.ts'
export { CriteriaSyntaxError, parseCriteria, type CriteriaNode, type Operand } from './criteria.parser.ts'
export { criteriaRoutes } from './criteria.routes.ts'
