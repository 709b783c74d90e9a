// Account-holder disbursements (docs/disbursements.md): dealer packs, agent commissions and the
// like; the rate quote reads them through forQuote.
export { ruleApplies, type SaleScope } from './disbursement.rules.ts'
export {
  createDisbursementService,
  type AppliedDisbursementRule,
  type DisbursementService,
  type QuoteHolders,
} from './disbursement.service.ts'
export { disbursementRoutes } from './disbursement.routes.ts'
