// Sales tax over HTTP (docs/sales-tax.md): rule maintenance (settings:read / settings:write, as the
// tenant's other configuration), the calculation a dealer menu system calls before it sells
// (rates:read, the rate quote's permission), and a contract's recalculation (contracts:read).
// Handlers translate; the service decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { IntegerId, problemResponses } from '../../platform/http/schemas.ts'
import {
  ContractSalesTaxSchema,
  CreateSalesTaxRuleBody,
  SALES_TAX_RULE_EXAMPLE,
  SalesTaxCalculationBody,
  SalesTaxCalculationSchema,
  SalesTaxRuleListQuery,
  SalesTaxRuleParams,
  SalesTaxRuleSchema,
} from './sales-tax.schemas.ts'
import type { SalesTaxService } from './sales-tax.service.ts'

const TAGS = ['Sales tax']
const READ = { permission: 'settings:read' }
const WRITE = { permission: 'settings:write' }
const ruleRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'SalesTaxRule#' })
const calculationRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'SalesTaxCalculation#' })
const recalculationRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractSalesTaxRecalculation#' })
const Deleted = Type.Null({ description: 'Deleted; no body.' })
const OVERLAP =
  'No two rules of the same jurisdiction (state, county, city) and product type may be in force on the same day: 409 `sales_tax_rule_overlap` naming the other rules and their dates.'
const CHECKS =
  'rate is a fraction of at most 6 decimals between 0 and 1; effectiveTo, when given, is not before effectiveFrom; county and city are names or null (422 `sales_tax_rule_invalid` naming each field).'

export const salesTaxRoutes: FastifyPluginAsyncTypebox<{ service: SalesTaxService }> = async (app, { service }) => {
  app.addSchema(SalesTaxRuleSchema)
  app.addSchema(SalesTaxCalculationSchema)
  app.addSchema(ContractSalesTaxSchema)

  app.get(
    '/api/salestax/rules',
    {
      schema: {
        tags: TAGS,
        operationId: 'listSalesTaxRules',
        summary: "List the tenant's sales tax rules",
        description:
          'Filtered by state, productType (its rules and the rules of every product type) and asOf (the rules in force that day); ordered by state, effectiveFrom, id; bounded by limit/offset, the total in X-Total-Count.',
        querystring: SalesTaxRuleListQuery,
        response: {
          200: Type.Array(ruleRef, {
            examples: [[SALES_TAX_RULE_EXAMPLE]],
            headers: { 'X-Total-Count': Type.Integer({ description: 'Rules matching the query.' }) },
          }),
          ...problemResponses(),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const { state, productType, asOf } = req.query
      return sendList(
        reply,
        await service.list(
          authenticatedContext(req),
          {
            ...(state === undefined ? {} : { state }),
            ...(productType === undefined ? {} : { productType }),
            ...(asOf === undefined ? {} : { asOf }),
          },
          listWindow(req.query),
        ),
      )
    },
  )

  app.post(
    '/api/salestax/rules',
    {
      schema: {
        tags: TAGS,
        operationId: 'createSalesTaxRule',
        summary: 'Add a sales tax rule',
        description: `A rule of a state (no county, no city), a county of it or a city of it, for one product type or every product type (productType null). ${CHECKS} ${OVERLAP} Audited.`,
        body: CreateSalesTaxRuleBody,
        response: { 201: ruleRef, ...problemResponses(409, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const { view, version } = await service.create(authenticatedContext(req), req.body)
      setEtag(reply, version)
      reply.code(201).header('location', `/api/salestax/rules/${view.salesTaxRuleId}`)
      return view
    },
  )

  app.get(
    '/api/salestax/rules/:salesTaxRuleId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getSalesTaxRule',
        summary: 'Read a sales tax rule',
        params: SalesTaxRuleParams,
        response: { 200: ruleRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) => {
      const { view, version } = await service.get(authenticatedContext(req), req.params.salesTaxRuleId)
      setEtag(reply, version)
      return view
    },
  )

  app.patch(
    '/api/salestax/rules/:salesTaxRuleId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateSalesTaxRule',
        summary: 'Change a sales tax rule',
        description: `JSON Patch or JSON Merge Patch, as for every PATCH; every field of the rule may change (closing a rule is setting its effectiveTo). The result is validated as a whole (422), then ${CHECKS} ${OVERLAP} If-Match is honoured (412). Audited.`,
        params: SalesTaxRuleParams,
        body: PatchBody({ effectiveTo: '2026-12-31' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: ruleRef, ...problemResponses(404, 409, 412, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const { view, version } = await service.patch(
        authenticatedContext(req),
        req.params.salesTaxRuleId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(reply, version)
      return view
    },
  )

  app.delete(
    '/api/salestax/rules/:salesTaxRuleId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteSalesTaxRule',
        summary: 'Delete a sales tax rule',
        description:
          'A rule entered by mistake; a rule that no longer applies is better closed (PATCH effectiveTo), so that calculations of past dates still find it. If-Match is honoured (412). Audited.',
        params: SalesTaxRuleParams,
        response: { 204: Deleted, ...problemResponses(404, 412) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      await service.remove(authenticatedContext(req), req.params.salesTaxRuleId, expectedVersion(req))
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/api/salestax/calculations',
    {
      schema: {
        tags: TAGS,
        operationId: 'evaluateSalesTax',
        summary: 'Calculate the sales tax of a sale',
        description:
          "The rules in force on `date` (default today in the tenant's time zone) for the location and product type stack: the state's, the county's and the city's rule each apply their rate to their own base (retail price, dealer cost, or nothing), rounded half-up to the cent once per rule; within one jurisdiction a rule of the product type replaces the rule of every product type. retailPrice and dealerCost have at most 2 decimals; dealerCost is required when a rule in force taxes it (422 `sales_tax_calculation_invalid` naming the field). No rule in force: salesTax 0 and no rules. Writes nothing; permission rates:read, like the rate quote.",
        body: SalesTaxCalculationBody,
        response: { 200: calculationRef, ...problemResponses(415, 422) },
      },
      config: { permission: 'rates:read' },
    },
    async (req) => service.calculation(authenticatedContext(req), req.body),
  )

  app.get(
    '/api/contracts/:contractId/recalculatepurchasesalestax',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContractSalesTaxRecalculation',
        summary: "Recalculate a contract's sales tax with today's rules",
        description:
          "What today's rules give for the contract: its customer's address state and city at the sale (contracts keep no county, so county rules do not apply), its product type, retail price and dealer cost; beside the tax kept in its terms (terms.salesTax, null when none was kept) and the difference. Writes nothing. A contract the caller cannot see is 404 `contract_not_found`.",
        params: Type.Object({ contractId: IntegerId('The contract.') }),
        response: { 200: recalculationRef, ...problemResponses(404) },
      },
      config: { permission: 'contracts:read' },
    },
    async (req) => service.recalculateForContract(authenticatedContext(req), req.params.contractId),
  )
}
