// Roles and groups: the tenant's membership roles with their permissions (GET /api/MembershipRoles)
// and its groups, staff and dealer-side, with their members and the dealers a dealer-side group sees
// (GET /api/MembershipGroups). Both paged by limit/offset with X-Total-Count (pages in the URL:
// rolesPage, groupsPage); a column heading sorts the page shown. The API has no filter for them.
import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { count } from '../format.ts'
import { Link, navigate, queryString, useLocation } from '../router.tsx'
import type { Schemas } from '../api/types.ts'
import { Pager, Panel, SortHeads, sortRows, type SortColumn } from '../ui.tsx'
import { holderPath } from './accountHolderKinds.ts'

const SIZES = ['25', '50', '100']
const ROLE_COLUMNS: Array<SortColumn<Schemas['MembershipRole']>> = [
  { key: 'name', label: 'Role' },
  { key: 'code', label: 'Code' },
  { key: 'permissions', label: 'Permissions', sortable: false },
]
const GROUP_COLUMNS: Array<SortColumn<Schemas['MembershipGroup']>> = [
  { key: 'name', label: 'Group' },
  { key: 'code', label: 'Code' },
  { key: 'kind', label: 'Kind' },
  { key: 'users', label: 'Members', sortable: false },
  { key: 'accountHolderIds', label: 'Dealers it sees', sortable: false },
]

function useSection(prefix: 'roles' | 'groups') {
  const { query } = useLocation()
  const size = SIZES.includes(query.get(`${prefix}Size`) ?? '') ? Number(query.get(`${prefix}Size`)) : 25
  const page = Math.max(1, Number.parseInt(query.get(`${prefix}Page`) ?? '1', 10) || 1)
  const sort = query.get(`${prefix}Sort`)
  const go = (over: Record<string, string | number | undefined>) => {
    const next = Object.fromEntries(query.entries()) as Record<string, string | number | undefined>
    for (const [k, v] of Object.entries(over)) next[`${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`] = v
    navigate(`/roles${queryString(next)}`)
  }
  return { size, page, sort, go }
}

export default function Roles() {
  const r = useSection('roles')
  const g = useSection('groups')
  const roles = useApi(`roles:${r.page}:${r.size}`, async () => {
    const res = await api.GET('/api/MembershipRoles', {
      params: { query: { limit: r.size, offset: (r.page - 1) * r.size } },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })
  const groups = useApi(`groups:${g.page}:${g.size}`, async () => {
    const res = await api.GET('/api/MembershipGroups', {
      params: { query: { limit: g.size, offset: (g.page - 1) * g.size } },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })

  return (
    <Stack>
      <Title order={1} size="h2">
        Roles and groups
      </Title>
      <Text size="sm">
        <Link to="/users">All users</Link> · a user&apos;s roles and groups are chosen on its page.
      </Text>
      <Panel title="Roles" state={roles} testId="roles">
        {({ rows, total }) => (
          <Stack gap="xs">
            <Text size="sm" role="status">
              {count(total)} role{total === 1 ? '' : 's'}
            </Text>
            <Table withTableBorder striped aria-label="Roles">
              <SortHeads sort={r.sort} go={r.go} columns={ROLE_COLUMNS} />
              <Table.Tbody>
                {sortRows(rows, r.sort, ROLE_COLUMNS).map((x) => (
                  <Table.Tr key={x.id}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {x.name}
                      </Text>
                      <Text size="xs">{x.description}</Text>
                    </Table.Td>
                    <Table.Td ff="monospace">{x.code}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {x.permissions.map((p) => (
                          <Badge key={p} size="sm" variant="outline" color="dark.7" tt="none">
                            {p === '*' ? 'every permission' : p}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager page={r.page} pages={Math.max(1, Math.ceil(total / r.size))} size={r.size} sizes={SIZES} go={r.go} />
          </Stack>
        )}
      </Panel>
      <Panel title="Groups" state={groups} testId="groups">
        {({ rows, total }) => (
          <Stack gap="xs">
            <Text size="sm" role="status">
              {count(total)} group{total === 1 ? '' : 's'}
            </Text>
            <Table withTableBorder striped aria-label="Groups">
              <SortHeads sort={g.sort} go={g.go} columns={GROUP_COLUMNS} />
              <Table.Tbody>
                {sortRows(rows, g.sort, GROUP_COLUMNS).map((x) => (
                  <Table.Tr key={x.id}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {x.name}
                      </Text>
                      <Text size="xs">{x.description}</Text>
                    </Table.Td>
                    <Table.Td ff="monospace">{x.code}</Table.Td>
                    <Table.Td>{x.kind === 'DEALER' ? 'dealer-side' : 'staff'}</Table.Td>
                    <Table.Td>
                      {x.users.length === 0
                        ? '—'
                        : x.users.map((u, i) => (
                            <span key={u.id}>
                              {i > 0 ? ', ' : ''}
                              <Link to={`/users/${u.id}`}>{u.emailAddress}</Link>
                            </span>
                          ))}
                    </Table.Td>
                    <Table.Td>
                      {x.kind === 'DEALER'
                        ? x.accountHolderIds.map((id, i) => (
                            <span key={id}>
                              {i > 0 ? ', ' : ''}
                              <Link to={holderPath('DEALER', id)}>{id}</Link>
                            </span>
                          ))
                        : 'all'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Pager page={g.page} pages={Math.max(1, Math.ceil(total / g.size))} size={g.size} sizes={SIZES} go={g.go} />
          </Stack>
        )}
      </Panel>
    </Stack>
  )
}
