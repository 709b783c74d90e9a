// An account holder (docs/parties.md): GET /api/<kind>/{id} (names, status, tax id as the API
// gives it — masked without bankdetails:read — contact data, the kind's own fields), its custom
// fields (agents, dealer groups and dealers: list with the required ones missing, add, change the
// value, delete; docs/custom-fields.md) and its disbursement accounts (GET /api/disbursementaccounts
// ?accountHolderId=, bank numbers masked by the API; "Show bank details" asks the API for them with
// ?reveal=true, which needs bankdetails:read: a 403 is shown as such; docs/disbursement-accounts.md).
// Another dealer's record, for a dealer-side user, is the API's 404.
import {
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useState, type FormEvent, type ReactNode } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { dateTime } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, Outcome, Panel, ProblemAlert, RecordProblem, useAction } from '../ui.tsx'
import { holderPath, kindOf, words, type Holder, type Kind, type KindInfo } from './accountHolderKinds.ts'

type CustomField = Schemas['CustomField']
type Account = Schemas['DisbursementAccount']
type FieldType = CustomField['type']
const FIELD_TYPES: FieldType[] = ['STRING', 'INTEGER', 'DECIMAL', 'DATE', 'BOOLEAN', 'LIST']

const merge = { 'Content-Type': 'application/merge-patch+json' }

/** The custom-field routes of the three kinds that have them. */
const CUSTOM_FIELDS: Partial<
  Record<
    Kind,
    {
      list: (id: number) => Promise<{ rows: CustomField[]; missing: string | null }>
      add: (id: number, body: { name: string; type: FieldType; value: unknown }) => Promise<CustomField>
      change: (id: number, fieldId: number, value: unknown) => Promise<CustomField>
      remove: (id: number, fieldId: number) => Promise<void>
    }
  >
> = {
  DEALER: {
    list: async (dealerId) => {
      const r = await api.GET('/api/dealers/{dealerId}/customfields', {
        params: { path: { dealerId }, query: { limit: 1000 } },
      })
      return { rows: unwrap(r), missing: r.response.headers.get('x-missing-required-fields') }
    },
    add: async (dealerId, body) =>
      unwrap(
        await api.POST('/api/dealers/{dealerId}/customfields', {
          params: { path: { dealerId } },
          body: body as never,
        }),
      ),
    change: async (dealerId, fieldId, value) =>
      unwrap(
        await api.PATCH('/api/dealers/{dealerId}/customfields/{fieldId}', {
          params: { path: { dealerId, fieldId } },
          body: { value },
          headers: merge,
        }),
      ),
    remove: async (dealerId, fieldId) => {
      unwrap(
        await api.DELETE('/api/dealers/{dealerId}/customfields/{fieldId}', { params: { path: { dealerId, fieldId } } }),
      )
    },
  },
  DEALER_GROUP: {
    list: async (dealerGroupId) => {
      const r = await api.GET('/api/dealergroups/{dealerGroupId}/customfields', {
        params: { path: { dealerGroupId }, query: { limit: 1000 } },
      })
      return { rows: unwrap(r), missing: r.response.headers.get('x-missing-required-fields') }
    },
    add: async (dealerGroupId, body) =>
      unwrap(
        await api.POST('/api/dealergroups/{dealerGroupId}/customfields', {
          params: { path: { dealerGroupId } },
          body: body as never,
        }),
      ),
    change: async (dealerGroupId, fieldId, value) =>
      unwrap(
        await api.PATCH('/api/dealergroups/{dealerGroupId}/customfields/{fieldId}', {
          params: { path: { dealerGroupId, fieldId } },
          body: { value },
          headers: merge,
        }),
      ),
    remove: async (dealerGroupId, fieldId) => {
      unwrap(
        await api.DELETE('/api/dealergroups/{dealerGroupId}/customfields/{fieldId}', {
          params: { path: { dealerGroupId, fieldId } },
        }),
      )
    },
  },
  AGENT: {
    list: async (agentId) => {
      const r = await api.GET('/api/agents/{agentId}/customfields', {
        params: { path: { agentId }, query: { limit: 1000 } },
      })
      return { rows: unwrap(r), missing: r.response.headers.get('x-missing-required-fields') }
    },
    add: async (agentId, body) =>
      unwrap(
        await api.POST('/api/agents/{agentId}/customfields', { params: { path: { agentId } }, body: body as never }),
      ),
    change: async (agentId, fieldId, value) =>
      unwrap(
        await api.PATCH('/api/agents/{agentId}/customfields/{fieldId}', {
          params: { path: { agentId, fieldId } },
          body: { value },
          headers: merge,
        }),
      ),
    remove: async (agentId, fieldId) => {
      unwrap(
        await api.DELETE('/api/agents/{agentId}/customfields/{fieldId}', { params: { path: { agentId, fieldId } } }),
      )
    },
  },
}

/** A value typed in, as the field's type takes it; what does not parse goes as typed, for the API to name. */
function typedValue(type: FieldType, v: string): unknown {
  const t = v.trim()
  if (type === 'INTEGER' || type === 'DECIMAL') return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t
  if (type === 'BOOLEAN') return t === 'true' ? true : t === 'false' ? false : t
  return v
}
const shown = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v))

function FieldRow({
  field,
  ops,
  id,
  onDone,
}: {
  field: CustomField
  ops: NonNullable<(typeof CUSTOM_FIELDS)[Kind]>
  id: number
  onDone: () => void
}) {
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState(String(field.value))
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const save = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      await ops.change(id, field.id, typedValue(field.type, value))
      setEditing(false)
      onDone()
      return 'Saved.'
    })
  }
  return (
    <Table.Tr>
      <Table.Td>
        {field.name}
        {field.label && field.label !== field.name ? (
          <Text span size="xs">
            {' '}
            ({field.label})
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{words(field.type)}</Table.Td>
      <Table.Td>
        {editing ? (
          <form onSubmit={save} aria-label={`Change ${field.name}`} noValidate>
            <Group gap="xs" align="start">
              <TextInput
                aria-label={`Value of ${field.name}`}
                size="xs"
                value={value}
                error={errors.value ?? errors.type}
                onChange={(e) => setValue(e.currentTarget.value)}
              />
              <Button size="xs" type="submit" loading={a.busy}>
                Save
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </Group>
            <Outcome problem={a.problem} done={undefined} fields={['value', 'type']} />
          </form>
        ) : (
          shown(field.value)
        )}
      </Table.Td>
      <Table.Td>{dateTime(field.updatedAt)}</Table.Td>
      <Table.Td>
        {!editing && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)} aria-label={`Change ${field.name}`}>
              Change
            </Button>
            <Button
              size="xs"
              variant="default"
              color="red"
              loading={a.busy}
              aria-label={`Delete ${field.name}`}
              onClick={() =>
                void a.run(async () => {
                  await ops.remove(id, field.id)
                  onDone()
                  return 'Deleted.'
                })
              }
            >
              Delete
            </Button>
          </Group>
        )}
        {!editing && a.problem && <ProblemAlert problem={a.problem} />}
      </Table.Td>
    </Table.Tr>
  )
}

function CustomFields({ kind, id }: { kind: KindInfo; id: number }) {
  const ops = CUSTOM_FIELDS[kind.kind]!
  const [version, setVersion] = useState(0)
  const fields = useApi(`custom-fields:${kind.kind}:${id}:${version}`, () => ops.list(id))
  const [form, setForm] = useState({ name: '', type: 'STRING' as FieldType, value: '' })
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const refresh = () => setVersion((v) => v + 1)
  const add = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const f = await ops.add(id, { name: form.name, type: form.type, value: typedValue(form.type, form.value) })
      setForm({ name: '', type: form.type, value: '' })
      refresh()
      return `Field ${f.name} added.`
    })
  }
  return (
    <Panel title="Custom fields" state={fields} testId="custom-fields">
      {({ rows, missing }) => (
        <Stack gap="sm">
          {missing && (
            <Text size="sm" c="orange.9" data-testid="missing-fields">
              Required but missing: {missing}
            </Text>
          )}
          {rows.length === 0 ? (
            <Text size="sm">No custom fields.</Text>
          ) : (
            <Table withTableBorder aria-label="Custom fields">
              <ColumnHeads columns={['Name', 'Type', 'Value', 'Changed', 'Actions']} />
              <Table.Tbody>
                {rows.map((f) => (
                  <FieldRow key={`${f.id}:${f.version}`} field={f} ops={ops} id={id} onDone={refresh} />
                ))}
              </Table.Tbody>
            </Table>
          )}
          <form onSubmit={add} aria-label="Add a custom field" noValidate>
            <Stack gap="xs">
              <Title order={3} size="h5">
                Add a field
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput
                  label="Field name"
                  name="name"
                  maxLength={100}
                  value={form.name}
                  error={errors.name}
                  onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
                />
                <NativeSelect
                  label="Field type"
                  name="type"
                  value={form.type}
                  error={errors.type}
                  data={FIELD_TYPES.map((t) => ({ value: t, label: words(t) }))}
                  onChange={(e) => setForm({ ...form, type: e.currentTarget.value as FieldType })}
                />
                <TextInput
                  label="Field value"
                  name="value"
                  description={
                    form.type === 'BOOLEAN' ? 'true or false' : form.type === 'DATE' ? 'YYYY-MM-DD' : undefined
                  }
                  maxLength={1000}
                  value={form.value}
                  error={errors.value}
                  onChange={(e) => setForm({ ...form, value: e.currentTarget.value })}
                />
              </SimpleGrid>
              <Group>
                <Button type="submit" loading={a.busy}>
                  Add field
                </Button>
              </Group>
              <Outcome problem={a.problem} done={a.done} fields={['name', 'type', 'value']} />
            </Stack>
          </form>
        </Stack>
      )}
    </Panel>
  )
}

function AccountRow({ account }: { account: Account }) {
  // The numbers as the API gave them: masked, unless the API answered ?reveal=true for this user.
  const [shownAccount, setShown] = useState(account)
  const [revealed, setRevealed] = useState(false)
  const a = useAction()
  const reveal = () =>
    void a.run(async () => {
      const clear = unwrap(
        await api.GET('/api/disbursementaccounts/{disbursementAccountId}', {
          params: { path: { disbursementAccountId: account.id }, query: { reveal: true } },
        }),
      )
      setShown(clear)
      setRevealed(true)
      return 'Shown as the API gave them.'
    })
  const x = revealed ? shownAccount : account
  return (
    <Table.Tr>
      <Table.Td>
        {x.name}
        {x.isDefault && (
          <Badge ml="xs" size="sm" variant="outline" color="blue.9">
            default
          </Badge>
        )}
      </Table.Td>
      <Table.Td>{x.paymentMethod}</Table.Td>
      <Table.Td>{x.bankName ?? '—'}</Table.Td>
      <Table.Td ff="monospace">{x.routingNumber ?? '—'}</Table.Td>
      <Table.Td ff="monospace">{x.accountNumber ?? '—'}</Table.Td>
      <Table.Td>{x.accountType ? words(x.accountType) : '—'}</Table.Td>
      <Table.Td>{words(x.status)}</Table.Td>
      <Table.Td>
        {x.paymentMethod !== 'CHECK' && !revealed && (
          <Button
            size="xs"
            variant="default"
            loading={a.busy}
            onClick={reveal}
            aria-label={`Show bank details of ${x.name}`}
          >
            Show bank details
          </Button>
        )}
        {revealed && (
          <Button
            size="xs"
            variant="default"
            onClick={() => setRevealed(false)}
            aria-label={`Hide bank details of ${x.name}`}
          >
            Hide
          </Button>
        )}
        {a.problem && <ProblemAlert problem={a.problem} />}
      </Table.Td>
    </Table.Tr>
  )
}

const ACCOUNT_FIELDS = [
  'name',
  'paymentMethod',
  'bankName',
  'routingNumber',
  'accountNumber',
  'accountType',
  'isDefault',
] as const

/** A new account: the API validates it whole (bank fields required for ACH and WIRE, refused for CHECK). */
function AccountForm({ id, onDone }: { id: number; onDone: () => void }) {
  const blank = {
    name: '',
    paymentMethod: 'ACH',
    bankName: '',
    routingNumber: '',
    accountNumber: '',
    accountType: 'CHECKING',
  }
  const [form, setForm] = useState(blank)
  const [isDefault, setDefault] = useState(false)
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const bind = (name: keyof typeof blank) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      // What is left empty is not sent (a CHECK account takes no bank fields).
      const given = Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== ''))
      const created = unwrap(
        await api.POST('/api/disbursementaccounts', {
          body: { ...given, accountHolderId: id, isDefault } as never,
        }),
      )
      setForm(blank)
      setDefault(false)
      onDone()
      return `Account ${created.name} added.`
    })
  }
  return (
    <form onSubmit={submit} aria-label="Add a disbursement account" noValidate>
      <Stack gap="xs">
        <Title order={3} size="h5">
          Add an account
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Account name" maxLength={100} {...bind('name')} />
          <NativeSelect
            label="Payment method"
            data={['ACH', 'WIRE', 'CHECK'].map((m) => ({ value: m, label: m }))}
            {...bind('paymentMethod')}
            onChange={(e) => {
              const paymentMethod = e.currentTarget.value
              setForm(
                paymentMethod === 'CHECK'
                  ? { ...form, paymentMethod, bankName: '', routingNumber: '', accountNumber: '', accountType: '' }
                  : { ...form, paymentMethod },
              )
            }}
          />
          <TextInput
            label="Bank name"
            maxLength={100}
            disabled={form.paymentMethod === 'CHECK'}
            {...bind('bankName')}
          />
          <NativeSelect
            label="Account type"
            disabled={form.paymentMethod === 'CHECK'}
            data={[
              { value: '', label: 'Not given' },
              { value: 'CHECKING', label: 'checking' },
              { value: 'SAVINGS', label: 'savings' },
            ]}
            {...bind('accountType')}
          />
          <TextInput
            label="Routing number"
            inputMode="numeric"
            maxLength={9}
            autoComplete="off"
            disabled={form.paymentMethod === 'CHECK'}
            {...bind('routingNumber')}
          />
          <TextInput
            label="Account number"
            inputMode="numeric"
            maxLength={17}
            autoComplete="off"
            disabled={form.paymentMethod === 'CHECK'}
            {...bind('accountNumber')}
          />
          <Checkbox
            mt="lg"
            label="Default account"
            checked={isDefault}
            error={errors.isDefault}
            onChange={(e) => setDefault(e.currentTarget.checked)}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={a.busy}>
            Add account
          </Button>
        </Group>
        <Outcome problem={a.problem} done={a.done} fields={ACCOUNT_FIELDS} />
      </Stack>
    </form>
  )
}

function DisbursementAccounts({ id }: { id: number }) {
  const [version, setVersion] = useState(0)
  const accounts = useApi(`accounts:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/disbursementaccounts', { params: { query: { accountHolderId: id, limit: 1000 } } })),
  )
  return (
    <Panel title="Disbursement accounts" state={accounts} testId="disbursement-accounts">
      {(rows) => (
        <Stack gap="sm">
          {rows.length === 0 ? (
            <Text size="sm">No disbursement accounts.</Text>
          ) : (
            <Table withTableBorder aria-label="Disbursement accounts">
              <ColumnHeads
                columns={['Account', 'Method', 'Bank', 'Routing', 'Account number', 'Type', 'Status', 'Bank details']}
              />
              <Table.Tbody>
                {rows.map((r) => (
                  <AccountRow key={`${r.id}:${r.version}`} account={r} />
                ))}
              </Table.Tbody>
            </Table>
          )}
          <AccountForm id={id} onDone={() => setVersion((v) => v + 1)} />
        </Stack>
      )}
    </Panel>
  )
}

const ownValue = (v: unknown): string =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0)
    ? '—'
    : Array.isArray(v)
      ? v.join(', ')
      : typeof v === 'boolean'
        ? v
          ? 'yes'
          : 'no'
        : String(v)

function Details({ kind, h }: { kind: KindInfo; h: Holder }) {
  const r = h as unknown as Record<string, unknown>
  return (
    <Facts
      label="Details"
      rows={[
        ...(kind.key ? [[kind.key.label, ownValue(r[kind.key.name])] as [string, string]] : []),
        ['Legal name', h.legalName],
        ['Display name', h.displayName],
        ['Status', `${words(h.status)}${h.isActive ? '' : ' (not active)'}`],
        ['Expires', h.expiredDate ? dateTime(h.expiredDate) : 'never'],
        ['Tax id', h.taxId ?? '—'],
        ['W-9 on file', h.w9OnFile ? 'yes' : 'no'],
        ...kind.own.map(
          (o) =>
            [
              o.label.replace(' (comma-separated)', ''),
              o.of && typeof r[o.name] === 'number' ? (
                <Link key={o.name} to={holderPath(o.of, r[o.name] as number)}>
                  {kindOf(o.of)?.one} {String(r[o.name])}
                </Link>
              ) : (
                ownValue(r[o.name])
              ),
            ] as [string, ReactNode],
        ),
        ['Created', dateTime(h.createdAt)],
        ['Changed', `${dateTime(h.updatedAt)} (version ${h.version})`],
      ]}
    />
  )
}

function Contacts({ h }: { h: Holder }) {
  return (
    <Facts
      label="Contact"
      rows={[
        [
          'Addresses',
          h.addresses.length === 0
            ? '—'
            : h.addresses.map((a, i) => (
                <Text size="sm" key={i}>
                  {words(a.type)}: {[a.line1, a.line2, a.city, `${a.state} ${a.postalCode}`].filter(Boolean).join(', ')}
                </Text>
              )),
        ],
        [
          'Phones',
          h.phones.length === 0
            ? '—'
            : h.phones.map((p, i) => (
                <Text size="sm" key={i}>
                  {words(p.type)}: {p.number}
                </Text>
              )),
        ],
        [
          'Emails',
          h.emails.length === 0
            ? '—'
            : h.emails.map((e, i) => (
                <Text size="sm" key={i}>
                  {words(e.type)}: {e.address}
                </Text>
              )),
        ],
      ]}
    />
  )
}

export default function AccountHolderPage({ kind, id }: { kind: KindInfo; id: number }) {
  const holder = useApi(`holder:${kind.kind}:${id}`, () => kind.api.get(id))
  const title = holder.data ? `${kind.one} ${holder.data.displayName}` : `${kind.one} ${id}`
  if (holder.problem)
    return (
      <RecordProblem
        title={title}
        problem={holder.problem}
        back={`/accountholders/${kind.slug}`}
        backLabel={`Back to the ${kind.label.toLowerCase()}`}
      />
    )
  const h = holder.data
  return (
    <Stack data-testid="holder-page" data-ready={h ? 'true' : undefined}>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Group gap="xs">
          {h && (
            <Badge size="lg" variant="dot" color={h.isActive ? 'green.9' : 'gray.8'} data-testid="holder-status">
              {h.isActive ? 'active' : h.status === 'INACTIVE' ? 'inactive' : 'expired'}
            </Badge>
          )}
          {h && kind.api.patch && (
            <Button variant="default" component={Link} to={`${holderPath(kind.kind, id)}/edit`}>
              Change
            </Button>
          )}
        </Group>
      </Group>
      <Text size="sm">
        <Link to={`/accountholders/${kind.slug}`}>All {kind.label.toLowerCase()}</Link>
        {h && 'dealerId' in h && h.dealerId !== null && h.dealerId !== undefined && (
          <>
            {' · '}
            <Link to={holderPath('DEALER', h.dealerId)}>Its dealer</Link>
          </>
        )}
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Details" state={holder} testId="holder-details">
          {(x) => <Details kind={kind} h={x} />}
        </Panel>
        <Panel title="Contact" state={holder}>
          {(x) => <Contacts h={x} />}
        </Panel>
      </SimpleGrid>
      {kind.customFields && <CustomFields kind={kind} id={id} />}
      {kindOf(kind.kind) && <DisbursementAccounts id={id} />}
    </Stack>
  )
}
