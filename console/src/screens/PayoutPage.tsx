// A payout run (docs/payouts.md): GET /api/payoutruns/{id}, its payouts with the items each paid or
// netted, and the payees skipped.
import { Stack, Text, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { count, dateTime, day } from '../format.ts'
import { Link } from '../router.tsx'
import { Facts, Money, Panel, RecordProblem } from '../ui.tsx'
import { words } from './finance.tsx'
import { RunPayouts } from './Payouts.tsx'

export default function PayoutPage({ id }: { id: number }) {
  const run = useApi(`payout:${id}`, async () =>
    unwrap(await api.GET('/api/payoutruns/{payoutRunId}', { params: { path: { payoutRunId: id } } })),
  )
  if (run.problem)
    return (
      <RecordProblem title={`Payout run ${id}`} problem={run.problem} back="/payouts" backLabel="Back to the runs" />
    )
  return (
    <Stack data-testid="payout-page" data-ready={run.data ? 'true' : undefined}>
      <Title order={1} size="h2">
        Payout run {id}
      </Title>
      <Text size="sm">
        <Link to="/payouts">All payout runs</Link>
      </Text>
      <Panel title="Run" state={run}>
        {(r) => (
          <Facts
            rows={[
              ['As of', day(r.asOf)],
              ['Posted on', day(r.accountingDate)],
              ['Payables', r.purposes.map(words).join(', ')],
              ['Payees', r.payeeIds ? r.payeeIds.join(', ') : 'every payee'],
              ['Payouts', count(r.payoutCount)],
              ['Total', <Money key="t" value={r.total} />],
              ['Made', `${dateTime(r.createdAt)} by ${r.createdBy}`],
            ]}
          />
        )}
      </Panel>
      <Panel title="Payouts" state={run}>
        {(r) => <RunPayouts run={r} />}
      </Panel>
    </Stack>
  )
}
