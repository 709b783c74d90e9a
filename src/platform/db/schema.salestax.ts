// Kysely table types of the sales tax tables (migrations/2026_11_26_0029_sales_tax.ts, docs/sales-tax.md).
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
/** date, as 'YYYY-MM-DD'. */
type DateColumn = ColumnType<string, string, string>

export interface SalesTaxRuleTable {
  tenant_id: number
  id: Generated<number>
  state: string
  county: string | null
  city: string | null
  /** One of the rating module's PRODUCT_TYPES; null: every product type. */
  product_type: string | null
  /** numeric(8, 6), read and written as a decimal string: a fraction (0.0625). */
  rate: ColumnType<string, string, string>
  taxable_base: 'RETAIL_PRICE' | 'DEALER_COST' | 'NONE'
  collected_by: 'DEALER' | 'ADMINISTRATOR'
  effective_from: DateColumn
  /** The last day in force, inclusive; null: open-ended. */
  effective_to: DateColumn | null
  version: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type SalesTaxTables = { sales_tax_rule: SalesTaxRuleTable }
