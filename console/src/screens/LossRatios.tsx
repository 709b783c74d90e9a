// Loss ratios (docs/reporting.md "Loss ratios"): GET /api/reports/lossratios, the gross book grouped
// by the dimensions chosen, over whole months (from the first day of the first month to the last
// day of the last, or today in the current month: whole months of closed periods are what the API
// reads from its month-end sums), paged with the API's totalCount; a heading sorts the page shown
// (the API orders by the dimensions and has no sort). Every choice is in the URL. A bar chart of the
// loss ratio of the groups shown; the same query as CSV or XLSX. A refused choice (422
// report_period_invalid naming groupBy, from or to) is shown at its field.
import { Checkbox, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useEffect, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, day, dateTime, today } from '../format.ts'
import { navigate, queryString } from '../router.tsx'
import {
  FilterButtons,
  ListCount,
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
  Downloads,
  LazyChart,
  lastMonth,
  monthEnd,
  monthStart,
  ratioNumber,
  ratioPercent,
  ReportTabs,
  type Format,
} from './reports.tsx'

type Row = Schemas['LossRatios']['items'][number]
type Dimension = keyof Row['group']
type GroupOf = Row['group']

const PATH = '/reports/lossratios'
const FILTERS = ['groupBy', 'fromMonth', 'toMonth'] as const
const SIZES = ['25', '50', '100']
const DEFAULT_GROUP_BY = 'product'

/** Each dimension: its label, what a cell shows, and the short name of a chart's bar. */
const DIMENSIONS: Array<{
  key: Dimension
  label: string
  text: (g: GroupOf) => string
  short: (g: GroupOf) => string
}> = [
  {
    key: 'dealer',
    label: 'Dealer',
    text: (g) => (g.dealer ? `${g.dealer.dealerNumber} · ${g.dealer.name}` : '—'),
    short: (g) => g.dealer?.dealerNumber ?? '—',
  },
  {
    key: 'dealerGroup',
    label: 'Dealer group',
    text: (g) => g.dealerGroup?.name ?? 'no group',
    short: (g) => g.dealerGroup?.name ?? 'no group',
  },
  {
    key: 'product',
    label: 'Product',
    text: (g) => (g.product ? `${g.product.code} · ${g.product.name}` : '—'),
    short: (g) => g.product?.code ?? '—',
  },
  {
    key: 'program',
    label: 'Program',
    text: (g) => (g.program ? `${g.program.code} · ${g.program.name}` : '—'),
    short: (g) => g.program?.code ?? '—',
  },
  {
    key: 'plan',
    label: 'Plan',
    text: (g) => (g.plan ? `${g.plan.code} · ${g.plan.name}` : '—'),
    short: (g) => g.plan?.code ?? '—',
  },
  {
    key: 'term',
    label: 'Term',
    text: (g) => (g.term ? `${g.term.months} months / ${count(g.term.miles)} miles` : '—'),
    short: (g) => (g.term ? `${g.term.months}/${count(g.term.miles)}` : '—'),
  },
  { key: 'vintage', label: 'Vintage', text: (g) => g.vintage ?? '—', short: (g) => g.vintage ?? '—' },
]

const FIGURE_COLUMNS: SortColumn<Row>[] = [
  { key: 'contracts', label: 'Contracts', numeric: true },
  { key: 'writtenPremium', label: 'Written', numeric: true },
  { key: 'cancellations', label: 'Cancelled', numeric: true },
  { key: 'netWrittenPremium', label: 'Net written', numeric: true },
  { key: 'earnedPremium', label: 'Earned', numeric: true },
  { key: 'claimsPaid', label: 'Claims paid', numeric: true },
  { key: 'claimsIncurred', label: 'Claims incurred', numeric: true },
  // n/a (nothing earned) sorts below every ratio.
  { key: 'lossRatio', label: 'Loss ratio', numeric: true, value: (r) => ratioNumber(r.lossRatio) ?? -1e15 },
]

/** The API's field → the field of this form it is shown at. */
const FIELD_OF: Record<string, string> = { groupBy: 'groupBy', from: 'fromMonth', to: 'toMonth' }

export default function LossRatios() {
  const { query, filters, size, page, key, go } = useListQuery(PATH, FILTERS, SIZES, ['sort'])
  const sort = query.get('sort')
  const now = today()
  const last = lastMonth(now)
  // Absent from the URL: the API's grouping, and January of the last month's year through it.
  const chosen = {
    groupBy: filters.groupBy || DEFAULT_GROUP_BY,
    fromMonth: filters.fromMonth || `${last.slice(0, 4)}-01`,
    toMonth: filters.toMonth || last,
  }
  const [form, setForm] = useState(chosen)
  useEffect(() => setForm(chosen), [key]) // eslint-disable-line react-hooks/exhaustive-deps
  const lossQuery = {
    groupBy: chosen.groupBy,
    from: monthStart(chosen.fromMonth),
    to: monthEnd(chosen.toMonth, now),
    pageNumber: page,
    pageSize: size,
  }
  const result = useApi(
    `loss-ratios${key}`,
    async () =>
      // JSON (the route also answers CSV and XLSX, hence the union of its typed replies).
      unwrap(await api.GET('/api/reports/lossratios', { params: { query: lossQuery } })) as Schemas['LossRatios'],
  )
  const download = (format: Format) =>
    api.GET('/api/reports/lossratios', {
      params: { query: { ...lossQuery, format: format as 'csv' | 'xlsx' } },
      parseAs: 'blob',
    })

  const apiErrors = fieldErrors(result.problem)
  const errors: Record<string, string> = {}
  for (const [field, message] of Object.entries(apiErrors)) if (FIELD_OF[field]) errors[FIELD_OF[field]] ??= message
  const dims = (result.data?.groupBy ?? chosen.groupBy.split(','))
    .map((d) => DIMENSIONS.find((x) => x.key === d))
    .filter((d) => d !== undefined)
  const columns: SortColumn<Row>[] = [
    ...dims.map((d) => ({ key: d.key, label: d.label, value: (r: Row) => d.text(r.group) })),
    ...FIGURE_COLUMNS,
  ]
  const rows = sortRows(result.data?.items ?? [], sort, columns)
  const total = result.data?.totalCount ?? 0
  const bars = rows
    .filter((r) => r.lossRatio !== null)
    .map((r) => ({ group: dims.map((d) => d.short(r.group)).join(' · '), lossRatio: ratioNumber(r.lossRatio)! }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    navigate(
      `${PATH}${queryString({
        groupBy: form.groupBy,
        fromMonth: form.fromMonth,
        toMonth: form.toMonth,
        size: size === 25 ? undefined : size,
        sort,
      })}`,
    )
  }

  return (
    <Stack data-testid="loss-ratios" data-ready={result.loading ? undefined : 'true'}>
      <Title order={1} size="h2">
        Loss ratios
      </Title>
      <ReportTabs />
      <form onSubmit={submit} role="search" aria-label="Choose the loss ratios" noValidate>
        <Stack gap="sm">
          <Checkbox.Group
            label="Group by"
            description="One or more; the API's order is by these, in this order"
            value={form.groupBy.split(',').filter((d) => d !== '')}
            onChange={(v) =>
              setForm({
                ...form,
                groupBy: DIMENSIONS.filter((d) => v.includes(d.key))
                  .map((d) => d.key)
                  .join(','),
              })
            }
            error={errors.groupBy}
          >
            <Group mt={4}>
              {DIMENSIONS.map((d) => (
                <Checkbox key={d.key} value={d.key} label={d.label} />
              ))}
            </Group>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="From month"
              type="month"
              name="fromMonth"
              maxLength={7}
              placeholder="YYYY-MM"
              value={form.fromMonth}
              onChange={(e) => setForm({ ...form, fromMonth: e.currentTarget.value })}
              error={errors.fromMonth}
            />
            <TextInput
              label="To month"
              type="month"
              name="toMonth"
              maxLength={7}
              placeholder="YYYY-MM"
              value={form.toMonth}
              onChange={(e) => setForm({ ...form, toMonth: e.currentTarget.value })}
              error={errors.toMonth}
            />
            <FilterButtons label="Show" clearTo={PATH} />
          </SimpleGrid>
        </Stack>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={Object.keys(FIELD_OF)} />
      <Group justify="space-between" align="start">
        <ListCount state={result} testId="loss-ratios-total">
          {result.data &&
            `${count(total)} group${total === 1 ? '' : 's'}, ${day(result.data.from)} to ${day(result.data.to)}; made ${dateTime(result.data.generatedAt)}`}
        </ListCount>
        {!result.problem && (
          <Downloads formats={['csv', 'xlsx']} load={download} name="loss-ratios" what="the loss ratios" />
        )}
      </Group>
      <Text size="xs" c="dimmed">
        The gross book (every contract with a reserve, whoever bears it): figures of the reserve over the months chosen;
        loss ratio = claims incurred ÷ earned premium, n/a when nothing was earned. Ordered by the groups; a column
        heading sorts this page.
      </Text>
      {bars.length > 0 && (
        <div role="img" aria-label={`Loss ratio of the ${bars.length} groups on this page, in percent`}>
          <Text size="sm" fw={600} mb={4} aria-hidden>
            Loss ratio (%) of the groups on this page
          </Text>
          <LazyChart
            h={Math.max(140, bars.length * 26 + 50)}
            data={bars}
            dataKey="group"
            horizontal
            valueFormatter={(v) => `${v.toFixed(2)} %`}
            series={[{ name: 'lossRatio', label: 'Loss ratio', color: 'indigo.6' }]}
          />
        </div>
      )}
      <Table.ScrollContainer minWidth={1100}>
        <Table striped highlightOnHover withTableBorder aria-label="Loss ratios" data-testid="loss-ratios-table">
          <SortHeads columns={columns} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={JSON.stringify(r.group)} data-testid="loss-ratio-row">
                {dims.map((d) => (
                  <Table.Td key={d.key}>{d.text(r.group)}</Table.Td>
                ))}
                <Table.Td style={numeric}>{count(r.contracts)}</Table.Td>
                <MoneyCell value={r.writtenPremium} />
                <MoneyCell value={r.cancellations} />
                <MoneyCell value={r.netWrittenPremium} />
                <MoneyCell value={r.earnedPremium} />
                <MoneyCell value={r.claimsPaid} />
                <MoneyCell value={r.claimsIncurred} />
                <Table.Td style={numeric}>{ratioPercent(r.lossRatio)}</Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>No contract moved in these months.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
