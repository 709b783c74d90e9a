// An account holder's form, to create one (POST /api/<kind>) or change one (PATCH /api/<kind>/{id},
// a JSON Merge Patch of what changed): the business key, names, status, tax id, W-9, the first
// address, phone and email, and the kind's own fields (accountHolderKinds.ts). Nothing is checked
// here: the API validates, and each error it names (`errors[].field`: `dealerNumber`,
// `addresses[0].postalCode`, `agentIds[1]`, …) is shown under that field; the others above the buttons.
import { Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { useEffect, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import { Link, navigate } from '../router.tsx'
import { Outcome, Panel, RecordProblem, useAction } from '../ui.tsx'
import { holderPath, STATES, type Holder, type KindInfo, type OwnField } from './accountHolderKinds.ts'

type Form = Record<string, string>

const ADDRESS = ['type', 'line1', 'line2', 'city', 'state', 'postalCode'] as const
const PHONE = ['type', 'number'] as const
const EMAIL = ['type', 'address'] as const
const LISTS = [
  { name: 'addresses', members: ADDRESS, required: ['line1', 'city', 'state', 'postalCode'] },
  { name: 'phones', members: PHONE, required: ['number'] },
  { name: 'emails', members: EMAIL, required: ['address'] },
] as const

const show = (v: unknown): string =>
  v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? String(v) : String(v)

/** What each field of the form holds for `h` (empty for a new one). */
function toForm(kind: KindInfo, h: Holder | undefined): Form {
  const r = (h ?? {}) as Record<string, unknown>
  const f: Form = {
    legalName: show(r.legalName),
    displayName: show(r.displayName),
    status: show(r.status) || 'ACTIVE',
    taxId: show(r.taxId),
    w9OnFile: show(r.w9OnFile) || 'false',
  }
  if (kind.key) f[kind.key.name] = show(r[kind.key.name])
  for (const l of LISTS) {
    const first = ((r[l.name] as Array<Record<string, unknown>> | undefined) ?? [])[0] ?? {}
    for (const m of l.members) f[`${l.name}[0].${m}`] = show(first[m])
  }
  for (const o of kind.own) f[o.name] = show(r[o.name])
  return f
}

/** A typed value as the API takes it; what does not parse is sent as typed, for the API to name. */
function parse(type: OwnField['type'], v: string): unknown {
  const t = v.trim()
  if (type === 'integer') return /^\d{1,15}$/.test(t) ? Number(t) : t
  if (type === 'amount') return /^-?\d{1,13}(\.\d+)?$/.test(t) ? Number(t) : t
  if (type === 'boolean') return t === 'true'
  if (type === 'integers' || type === 'strings') {
    const parts = t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    return type === 'strings' ? parts : parts.map((p) => (/^\d{1,15}$/.test(p) ? Number(p) : p))
  }
  return t
}

/** The first entry of a contact list from the form, or undefined when it is left empty. */
function entry(f: Form, l: (typeof LISTS)[number]): Record<string, unknown> | undefined {
  const values = Object.fromEntries(l.members.map((m) => [m, (f[`${l.name}[0].${m}`] ?? '').trim()]))
  if (!l.members.some((m) => m !== 'type' && values[m] !== '')) return undefined
  const out: Record<string, unknown> = {}
  for (const m of l.members) if (values[m] !== '' || (l.required as readonly string[]).includes(m)) out[m] = values[m]
  return out
}

/** The create body: every field given. */
function createBody(kind: KindInfo, f: Form): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  const fields: Array<[string, OwnField['type']]> = [
    ...(kind.key ? [[kind.key.name, 'text'] as [string, OwnField['type']]] : []),
    ['legalName', 'text'],
    ['displayName', 'text'],
    ['status', 'text'],
    ['taxId', 'text'],
    ...kind.own.map((o) => [o.name, o.type] as [string, OwnField['type']]),
  ]
  for (const [name, type] of fields) {
    const v = f[name] ?? ''
    if (v.trim() !== '' || (type === 'boolean' && v === 'true')) body[name] = parse(type, v)
  }
  // The business key and legal name are always sent, so that leaving them out is the API's error.
  if (kind.key) body[kind.key.name] = (f[kind.key.name] ?? '').trim()
  body.legalName = (f.legalName ?? '').trim()
  body.w9OnFile = f.w9OnFile === 'true'
  for (const l of LISTS) {
    const e = entry(f, l)
    if (e) body[l.name] = [e]
  }
  return body
}

/** The merge patch: the fields that changed (emptied ones as null); a contact list keeps its other entries. */
function patchBody(kind: KindInfo, f: Form, h: Holder): Record<string, unknown> {
  const was = toForm(kind, h)
  const r = h as unknown as Record<string, unknown>
  const body: Record<string, unknown> = {}
  const fields: Array<[string, OwnField['type']]> = [
    ...(kind.key ? [[kind.key.name, 'text'] as [string, OwnField['type']]] : []),
    ['legalName', 'text'],
    ['displayName', 'text'],
    ['status', 'text'],
    ['taxId', 'text'],
    ['w9OnFile', 'boolean'],
    ...kind.own.map((o) => [o.name, o.type] as [string, OwnField['type']]),
  ]
  for (const [name, type] of fields) {
    if (f[name] === was[name]) continue
    const v = f[name] ?? ''
    body[name] =
      v.trim() === '' && type !== 'boolean' ? (type === 'strings' || type === 'integers' ? [] : null) : parse(type, v)
  }
  for (const l of LISTS) {
    if (l.members.every((m) => f[`${l.name}[0].${m}`] === was[`${l.name}[0].${m}`])) continue
    const rest = ((r[l.name] as unknown[] | undefined) ?? []).slice(1)
    const e = entry(f, l)
    body[l.name] = e ? [e, ...rest] : rest
  }
  return body
}

/** The account holders of `kind` a reference field offers (the first 1000, by name). */
function HolderSelect({ field, bind }: { field: OwnField; bind: Record<string, unknown> & { value: string } }) {
  const options = useApi(`holder-options:${field.of}`, async () =>
    unwrap(await api.GET('/api/accountholders', { params: { query: { kind: field.of, limit: 1000 } } })),
  )
  const rows = (options.data ?? []).toSorted((a, b) => a.displayName.localeCompare(b.displayName))
  return (
    <NativeSelect
      label={field.label}
      description={options.problem ? `The list could not be read: ${options.problem.title}` : undefined}
      data={[
        { value: '', label: 'None' },
        // The stored one, even when it is not among those listed.
        ...(bind.value && !rows.some((r) => String(r.id) === bind.value)
          ? [{ value: bind.value, label: `Account holder ${bind.value}` }]
          : []),
        ...rows.map((r) => ({
          value: String(r.id),
          label: `${r.displayName}${r.businessKey ? ` (${r.businessKey})` : ''}`,
        })),
      ]}
      {...bind}
    />
  )
}

function FormFields({
  kind,
  form,
  setForm,
  errorAt,
}: {
  kind: KindInfo
  form: Form
  setForm: (f: Form) => void
  errorAt: (name: string) => string | undefined
}) {
  const bind = (name: string) => ({
    name,
    value: form[name] ?? '',
    error: errorAt(name),
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })
  const own = (o: OwnField) =>
    o.of ? (
      <HolderSelect key={o.name} field={o} bind={bind(o.name)} />
    ) : o.type === 'select' ? (
      <NativeSelect
        key={o.name}
        label={o.label}
        data={[{ value: '', label: 'Not given' }, ...(o.options ?? []).map((v) => ({ value: v, label: v }))]}
        {...bind(o.name)}
      />
    ) : o.type === 'boolean' ? (
      <Checkbox
        key={o.name}
        mt="lg"
        label={o.label}
        name={o.name}
        checked={form[o.name] === 'true'}
        error={errorAt(o.name)}
        onChange={(e) => setForm({ ...form, [o.name]: String(e.currentTarget.checked) })}
      />
    ) : (
      <TextInput
        key={o.name}
        label={o.label}
        inputMode={o.type === 'integer' || o.type === 'amount' ? 'decimal' : undefined}
        maxLength={o.maxLength ?? 200}
        {...bind(o.name)}
      />
    )
  return (
    <Stack>
      <Title order={3} size="h5">
        Identity
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {kind.key && <TextInput label={kind.key.label} maxLength={40} required {...bind(kind.key.name)} />}
        <TextInput label="Legal name" maxLength={200} required {...bind('legalName')} />
        <TextInput
          label="Display name"
          description="The legal name when empty"
          maxLength={200}
          {...bind('displayName')}
        />
        <NativeSelect
          label="Status"
          data={[
            { value: 'ACTIVE', label: 'active' },
            { value: 'INACTIVE', label: 'inactive' },
          ]}
          {...bind('status')}
        />
        <TextInput label="Tax id (EIN or SSN)" maxLength={11} {...bind('taxId')} />
        <Checkbox
          mt="lg"
          label="W-9 on file"
          name="w9OnFile"
          checked={form.w9OnFile === 'true'}
          error={errorAt('w9OnFile')}
          onChange={(e) => setForm({ ...form, w9OnFile: String(e.currentTarget.checked) })}
        />
      </SimpleGrid>
      {kind.own.length > 0 && (
        <>
          <Title order={3} size="h5">
            {kind.one}&apos;s own fields
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {kind.own.map(own)}
          </SimpleGrid>
        </>
      )}
      <Title order={3} size="h5">
        Address
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        <NativeSelect
          label="Address type"
          data={['MAILING', 'PHYSICAL', 'BILLING', 'REMIT'].map((v) => ({ value: v, label: v.toLowerCase() }))}
          {...bind('addresses[0].type')}
          value={form['addresses[0].type'] || 'MAILING'}
        />
        <TextInput label="Street" maxLength={100} {...bind('addresses[0].line1')} />
        <TextInput label="Street, second line" maxLength={100} {...bind('addresses[0].line2')} />
        <TextInput label="City" maxLength={60} {...bind('addresses[0].city')} />
        <NativeSelect
          label="State"
          data={[{ value: '', label: 'Not given' }, ...STATES.map((s) => ({ value: s, label: s }))]}
          {...bind('addresses[0].state')}
        />
        <TextInput label="ZIP code" maxLength={10} {...bind('addresses[0].postalCode')} />
      </SimpleGrid>
      <Title order={3} size="h5">
        Phone and email
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <NativeSelect
          label="Phone type"
          data={['OFFICE', 'MOBILE', 'FAX', 'TOLL_FREE'].map((v) => ({
            value: v,
            label: v.toLowerCase().replace('_', ' '),
          }))}
          {...bind('phones[0].type')}
          value={form['phones[0].type'] || 'OFFICE'}
        />
        <TextInput label="Phone number" maxLength={20} {...bind('phones[0].number')} />
        <NativeSelect
          label="Email type"
          data={['PRIMARY', 'BILLING', 'CLAIMS', 'CONTRACTS'].map((v) => ({ value: v, label: v.toLowerCase() }))}
          {...bind('emails[0].type')}
          value={form['emails[0].type'] || 'PRIMARY'}
        />
        <TextInput label="Email address" type="email" maxLength={254} {...bind('emails[0].address')} />
      </SimpleGrid>
    </Stack>
  )
}

export default function AccountHolderForm({ kind, id }: { kind: KindInfo; id?: number }) {
  const existing = useApi(`holder-edit:${kind.kind}:${id ?? 'new'}`, async () =>
    id === undefined ? null : kind.api.get(id),
  )
  const [form, setForm] = useState<Form>(() => toForm(kind, undefined))
  useEffect(() => {
    if (existing.data) setForm(toForm(kind, existing.data))
  }, [existing.data, kind])
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const names = Object.keys(form)
  const errorAt = (name: string) =>
    errors[name] ?? a.problem?.errors?.find((e) => e.field.startsWith(`${name}[`))?.message
  const placed = (a.problem?.errors ?? [])
    .map((e) => e.field)
    .filter((f) => names.some((n) => f === n || f.startsWith(`${n}[`)))

  const title = id === undefined ? `New ${kind.one.toLowerCase()}` : `Change ${kind.one.toLowerCase()} ${id}`
  const back = id === undefined ? `/accountholders/${kind.slug}` : holderPath(kind.kind, id)
  if (existing.problem) return <RecordProblem title={title} problem={existing.problem} back={back} backLabel="Back" />
  const save = id === undefined ? kind.api.create : kind.api.patch
  if (!save)
    return (
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text>The API does not take {kind.label.toLowerCase()} this way.</Text>
      </Stack>
    )

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const saved =
        id === undefined
          ? await kind.api.create!(createBody(kind, form))
          : await kind.api.patch!(id, patchBody(kind, form, existing.data!))
      navigate(holderPath(kind.kind, saved.id))
      return 'Saved.'
    })
  }

  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text size="sm">
        <Link to={back}>{id === undefined ? `All ${kind.label.toLowerCase()}` : 'Back to the record'}</Link>
      </Text>
      <Panel title={id === undefined ? 'Details' : 'Details as stored'} state={existing}>
        {() => (
          <form onSubmit={submit} aria-label={title} noValidate data-testid="holder-form">
            <Stack>
              <FormFields kind={kind} form={form} setForm={setForm} errorAt={errorAt} />
              <Outcome problem={a.problem} done={a.done} fields={placed} />
              <Group>
                <Button type="submit" loading={a.busy}>
                  {id === undefined ? `Create ${kind.one.toLowerCase()}` : 'Save changes'}
                </Button>
                <Button variant="default" component={Link} to={back}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Panel>
    </Stack>
  )
}
