// Sales tax (issue 15, docs/sales-tax.md): the tenant's effective-dated rules per jurisdiction and
// product type, the pure computation of the tax they give (sales-tax.rules.ts), the calculation a
// dealer menu system calls, and a contract's recalculation. Contracts are reached only through the
// narrow port src/modules.ts passes. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import { salesTaxRoutes } from './sales-tax.routes.ts'
import { createSalesTaxService, type SalesTaxDeps } from './sales-tax.service.ts'

export type { SalesTaxContractsPort, SalesTaxService } from './sales-tax.service.ts'
export {
  computeSalesTax,
  rulesInForce,
  type Collector,
  type TaxableBase,
  type TaxLine,
  type TaxRule,
} from './sales-tax.rules.ts'

export function createSalesTaxModule(deps: SalesTaxDeps) {
  const service = createSalesTaxService(deps)
  return {
    service,
    async routes(app: FastifyInstance) {
      await app.register(salesTaxRoutes, { service })
    },
  }
}

export type SalesTaxModule = ReturnType<typeof createSalesTaxModule>
