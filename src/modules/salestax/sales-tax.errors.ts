import { defineErrors } from '../../platform/http/errors.ts'

// A rule that would overlap another of its jurisdiction and product type is a conflict with what is
// stored (409, naming both periods); input the rules cannot take (a rate of more than 6 decimals, a
// period that ends before it starts, a county or city name of nothing) is a 422 naming the field.
export const salesTaxErrors = defineErrors({
  sales_tax_rule_not_found: { status: 404, title: 'Sales tax rule not found' },
  sales_tax_rule_invalid: { status: 422, title: 'The sales tax rule cannot be taken as submitted' },
  sales_tax_rule_overlap: {
    status: 409,
    title: 'Another rule of the jurisdiction and product type is in force on some of these dates',
  },
  sales_tax_calculation_invalid: { status: 422, title: 'The sales tax cannot be calculated as asked' },
})
