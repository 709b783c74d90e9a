// A process run (docs/processes.md): GET /api/automatic-process-runs/{guid}, read again every 2 s while
// it is QUEUED or RUNNING (its counts grow batch by batch: the progress shown); its outcome, counts,
// the state it fixed, the first item errors. Actions the API allows: cancel a run not finished
// (PATCH { status: CANCELLED }), and run a failed or cancelled one again (a new run of the same
// process with the same parameters, POST /api/automatic-process-runs).
import { Badge, Button, Code, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { useEffect, useState } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { count, dateTime } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, Outcome, Panel, RecordProblem, useAction } from '../ui.tsx'
import { words } from './finance.tsx'
import { RUN_COLORS, startRun, took } from './ProcessRuns.tsx'

export default function ProcessRunPage({ guid }: { guid: string }) {
  const [tick, setTick] = useState(0)
  const run = useApi(`process-run:${guid}:${tick}`, async () =>
    unwrap(await api.GET('/api/automatic-process-runs/{guid}', { params: { path: { guid } } })),
  )
  const r = run.data
  const live = r && (r.status === 'QUEUED' || r.status === 'RUNNING')
  useEffect(() => {
    if (!live || run.loading) return
    const t = setTimeout(() => setTick((n) => n + 1), 2000)
    return () => clearTimeout(t)
  }, [live, run.loading])
  const a = useAction()

  if (run.problem && !r)
    return <RecordProblem title="Process run" problem={run.problem} back="/processes" backLabel="Back to the runs" />
  const cancel = () =>
    a.run(async () => {
      unwrap(
        await api.PATCH('/api/automatic-process-runs/{guid}', {
          params: { path: { guid } },
          body: { status: 'CANCELLED' },
        }),
      )
      setTick((n) => n + 1)
      return 'Cancelled: the batch in progress ends, no other starts.'
    })

  return (
    <Stack data-testid="process-run" data-status={r?.status}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {r ? `Run of ${words(r.process)}` : 'Process run'}
        </Title>
        {r && (
          <Badge size="lg" variant="dot" color={RUN_COLORS[r.status] ?? 'gray.8'} data-testid="run-status">
            {r.status.toLowerCase()}
          </Badge>
        )}
      </Group>
      <Text size="sm">
        <Link to="/processes">All process runs</Link>
      </Text>
      {live && (
        <Stack gap={4}>
          <Text size="sm" role="status">
            {r.status === 'QUEUED' ? 'Waiting to start…' : `Working: ${count(r.examined)} examined so far…`}
          </Text>
          <Progress value={100} striped animated aria-label="Run in progress" />
        </Stack>
      )}
      {r && (
        <Group>
          {live && (
            <Button color="red.9" variant="outline" loading={a.busy} onClick={() => void cancel()}>
              Cancel the run
            </Button>
          )}
          {(r.status === 'FAILED' || r.status === 'CANCELLED') && (
            <Button loading={a.busy} onClick={() => void a.run(() => startRun(r.process, r.parameters))}>
              Run again
            </Button>
          )}
        </Group>
      )}
      <Outcome problem={a.problem} done={a.done} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Run" state={run}>
          {(x) => (
            <Facts
              rows={[
                ['Run', <Code key="g">{x.guid}</Code>],
                ['Process', words(x.process)],
                ['Slot', x.slot ?? 'started on demand'],
                ['Started by', x.startedBy],
                ['Queued', dateTime(x.createdAt)],
                ['Started', dateTime(x.startedAt)],
                ['Finished', dateTime(x.finishedAt)],
                ['Took', took(x.durationMs)],
                ['Parameters', <Code key="p">{JSON.stringify(x.parameters)}</Code>],
                ['State', <Code key="s">{JSON.stringify(x.state)}</Code>],
              ]}
            />
          )}
        </Panel>
        <Panel title="Counts" state={run} testId="run-counts">
          {(x) => (
            <Facts
              rows={[
                ['Examined', count(x.examined)],
                ['Changed', count(x.changed)],
                ['Failed', count(x.failed)],
                ['Cursor (last item done)', String(x.cursor)],
              ]}
            />
          )}
        </Panel>
      </SimpleGrid>
      <Panel title="Item errors" state={run}>
        {(x) =>
          x.errors.length === 0 ? (
            <Text size="sm">No error.</Text>
          ) : (
            <Stack gap="xs">
              {x.failed > x.errors.length && (
                <Text size="sm">
                  The first {x.errors.length} of {count(x.failed)} errors.
                </Text>
              )}
              <Table withTableBorder aria-label="Item errors">
                <ColumnHeads columns={['Item', 'Code', 'Message']} />
                <Table.Tbody>
                  {x.errors.map((e, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{e.itemId === 0 ? 'the process' : e.itemId}</Table.Td>
                      <Table.Td>{e.code}</Table.Td>
                      <Table.Td>{e.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )
        }
      </Panel>
    </Stack>
  )
}
