// Report runs (docs/reporting.md "Report runs"): every report of a kind for a closed month, as a job.
// The runs, newest first (GET /api/reports/runs, filtered by kind, period and status, paged by
// limit/offset with X-Total-Count; a heading sorts the page shown), and a run started
// (POST /api/reports/runs: 201 with the run QUEUED, or 200 with the run of the same kind, month and
// risk bearers; its page shows its progress). A month that is not closed is the API's 422 naming
// `period`, shown at the Month field.
import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, today } from '../format.ts'
import { Link, navigate } from '../router.tsx'
import {
  bindField,
  FilterButtons,
  ListCount,
  Outcome,
  Pager,
  SortHeads,
  sortRows,
  useAction,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'
import { words } from './finance.tsx'
import { lastMonth, monthName, ReportTabs } from './reports.tsx'

type Run = Schemas['ReportRun']
export type ReportKind = Run['kind']
type RunStatus = Run['status']
export const KINDS: ReportKind[] = ['REINSURANCE_STATEMENT', 'PREMIUM_BORDEREAU', 'CLAIMS_BORDEREAU']
const STATUSES: RunStatus[] = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']
export const REPORT_RUN_COLORS: Record<string, string> = {
  QUEUED: 'gray.8',
  RUNNING: 'blue.9',
  SUCCEEDED: 'green.9',
  FAILED: 'red.9',
}
/** "REINSURANCE_STATEMENT" as "Reinsurance statements". */
export const kindLabel = (kind: string) => {
  const w = words(kind)
  return `${w.charAt(0).toUpperCase()}${w.slice(1)}s`
}
const FILTERS = ['kind', 'period', 'status'] as const
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Run>[] = [
  { key: 'id', label: 'Run', numeric: true },
  { key: 'kind', label: 'Reports' },
  { key: 'period', label: 'Month' },
  { key: 'status', label: 'Status' },
  { key: 'progress', label: 'Progress', value: (r) => (r.progress.total ? r.progress.done / r.progress.total : 1) },
  { key: 'createdBy', label: 'Started by' },
  { key: 'createdAt', label: 'Queued' },
  { key: 'finishedAt', label: 'Finished' },
]

function StartForm() {
  const [form, setForm] = useState({ kind: 'REINSURANCE_STATEMENT', period: lastMonth(today()) })
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const res = await api.POST('/api/reports/runs', { body: { kind: form.kind as ReportKind, period: form.period } })
      const run = unwrap(res)
      navigate(`/reports/runs/${run.id}`)
      return res.response.status === 201 ? `Run ${run.id} queued.` : `The same run exists: run ${run.id}.`
    })
  }
  return (
    <form onSubmit={submit} aria-label="Start a report run" noValidate>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Start a run
        </Title>
        <Text size="xs" c="dimmed">
          Every report of the kind for a closed month (its last day on or before the books' closing date), for every
          reinsurance company (statements) or insurer (bordereaux); a report already frozen is reused.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NativeSelect
            label="Reports"
            name="kind"
            data={KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
            {...field('kind')}
          />
          <TextInput
            label="Month"
            type="month"
            name="period"
            maxLength={7}
            placeholder="YYYY-MM"
            {...field('period')}
          />
          <Group align="end">
            <Button type="submit" loading={a.busy}>
              Start the run
            </Button>
          </Group>
        </SimpleGrid>
        <Outcome problem={a.problem} done={a.done} fields={['kind', 'period']} />
      </Stack>
    </form>
  )
}

/** A run's progress: done of total risk bearers. */
export function RunProgress({ run }: { run: Run }) {
  const { done, total } = run.progress
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress
        w={90}
        value={total ? (100 * done) / total : 100}
        color={REPORT_RUN_COLORS[run.status] ?? 'gray.8'}
        aria-label={`Run ${run.id}: ${done} of ${total} done`}
      />
      <Text size="sm">
        {count(done)} / {count(total)}
      </Text>
    </Group>
  )
}

export default function ReportRuns() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/reports/runs', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')
  const result = useApi(`report-runs${key}`, async () => {
    const res = await api.GET('/api/reports/runs', {
      params: {
        query: {
          kind: (filters.kind || undefined) as ReportKind | undefined,
          period: filters.period || undefined,
          status: (filters.status || undefined) as RunStatus | undefined,
          limit: size,
          offset: (page - 1) * size,
        },
      },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })
  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.rows ?? [], sort, COLUMNS)
  const total = result.data?.total ?? 0

  return (
    <Stack>
      <Title order={1} size="h2">
        Report runs
      </Title>
      <ReportTabs />
      <StartForm />
      <Title order={2} size="h4">
        Runs
      </Title>
      <form onSubmit={submit} role="search" aria-label="Filter report runs" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <NativeSelect
            label="Kind"
            name="kind"
            data={[{ value: '', label: 'Any' }, ...KINDS.map((k) => ({ value: k, label: kindLabel(k) }))]}
            {...field('kind')}
          />
          <TextInput label="Of the month" type="month" name="periodFilter" maxLength={7} {...field('period')} />
          <NativeSelect
            label="Status"
            name="status"
            data={[{ value: '', label: 'Any' }, ...STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))]}
            {...field('status')}
          />
          <FilterButtons label="Filter" clearTo="/reports/runs" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={result} testId="report-runs-total">
          {`${count(total)} run${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          Newest first; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="Report runs" data-testid="report-runs-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td style={{ textAlign: 'right' }}>
                  <Link to={`/reports/runs/${r.id}`}>Run {r.id}</Link>
                </Table.Td>
                <Table.Td>{kindLabel(r.kind)}</Table.Td>
                <Table.Td>{monthName(r.period)}</Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={REPORT_RUN_COLORS[r.status] ?? 'gray.8'}>
                    {r.status.toLowerCase()}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <RunProgress run={r} />
                </Table.Td>
                <Table.Td>{r.createdBy}</Table.Td>
                <Table.Td>{dateTime(r.createdAt)}</Table.Td>
                <Table.Td>{dateTime(r.finishedAt)}</Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>No run matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, Math.ceil(total / size))} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
