// The dashboard, from public /api routes only:
//   contracts sold and dealer cost by day and by product  GET /api/contracts (saleDateFrom, paged by limit/offset)
//   claims open by status                                  GET /api/claims?status=…&pageSize=1 (totalCount)
//   cancels in progress                                    GET /api/v2/cancelrequests?open=true
//   dealer receivables aging                               GET /api/ledgerSummary?purpose=DEALER_RECEIVABLE
//   process runs that failed                               GET /api/automatic-process-runs?status=FAILED
// Each panel shows what the API gives the signed-in user: a dealer-side user's figures are its
// dealers' only, and a panel its roles do not allow says so.
import { Badge, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { lazy, Suspense, useMemo, useState, type ComponentProps } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, daysBefore, moneyFromCents, moneyShort, today, toCents } from '../format.ts'
import { Link, navigate, queryString, useLocation } from '../router.tsx'
import { ColumnHeads, MoneyCell, numeric, Panel } from '../ui.tsx'

const RANGES = ['30', '90', '365'] as const
const OPEN_CLAIM_STATUSES = ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID'] as const
const COLORS = ['indigo.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.7', 'lime.8', 'pink.6', 'yellow.7']
const PAGE = 1000

type Sales = {
  from: string
  to: string
  days: Array<Record<string, number | string>>
  products: Array<{ code: string; contracts: number; dealerCostCents: number }>
  total: { contracts: number; dealerCostCents: number }
}

async function loadSales(from: string, to: string): Promise<Sales> {
  const rows: Schemas['ContractSummary'][] = []
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.GET('/api/contracts', {
      params: { query: { saleDateFrom: from, saleDateTo: to, limit: PAGE, offset } },
    })
    const items = unwrap(page)
    rows.push(...items)
    const total = Number(page.response.headers.get('x-total-count') ?? rows.length)
    if (items.length < PAGE || rows.length >= total) break
  }
  const byProduct = new Map<string, { contracts: number; dealerCostCents: number }>()
  const byDay = new Map<string, Map<string, { n: number; cents: number }>>()
  for (const c of rows) {
    const p = byProduct.get(c.productCode) ?? { contracts: 0, dealerCostCents: 0 }
    p.contracts += 1
    p.dealerCostCents += toCents(c.dealerCost)
    byProduct.set(c.productCode, p)
    const d = byDay.get(c.saleDate) ?? new Map<string, { n: number; cents: number }>()
    const dp = d.get(c.productCode) ?? { n: 0, cents: 0 }
    dp.n += 1
    dp.cents += toCents(c.dealerCost)
    d.set(c.productCode, dp)
    byDay.set(c.saleDate, d)
  }
  const products = [...byProduct.entries()]
    .map(([code, v]) => ({ code, ...v }))
    .toSorted((a, b) => b.dealerCostCents - a.dealerCostCents || a.code.localeCompare(b.code))
  const days: Sales['days'] = []
  for (let d = from; d <= to; d = daysBefore(d, -1)) {
    const row: Record<string, number | string> = { day: d.slice(5) }
    for (const p of products) {
      const v = byDay.get(d)?.get(p.code)
      row[`n_${p.code}`] = v?.n ?? 0
      row[`c_${p.code}`] = (v?.cents ?? 0) / 100
    }
    days.push(row)
  }
  return {
    from,
    to,
    days,
    products,
    total: {
      contracts: rows.length,
      dealerCostCents: products.reduce((s, p) => s + p.dealerCostCents, 0),
    },
  }
}

async function loadOpenClaims() {
  const counts = await Promise.all(
    OPEN_CLAIM_STATUSES.map(async (status) => {
      const page = unwrap(await api.GET('/api/claims', { params: { query: { status, pageSize: 1 } } }))
      return { status, count: page.totalCount }
    }),
  )
  return counts
}

async function loadAging() {
  return unwrap(await api.GET('/api/ledgerSummary', { params: { query: { purpose: 'DEALER_RECEIVABLE' } } }))
}

async function loadOpenCancels() {
  return unwrap(await api.GET('/api/v2/cancelrequests', { params: { query: { open: true, pageSize: 10 } } }))
}

async function loadFailedRuns() {
  return unwrap(await api.GET('/api/automatic-process-runs', { params: { query: { status: 'FAILED', pageSize: 10 } } }))
}

const Chart = lazy(() => import('./Chart.tsx'))

/** A chart once its code is loaded (a placeholder of its size until then). */
function LazyChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<Skeleton h={props.h} />}>
      <Chart {...props} />
    </Suspense>
  )
}

/** One of the sales charts: a stacked bar a day, a bar part a product (`column` of loadSales' day rows). */
function SalesChart({
  s,
  title,
  ariaLabel,
  column,
  valueFormatter,
  onDrawn,
}: {
  s: Sales
  title: string
  ariaLabel: string
  column: 'n' | 'c'
  valueFormatter?: (value: number) => string
  onDrawn: (() => void) | undefined
}) {
  return (
    <div role="img" aria-label={`${ariaLabel}, ${s.from} to ${s.to}`}>
      <Text size="sm" fw={600} mb={4} aria-hidden>
        {title}
      </Text>
      <LazyChart
        h={220}
        data={s.days}
        dataKey="day"
        stacked
        legend
        valueFormatter={valueFormatter}
        series={s.products.map((p, i) => ({
          name: `${column}_${p.code}`,
          label: p.code,
          color: COLORS[i % COLORS.length]!,
        }))}
        onDrawn={onDrawn}
      />
    </div>
  )
}

const label = (s: string) => s.charAt(0) + s.slice(1).toLowerCase().replaceAll('_', ' ')

export default function Dashboard() {
  const { query } = useLocation()
  const range = (RANGES as readonly string[]).includes(query.get('days') ?? '') ? query.get('days')! : '90'
  const to = today()
  const from = daysBefore(to, Number(range) - 1)
  const sales = useApi(`sales:${from}:${to}`, () => loadSales(from, to))
  const claims = useApi('claims', loadOpenClaims)
  const aging = useApi('aging', loadAging)
  const cancels = useApi('cancels', loadOpenCancels)
  const runs = useApi('runs', loadFailedRuns)
  // Ready (for the end-to-end test's render time): every panel answered and every chart drawn.
  const [drawn, setDrawn] = useState<ReadonlySet<string>>(new Set())
  const [onSales, onCost, onAging] = useMemo(
    () => ['sales', 'cost', 'aging'].map((id) => () => setDrawn((d) => (d.has(id) ? d : new Set(d).add(id)))),
    [],
  )
  const charts = (sales.data ? 2 : 0) + (aging.data ? 1 : 0)
  const ready = [sales, claims, aging, cancels, runs].every((s) => !s.loading) && drawn.size >= charts

  return (
    <Stack data-testid="dashboard" data-ready={ready ? 'true' : undefined}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Dashboard
        </Title>
        <Group gap="xs">
          <Text size="sm" id="range-label">
            Sales in the last
          </Text>
          <SegmentedControl
            aria-labelledby="range-label"
            value={range}
            onChange={(v) => navigate(`/${queryString({ days: v === '90' ? undefined : v })}`, { replace: true })}
            data={RANGES.map((r) => ({ value: r, label: `${r} days` }))}
          />
        </Group>
      </Group>

      <Panel title="Contracts sold and dealer cost by day" state={sales} testId="sales">
        {(s) => (
          <Stack>
            <Text size="sm">
              {count(s.total.contracts)} contracts sold from {s.from} to {s.to}, dealer cost{' '}
              <strong>{moneyFromCents(s.total.dealerCostCents)}</strong>.{' '}
              <Link to={`/contracts${queryString({ saleDateFrom: s.from, saleDateTo: s.to })}`}>List them</Link>
            </Text>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <SalesChart
                s={s}
                title="Contracts per day"
                ariaLabel="Contracts sold per day by product"
                column="n"
                onDrawn={onSales}
              />
              <SalesChart
                s={s}
                title="Dealer cost per day"
                ariaLabel="Dealer cost per day by product"
                column="c"
                valueFormatter={moneyShort}
                onDrawn={onCost}
              />
            </SimpleGrid>
            <Table striped withTableBorder aria-label="Sales by product">
              <ColumnHeads columns={['Product', { numeric: 'Contracts' }, { numeric: 'Dealer cost' }]} />
              <Table.Tbody>
                {s.products.map((p) => (
                  <Table.Tr key={p.code}>
                    <Table.Td>{p.code}</Table.Td>
                    <Table.Td style={numeric}>{count(p.contracts)}</Table.Td>
                    <Table.Td style={numeric}>{moneyFromCents(p.dealerCostCents)}</Table.Td>
                  </Table.Tr>
                ))}
                {s.products.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={3}>No contracts sold in this period.</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Stack>
        )}
      </Panel>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title="Claims open by status" state={claims} testId="claims">
          {(rows) => (
            <Table withTableBorder aria-label="Open claims by status">
              <ColumnHeads columns={['Status', { numeric: 'Claims' }]} />
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.status}>
                    <Table.Td>{label(r.status)}</Table.Td>
                    <Table.Td style={numeric}>{count(r.count)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Th scope="row">All open</Table.Th>
                  <Table.Td style={numeric} fw={700}>
                    {count(rows.reduce((s, r) => s + r.count, 0))}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          )}
        </Panel>

        <Panel title="Dealer receivables aging" state={aging} testId="aging">
          {(summary) => {
            const total = summary.receivableAging.reduce((s, b) => s + toCents(b.amount), 0)
            return (
              <Stack gap="xs">
                <Text size="sm">
                  Owed by dealers as of {summary.asOf}: <strong>{moneyFromCents(total)}</strong>
                </Text>
                <div role="img" aria-label="Dealer receivables by age in days">
                  <LazyChart
                    h={180}
                    data={summary.receivableAging.map((b) => ({ bucket: `${b.bucket} days`, amount: b.amount }))}
                    dataKey="bucket"
                    valueFormatter={moneyShort}
                    series={[{ name: 'amount', label: 'Receivable', color: 'indigo.6' }]}
                    onDrawn={onAging}
                  />
                </div>
                <Table withTableBorder aria-label="Receivables by age">
                  <Table.Tbody>
                    {summary.receivableAging.map((b) => (
                      <Table.Tr key={b.bucket}>
                        <Table.Th scope="row">{b.bucket} days</Table.Th>
                        <MoneyCell value={b.amount} />
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Stack>
            )
          }}
        </Panel>
      </SimpleGrid>

      <Panel title="Cancels in progress" state={cancels} testId="cancels">
        {(page) =>
          page.items.length === 0 ? (
            <Text size="sm">No cancel request is waiting.</Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm">
                {count(page.totalCount)} cancel {page.totalCount === 1 ? 'request waits' : 'requests wait'} for
                documents, a decision or processing{page.totalCount > page.items.length ? '; the newest:' : '.'}
              </Text>
              <Table withTableBorder aria-label="Cancel requests in progress">
                <ColumnHeads columns={['Request', 'Contract', 'Status', 'Cancel date', { numeric: 'Net refund' }]} />
                <Table.Tbody>
                  {page.items.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{r.requestNumber}</Table.Td>
                      <Table.Td>
                        <Link to={`/contracts/${r.contractId}`}>{r.contractNumber}</Link>
                      </Table.Td>
                      <Table.Td>{label(r.status)}</Table.Td>
                      <Table.Td>{r.cancelDate}</Table.Td>
                      <MoneyCell value={r.calculation.netCustomerRefund} />
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )
        }
      </Panel>

      <Panel title="Process runs that failed" state={runs} testId="runs">
        {(page) =>
          page.items.length === 0 ? (
            <Text size="sm">No automatic process run has failed.</Text>
          ) : (
            <Table withTableBorder aria-label="Failed process runs">
              <ColumnHeads columns={['Process', 'Day', 'Queued', { numeric: 'Failed items' }, 'First error']} />
              <Table.Tbody>
                {page.items.map((r) => (
                  <Table.Tr key={r.guid}>
                    <Table.Td>
                      <Badge color="red.9" variant="dot">
                        {label(r.process)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{r.slot ?? 'on demand'}</Table.Td>
                    <Table.Td>{dateTime(r.createdAt)}</Table.Td>
                    <Table.Td style={numeric}>{count(r.failed)}</Table.Td>
                    <Table.Td>{r.errors[0] ? `${r.errors[0].code}: ${r.errors[0].message}` : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
    </Stack>
  )
}
