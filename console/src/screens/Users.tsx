// Users (v1, docs/permissions.md): GET /api/v1/adminusers with its search (exact id, email address,
// External Identity), paged by limit/offset with X-Total-Count, every choice in the URL. The API
// orders by id; a column heading sorts the page shown. Each row links to the user's page.
import { Badge, Button, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
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
  SortHeads,
  sortRows,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'

type User = Schemas['User']
const FILTERS = ['searchData.id', 'searchData.emailAddress', 'searchData.externalIdentity'] as const
const SIZES = ['25', '50', '100']

export const userName = (u: User) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '—'

const COLUMNS: Array<SortColumn<User>> = [
  { key: 'emailAddress', label: 'Email address' },
  { key: 'name', label: 'Name', value: userName },
  { key: 'roles', label: 'Roles', value: (u) => u.roles.map((r) => r.name).join(', ') },
  { key: 'isActive', label: 'Status' },
  { key: 'createdAt', label: 'Created' },
]

/** Active, expired, or active until a moment to come: as the API's isActive and expiredDate say. */
export function UserStatus({ user }: { user: User }) {
  return (
    <Badge variant="dot" color={user.isActive ? 'green.9' : 'gray.8'} data-testid="user-status">
      {user.isActive ? (user.expiredDate ? `active until ${dateTime(user.expiredDate)}` : 'active') : 'expired'}
    </Badge>
  )
}

export default function Users() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/users', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')
  const result = useApi(`users${key}`, async () => {
    const id = filters['searchData.id']
    const res = await api.GET('/api/v1/adminusers', {
      params: {
        query: {
          // An id that is not a number is sent as typed: the API names the field.
          'searchData.id': id ? (/^\d{1,15}$/.test(id) ? Number(id) : (id as unknown as number)) : undefined,
          'searchData.emailAddress': filters['searchData.emailAddress'] || undefined,
          'searchData.externalIdentity': filters['searchData.externalIdentity'] || undefined,
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
  const pages = Math.max(1, Math.ceil(total / size))

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Users
        </Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to="/roles">
            Roles and groups
          </Button>
          <Button component={Link} to="/users/new">
            New user
          </Button>
        </Group>
      </Group>
      <form onSubmit={submit} role="search" aria-label="Search users" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput
            label="User id"
            name="searchData.id"
            inputMode="numeric"
            maxLength={15}
            {...field('searchData.id')}
          />
          <TextInput
            label="Email address (exact)"
            name="searchData.emailAddress"
            maxLength={254}
            {...field('searchData.emailAddress')}
          />
          <TextInput
            label="External Identity (exact)"
            name="searchData.externalIdentity"
            maxLength={255}
            {...field('searchData.externalIdentity')}
          />
          <FilterButtons label="Search" clearTo="/users" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={result} testId="users-total" loading="Searching…" refused="The search was refused.">
          {`${count(total)} user${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          In the order they were created; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover withTableBorder aria-label="Users" data-testid="users-table">
          <SortHeads sort={sort} go={go} columns={COLUMNS} />
          <Table.Tbody>
            {rows.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>
                  <Link to={`/users/${u.id}`}>{u.emailAddress}</Link>
                </Table.Td>
                <Table.Td>{userName(u)}</Table.Td>
                <Table.Td>{u.roles.map((r) => r.name).join(', ') || '—'}</Table.Td>
                <Table.Td>
                  <UserStatus user={u} />
                </Table.Td>
                <Table.Td>{dateTime(u.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={5}>No user matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={pages} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
