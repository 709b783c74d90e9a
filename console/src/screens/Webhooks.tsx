// Webhook subscriptions (docs/webhooks.md): the list, oldest first (GET /api/webhooks/subscriptions,
// paged with the API's totalCount; a heading sorts the page shown), one created (POST: its secret is
// shown once, here), one paused or resumed (PATCH { active }), and each one's deliveries
// (/webhooks/deliveries?subscriptionId=).
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
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
import { count, dateTime } from '../format.ts'
import { Link } from '../router.tsx'
import {
  ListCount,
  bindField,
  Outcome,
  Pager,
  useAction,
  useListQuery,
  SortHeads,
  sortRows,
  type SortColumn,
} from '../ui.tsx'
import { errorAt } from './finance.tsx'

type Subscription = Schemas['WebhookSubscription']
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Subscription>[] = [
  { key: 'id', label: 'Id' },
  { key: 'url', label: 'Receiver' },
  { key: 'description', label: 'Description' },
  { key: 'active', label: 'State' },
  { key: 'createdAt', label: 'Created' },
]

export function WebhookTabs() {
  return (
    <Text size="sm">
      <Link to="/webhooks">Subscriptions</Link> · <Link to="/webhooks/deliveries">Deliveries</Link>
    </Text>
  )
}

function CreateForm({ onDone }: { onDone: () => void }) {
  const [form, setForm] = useState({ url: '', eventTypes: '*', description: '' })
  const [active, setActive] = useState(true)
  const [secret, setSecret] = useState<{ id: number; secret: string } | undefined>()
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSecret(undefined)
    void a.run(async () => {
      const s = unwrap(
        await api.POST('/api/webhooks/subscriptions', {
          body: {
            url: form.url,
            eventTypes: form.eventTypes
              .split(/[\s,]+/)
              .map((t) => t.trim())
              .filter(Boolean),
            description: form.description || null,
            active,
          },
        }),
      )
      setSecret({ id: s.id, secret: s.secret })
      setForm({ url: '', eventTypes: '*', description: '' })
      onDone()
      return `Subscription ${s.id} created.`
    })
  }
  const placed = (a.problem?.errors ?? [])
    .map((e) => e.field)
    .filter((f) => ['url', 'eventTypes', 'description', 'active'].some((k) => errorAt({ [f]: 'x' }, k)))
  return (
    <form onSubmit={submit} aria-label="New subscription" noValidate>
      <Stack gap="xs">
        <Title order={2} size="h4">
          New subscription
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Receiver URL" name="url" maxLength={2000} placeholder="https://…" {...field('url')} />
          <TextInput
            label="Event types (comma-separated, * for all)"
            name="eventTypes"
            maxLength={4000}
            {...field('eventTypes')}
            error={errorAt(errors, 'eventTypes')}
          />
          <TextInput label="Description" name="description" maxLength={1000} {...field('description')} />
          <Group align="end">
            <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
            <Button type="submit" loading={a.busy}>
              Create
            </Button>
          </Group>
        </SimpleGrid>
        <Outcome problem={a.problem} done={a.done} fields={placed} />
        {secret && (
          <Alert color="blue" title="Its signing secret, shown this once" data-testid="webhook-secret">
            <Text size="sm">
              Subscription {secret.id} signs each delivery with <Code>{secret.secret}</Code>. Store it now: it is not
              shown again (rotate it if it is lost).
            </Text>
          </Alert>
        )}
      </Stack>
    </form>
  )
}

function ActiveToggle({ s, onDone }: { s: Subscription; onDone: () => void }) {
  const a = useAction()
  return (
    <Stack gap={2}>
      <Button
        size="xs"
        variant="default"
        loading={a.busy}
        aria-label={`${s.active ? 'Pause' : 'Resume'} subscription ${s.id}`}
        onClick={() =>
          void a.run(async () => {
            unwrap(
              await api.PATCH('/api/webhooks/subscriptions/{subscriptionId}', {
                params: { path: { subscriptionId: s.id } },
                body: { active: !s.active },
              }),
            )
            onDone()
            return s.active ? 'Paused.' : 'Resumed.'
          })
        }
      >
        {s.active ? 'Pause' : 'Resume'}
      </Button>
      {a.problem && <Outcome problem={a.problem} done={undefined} />}
    </Stack>
  )
}

export default function Webhooks() {
  const { query, size, page, key, go } = useListQuery('/webhooks', [], SIZES, ['sort'])
  const sort = query.get('sort')
  const [version, setVersion] = useState(0)
  const result = useApi(`webhooks${key}:${version}`, async () =>
    unwrap(await api.GET('/api/webhooks/subscriptions', { params: { query: { pageNumber: page, pageSize: size } } })),
  )
  const rows = sortRows(result.data?.items ?? [], sort, COLUMNS)
  const total = result.data?.totalCount ?? 0
  const bump = () => setVersion((v) => v + 1)
  return (
    <Stack>
      <Title order={1} size="h2">
        Webhooks
      </Title>
      <WebhookTabs />
      <CreateForm onDone={bump} />
      <Title order={2} size="h4">
        Subscriptions
      </Title>
      <Outcome problem={result.problem} done={undefined} />
      <ListCount state={result} testId="subscriptions-total" refused="Not shown.">
        {`${count(total)} subscription${total === 1 ? '' : 's'}`}
      </ListCount>
      <Table.ScrollContainer minWidth={900}>
        <Table striped withTableBorder aria-label="Subscriptions" data-testid="subscriptions-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} extra={['Events', 'Actions']} />
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{s.id}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{s.url}</Table.Td>
                <Table.Td>{s.description ?? ''}</Table.Td>
                <Table.Td miw={110}>
                  <Badge variant="dot" color={s.active ? 'green.9' : 'gray.8'}>
                    {s.active ? 'active' : 'paused'}
                  </Badge>
                </Table.Td>
                <Table.Td>{dateTime(s.createdAt)}</Table.Td>
                <Table.Td>{s.eventTypes.join(', ')}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <ActiveToggle s={s} onDone={bump} />
                    <Link to={`/webhooks/deliveries?subscriptionId=${s.id}`}>Deliveries</Link>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 2}>No subscription yet.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
