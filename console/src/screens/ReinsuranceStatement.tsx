// A reinsurance company's statement of a month (docs/reporting.md "Reinsurance statements"): the
// companies from GET /api/reinsurancecompanies, the statement from
// GET /api/reports/reinsurancecompanies/{id}/statement?month= (default: the last month that ended):
// the totals (a row per figure, the MTD, QTD, YTD and ITD columns, the loss ratio last), each cell
// not 0 linked to the contracts behind it (the lines screen); by product and by vintage in the column
// chosen (a row per group, a column per figure); the prior-period adjustments when there are any;
// the same statement as CSV, XLSX or PDF. Company, month and column are in the URL.
import { Group, NativeSelect, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useEffect, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, day, money, today } from '../format.ts'
import { Link, navigate, queryString, useLocation } from '../router.tsx'
import { Facts, FilterButtons, Money, MoneyCell, numeric, Outcome, Panel } from '../ui.tsx'
import {
  COLUMN_LABELS,
  COLUMNS,
  Downloads,
  FIGURES,
  lastMonth,
  monthName,
  ratioPercent,
  ReportTabs,
  type Column,
  type Figure,
  type Format,
} from './reports.tsx'

type Statement = Schemas['ReinsuranceStatement']
type Cell = Statement['totals']['mtd']

const PATH = '/reports/statements'

/** The lines screen of a figure of a column (of a product or vintage). */
export function linesPath(p: {
  companyId: number
  month: string
  figure: Figure
  column: Column
  product?: string
  vintage?: string
}) {
  return `${PATH}/lines${queryString(p)}`
}

/** A figure's amount, linked to the contracts behind it when it is not 0. */
function FigureLink({ value, label, to }: { value: number; label: string; to: string }) {
  if (value === 0) return <Money value={value} />
  return (
    <Link to={to} aria-label={`${money(value)}: ${label}, the contracts`}>
      <Money value={value} />
    </Link>
  )
}

/** The totals: a row per figure, a column per period (its dates in the heading), the loss ratio last. */
function Totals({ s }: { s: Statement }) {
  const companyId = s.reinsuranceCompany.id
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped withTableBorder aria-label="Statement totals" data-testid="statement-totals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Figure</Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th key={c} scope="col" style={numeric}>
                {c.toUpperCase()}
                <Text size="xs" c="dimmed" fw={400}>
                  {s.periods[c].from ? day(s.periods[c].from) : 'inception'} – {day(s.periods[c].to)}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {FIGURES.map((f) => (
            <Table.Tr key={f.key} data-testid={`total-${f.key}`}>
              <Table.Th scope="row">{f.label}</Table.Th>
              {COLUMNS.map((c) => (
                <Table.Td key={c} style={numeric}>
                  <FigureLink
                    value={s.totals[c][f.key]}
                    label={`${f.label}, ${c.toUpperCase()}`}
                    to={linesPath({ companyId, month: s.month, figure: f.key, column: c })}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          <Table.Tr data-testid="total-lossRatio">
            <Table.Th scope="row">Loss ratio</Table.Th>
            {COLUMNS.map((c) => (
              <Table.Td key={c} style={numeric} fw={600}>
                {ratioPercent(s.totals[c].lossRatio)}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/** By product or by vintage, in one column: a row per group, a column per figure and the loss ratio. */
function Breakdown({
  label,
  head,
  groups,
  column,
  link,
}: {
  label: string
  head: string
  groups: Array<{ key: string; name: string; cell: Cell; filter: { product?: string; vintage?: string } }>
  column: Column
  link: (figure: Figure, filter: { product?: string; vintage?: string }) => string
}) {
  return (
    <Table.ScrollContainer minWidth={1300}>
      <Table striped withTableBorder aria-label={`${label}, ${COLUMN_LABELS[column].toLowerCase()}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{head}</Table.Th>
            {FIGURES.map((f) => (
              <Table.Th key={f.key} scope="col" style={numeric} title={f.label}>
                {f.short}
              </Table.Th>
            ))}
            <Table.Th scope="col" style={numeric}>
              Loss ratio
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => (
            <Table.Tr key={g.key}>
              <Table.Th scope="row">{g.name}</Table.Th>
              {FIGURES.map((f) => (
                <Table.Td key={f.key} style={numeric}>
                  <FigureLink
                    value={g.cell[f.key]}
                    label={`${f.label}, ${column.toUpperCase()}, ${g.key}`}
                    to={link(f.key, g.filter)}
                  />
                </Table.Td>
              ))}
              <Table.Td style={numeric}>{ratioPercent(g.cell.lossRatio)}</Table.Td>
            </Table.Tr>
          ))}
          {groups.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={FIGURES.length + 2}>Nothing ceded.</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

function Adjustments({ a }: { a: NonNullable<Statement['priorPeriodAdjustments']> }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        What reached {monthName(a.period)} (frozen {dateTime(a.frozenAt)}, as of {day(a.asOf)}) after its statement was
        frozen: its inception-to-date figures now, less those it reported.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Table withTableBorder aria-label="Prior-period adjustments">
          <Table.Tbody>
            {FIGURES.map((f) => (
              <Table.Tr key={f.key}>
                <Table.Th scope="row">{f.label}</Table.Th>
                <MoneyCell value={a.figures[f.key]} />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Facts
          label="Digests"
          rows={[
            ['Period', a.period],
            ['Frozen inputs', <code key="f">{a.frozenInputDigest}</code>],
            ['Inputs now', <code key="n">{a.inputDigest}</code>],
          ]}
        />
      </SimpleGrid>
    </Stack>
  )
}

export default function ReinsuranceStatement() {
  const { query } = useLocation()
  const companies = useApi('reinsurance-companies', async () =>
    unwrap(await api.GET('/api/reinsurancecompanies', { params: { query: { limit: 1000 } } })),
  )
  // Absent from the URL: the first company, and the last month that has ended.
  const companyId = query.get('companyId') || (companies.data?.[0] ? String(companies.data[0].id) : '')
  const month = query.get('month') || lastMonth(today())
  const column = (
    (COLUMNS as readonly string[]).includes(query.get('column') ?? '') ? query.get('column') : 'mtd'
  ) as Column
  const [form, setForm] = useState({ companyId, month })
  useEffect(() => setForm({ companyId, month }), [companyId, month])
  const id = /^\d{1,15}$/.test(companyId) ? Number(companyId) : undefined
  const statement = useApi(`statement:${companyId}:${month}`, async () =>
    id === undefined
      ? undefined
      : (unwrap(
          await api.GET('/api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement', {
            params: { path: { reinsuranceCompanyId: id }, query: { month } },
          }),
        ) as Statement),
  )
  const download = (format: Format) =>
    api.GET('/api/reports/reinsurancecompanies/{reinsuranceCompanyId}/statement', {
      params: { path: { reinsuranceCompanyId: id ?? 0 }, query: { month, format: format as 'csv' | 'xlsx' | 'pdf' } },
      parseAs: 'blob',
    })
  const errors = fieldErrors(statement.problem)
  const go = (over: Record<string, string | undefined>) =>
    navigate(
      `${PATH}${queryString({ companyId: query.get('companyId'), month: query.get('month'), column: query.get('column'), ...over })}`,
    )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    go({ companyId: form.companyId, month: form.month })
  }

  return (
    <Stack data-testid="statement" data-ready={statement.data && !statement.loading ? 'true' : undefined}>
      <Title order={1} size="h2">
        Reinsurance statements
      </Title>
      <ReportTabs />
      <form onSubmit={submit} role="search" aria-label="Choose the statement" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NativeSelect
            label="Reinsurance company"
            name="companyId"
            value={form.companyId}
            onChange={(e) => setForm({ ...form, companyId: e.currentTarget.value })}
            error={companies.problem?.detail}
            data={[
              ...(companies.data ? [] : [{ value: form.companyId, label: 'Loading…' }]),
              ...(companies.data ?? []).map((c) => ({
                value: String(c.id),
                label: `${c.displayName} (${c.companyCode})`,
              })),
            ]}
          />
          <TextInput
            label="Month"
            type="month"
            name="month"
            maxLength={7}
            placeholder="YYYY-MM"
            value={form.month}
            onChange={(e) => setForm({ ...form, month: e.currentTarget.value })}
            error={errors.month}
          />
          <FilterButtons label="Show" clearTo={PATH} />
        </SimpleGrid>
      </form>
      {companies.data?.length === 0 && <Text size="sm">The tenant has no reinsurance company.</Text>}
      <Outcome problem={statement.problem} done={undefined} fields={['month']} />
      <Panel title="Statement" state={statement} testId="statement-panel">
        {(s) =>
          s === undefined ? (
            <Text size="sm">Choose a reinsurance company.</Text>
          ) : (
            <Stack gap="sm">
              <Group justify="space-between" align="start">
                <Facts
                  label="The statement"
                  rows={[
                    [
                      'Reinsurance company',
                      <Link key="c" to={`/accountholders/reinsurancecompanies/${s.reinsuranceCompany.id}`}>
                        {s.reinsuranceCompany.name}
                        {s.reinsuranceCompany.companyCode ? ` (${s.reinsuranceCompany.companyCode})` : ''}
                      </Link>,
                    ],
                    ['Month', `${monthName(s.month)} (${day(s.from)} to ${day(s.to)})`],
                    ['As of', day(s.asOf)],
                    [
                      'Contracts ceded',
                      <span key="n" data-testid="statement-contracts">
                        {count(s.contracts)}
                      </span>,
                    ],
                    ['Made', dateTime(s.generatedAt)],
                  ]}
                />
                <Downloads
                  formats={['csv', 'xlsx', 'pdf']}
                  load={download}
                  name={`reinsurance-statement-${s.reinsuranceCompany.id}-${s.month}`}
                  what="the statement"
                />
              </Group>
              <Text size="xs" c="dimmed">
                The ceded share of each contract, from the journal; each amount links to the contracts behind it.
              </Text>
              <Totals s={s} />
            </Stack>
          )
        }
      </Panel>
      {statement.data?.priorPeriodAdjustments && (
        <Panel title="Prior-period adjustments" state={statement} testId="statement-adjustments">
          {(s) => (s?.priorPeriodAdjustments ? <Adjustments a={s.priorPeriodAdjustments} /> : null)}
        </Panel>
      )}
      {statement.data && (
        <>
          <Group justify="space-between">
            <Stack gap={0}>
              <Title order={2} size="h4">
                By product and by vintage
              </Title>
              <Text size="xs" c="dimmed" data-testid="breakdown-column">
                {COLUMN_LABELS[column]}:{' '}
                {statement.data.periods[column].from ? day(statement.data.periods[column].from) : 'inception'} to{' '}
                {day(statement.data.periods[column].to)}
              </Text>
            </Stack>
            <Group gap="xs">
              <Text size="sm" id="column-label">
                Column
              </Text>
              <SegmentedControl
                aria-labelledby="column-label"
                value={column}
                onChange={(v) => go({ column: v === 'mtd' ? undefined : v })}
                data={COLUMNS.map((c) => ({ value: c, label: c.toUpperCase() }))}
              />
            </Group>
          </Group>
          <Panel title="By product" state={statement} headingLevel={3} testId="statement-by-product">
            {(s) =>
              s && (
                <Breakdown
                  label="By product"
                  head="Product"
                  column={column}
                  groups={s.byProduct.map((p) => ({
                    key: p.product.code,
                    name: `${p.product.code} · ${p.product.name}`,
                    cell: p[column],
                    filter: { product: p.product.code },
                  }))}
                  link={(figure, filter) =>
                    linesPath({ companyId: s.reinsuranceCompany.id, month: s.month, figure, column, ...filter })
                  }
                />
              )
            }
          </Panel>
          <Panel title="By vintage (quarter of sale)" state={statement} headingLevel={3} testId="statement-by-vintage">
            {(s) =>
              s && (
                <Breakdown
                  label="By vintage"
                  head="Vintage"
                  column={column}
                  groups={s.byVintage.map((v) => ({
                    key: v.vintage,
                    name: v.vintage,
                    cell: v[column],
                    filter: { vintage: v.vintage },
                  }))}
                  link={(figure, filter) =>
                    linesPath({ companyId: s.reinsuranceCompany.id, month: s.month, figure, column, ...filter })
                  }
                />
              )
            }
          </Panel>
        </>
      )}
    </Stack>
  )
}
