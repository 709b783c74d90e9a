// A claim's job as the adjuster writes it, at intake and when a job is added to a claim: the three Cs
// (the tenant's complaints, causes and corrections: GET /api/claims/complaints, /causes, /corrections,
// their types and usual combinations), the covered component (the contract's coverage groups) or the
// PPM service it redeems, and its part, labor and sublet lines. Amounts are sent as typed: the API
// checks them (more than 0, at most two places…) and names the field it refuses, shown under it.
import { ActionIcon, Button, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { numeric } from '../ui.tsx'

type Part = { partNumber: string; description: string; quantity: string; unitPrice: string; taxable: boolean }
type Labor = { operationCode: string; hours: string; rate: string }
type Sublet = { description: string; amount: string }
export type JobDraft = {
  complaintId: string
  causeId: string
  correctionId: string
  component: string
  ppmServiceCode: string
  parts: Part[]
  labor: Labor[]
  sublet: Sublet[]
}

export const emptyJob = (): JobDraft => ({
  complaintId: '',
  causeId: '',
  correctionId: '',
  component: '',
  ppmServiceCode: '',
  parts: [],
  labor: [],
  sublet: [],
})

const id = (v: string) => (v === '' ? null : Number(v))
const text = (v: string) => (v.trim() === '' ? null : v.trim())

/** The job as the API takes it (POST /api/claims `jobs[]`, a PATCH's `/jobs/-`). */
export function jobBody(d: JobDraft) {
  return {
    complaintId: Number(d.complaintId || 0),
    causeId: id(d.causeId),
    correctionId: id(d.correctionId),
    coverageComponentCode: text(d.component),
    ...(d.ppmServiceCode ? { ppmServiceCode: d.ppmServiceCode } : {}),
    parts: d.parts.map((p) => ({
      partNumber: p.partNumber,
      description: p.description,
      quantity: p.quantity,
      unitPrice: p.unitPrice,
      taxable: p.taxable,
    })),
    labor: d.labor.map((l) => ({ operationCode: text(l.operationCode), hours: l.hours, rate: l.rate })),
    sublet: d.sublet.map((s) => ({ description: s.description, amount: s.amount })),
  }
}

/** The tenant's three Cs, their types and usual combinations (active ones), read once per screen. */
export function useThreeCs() {
  return useApi('claim-three-cs', async () => {
    const q = { params: { query: { active: true, limit: 1000 } } }
    const [types, complaints, causes, corrections, combinations] = await Promise.all([
      api.GET('/api/claims/complaintscausescorrectionstypes', q).then(unwrap),
      api.GET('/api/claims/complaints', q).then(unwrap),
      api.GET('/api/claims/causes', q).then(unwrap),
      api.GET('/api/claims/corrections', q).then(unwrap),
      api.GET('/api/claims/complaintcausecorrections', q).then(unwrap),
    ])
    return { types, complaints, causes, corrections, combinations }
  })
}
export type ThreeCs = NonNullable<ReturnType<typeof useThreeCs>['data']>

type Entry = ThreeCs['complaints'][number]

/** Entries grouped by their type's name, for a select. */
function grouped(entries: Entry[], lists: ThreeCs, blank: string) {
  const typeName = new Map(lists.types.map((t) => [t.code, t.name]))
  const groups = new Map<string, Array<{ value: string; label: string }>>()
  for (const e of entries) {
    const g = typeName.get(e.type) ?? e.type
    if (!groups.has(g)) groups.set(g, [])
    groups.get(g)!.push({ value: String(e.id), label: e.name })
  }
  return [{ value: '', label: blank }, ...[...groups.entries()].map(([group, items]) => ({ group, items }))]
}

export type CoverageComponent = { code: string; name: string; group: string }
export type PpmService = { serviceCode: string; description: string; remainingCount: number }

/**
 * The fields of one job. `errors` are the API's, by field; `prefix` is the job's place in the claim's
 * `jobs` (`jobs[0]` at intake, `jobs[n]` for a job added after n others), so that `jobs[0].parts[1].quantity`
 * is shown under the second part's quantity. `label` prefixes every field's label ("Job 1").
 */
export function JobFields({
  draft,
  setDraft,
  lists,
  components,
  ppmServices = [],
  errors,
  prefix,
  label,
}: {
  draft: JobDraft
  setDraft: (d: JobDraft) => void
  lists: ThreeCs
  components: CoverageComponent[]
  ppmServices?: PpmService[]
  errors: Record<string, string>
  prefix: string
  label: string
}) {
  const err = (f: string) => errors[`${prefix}.${f}`]
  const complaint = lists.complaints.find((c) => String(c.id) === draft.complaintId)
  const ofType = <T extends Entry>(xs: T[]) => (complaint ? xs.filter((x) => x.type === complaint.type) : xs)
  const set = (over: Partial<JobDraft>) => setDraft({ ...draft, ...over })

  // Picking a cause fills in the correction the tenant's combinations give for it, when there is one.
  const pickCause = (causeId: string) => {
    const combo = lists.combinations.find(
      (c) => String(c.cause?.id) === causeId && (!complaint || c.complaint.id === complaint.id),
    )
    set({ causeId, correctionId: draft.correctionId || (combo?.correction ? String(combo.correction.id) : '') })
  }
  const line = <K extends 'parts' | 'labor' | 'sublet'>(k: K, i: number, over: Partial<JobDraft[K][number]>) =>
    set({ [k]: draft[k].map((x, j) => (j === i ? { ...x, ...over } : x)) } as Partial<JobDraft>)
  const drop = (k: 'parts' | 'labor' | 'sublet', i: number) =>
    set({ [k]: draft[k].filter((_, j) => j !== i) } as Partial<JobDraft>)

  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <NativeSelect
          label={`${label}: complaint`}
          name={`${prefix}.complaintId`}
          required
          value={draft.complaintId}
          error={err('complaintId')}
          data={grouped(lists.complaints, lists, 'Choose the complaint')}
          onChange={(e) => set({ complaintId: e.currentTarget.value })}
        />
        <NativeSelect
          label={`${label}: cause`}
          name={`${prefix}.causeId`}
          value={draft.causeId}
          error={err('causeId')}
          data={grouped(ofType(lists.causes), lists, 'Not known yet')}
          onChange={(e) => pickCause(e.currentTarget.value)}
        />
        <NativeSelect
          label={`${label}: correction`}
          name={`${prefix}.correctionId`}
          value={draft.correctionId}
          error={err('correctionId')}
          data={grouped(ofType(lists.corrections), lists, 'Not known yet')}
          onChange={(e) => set({ correctionId: e.currentTarget.value })}
        />
        {ppmServices.length > 0 ? (
          <NativeSelect
            label={`${label}: PPM service redeemed`}
            name={`${prefix}.ppmServiceCode`}
            value={draft.ppmServiceCode}
            error={err('ppmServiceCode')}
            data={[
              { value: '', label: 'None' },
              ...ppmServices.map((s) => ({
                value: s.serviceCode,
                label: `${s.description} (${s.remainingCount} left)`,
              })),
            ]}
            onChange={(e) => set({ ppmServiceCode: e.currentTarget.value })}
          />
        ) : (
          <NativeSelect
            label={`${label}: covered component`}
            name={`${prefix}.coverageComponentCode`}
            value={draft.component}
            error={err('coverageComponentCode')}
            data={[
              { value: '', label: 'None' },
              ...[...new Set(components.map((c) => c.group))].map((group) => ({
                group,
                items: components.filter((c) => c.group === group).map((c) => ({ value: c.code, label: c.name })),
              })),
            ]}
            onChange={(e) => set({ component: e.currentTarget.value })}
          />
        )}
      </SimpleGrid>

      {draft.parts.map((p, i) => {
        const at = `parts[${i}]`
        const n = `${label}, part ${i + 1}`
        return (
          <Group key={`p${i}`} align="start" gap="xs" wrap="wrap" role="group" aria-label={n}>
            <TextInput
              label={`${n}: number`}
              maxLength={60}
              value={p.partNumber}
              error={err(`${at}.partNumber`)}
              onChange={(e) => line('parts', i, { partNumber: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: description`}
              maxLength={200}
              value={p.description}
              error={err(`${at}.description`)}
              onChange={(e) => line('parts', i, { description: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: quantity`}
              inputMode="decimal"
              maxLength={20}
              w={130}
              styles={{ input: numeric }}
              value={p.quantity}
              error={err(`${at}.quantity`)}
              onChange={(e) => line('parts', i, { quantity: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: unit price`}
              inputMode="decimal"
              maxLength={20}
              w={150}
              styles={{ input: numeric }}
              value={p.unitPrice}
              error={err(`${at}.unitPrice`) ?? err(`${at}.requestedUnitPrice`)}
              onChange={(e) => line('parts', i, { unitPrice: e.currentTarget.value })}
            />
            <Checkbox
              mt={30}
              label="Taxable"
              aria-label={`${n}: taxable`}
              checked={p.taxable}
              onChange={(e) => line('parts', i, { taxable: e.currentTarget.checked })}
            />
            <ActionIcon
              mt={26}
              variant="default"
              aria-label={`Remove ${n}`}
              title={`Remove ${n}`}
              onClick={() => drop('parts', i)}
            >
              ×
            </ActionIcon>
          </Group>
        )
      })}
      {draft.labor.map((l, i) => {
        const at = `labor[${i}]`
        const n = `${label}, labor ${i + 1}`
        return (
          <Group key={`l${i}`} align="start" gap="xs" wrap="wrap" role="group" aria-label={n}>
            <TextInput
              label={`${n}: operation`}
              maxLength={60}
              value={l.operationCode}
              error={err(`${at}.operationCode`)}
              onChange={(e) => line('labor', i, { operationCode: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: hours`}
              inputMode="decimal"
              maxLength={20}
              w={130}
              styles={{ input: numeric }}
              value={l.hours}
              error={err(`${at}.hours`)}
              onChange={(e) => line('labor', i, { hours: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: rate`}
              inputMode="decimal"
              maxLength={20}
              w={150}
              styles={{ input: numeric }}
              value={l.rate}
              error={err(`${at}.rate`)}
              onChange={(e) => line('labor', i, { rate: e.currentTarget.value })}
            />
            <ActionIcon
              mt={26}
              variant="default"
              aria-label={`Remove ${n}`}
              title={`Remove ${n}`}
              onClick={() => drop('labor', i)}
            >
              ×
            </ActionIcon>
          </Group>
        )
      })}
      {draft.sublet.map((s, i) => {
        const at = `sublet[${i}]`
        const n = `${label}, sublet ${i + 1}`
        return (
          <Group key={`s${i}`} align="start" gap="xs" wrap="wrap" role="group" aria-label={n}>
            <TextInput
              label={`${n}: description`}
              maxLength={200}
              value={s.description}
              error={err(`${at}.description`)}
              onChange={(e) => line('sublet', i, { description: e.currentTarget.value })}
            />
            <TextInput
              label={`${n}: amount`}
              inputMode="decimal"
              maxLength={20}
              w={150}
              styles={{ input: numeric }}
              value={s.amount}
              error={err(`${at}.amount`)}
              onChange={(e) => line('sublet', i, { amount: e.currentTarget.value })}
            />
            <ActionIcon
              mt={26}
              variant="default"
              aria-label={`Remove ${n}`}
              title={`Remove ${n}`}
              onClick={() => drop('sublet', i)}
            >
              ×
            </ActionIcon>
          </Group>
        )
      })}
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          onClick={() =>
            set({
              parts: [...draft.parts, { partNumber: '', description: '', quantity: '1', unitPrice: '', taxable: true }],
            })
          }
        >
          Add a part
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => set({ labor: [...draft.labor, { operationCode: '', hours: '', rate: '' }] })}
        >
          Add labor
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => set({ sublet: [...draft.sublet, { description: '', amount: '' }] })}
        >
          Add sublet
        </Button>
        {err('parts') || err('labor') || err('sublet') ? (
          <Text size="sm" c="red.9">
            {err('parts') ?? err('labor') ?? err('sublet')}
          </Text>
        ) : null}
      </Group>
    </Stack>
  )
}

/** The field names the job's form shows errors under (the rest of a refusal is listed above the form). */
export function jobFieldNames(d: JobDraft, prefix: string): string[] {
  const own = ['complaintId', 'causeId', 'correctionId', 'coverageComponentCode', 'ppmServiceCode']
  return [
    ...own,
    'parts',
    'labor',
    'sublet',
    ...d.parts.flatMap((_, i) =>
      ['partNumber', 'description', 'quantity', 'unitPrice', 'requestedUnitPrice'].map((f) => `parts[${i}].${f}`),
    ),
    ...d.labor.flatMap((_, i) => ['operationCode', 'hours', 'rate'].map((f) => `labor[${i}].${f}`)),
    ...d.sublet.flatMap((_, i) => ['description', 'amount'].map((f) => `sublet[${i}].${f}`)),
  ].map((f) => `${prefix}.${f}`)
}
