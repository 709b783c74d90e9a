// The contracts behind a figure of a reinsurance statement (docs/reporting.md "The contracts behind a
// figure"): GET /api/reports/reinsurancecompanies/{id}/statement/lines?month=&figure=&column=
// &product=&vintage=, one line per contract whose figure in the column is not 0, in contract order,
// paged with the API's totalCount; a heading sorts the page shown. `total` is the sum over every line
// (the statement's cell). Every choice is in the URL; the same lines as CSV or XLSX.
import { Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, day } from '../format.ts'
import { Link } from '../router.tsx'
import {
  bindField,
  FilterButtons,
  ListCount,
  Money,
  MoneyCell,
  numeric,
  Outcome,
  Pager,
  SortHeads,
  sortRows,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'
import {
  COLUMN_LABELS,
  COLUMNS,
  Downloads,
  FIGURES,
  figureLabel,
  monthName,
  ReportTabs,
  type Column,
  type Figure,
  type Format,
} from './reports.tsx'

type Line = Schemas['ReinsuranceStatementLines']['items'][number]
const FILTERS = ['companyId', 'month', 'figure', 'column', 'product', 'vintage'] as const
const SIZES = ['25', '50', '100']
const TABLE: SortColumn<Line>[] = [
  { key: 'contractNumber', label: 'Contract' },
  { key: 'dealer', label: 'Dealer', value: (l) => l.dealer.dealerNumber },
  { key: 'product', label: 'Product', value: (l) => l.product.code },
  { key: 'program', label: 'Program', value: (l) => l.program.code },
  { key: 'plan', label: 'Plan', value: (l) => l.plan.code },
  { key: 'term', label: 'Term', value: (l) => l.term.months * 1e7 + l.term.miles },
  { key: 'saleDate', label: 'Sale date' },
  { key: 'vintage', label: 'Vintage' },
  { key: 'shareBps', label: 'Share', numeric: true },
  { key: 'amount', label: 'Amount', numeric: true },
]

export default function StatementLines() {
  const path = '/reports/statements/lines'
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery(path, FILTERS, SIZES, ['sort'])
  const sort = query.get('sort')
  const figure = (filters.figure || 'writtenPremium') as Figure
  const column = (filters.column || 'mtd') as Column
  const id = /^\d{1,15}$/.test(filters.companyId) ? Number(filters.companyId) : undefined
  const linesQuery = {
    month: filters.month,
    figure,
    column,
    product: filters.product || undefined,
    vintage: filters.vintage || undefined,
    pageNumber: page,
    pageSize: size,
  }
  const result = useApi(`statement-lines${key}`, async () =>
    id === undefined
      ? undefined
      : (unwrap(
          await api.GET('/api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement/lines', {
            params: { path: { reinsuranceCompanyId: id }, query: linesQuery },
          }),
        ) as Schemas['ReinsuranceStatementLines']),
  )
  const download = (format: Format) =>
    api.GET('/api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement/lines', {
      params: { path: { reinsuranceCompanyId: id ?? 0 }, query: { ...linesQuery, format: format as 'csv' | 'xlsx' } },
      parseAs: 'blob',
    })
  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const l = result.data
  const rows = sortRows(l?.items ?? [], sort, TABLE)
  const statement = `/reports/statements?companyId=${filters.companyId}&month=${filters.month}`

  return (
    <Stack data-testid="statement-lines" data-ready={l && !result.loading ? 'true' : undefined}>
      <Title order={1} size="h2">
        {figureLabel(figure)}, {column.toUpperCase()}: the contracts
      </Title>
      <ReportTabs />
      <Text size="sm">
        {l ? `${l.reinsuranceCompany.name}, ${monthName(l.month)}. ` : ''}
        <Link to={statement}>Back to the statement</Link>
      </Text>
      {id === undefined && (
        <Text size="sm">
          Open a figure from a <Link to="/reports/statements">reinsurance statement</Link>.
        </Text>
      )}
      <form onSubmit={submit} role="search" aria-label="Choose the figure" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <NativeSelect
            label="Figure"
            name="figure"
            data={FIGURES.map((f) => ({ value: f.key, label: f.label }))}
            {...field('figure')}
            value={form.figure || figure}
          />
          <NativeSelect
            label="Column"
            name="column"
            data={COLUMNS.map((c) => ({ value: c, label: `${c.toUpperCase()} (${COLUMN_LABELS[c].toLowerCase()})` }))}
            {...field('column')}
            value={form.column || column}
          />
          <TextInput label="Product code" name="product" maxLength={50} {...field('product')} />
          <TextInput label="Vintage (e.g. 2026Q3)" name="vintage" maxLength={6} {...field('vintage')} />
          <FilterButtons
            label="Show"
            clearTo={`${path}?companyId=${filters.companyId}&month=${filters.month}&figure=${figure}&column=${column}`}
          />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={['figure', 'column', 'product', 'vintage']} />
      <Group justify="space-between" align="start">
        <ListCount state={result} testId="lines-total">
          {l &&
            `${count(l.totalCount)} contract${l.totalCount === 1 ? '' : 's'}, ${l.period.from ? day(l.period.from) : 'inception'} to ${day(l.period.to)}; total `}
          {l && <Money value={l.total} />}
        </ListCount>
        {id !== undefined && (
          <Downloads
            formats={['csv', 'xlsx']}
            load={download}
            name={`reinsurance-statement-${id}-${filters.month}-${figure}-${column}`}
            what="the contracts"
          />
        )}
      </Group>
      <Text size="xs" c="dimmed">
        Each contract whose {figureLabel(figure).toLowerCase()} in the column is not 0, the ceded share; in contract
        order, a column heading sorts this page. The total is every line's (the statement's figure).
      </Text>
      <Table.ScrollContainer minWidth={1100}>
        <Table striped highlightOnHover withTableBorder aria-label="The contracts" data-testid="lines-table">
          <SortHeads columns={TABLE} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.contractId}>
                <Table.Td>
                  <Link to={`/contracts/${r.contractId}`}>{r.contractNumber}</Link>
                </Table.Td>
                <Table.Td>
                  {r.dealer.dealerNumber} · {r.dealer.name}
                </Table.Td>
                <Table.Td>{r.product.code}</Table.Td>
                <Table.Td>{r.program.code}</Table.Td>
                <Table.Td>{r.plan.code}</Table.Td>
                <Table.Td>
                  {r.term.months} mo / {count(r.term.miles)} mi
                </Table.Td>
                <Table.Td>{day(r.saleDate)}</Table.Td>
                <Table.Td>{r.vintage}</Table.Td>
                <Table.Td style={numeric}>{(r.shareBps / 100).toFixed(2)} %</Table.Td>
                <MoneyCell value={r.amount} />
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && id !== undefined && (
              <Table.Tr>
                <Table.Td colSpan={TABLE.length}>No contract: the figure is 0.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, l?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
