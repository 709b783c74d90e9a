// Automatic process runs (docs/processes.md): the runs, newest first (GET /api/automatic-process-runs,
// filtered by process, status and days created, paged with the API's totalCount; a heading sorts the
// page shown), and a run started on demand (POST /api/automatic-process-runs with the process's
// parameters: 202, the run QUEUED; its page shows its progress). A parameter the API refuses is shown
// at its field (`parameters.month`…).
import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime } from '../format.ts'
import { Link, navigate } from '../router.tsx'
import {
  ListCount,
  bindField,
  FilterButtons,
  Outcome,
  Pager,
  useAction,
  useListQuery,
  SortHeads,
  sortRows,
  type SortColumn,
} from '../ui.tsx'
import { words } from './finance.tsx'

type Run = Schemas['AutomaticProcessRun']
export type ProcessName = Run['process']
type RunStatus = Run['status']
export const PROCESSES: ProcessName[] = [
  'ACTIVATION',
  'EXPIRY',
  'VOID',
  'EARNINGS',
  'GAP_AUTO_CANCEL',
  'CLAIMS_DENIAL',
  'MONTHLY_STATEMENTS',
]
const STATUSES: RunStatus[] = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED']
export const RUN_COLORS: Record<string, string> = {
  QUEUED: 'gray.8',
  RUNNING: 'blue.9',
  SUCCEEDED: 'green.9',
  FAILED: 'red.9',
  CANCELLED: 'orange.9',
}
const FILTERS = ['process', 'status', 'from', 'to'] as const
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Run>[] = [
  { key: 'process', label: 'Process' },
  { key: 'status', label: 'Status' },
  { key: 'slot', label: 'Slot' },
  { key: 'startedBy', label: 'Started by' },
  { key: 'createdAt', label: 'Queued' },
  { key: 'examined', label: 'Examined', numeric: true },
  { key: 'changed', label: 'Changed', numeric: true },
  { key: 'failed', label: 'Failed', numeric: true },
  { key: 'durationMs', label: 'Took', numeric: true },
]

export const took = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`)

/** Starts a run of `process` with `parameters`; the run's page opens. */
export async function startRun(process: ProcessName, parameters: Record<string, unknown>) {
  const r = unwrap(await api.POST('/api/automatic-process-runs', { body: { process, parameters } }))
  navigate(`/processes/${r.guid}`)
  return `Run ${r.guid} queued.`
}

function StartForm() {
  const [form, setForm] = useState({ process: 'EARNINGS', batchSize: '', asOf: '', month: '', format: 'PDF' })
  const a = useAction()
  // `parameters.month` is shown at the Month field.
  const errors = Object.fromEntries(
    Object.entries(fieldErrors(a.problem)).map(([k, v]) => [k.replace(/^parameters\./, ''), v]),
  )
  const field = bindField(form, setForm, errors)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(() => {
      const parameters: Record<string, unknown> = {}
      if (form.batchSize) parameters.batchSize = /^\d+$/.test(form.batchSize) ? Number(form.batchSize) : form.batchSize
      if (form.process === 'EARNINGS' && form.asOf) parameters.asOf = form.asOf
      if (form.process === 'MONTHLY_STATEMENTS') {
        if (form.month) parameters.month = form.month
        parameters.format = form.format
      }
      return startRun(form.process as ProcessName, parameters)
    })
  }
  const shown = ['process', 'batchSize', 'asOf', 'month', 'format']
  return (
    <form onSubmit={submit} aria-label="Start a run" noValidate>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Start a run
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <NativeSelect
            label="Process"
            name="process"
            data={PROCESSES.map((p) => ({ value: p, label: words(p) }))}
            {...field('process')}
          />
          <TextInput
            label="Batch size (1–1000)"
            name="batchSize"
            inputMode="numeric"
            maxLength={5}
            {...field('batchSize')}
          />
          {form.process === 'EARNINGS' && (
            <TextInput label="Earnings as of" type="date" name="asOf" {...field('asOf')} />
          )}
          {form.process === 'MONTHLY_STATEMENTS' && (
            <>
              <TextInput
                label="Month (YYYY-MM)"
                name="month"
                maxLength={7}
                placeholder="the last one"
                {...field('month')}
              />
              <NativeSelect label="Statement format" name="format" data={['PDF', 'CSV']} {...field('format')} />
            </>
          )}
          <Group align="end">
            <Button type="submit" loading={a.busy}>
              Start
            </Button>
          </Group>
        </SimpleGrid>
        <Outcome
          problem={
            a.problem && {
              ...a.problem,
              errors: a.problem.errors?.map((e) => ({ ...e, field: e.field.replace(/^parameters\./, '') })),
            }
          }
          done={a.done}
          fields={shown}
        />
      </Stack>
    </form>
  )
}

export default function ProcessRuns() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/processes', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')
  const result = useApi(`process-runs${key}`, async () =>
    unwrap(
      await api.GET('/api/automatic-process-runs', {
        params: {
          query: {
            process: (filters.process || undefined) as ProcessName | undefined,
            status: (filters.status || undefined) as RunStatus | undefined,
            from: filters.from || undefined,
            to: filters.to || undefined,
            pageNumber: page,
            pageSize: size,
          },
        },
      }),
    ),
  )
  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.items ?? [], sort, COLUMNS)
  const total = result.data?.totalCount ?? 0
  return (
    <Stack>
      <Title order={1} size="h2">
        Process runs
      </Title>
      <StartForm />
      <Title order={2} size="h4">
        Runs
      </Title>
      <form onSubmit={submit} role="search" aria-label="Filter process runs" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <NativeSelect
            label="Process"
            name="process"
            data={[{ value: '', label: 'Any' }, ...PROCESSES.map((p) => ({ value: p, label: words(p) }))]}
            {...field('process')}
          />
          <NativeSelect
            label="Status"
            name="status"
            data={[{ value: '', label: 'Any' }, ...STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))]}
            {...field('status')}
          />
          <TextInput label="Queued from" type="date" name="from" {...field('from')} />
          <TextInput label="Queued to" type="date" name="to" {...field('to')} />
          <FilterButtons label="Filter" clearTo="/processes" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={result} testId="runs-total">
          {`${count(total)} run${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          Newest first; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="Process runs" data-testid="runs-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.guid}>
                <Table.Td>
                  <Link to={`/processes/${r.guid}`}>{words(r.process)}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={RUN_COLORS[r.status] ?? 'gray.8'}>
                    {r.status.toLowerCase()}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.slot ?? 'on demand'}</Table.Td>
                <Table.Td>{r.startedBy}</Table.Td>
                <Table.Td>{dateTime(r.createdAt)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{count(r.examined)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{count(r.changed)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{count(r.failed)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{took(r.durationMs)}</Table.Td>
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
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
