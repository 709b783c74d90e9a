// Account holders, one list per kind (docs/parties.md): GET /api/accountholders?kind= with its
// filters (name, business key, state, status), paged by limit/offset with the total from
// X-Total-Count, every choice in the URL. The API orders by id; a column heading sorts the page shown.
// `/accountholders` lists every kind at once (with a kind filter); `/accountholders/dealers` and the
// like one kind. A dealer-side user sees what the API lets it see.
import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import { count, dateTime } from '../format.ts'
import { Link } from '../router.tsx'
import type { Schemas } from '../api/types.ts'
import {
  ListCount,
  bindField,
  FilterButtons,
  Outcome,
  Pager,
  SortHeads,
  sortRows,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'
import { holderPath, kindOf, KINDS, STATES, words, type Kind, type KindInfo } from './accountHolderKinds.ts'

const FILTERS = ['kind', 'name', 'businessKey', 'state', 'status'] as const
const SIZES = ['25', '50', '100']
type Status = 'ACTIVE' | 'INACTIVE' | 'EXPIRED'
type Holder = Schemas['AccountHolderSummary']

/** The kind shown: bold, not underlined. */
const here = (yes: boolean) => (yes ? { fontWeight: 700, textDecoration: 'none', color: 'inherit' } : undefined)

export function KindLinks({ current }: { current: Kind | undefined }) {
  return (
    <Group gap="xs" component="nav" aria-label="Kinds of account holder">
      <Link
        to="/accountholders"
        aria-current={current === undefined ? 'page' : undefined}
        style={here(current === undefined)}
      >
        All
      </Link>
      {KINDS.map((k) => (
        <Link
          key={k.kind}
          to={`/accountholders/${k.slug}`}
          aria-current={current === k.kind ? 'page' : undefined}
          style={here(current === k.kind)}
        >
          {k.label}
        </Link>
      ))}
    </Group>
  )
}

export default function AccountHolders({ kind }: { kind?: KindInfo }) {
  const path = kind ? `/accountholders/${kind.slug}` : '/accountholders'
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery(path, FILTERS, SIZES, ['sort'])
  const sort = query.get('sort')
  const chosenKind = (kind?.kind ?? (filters.kind || undefined)) as Kind | undefined

  const result = useApi(`holders:${path}${key}`, async () => {
    const res = await api.GET('/api/accountholders', {
      params: {
        query: {
          kind: chosenKind,
          name: filters.name || undefined,
          businessKey: filters.businessKey || undefined,
          state: (filters.state || undefined) as (typeof STATES)[number] | undefined,
          status: (filters.status || undefined) as Status | undefined,
          limit: size,
          offset: (page - 1) * size,
        },
      },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })

  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const columns: Array<SortColumn<Holder>> = [
    { key: 'displayName', label: 'Name' },
    ...(kind ? [] : [{ key: 'kind', label: 'Kind' }]),
    ...(kind && !kind.key ? [] : [{ key: 'businessKey', label: kind?.key?.label ?? 'Business key' }]),
    { key: 'legalName', label: 'Legal name' },
    { key: 'state', label: 'State' },
    { key: 'status', label: 'Status' },
    { key: 'expiredDate', label: 'Expires' },
  ]
  const rows = sortRows(result.data?.rows ?? [], sort, columns)
  const total = result.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / size))
  const title = kind?.label ?? 'Account holders'
  const noun = (kind?.one ?? 'account holder').toLowerCase()

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {title}
        </Title>
        {kind?.api.create && (
          <Button component={Link} to={`/accountholders/${kind.slug}/new`}>
            New {kind.one.toLowerCase()}
          </Button>
        )}
      </Group>
      <KindLinks current={kind?.kind} />
      <form onSubmit={submit} role="search" aria-label={`Search ${title.toLowerCase()}`} noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: kind ? 5 : 6 }} spacing="sm">
          {!kind && (
            <NativeSelect
              label="Kind"
              name="kind"
              data={[{ value: '', label: 'Any' }, ...KINDS.map((k) => ({ value: k.kind, label: k.one }))]}
              {...field('kind')}
            />
          )}
          <TextInput label="Name (or part of it)" name="name" maxLength={200} {...field('name')} />
          {kind?.key !== undefined || !kind ? (
            <TextInput
              label={kind?.key?.label ?? 'Business key'}
              name="businessKey"
              maxLength={40}
              {...field('businessKey')}
            />
          ) : null}
          <NativeSelect
            label="State"
            name="state"
            data={[{ value: '', label: 'Any' }, ...STATES.map((s) => ({ value: s, label: s }))]}
            {...field('state')}
          />
          <NativeSelect
            label="Status"
            name="status"
            data={[
              { value: '', label: 'Any' },
              { value: 'ACTIVE', label: 'active' },
              { value: 'INACTIVE', label: 'inactive' },
              { value: 'EXPIRED', label: 'expired' },
            ]}
            {...field('status')}
          />
          <FilterButtons label="Search" clearTo={path} />
        </SimpleGrid>
      </form>

      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />

      <Group justify="space-between">
        <ListCount state={result} testId="holders-total" loading="Searching…" refused="The search was refused.">
          {`${count(total)} ${noun}${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          In the order they were created; a column heading sorts this page.
        </Text>
      </Group>

      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover withTableBorder aria-label={title} data-testid="holders-table">
          <SortHeads sort={sort} go={go} columns={columns} />
          <Table.Tbody>
            {rows.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>
                  <Link to={holderPath(h.kind, h.id)}>{h.displayName}</Link>
                </Table.Td>
                {!kind && <Table.Td>{kindOf(h.kind)?.one ?? words(h.kind)}</Table.Td>}
                {(!kind || kind.key) && <Table.Td>{h.businessKey ?? '—'}</Table.Td>}
                <Table.Td>{h.legalName}</Table.Td>
                <Table.Td>{h.state ?? '—'}</Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={h.isActive ? 'green.9' : 'gray.8'}>
                    {h.isActive ? 'active' : h.status === 'INACTIVE' ? 'inactive' : 'expired'}
                  </Badge>
                </Table.Td>
                <Table.Td>{h.expiredDate ? dateTime(h.expiredDate) : '—'}</Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={7}>Nothing matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Pager page={page} pages={pages} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
