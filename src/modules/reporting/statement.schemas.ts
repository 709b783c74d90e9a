// Wire shapes of reinsurance statements, loss ratios and the reconciliation (docs/reporting.md). Money
// is JSON numbers of at most 2 decimals, summed in whole cents; loss ratios are decimal strings of 4
// places ("0.6250" = 62.50 %), null when nothing was earned.
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, IntegerId, nullable, PagedQuery } from '../../platform/http/schemas.ts'
import { FIGURES } from './statement.rules.ts'

const Money = (description: string) => Type.Number({ description })
const Day = (description: string) => Type.String({ format: 'date', description })
const Item = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() })
const Dealer = Type.Object({ id: Type.Integer(), dealerNumber: Type.String(), name: Type.String() })
const Term = Type.Object({ months: Type.Integer(), miles: Type.Integer() })
const LossRatio = nullable(
  Type.String({ description: 'claims incurred ÷ earned premium, 4 decimal places, rounded once half up.' }),
  'null when earned premium is 0.',
)
const Month = Type.String({
  maxLength: 20,
  description: 'The accounting month, YYYY-MM: begun, not in the future (422 `report_period_invalid` naming month).',
  examples: ['2026-11'],
})
const Format = Type.Optional(
  enumOf(
    ['json', 'csv', 'xlsx'] as const,
    'json (default), csv (RFC 4180) or xlsx; `Accept: text/csv` or the XLSX media type also ask for them.',
  ),
)
const StatementFormat = Type.Optional(
  enumOf(
    ['json', 'csv', 'xlsx', 'pdf'] as const,
    'json (default), csv (RFC 4180), xlsx or pdf; `Accept: text/csv`, the XLSX media type or `application/pdf` also ask for them.',
  ),
)

export const StatementParams = Type.Object({
  reinsuranceCompanyId: IntegerId('The reinsurance company (an account holder of kind REINSURANCE_COMPANY).'),
})
export const StatementQuery = Type.Object({ month: Month, format: StatementFormat }, { additionalProperties: false })

export const StatementLinesQuery = Type.Object(
  {
    month: Month,
    figure: enumOf(FIGURES, 'The figure whose contracts are listed.'),
    column: Type.Optional(enumOf(['mtd', 'qtd', 'ytd', 'itd'] as const, 'The column (default mtd).')),
    product: Type.Optional(Type.String({ maxLength: 50, description: 'A product code: its contracts only.' })),
    vintage: Type.Optional(
      Type.String({ maxLength: 6, pattern: '^[0-9]{4}[Qq][1-4]$', description: 'A quarter of sale, e.g. 2026Q3.' }),
    ),
    format: Format,
    ...PagedQuery,
  },
  { additionalProperties: false },
)

const figureProps = Object.fromEntries(FIGURES.map((f) => [f, Money(f)])) as Record<
  (typeof FIGURES)[number],
  ReturnType<typeof Money>
>
const Figures = Type.Object({ ...figureProps, lossRatio: LossRatio })
const Cells = { mtd: Figures, qtd: Figures, ytd: Figures, itd: Figures }
const Company = Type.Object({ id: Type.Integer(), companyCode: nullable(Type.String()), name: Type.String() })
const PeriodOf = Type.Object({ from: nullable(Day('First day; null: inception.')), to: Day('Last day.') })
const Header = {
  reinsuranceCompany: Company,
  month: Type.String({ description: 'YYYY-MM' }),
  from: Day('First accounting date of the month.'),
  to: Day('Last accounting date of the month.'),
  asOf: Day("The day the figures stand at: the month's last, or today for the current month (reported to date)."),
  generatedAt: DateTime('When the report was made.'),
}

const cell = (written: number, cancelled: number, earned: number, unearned: number, ceding: number, admin: number) => ({
  writtenPremium: written,
  cancellations: cancelled,
  netWrittenPremium: Math.round((written - cancelled) * 100) / 100,
  earnedPremium: earned,
  unearnedPremium: unearned,
  claimsPaid: 0,
  claimsOutstanding: 0,
  claimsIncurred: 0,
  cedingFee: ceding,
  administratorFee: admin,
  underwritingResult: Math.round((earned - ceding - admin) * 100) / 100,
  lossRatio: '0.0000',
})
// October 2026 of the scenario in docs/reporting.md (statements.test.ts on the demo tenant).
const OCTOBER = cell(915, 457.5, 54.45, 1244.82, 11.44, 4.58)
const YEAR = cell(1830, 457.5, 127.68, 1244.82, 34.32, 13.74)
const STATEMENT_EXAMPLE = {
  reinsuranceCompany: { id: 39, companyCode: 'LSRE', name: 'Lone Star Re' },
  month: '2026-10',
  from: '2026-10-01',
  to: '2026-10-31',
  asOf: '2026-10-31',
  generatedAt: '2026-11-12T18:00:00.000Z',
  contracts: 4,
  periods: {
    mtd: { from: '2026-10-01', to: '2026-10-31' },
    qtd: { from: '2026-10-01', to: '2026-10-31' },
    ytd: { from: '2026-01-01', to: '2026-10-31' },
    itd: { from: null, to: '2026-10-31' },
  },
  totals: { mtd: OCTOBER, qtd: OCTOBER, ytd: YEAR, itd: YEAR },
  byProduct: [
    {
      product: { id: 2, code: 'VSC', name: 'Vehicle Service Contract' },
      mtd: OCTOBER,
      qtd: OCTOBER,
      ytd: YEAR,
      itd: YEAR,
    },
  ],
  byVintage: [
    {
      vintage: '2026Q3',
      mtd: cell(0, 0, 38.8, 802.97, 0, 0),
      qtd: cell(0, 0, 38.8, 802.97, 0, 0),
      ytd: cell(915, 0, 112.03, 802.97, 22.88, 9.16),
      itd: cell(915, 0, 112.03, 802.97, 22.88, 9.16),
    },
    {
      vintage: '2026Q4',
      mtd: cell(915, 457.5, 15.65, 441.85, 11.44, 4.58),
      qtd: cell(915, 457.5, 15.65, 441.85, 11.44, 4.58),
      ytd: cell(915, 457.5, 15.65, 441.85, 11.44, 4.58),
      itd: cell(915, 457.5, 15.65, 441.85, 11.44, 4.58),
    },
  ],
  priorPeriodAdjustments: null,
}

export const ReinsuranceStatementSchema = Type.Object(
  {
    ...Header,
    contracts: Type.Integer({ description: 'Contracts ceded to the company (sold, of any date).' }),
    periods: Type.Object({ mtd: PeriodOf, qtd: PeriodOf, ytd: PeriodOf, itd: PeriodOf }),
    totals: Type.Object(Cells),
    byProduct: Type.Array(Type.Object({ product: Item, ...Cells })),
    byVintage: Type.Array(
      Type.Object({ vintage: Type.String({ description: 'Quarter of sale, e.g. 2026Q3.' }), ...Cells }),
    ),
    priorPeriodAdjustments: nullable(
      Type.Object({
        period: Type.String({ description: 'The latest frozen month before this one (YYYY-MM).' }),
        asOf: Day('The day its frozen figures stand at (its last day).'),
        frozenAt: DateTime('When it was frozen.'),
        frozenInputDigest: Type.String({ description: 'sha256 of its inputs when frozen.' }),
        inputDigest: Type.String({ description: 'sha256 of the same inputs now.' }),
        figures: Type.Object(figureProps, {
          description:
            'Inception-to-date figures through its last day now, less what it reported: what reached the closed months after their statement was frozen.',
        }),
      }),
      'null unless the inputs of the latest frozen statement before this month changed after it was frozen (docs/reporting.md "Month close").',
    ),
  },
  { $id: 'ReinsuranceStatement', title: 'ReinsuranceStatement', examples: [STATEMENT_EXAMPLE] },
)

export const StatementLinesSchema = Type.Object(
  {
    ...Header,
    figure: enumOf(FIGURES),
    column: enumOf(['mtd', 'qtd', 'ytd', 'itd'] as const),
    period: PeriodOf,
    product: nullable(Type.String()),
    vintage: nullable(Type.String()),
    total: Money('The sum of every line of the filter (all pages): the statement cell when unfiltered.'),
    items: Type.Array(
      Type.Object({
        contractId: Type.Integer(),
        contractNumber: Type.String(),
        dealer: Dealer,
        product: Item,
        program: Item,
        plan: Item,
        term: Term,
        saleDate: Day('Sale date.'),
        vintage: Type.String(),
        shareBps: Type.Integer({ description: 'The ceded share of the contract (terms.cession).' }),
        amount: Money("The contract's figure in the column."),
      }),
    ),
    pageNumber: Type.Integer(),
    pageSize: Type.Integer(),
    totalCount: Type.Integer(),
    totalPages: Type.Integer(),
  },
  {
    $id: 'ReinsuranceStatementLines',
    title: 'ReinsuranceStatementLines',
    examples: [
      {
        reinsuranceCompany: STATEMENT_EXAMPLE.reinsuranceCompany,
        month: '2026-11',
        from: '2026-11-01',
        to: '2026-11-30',
        asOf: '2026-11-30',
        generatedAt: '2026-12-01T12:00:00.000Z',
        figure: 'writtenPremium',
        column: 'mtd',
        period: { from: '2026-11-01', to: '2026-11-30' },
        product: 'VSC',
        vintage: '2026Q4',
        total: 457.5,
        items: [
          {
            contractId: 4,
            contractNumber: 'VSC-PLAT-U-0126-00000004',
            dealer: { id: 9, dealerNumber: '10001', name: 'Lone Star Honda' },
            product: { id: 2, code: 'VSC', name: 'Vehicle Service Contract' },
            program: { id: 13, code: 'PLAT', name: 'Platinum Exclusionary' },
            plan: { id: 19, code: 'PLAT-USED', name: 'Platinum - Used' },
            term: { months: 24, miles: 24000 },
            saleDate: '2026-11-02',
            vintage: '2026Q4',
            shareBps: 7500,
            amount: 457.5,
          },
        ],
        pageNumber: 1,
        pageSize: 100,
        totalCount: 1,
        totalPages: 1,
      },
    ],
  },
)

export const LossRatioQuerySchema = Type.Object(
  {
    groupBy: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'Comma-separated, any of dealer, dealerGroup, product, program, plan, term, vintage (default product).',
        examples: ['dealer,vintage'],
      }),
    ),
    from: Type.Optional(
      Type.String({
        maxLength: 10,
        description: 'First accounting date (default 1 January of to).',
        examples: ['2026-01-01'],
      }),
    ),
    to: Type.Optional(
      Type.String({
        maxLength: 10,
        description: 'Last accounting date, not after today (default today).',
        examples: ['2026-11-30'],
      }),
    ),
    format: Format,
    ...PagedQuery,
  },
  { additionalProperties: false },
)

export const LossRatiosSchema = Type.Object(
  {
    from: Day('First accounting date.'),
    to: Day('Last accounting date.'),
    groupBy: Type.Array(Type.String()),
    generatedAt: DateTime('When the report was made.'),
    items: Type.Array(
      Type.Object({
        group: Type.Object(
          {
            dealer: Type.Optional(Dealer),
            dealerGroup: Type.Optional(nullable(Type.Object({ id: Type.Integer(), name: Type.String() }))),
            product: Type.Optional(Item),
            program: Type.Optional(Item),
            plan: Type.Optional(Item),
            term: Type.Optional(Term),
            vintage: Type.Optional(Type.String()),
          },
          { description: 'The values of the groupBy dimensions.' },
        ),
        contracts: Type.Integer({
          description:
            'Contracts in the period: first posted in it, or holding unearned premium or an outstanding claim on the day before it began.',
        }),
        writtenPremium: Money('Reserve written in the period (gross, every risk bearer).'),
        cancellations: Money('Reserve returned by cancels in the period.'),
        netWrittenPremium: Money('writtenPremium − cancellations.'),
        earnedPremium: Money('Reserve earned in the period: the denominator.'),
        claimsPaid: Money('Claim payments posted in the period.'),
        claimsIncurred: Money('Paid plus the change in authorized-unpaid (claim expense).'),
        lossRatio: LossRatio,
      }),
    ),
    pageNumber: Type.Integer(),
    pageSize: Type.Integer(),
    totalCount: Type.Integer(),
    totalPages: Type.Integer(),
  },
  {
    $id: 'LossRatios',
    title: 'LossRatios',
    examples: [
      {
        from: '2026-01-01',
        to: '2026-11-30',
        groupBy: ['dealer', 'vintage'],
        generatedAt: '2026-12-01T12:00:00.000Z',
        items: [
          {
            group: { dealer: { id: 9, dealerNumber: '10001', name: 'Lone Star Honda' }, vintage: '2026Q3' },
            contracts: 3,
            writtenPremium: 1830,
            cancellations: 0,
            netWrittenPremium: 1830,
            earnedPremium: 243.15,
            claimsPaid: 300,
            claimsIncurred: 600,
            lossRatio: '2.4676',
          },
        ],
        pageNumber: 1,
        pageSize: 100,
        totalCount: 1,
        totalPages: 1,
      },
    ],
  },
)

export const ReconciliationQuery = Type.Object(
  {
    month: Month,
    riskBearerId: Type.Optional(IdFilter('One insurer or reinsurance company only.')),
    format: Format,
  },
  { additionalProperties: false },
)

const Check = Type.Object({
  report: enumOf(['REINSURANCE_STATEMENT', 'PREMIUM_BORDEREAU', 'CLAIMS_BORDEREAU'] as const),
  riskBearer: Type.Object({ id: Type.Integer(), code: nullable(Type.String()), name: Type.String() }),
  figure: Type.String({ description: "The report's total (the month's column of a statement)." }),
  source: Type.String({ description: 'The ledger accounts it is tied to.' }),
  reported: Money('What the report says.'),
  ledger: Money('What the journal sums to.'),
  difference: Money('reported − ledger.'),
})

export const ReconciliationSchema = Type.Object(
  {
    month: Type.String(),
    from: Day('First accounting date of the month.'),
    to: Day('Last accounting date of the month.'),
    asOf: Day('The day the figures stand at.'),
    generatedAt: DateTime('When the report was made.'),
    checks: Type.Array(Check),
    differences: Type.Array(Check, {
      description: 'The checks whose difference is not 0: empty when everything ties.',
    }),
  },
  {
    $id: 'Reconciliation',
    title: 'Reconciliation',
    examples: [
      {
        month: '2026-11',
        from: '2026-11-01',
        to: '2026-11-30',
        asOf: '2026-11-30',
        generatedAt: '2026-12-01T12:00:00.000Z',
        checks: [
          {
            report: 'REINSURANCE_STATEMENT',
            riskBearer: { id: 39, code: 'LSRE', name: 'Lone Star Re' },
            figure: 'writtenPremium',
            source: 'RESERVE lines of DISBURSEMENT_PAYABLE / UNEARNED_REVENUE, sale entries',
            reported: 915,
            ledger: 915,
            difference: 0,
          },
        ],
        differences: [],
      },
    ],
  },
)
