// A report run (docs/reporting.md "Report runs"): GET /api/reports/runs/{id}, read again every 2 s
// while it is QUEUED or RUNNING (its progress: risk bearers done of total); its error when it failed;
// its documents, each frozen report with who it is for, when it was frozen and whether this run or an
// earlier request produced it, downloaded as JSON or CSV
// (GET /api/reports/runs/{id}/documents/{riskBearerId}); a statement also opens on its screen.
import { Badge, Code, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { useEffect, useState } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { count, dateTime } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, Panel, ProblemAlert, RecordProblem } from '../ui.tsx'
import { kindLabel, REPORT_RUN_COLORS } from './ReportRuns.tsx'
import { Downloads, monthName, ReportTabs, type Format } from './reports.tsx'

export default function ReportRunPage({ id }: { id: number }) {
  const [tick, setTick] = useState(0)
  const run = useApi(`report-run:${id}:${tick}`, async () =>
    unwrap(await api.GET('/api/reports/runs/{reportRunId}', { params: { path: { reportRunId: id } } })),
  )
  const r = run.data
  const live = r && (r.status === 'QUEUED' || r.status === 'RUNNING')
  useEffect(() => {
    if (!live || run.loading) return
    const t = setTimeout(() => setTick((n) => n + 1), 2000)
    return () => clearTimeout(t)
  }, [live, run.loading])
  const statements = r?.kind === 'REINSURANCE_STATEMENT'
  // The risk bearers' names (reinsurance companies or insurers, by the run's kind).
  const kind = r ? (statements ? 'REINSURANCE_COMPANY' : 'INSURER') : undefined
  const holders = useApi(`report-run-holders:${kind}`, async () =>
    kind ? unwrap(await api.GET('/api/accountholders', { params: { query: { kind, limit: 1000 } } })) : [],
  )
  const names = new Map((holders.data ?? []).map((h) => [h.id, h.displayName]))

  if (run.problem && !r)
    return (
      <RecordProblem
        title={`Report run ${id}`}
        problem={run.problem}
        back="/reports/runs"
        backLabel="Back to the runs"
      />
    )
  const holderPath = statements ? 'reinsurancecompanies' : 'insurers'

  return (
    <Stack data-testid="report-run" data-status={r?.status}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {r ? `${kindLabel(r.kind)} of ${monthName(r.period)}` : `Report run ${id}`}
        </Title>
        {r && (
          <Badge
            size="lg"
            variant="dot"
            color={REPORT_RUN_COLORS[r.status] ?? 'gray.8'}
            data-testid="report-run-status"
          >
            {r.status.toLowerCase()}
          </Badge>
        )}
      </Group>
      <ReportTabs />
      <Text size="sm">
        <Link to="/reports/runs">All report runs</Link>
      </Text>
      {r && (
        <Stack gap={4}>
          {live && (
            <Text size="sm" role="status">
              {r.status === 'QUEUED'
                ? 'Waiting to start…'
                : `Working: ${count(r.progress.done)} of ${count(r.progress.total)} reports done…`}
            </Text>
          )}
          <Progress
            value={r.progress.total ? (100 * r.progress.done) / r.progress.total : 100}
            striped={live}
            animated={live}
            color={REPORT_RUN_COLORS[r.status] ?? 'gray.8'}
            aria-label={`${count(r.progress.done)} of ${count(r.progress.total)} reports done`}
          />
        </Stack>
      )}
      {r?.error && (
        <ProblemAlert
          problem={{
            type: 'about:blank',
            title: 'The run failed',
            status: 500,
            detail: `${r.error.code}: ${r.error.message}`,
            instance: '',
            code: r.error.code,
            requestId: '',
          }}
        />
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Run" state={run}>
          {(x) => (
            <Facts
              rows={[
                ['Run', String(x.id)],
                ['Reports', kindLabel(x.kind)],
                ['Month', monthName(x.period)],
                ['Started by', x.createdBy],
                ['Queued', dateTime(x.createdAt)],
                ['Started', dateTime(x.startedAt)],
                ['Finished', dateTime(x.finishedAt)],
              ]}
            />
          )}
        </Panel>
        <Panel title="Progress" state={run} testId="report-run-progress">
          {(x) => (
            <Facts
              rows={[
                ['Reports done', count(x.progress.done)],
                ['Of', count(x.progress.total)],
                ['Risk bearers', x.riskBearerIds.map((b) => names.get(b) ?? String(b)).join(', ') || '—'],
              ]}
            />
          )}
        </Panel>
      </SimpleGrid>
      <Panel title="Documents" state={run} testId="report-run-documents">
        {(x) =>
          x.documents.length === 0 ? (
            <Text size="sm">No report frozen yet.</Text>
          ) : (
            <Table.ScrollContainer minWidth={900}>
              <Table withTableBorder aria-label="Documents">
                <ColumnHeads columns={['For', 'Produced', 'Frozen', 'Inputs (sha256)', 'Download']} />
                <Table.Tbody>
                  {x.documents.map((d) => (
                    <Table.Tr key={d.riskBearerId} data-testid={`document-${d.riskBearerId}`}>
                      <Table.Td>
                        <Link to={`/accountholders/${holderPath}/${d.riskBearerId}`}>
                          {names.get(d.riskBearerId) ?? `Account holder ${d.riskBearerId}`}
                        </Link>
                        {statements && (
                          <>
                            {' · '}
                            <Link to={`/reports/statements?companyId=${d.riskBearerId}&month=${x.period}`}>
                              Open the statement
                            </Link>
                          </>
                        )}
                      </Table.Td>
                      <Table.Td>{d.producedBy === 'THIS_RUN' ? 'by this run' : 'earlier (reused)'}</Table.Td>
                      <Table.Td>{dateTime(d.frozenAt)}</Table.Td>
                      <Table.Td>
                        <Code title={d.inputDigest}>{d.inputDigest.slice(0, 12)}…</Code>
                      </Table.Td>
                      <Table.Td>
                        <Downloads
                          formats={['json', 'csv']}
                          load={(format: Format) =>
                            api.GET('/api/reports/runs/{reportRunId}/documents/{riskBearerId}', {
                              params: {
                                path: { reportRunId: x.id, riskBearerId: d.riskBearerId },
                                query: { format: format as 'json' | 'csv' },
                              },
                              parseAs: 'blob',
                            })
                          }
                          name={`report-run-${x.id}-${d.riskBearerId}`}
                          what={`the report for ${names.get(d.riskBearerId) ?? d.riskBearerId}`}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </Panel>
    </Stack>
  )
}
