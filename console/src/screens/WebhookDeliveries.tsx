// Webhook deliveries (docs/webhooks.md "The delivery log"): GET /api/webhooks/deliveries, newest first,
// filtered by subscription, status and event type, paged with the API's totalCount (a heading sorts
// the page shown); each with its outcome (status, attempts, the receiver's last answer and latency,
// the last error, the next attempt) and a redelivery (POST …/{id}/redeliveries: PENDING and due now).
import { Badge, Button, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useState } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime } from '../format.ts'
import { Link } from '../router.tsx'
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
import { intOrText } from './finance.tsx'
import { WebhookTabs } from './Webhooks.tsx'

type Delivery = Schemas['WebhookDelivery']
const FILTERS = ['subscriptionId', 'status', 'eventType'] as const
const SIZES = ['25', '50', '100']
const COLORS: Record<string, string> = { PENDING: 'blue.9', SUCCEEDED: 'green.9', FAILED: 'red.9' }
const COLUMNS: SortColumn<Delivery>[] = [
  { key: 'id', label: 'Delivery' },
  { key: 'subscriptionId', label: 'Subscription' },
  { key: 'eventType', label: 'Event' },
  { key: 'contractId', label: 'Contract' },
  { key: 'status', label: 'Status' },
  { key: 'attempts', label: 'Attempts', numeric: true },
  { key: 'lastAttemptAt', label: 'Last attempt' },
  { key: 'lastResponseCode', label: 'Answer', numeric: true },
  { key: 'lastLatencyMs', label: 'Latency', numeric: true },
]

function Redeliver({ d, onDone }: { d: Delivery; onDone: () => void }) {
  const a = useAction()
  return (
    <Stack gap={2}>
      <Button
        size="xs"
        variant="default"
        loading={a.busy}
        aria-label={`Redeliver ${d.id}`}
        onClick={() =>
          void a.run(async () => {
            unwrap(
              await api.POST('/api/webhooks/deliveries/{deliveryId}/redeliveries', {
                params: { path: { deliveryId: d.id } },
                body: {},
              }),
            )
            onDone()
            return 'Queued again.'
          })
        }
      >
        Redeliver
      </Button>
      {a.problem && <Outcome problem={a.problem} done={undefined} />}
    </Stack>
  )
}

export default function WebhookDeliveries() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery(
    '/webhooks/deliveries',
    FILTERS,
    SIZES,
    ['sort'],
  )
  const sort = query.get('sort')
  const [version, setVersion] = useState(0)
  const result = useApi(`deliveries${key}:${version}`, async () =>
    unwrap(
      await api.GET('/api/webhooks/deliveries', {
        params: {
          query: {
            subscriptionId: intOrText(filters.subscriptionId),
            status: (filters.status || undefined) as Delivery['status'] | undefined,
            eventType: filters.eventType || undefined,
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
        Webhook deliveries
      </Title>
      <WebhookTabs />
      <form onSubmit={submit} role="search" aria-label="Filter deliveries" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput
            label="Subscription id"
            name="subscriptionId"
            inputMode="numeric"
            maxLength={15}
            {...field('subscriptionId')}
          />
          <NativeSelect
            label="Status"
            name="status"
            data={[
              { value: '', label: 'Any' },
              ...['PENDING', 'SUCCEEDED', 'FAILED'].map((s) => ({ value: s, label: s.toLowerCase() })),
            ]}
            {...field('status')}
          />
          <TextInput label="Event type" name="eventType" maxLength={100} {...field('eventType')} />
          <FilterButtons label="Filter" clearTo="/webhooks/deliveries" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <ListCount state={result} testId="deliveries-total">
        {`${count(total)} deliver${total === 1 ? 'y' : 'ies'}`}
      </ListCount>
      <Table.ScrollContainer minWidth={1100}>
        <Table striped withTableBorder aria-label="Deliveries">
          <SortHeads columns={COLUMNS} sort={sort} go={go} extra={['Last error / next attempt', 'Actions']} />
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  {d.id}{' '}
                  <Text span size="xs">
                    ({d.eventId})
                  </Text>
                </Table.Td>
                <Table.Td>{d.subscriptionId}</Table.Td>
                <Table.Td>{d.eventType}</Table.Td>
                <Table.Td>
                  {d.contractId ? <Link to={`/contracts/${d.contractId}`}>{d.contractId}</Link> : '—'}
                </Table.Td>
                <Table.Td miw={130}>
                  <Badge variant="dot" color={COLORS[d.status] ?? 'gray.8'}>
                    {d.status.toLowerCase()}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{d.attempts}</Table.Td>
                <Table.Td>{dateTime(d.lastAttemptAt)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{d.lastResponseCode ?? '—'}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>
                  {d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`}
                </Table.Td>
                <Table.Td>
                  {d.lastError ?? ''}
                  {d.status === 'PENDING' && d.nextAttemptAt ? ` next ${dateTime(d.nextAttemptAt)}` : ''}
                </Table.Td>
                <Table.Td>
                  {d.status !== 'PENDING' && <Redeliver d={d} onDone={() => setVersion((v) => v + 1)} />}
                </Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 2}>No delivery matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
