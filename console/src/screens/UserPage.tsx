// A user (v1): GET /api/v1/adminusers/{id}, its roles with their permissions
// (GET /api/MembershipRoles/Search/{id}) and groups (GET /api/MembershipGroups/Search/{id}); the
// form that creates one (POST /api/v1/adminusers) or changes one (PUT, the whole user), offering the
// tenant's roles and groups (GET /api/MembershipRoles, GET /api/MembershipGroups); "Expire now"
// (PUT with expiredDate now: the API stores an earlier moment as now) and "Reactivate" (expiredDate
// null). The status shown is the API's (isActive, expiredDate). Every error the API names is shown at
// its field (`emailAddress`, `password`, `roles[0].id`, …).
import { Badge, Button, Checkbox, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { useEffect, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { dateTime } from '../format.ts'
import { Link, navigate } from '../router.tsx'
import { Facts, Outcome, Panel, RecordProblem, useAction } from '../ui.tsx'
import { holderPath } from './accountHolderKinds.ts'
import { userName, UserStatus } from './Users.tsx'

type User = Schemas['User']
type Form = {
  emailAddress: string
  firstName: string
  lastName: string
  phoneNumber: string
  externalIdentity: string
  accountHolderId: string
  password: string
  roles: number[]
  groups: number[]
}
const TEXT = [
  'emailAddress',
  'firstName',
  'lastName',
  'phoneNumber',
  'externalIdentity',
  'accountHolderId',
  'password',
] as const

const empty: Form = {
  emailAddress: '',
  firstName: '',
  lastName: '',
  phoneNumber: '',
  externalIdentity: '',
  accountHolderId: '',
  password: '',
  roles: [],
  groups: [],
}

const toForm = (u: User): Form => ({
  emailAddress: u.emailAddress,
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  phoneNumber: u.phoneNumber ?? '',
  externalIdentity: u.externalIdentity ?? '',
  accountHolderId: u.accountHolderId === null ? '' : String(u.accountHolderId),
  password: '',
  roles: u.roles.map((r) => r.id),
  groups: u.groups.map((g) => g.id),
})

const orNull = (s: string) => (s.trim() === '' ? null : s.trim())

/** The whole user as PUT takes it (and POST, with the empty members left out). */
function body(f: Form, expiredDate: string | null) {
  const holder = f.accountHolderId.trim()
  return {
    emailAddress: f.emailAddress.trim(),
    firstName: orNull(f.firstName),
    lastName: orNull(f.lastName),
    phoneNumber: orNull(f.phoneNumber),
    externalIdentity: orNull(f.externalIdentity),
    // Not a number: sent as typed, for the API to name the field.
    accountHolderId: holder === '' ? null : /^\d{1,15}$/.test(holder) ? Number(holder) : (holder as unknown as number),
    expiredDate,
    roles: f.roles.map((id) => ({ id })),
    groups: f.groups.map((id) => ({ id })),
    ...(f.password ? { password: f.password } : {}),
  }
}

function Choices({
  legend,
  items,
  chosen,
  error,
  onChange,
}: {
  legend: string
  items: Array<{ id: number; name: string; description: string; extra?: string }>
  chosen: number[]
  error: string | undefined
  onChange: (ids: number[]) => void
}) {
  return (
    <Checkbox.Group label={legend} value={chosen.map(String)} error={error} onChange={(v) => onChange(v.map(Number))}>
      <Stack gap={4} mt={4}>
        {items.map((i) => (
          <Checkbox
            key={i.id}
            value={String(i.id)}
            label={`${i.name}${i.extra ? ` (${i.extra})` : ''}`}
            description={i.description || undefined}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  )
}

export function UserForm({ user }: { user?: User }) {
  const choices = useApi('membership-choices', async () => {
    const [roles, groups] = await Promise.all([
      api.GET('/api/MembershipRoles', { params: { query: { limit: 1000 } } }),
      api.GET('/api/MembershipGroups', { params: { query: { limit: 1000 } } }),
    ])
    return { roles: unwrap(roles), groups: unwrap(groups) }
  })
  const [form, setForm] = useState<Form>(user ? toForm(user) : empty)
  useEffect(() => {
    if (user) setForm(toForm(user))
  }, [user])
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const listError = (name: 'roles' | 'groups') =>
    errors[name] ?? a.problem?.errors?.find((e) => e.field.startsWith(`${name}[`))?.message
  const placed = (a.problem?.errors ?? [])
    .map((e) => e.field)
    .filter((f) => (TEXT as readonly string[]).includes(f) || f.startsWith('roles') || f.startsWith('groups'))
  const text = (name: (typeof TEXT)[number]) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      if (user) {
        const saved = unwrap(
          await api.PUT('/api/v1/adminusers/{userId}', {
            params: { path: { userId: user.id } },
            body: body(form, user.expiredDate),
          }),
        )
        navigate(`/users/${saved.id}`)
        return 'Saved.'
      }
      const b = body(form, null)
      const created = unwrap(
        await api.POST('/api/v1/adminusers', {
          body: Object.fromEntries(Object.entries(b).filter(([, v]) => v !== null)) as typeof b & {
            emailAddress: string
          },
        }),
      )
      navigate(`/users/${created.id}`)
      return 'Created.'
    })
  }
  return (
    <form onSubmit={submit} aria-label={user ? 'Change the user' : 'New user'} noValidate data-testid="user-form">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <TextInput label="Email address" type="email" required maxLength={254} {...text('emailAddress')} />
          <TextInput label="First name" maxLength={100} {...text('firstName')} />
          <TextInput label="Last name" maxLength={100} {...text('lastName')} />
          <TextInput label="Phone number" maxLength={20} {...text('phoneNumber')} />
          <TextInput
            label="External Identity"
            description="The subject at the identity provider"
            maxLength={255}
            {...text('externalIdentity')}
          />
          <TextInput
            label="Account holder id"
            description="A dealer the user works for, if any"
            inputMode="numeric"
            maxLength={15}
            {...text('accountHolderId')}
          />
          <PasswordInput
            label={user ? 'New password' : 'Password'}
            description={user ? 'Empty keeps the password' : 'At least 12 characters; empty for single sign-on users'}
            maxLength={200}
            autoComplete="new-password"
            {...text('password')}
          />
        </SimpleGrid>
        <Panel title="Roles and groups" state={choices} headingLevel={3}>
          {(c) => (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Choices
                legend="Roles"
                items={c.roles}
                chosen={form.roles}
                error={listError('roles')}
                onChange={(roles) => setForm({ ...form, roles })}
              />
              <Choices
                legend="Groups"
                items={c.groups.map((g) => ({ ...g, extra: g.kind === 'DEALER' ? 'dealer-side' : undefined }))}
                chosen={form.groups}
                error={listError('groups')}
                onChange={(groups) => setForm({ ...form, groups })}
              />
            </SimpleGrid>
          )}
        </Panel>
        <Outcome problem={a.problem} done={a.done} fields={placed} />
        <Group>
          <Button type="submit" loading={a.busy}>
            {user ? 'Save changes' : 'Create user'}
          </Button>
          <Button variant="default" component={Link} to={user ? `/users/${user.id}` : '/users'}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

export function NewUser() {
  return (
    <Stack>
      <Title order={1} size="h2">
        New user
      </Title>
      <Text size="sm">
        <Link to="/users">All users</Link>
      </Text>
      <UserForm />
    </Stack>
  )
}

export default function UserPage({ id, edit = false }: { id: number; edit?: boolean }) {
  const [version, setVersion] = useState(0)
  const user = useApi(`user:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/v1/adminusers/{userId}', { params: { path: { userId: id } } })),
  )
  const roles = useApi(`user-roles:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/MembershipRoles/Search/{id}', { params: { path: { id } } })),
  )
  const groups = useApi(`user-groups:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/MembershipGroups/Search/{id}', { params: { path: { id } } })),
  )
  const expiry = useAction()
  if (user.problem && !user.data)
    return <RecordProblem title={`User ${id}`} problem={user.problem} back="/users" backLabel="Back to the users" />
  const u = user.data
  const setExpiry = (expiredDate: string | null, done: string) =>
    void expiry.run(async () => {
      unwrap(
        await api.PUT('/api/v1/adminusers/{userId}', {
          params: { path: { userId: id } },
          body: body(toForm(u!), expiredDate),
        }),
      )
      setVersion((v) => v + 1)
      return done
    })

  return (
    <Stack data-testid="user-page" data-ready={u && !user.loading ? 'true' : undefined}>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {u ? `User ${u.emailAddress}` : `User ${id}`}
        </Title>
        {u && (
          <Group gap="xs">
            <UserStatus user={u} />
            {!edit && (
              <Button variant="default" component={Link} to={`/users/${id}/edit`}>
                Change
              </Button>
            )}
            {u.isActive ? (
              <Button
                color="red.9"
                loading={expiry.busy}
                onClick={() => setExpiry(new Date().toISOString(), 'The user is expired.')}
              >
                Expire now
              </Button>
            ) : (
              <Button
                variant="default"
                loading={expiry.busy}
                onClick={() => setExpiry(null, 'The user is active again.')}
              >
                Reactivate
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Text size="sm">
        <Link to="/users">All users</Link>
      </Text>
      <Outcome problem={expiry.problem} done={expiry.done} />
      {edit && u ? (
        <Panel title="Change the user" state={user}>
          {(x) => <UserForm user={x} />}
        </Panel>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Panel title="User" state={user} testId="user-details">
            {(x) => (
              <Facts
                label="User"
                rows={[
                  ['Email address', x.emailAddress],
                  ['Name', userName(x)],
                  ['Phone', x.phoneNumber ?? '—'],
                  ['External Identity', x.externalIdentity ?? '—'],
                  [
                    'Account holder',
                    x.accountHolderId === null ? (
                      '—'
                    ) : (
                      <Link key="h" to={holderPath('DEALER', x.accountHolderId)}>
                        {x.accountHolderId}
                      </Link>
                    ),
                  ],
                  ['Status', x.isActive ? 'active' : 'expired'],
                  ['Expires', x.expiredDate ? dateTime(x.expiredDate) : 'never'],
                  ['Created', dateTime(x.createdAt)],
                  ['Changed', `${dateTime(x.updatedAt)} (version ${x.version})`],
                ]}
              />
            )}
          </Panel>
          <Stack>
            <Panel title="Roles" state={roles} testId="user-roles">
              {(rs) =>
                rs.length === 0 ? (
                  <Text size="sm">No roles.</Text>
                ) : (
                  <Stack gap="xs">
                    {rs.map((r) => (
                      <div key={r.id}>
                        <Text fw={600} size="sm">
                          {r.name}
                        </Text>
                        <Group gap={4}>
                          {r.permissions.map((p) => (
                            <Badge key={p} size="sm" variant="outline" color="dark.7" tt="none">
                              {p === '*' ? 'every permission' : p}
                            </Badge>
                          ))}
                        </Group>
                      </div>
                    ))}
                  </Stack>
                )
              }
            </Panel>
            <Panel title="Groups" state={groups}>
              {(gs) =>
                gs.length === 0 ? (
                  <Text size="sm">No groups.</Text>
                ) : (
                  <Stack gap={4}>
                    {gs.map((g) => (
                      <Text size="sm" key={g.id}>
                        {g.name} ({g.kind === 'DEALER' ? `dealer-side: ${g.accountHolderIds.length} dealers` : 'staff'})
                      </Text>
                    ))}
                  </Stack>
                )
              }
            </Panel>
          </Stack>
        </SimpleGrid>
      )}
    </Stack>
  )
}
