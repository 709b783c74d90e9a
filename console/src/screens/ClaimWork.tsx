// The adjuster's work on a claim (docs/claims.md), beside ClaimPage.tsx: adding a job, deciding a job
// (authorize, deny with a reason, remove a pending one), the claim's end (deny, close, void, reopen),
// holds placed and released, the inspection (request, results, cancel), payments recorded on the open
// payment request and its withdrawal, and the claim's documents (list and upload). Every change is
// the API's: a JSON Patch of the claim (PATCH /api/claims/{id}), the inspection routes, the payments
// route, the documents route; its refusal is shown as it answers, a field error under its field.
import {
  Anchor,
  Button,
  FileInput,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { dateTime, day, money, today } from '../format.ts'
import { bindField, ColumnHeads, Facts, Outcome, Panel, ProblemAlert, useAction } from '../ui.tsx'
import { emptyJob, JobFields, jobBody, jobFieldNames, useThreeCs, type JobDraft } from './ClaimJobForm.tsx'
import { statusLabel } from './Claims.tsx'

type Claim = Schemas['Claim']
type Op = { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown }

/** One JSON Patch of the claim (docs/claims.md "Deciding a claim"); the claim as it is after it. */
export async function patchClaim(claimId: number, ops: Op[]) {
  return unwrap(
    await api.PATCH('/api/claims/{claimId}', {
      params: { path: { claimId } },
      body: ops,
      headers: { 'Content-Type': 'application/json-patch+json' },
    }),
  )
}

/** The statuses in which the claim's jobs, holds and payee may be edited (the state machine's EDIT). */
export const editable = (c: Claim) => ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'].includes(c.status)

/** The tenant's denied, hold and inspection reasons (active ones). */
export function useReasons() {
  return useApi('claim-reasons', async () => {
    const q = { params: { query: { active: true, limit: 1000 } } }
    const [denied, hold, inspection] = await Promise.all([
      api.GET('/api/claims/deniedReasons', q).then(unwrap),
      api.GET('/api/claims/holdReasons', q).then(unwrap),
      api.GET('/api/inspectionreasons', q).then(unwrap),
    ])
    return { denied, hold, inspection }
  })
}
export type Reasons = NonNullable<ReturnType<typeof useReasons>['data']>

/** A button that asks once more before an action that cannot be taken back. */
function ConfirmButton({
  label,
  confirm,
  onConfirm,
  busy,
  color,
}: {
  label: string
  confirm: string
  onConfirm: () => void
  busy: boolean
  color?: string
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <Button variant="default" onClick={() => setAsking(true)}>
        {label}
      </Button>
    )
  return (
    <Group gap="xs">
      <Button
        color={color ?? 'red.9'}
        loading={busy}
        onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >
        {confirm}
      </Button>
      <Button variant="subtle" onClick={() => setAsking(false)}>
        Keep it
      </Button>
    </Group>
  )
}

/** A job added to the claim (`add /jobs/-`): PENDING until decided. */
export function AddJob({ claim, onDone }: { claim: Claim; onDone: () => void }) {
  const [open, setOpen] = useState(false)
  const [job, setJob] = useState<JobDraft>(emptyJob())
  const lists = useThreeCs()
  const coverage = useApi(`claim-coverage:${claim.contractId}`, async () => {
    const [groups, ppm] = await Promise.all([
      api
        .GET('/api/contracts/{contractId}/coveragegroups', { params: { path: { contractId: claim.contractId } } })
        .then(unwrap),
      api.GET('/api/claims/{claimId}/ppmservices', { params: { path: { claimId: claim.id } } }).then(unwrap),
    ])
    return { groups, ppm }
  })
  const a = useAction()
  const n = claim.jobs.length
  const prefix = `jobs[${n}]`
  const errors = fieldErrors(a.problem)
  if (!open)
    return (
      <Group>
        <Button variant="default" onClick={() => setOpen(true)}>
          Add a job
        </Button>
        <Outcome problem={undefined} done={a.done} />
      </Group>
    )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      await patchClaim(claim.id, [{ op: 'add', path: '/jobs/-', value: jobBody(job) }])
      setJob(emptyJob())
      setOpen(false)
      onDone()
      return `Job ${n + 1} added.`
    })
  }
  const components = (coverage.data?.groups ?? []).flatMap((g) =>
    g.components.map((x) => ({ code: x.code, name: x.name, group: g.name })),
  )
  return (
    <form onSubmit={submit} aria-label={`Add job ${n + 1}`} noValidate data-testid="add-job">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Job {n + 1}
        </Text>
        {lists.problem && <ProblemAlert problem={lists.problem} />}
        {coverage.problem && <ProblemAlert problem={coverage.problem} />}
        {lists.data && (
          <JobFields
            draft={job}
            setDraft={setJob}
            lists={lists.data}
            components={components}
            ppmServices={coverage.data?.ppm ?? []}
            errors={errors}
            prefix={prefix}
            label={`Job ${n + 1}`}
          />
        )}
        <Group>
          <Button type="submit" loading={a.busy}>
            Add the job
          </Button>
          <Button variant="subtle" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </Group>
        <Outcome problem={a.problem} done={undefined} fields={jobFieldNames(job, prefix)} />
      </Stack>
    </form>
  )
}

/** One job's decision: authorize it, deny it for a reason, or remove it while pending. */
export function JobDecision({
  claim,
  index,
  reasons,
  onDone,
}: {
  claim: Claim
  index: number
  reasons: Reasons | undefined
  onDone: () => void
}) {
  const a = useAction()
  const [denying, setDenying] = useState(false)
  const [reason, setReason] = useState('')
  const job = claim.jobs[index]!
  const n = job.lineNumber
  const act = (ops: Op[], said: string) =>
    a.run(async () => {
      await patchClaim(claim.id, ops)
      setDenying(false)
      onDone()
      return said
    })
  if (!editable(claim)) return null
  return (
    <Stack gap={4}>
      <Group gap={4} wrap="nowrap">
        {job.status !== 'AUTHORIZED' && (
          <Button
            size="compact-xs"
            variant="light"
            aria-label={`Authorize job ${n}`}
            loading={a.busy}
            onClick={() =>
              void act(
                [
                  { op: 'replace', path: `/jobs/${index}/status`, value: 'AUTHORIZED' },
                  { op: 'replace', path: `/jobs/${index}/deniedReasonId`, value: null },
                ],
                `Job ${n} authorized.`,
              )
            }
          >
            Authorize
          </Button>
        )}
        {job.status !== 'DENIED' && (
          <Button size="compact-xs" variant="default" aria-label={`Deny job ${n}`} onClick={() => setDenying(true)}>
            Deny
          </Button>
        )}
        {job.status === 'PENDING' && (
          <Button
            size="compact-xs"
            variant="subtle"
            aria-label={`Remove job ${n}`}
            loading={a.busy}
            onClick={() => void act([{ op: 'remove', path: `/jobs/${index}` }], `Job ${n} removed.`)}
          >
            Remove
          </Button>
        )}
      </Group>
      {denying && (
        <Group gap={4} align="end" wrap="nowrap">
          <NativeSelect
            size="xs"
            label={`Job ${n}: denied reason`}
            value={reason}
            data={[
              { value: '', label: 'Choose' },
              ...(reasons?.denied ?? []).map((r) => ({ value: String(r.id), label: r.name })),
            ]}
            error={fieldErrors(a.problem)[`jobs[${index}].deniedReasonId`]}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Button
            size="compact-xs"
            color="red.9"
            loading={a.busy}
            onClick={() =>
              void act(
                [
                  { op: 'replace', path: `/jobs/${index}/deniedReasonId`, value: reason ? Number(reason) : null },
                  { op: 'replace', path: `/jobs/${index}/status`, value: 'DENIED' },
                ],
                `Job ${n} denied.`,
              )
            }
          >
            Confirm the denial
          </Button>
        </Group>
      )}
      <Outcome problem={a.problem} done={a.done} fields={[`jobs[${index}].deniedReasonId`]} />
    </Stack>
  )
}

/** The claim's end: deny it (a reason), close it, void it, reopen it, as its status allows. */
export function ClaimDecision({ claim, reasons, onDone }: { claim: Claim; reasons: Reasons; onDone: () => void }) {
  const a = useAction()
  const [reason, setReason] = useState('')
  const s = claim.status
  const act = (ops: Op[], said: string) =>
    a.run(async () => {
      const next = await patchClaim(claim.id, ops)
      onDone()
      return `${said} The claim is ${statusLabel(next.status)}.`
    })
  const canDeny = ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'].includes(s)
  const canClose = ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PARTIALLY_PAID'].includes(s)
  const canVoid = ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'DENIED', 'CLOSED'].includes(s)
  const canReopen = ['DENIED', 'CLOSED'].includes(s)
  if (!canDeny && !canClose && !canVoid && !canReopen)
    return <Text size="sm">The claim is {statusLabel(s)}: final.</Text>
  const errors = fieldErrors(a.problem)
  return (
    <Stack gap="xs">
      {canDeny && (
        <Group align="end" gap="xs">
          <NativeSelect
            label="Denied reason"
            name="deniedReasonId"
            value={reason}
            error={errors.deniedReasonId}
            data={[
              { value: '', label: 'Choose' },
              ...reasons.denied.map((r) => ({ value: String(r.id), label: r.name })),
            ]}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Button
            variant="default"
            loading={a.busy}
            onClick={() =>
              void act(
                [
                  { op: 'replace', path: '/deniedReasonId', value: reason ? Number(reason) : null },
                  { op: 'replace', path: '/status', value: 'DENIED' },
                ],
                'Denied.',
              )
            }
          >
            Deny the claim
          </Button>
        </Group>
      )}
      <Group gap="xs">
        {canClose && (
          <ConfirmButton
            label="Close the claim"
            confirm="Close it (no more payment)"
            busy={a.busy}
            color="orange.9"
            onConfirm={() => void act([{ op: 'replace', path: '/status', value: 'CLOSED' }], 'Closed.')}
          />
        )}
        {canVoid && (
          <ConfirmButton
            label="Void the claim"
            confirm="Void it (entered in error)"
            busy={a.busy}
            onConfirm={() => void act([{ op: 'replace', path: '/status', value: 'VOIDED' }], 'Voided.')}
          />
        )}
        {canReopen && (
          <Button
            variant="default"
            loading={a.busy}
            onClick={() => void act([{ op: 'replace', path: '/status', value: 'OPEN' }], 'Reopened.')}
          >
            Reopen the claim
          </Button>
        )}
      </Group>
      <Outcome problem={a.problem} done={a.done} fields={['deniedReasonId']} />
    </Stack>
  )
}

/** Holds: every hold (open first, as the API lists them); place one (a reason and a note), release an open one. */
export function Holds({ claim, reasons, onDone }: { claim: Claim; reasons: Reasons; onDone: () => void }) {
  const a = useAction()
  const [form, setForm] = useState({ holdReasonId: '', note: '' })
  const open = claim.holds.filter((h) => !h.releasedAt)
  const kept = (except?: number) =>
    open.filter((h) => h.id !== except).map((h) => ({ id: h.id, holdReasonId: h.holdReason.id, note: h.note }))
  const errors = fieldErrors(a.problem)
  const n = open.length
  const place = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      await patchClaim(claim.id, [
        {
          op: 'add',
          path: '/holds/-',
          value: {
            holdReasonId: form.holdReasonId ? Number(form.holdReasonId) : (null as unknown as number),
            note: form.note.trim() || null,
          },
        },
      ])
      setForm({ holdReasonId: '', note: '' })
      onDone()
      return 'Hold placed.'
    })
  }
  const release = (id: number) =>
    a.run(async () => {
      await patchClaim(claim.id, [{ op: 'replace', path: '/holds', value: kept(id) }])
      onDone()
      return 'Hold released.'
    })
  const canPlace = ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID'].includes(
    claim.status,
  )
  return (
    <Stack gap="xs">
      {claim.holds.length === 0 ? (
        <Text size="sm">No holds.</Text>
      ) : (
        <Table withTableBorder aria-label="Holds">
          <ColumnHeads columns={['Reason', 'Note', 'Placed', 'Released', '']} />
          <Table.Tbody>
            {claim.holds.map((h) => (
              <Table.Tr key={h.id}>
                <Table.Td>{h.holdReason.text}</Table.Td>
                <Table.Td>{h.note ?? ''}</Table.Td>
                <Table.Td>
                  {dateTime(h.placedAt)} by {h.placedBy}
                </Table.Td>
                <Table.Td>{h.releasedAt ? `${dateTime(h.releasedAt)} by ${h.releasedBy ?? ''}` : 'open'}</Table.Td>
                <Table.Td>
                  {!h.releasedAt && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      aria-label={`Release the hold: ${h.holdReason.text}`}
                      loading={a.busy}
                      onClick={() => void release(h.id)}
                    >
                      Release
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canPlace && (
        <form onSubmit={place} aria-label="Place a hold" noValidate>
          <Group align="end" gap="xs">
            <NativeSelect
              label="Hold reason"
              name="holdReasonId"
              data={[
                { value: '', label: 'Choose' },
                ...reasons.hold.map((r) => ({ value: String(r.id), label: r.name })),
              ]}
              {...bindField(form, setForm)('holdReasonId')}
              error={errors[`holds[${n}].holdReasonId`]}
            />
            <TextInput
              label="Hold note"
              name="note"
              maxLength={2000}
              {...bindField(form, setForm)('note')}
              error={errors[`holds[${n}].note`]}
            />
            <Button type="submit" variant="default" loading={a.busy}>
              Place the hold
            </Button>
          </Group>
        </form>
      )}
      <Outcome problem={a.problem} done={a.done} fields={[`holds[${n}].holdReasonId`, `holds[${n}].note`]} />
    </Stack>
  )
}

const OUTSTANDING = ['REQUESTED', 'TAKEN']

/** The claim's latest inspection; request one, record its results or cancel it. */
export function Inspection({ claim, reasons, onDone }: { claim: Claim; reasons: Reasons; onDone: () => void }) {
  const x = claim.inspection
  const companies = useApi('inspection-companies', async () =>
    unwrap(await api.GET('/api/inspectioncompanies', { params: { query: { status: 'ACTIVE', limit: 1000 } } })),
  )
  const a = useAction()
  const [ask, setAsk] = useState({ inspectionCompanyId: '', reasonId: '', note: '' })
  const [result, setResult] = useState({ findings: '', inspectedOn: today(), inspectedOdometer: '' })
  const errors = fieldErrors(a.problem)
  const outstanding = x && OUTSTANDING.includes(x.status)
  const canRequest = !outstanding && (claim.status === 'OPEN' || claim.status === 'PENDING_INSPECTION')
  const reasonName = (id: number) => reasons.inspection.find((r) => r.id === id)?.name ?? String(id)

  const request = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const r = unwrap(
        await api.POST('/api/claims/{claimId}/inspections', {
          params: { path: { claimId: claim.id } },
          body: {
            ...(ask.inspectionCompanyId ? { inspectionCompanyId: Number(ask.inspectionCompanyId) } : {}),
            reasonId: Number(ask.reasonId || 0),
            note: ask.note.trim() || null,
          },
        }),
      )
      onDone()
      return `Inspection requested of ${r.inspectionCompanyName}.`
    })
  }
  const finish = (status: 'COMPLETED' | 'CANCELLED') => {
    if (!x) return
    void a.run(async () => {
      const done = status === 'COMPLETED'
      const odo = result.inspectedOdometer.trim()
      unwrap(
        await api.PUT('/api/claims/{claimId}/inspections', {
          params: { path: { claimId: claim.id } },
          body: {
            inspectionCompanyId: x.inspectionCompanyId,
            reasonId: x.reasonId,
            note: x.note,
            status,
            findings: done ? result.findings : null,
            inspectedOdometer: done && odo ? (/^\d{1,9}$/.test(odo) ? Number(odo) : (odo as unknown as number)) : null,
            inspectedOn: done && result.inspectedOn ? result.inspectedOn : null,
            completedAt: done ? new Date().toISOString() : null,
          },
        }),
      )
      onDone()
      return done ? 'Inspection completed: the claim is open again for a decision.' : 'Inspection cancelled.'
    })
  }
  const field = bindField(result, setResult, errors)

  return (
    <Stack gap="xs">
      {x ? (
        <Facts
          label="Inspection"
          rows={[
            ['Status', statusLabel(x.status)],
            ['Company', `${x.inspectionCompanyName} (${x.inspectionCompanyId})`],
            ['Reason', reasonName(x.reasonId)],
            ['Note', x.note ?? '—'],
            ['Fee', x.fee === null ? '—' : money(x.fee)],
            ['Requested', `${dateTime(x.requestedAt)} by ${x.requestedBy}`],
            ['Company note', x.companyNote ?? '—'],
            ['Findings', x.findings ?? '—'],
            [
              'Inspected',
              x.inspectedOn
                ? `${day(x.inspectedOn)}${x.inspectedOdometer !== null ? ` at ${x.inspectedOdometer.toLocaleString('en-US')} miles` : ''}`
                : '—',
            ],
            [
              'Files',
              !x.files?.length
                ? 'none'
                : x.files.flatMap((f) =>
                    f.versions.slice(-1).map((v) => (
                      <Anchor key={v.fileId} href={v.downloadUrl} target="_blank" rel="noopener" size="sm" mr="xs">
                        {v.fileName}
                      </Anchor>
                    )),
                  ),
            ],
          ]}
        />
      ) : (
        <Text size="sm">No inspection.</Text>
      )}

      {outstanding && (
        <Stack gap="xs">
          <Textarea label="Findings" name="findings" maxLength={8000} autosize minRows={2} {...field('findings')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Inspected on" type="date" name="inspectedOn" {...field('inspectedOn')} />
            <TextInput
              label="Inspected odometer"
              name="inspectedOdometer"
              inputMode="numeric"
              maxLength={9}
              {...field('inspectedOdometer')}
            />
          </SimpleGrid>
          {errors.completedAt && (
            <Text size="sm" c="red.9">
              {errors.completedAt}
            </Text>
          )}
          <Group gap="xs">
            <Button loading={a.busy} onClick={() => finish('COMPLETED')}>
              Record the results
            </Button>
            <ConfirmButton
              label="Cancel the inspection"
              confirm="Cancel it"
              busy={a.busy}
              onConfirm={() => finish('CANCELLED')}
            />
          </Group>
        </Stack>
      )}
      {x?.status === 'REJECTED' && claim.status === 'PENDING_INSPECTION' && (
        <Group>
          <ConfirmButton
            label="Stop waiting (cancel the inspection)"
            confirm="Cancel it"
            busy={a.busy}
            onConfirm={() => finish('CANCELLED')}
          />
        </Group>
      )}

      {canRequest && (
        <form onSubmit={request} aria-label="Request an inspection" noValidate>
          <Group align="end" gap="xs">
            <NativeSelect
              label="Inspection company"
              name="inspectionCompanyId"
              value={ask.inspectionCompanyId}
              error={errors.inspectionCompanyId}
              data={[
                { value: '', label: "The one serving the facility's state" },
                ...(companies.data ?? []).map((c) => ({
                  value: String(c.id),
                  label: c.displayName ?? c.legalName,
                })),
              ]}
              onChange={(e) => setAsk({ ...ask, inspectionCompanyId: e.currentTarget.value })}
            />
            <NativeSelect
              label="Inspection reason"
              name="reasonId"
              value={ask.reasonId}
              error={errors.reasonId}
              data={[
                { value: '', label: 'Choose' },
                ...reasons.inspection.map((r) => ({ value: String(r.id), label: r.name })),
              ]}
              onChange={(e) => setAsk({ ...ask, reasonId: e.currentTarget.value })}
            />
            <TextInput
              label="Instructions"
              name="note"
              maxLength={2000}
              value={ask.note}
              error={errors.note}
              onChange={(e) => setAsk({ ...ask, note: e.currentTarget.value })}
            />
            <Button type="submit" variant="default" loading={a.busy}>
              Request an inspection
            </Button>
          </Group>
        </form>
      )}
      <Outcome
        problem={a.problem}
        done={a.done}
        fields={[
          'inspectionCompanyId',
          'reasonId',
          'note',
          'findings',
          'inspectedOn',
          'inspectedOdometer',
          'completedAt',
        ]}
      />
    </Stack>
  )
}

const PAYMENT_FIELDS = ['method', 'amount', 'paidAt', 'reference'] as const

/** A payment on the claim's open request (POST …/paymentrequests/{id}/payments), and the request's withdrawal. */
export function RecordPayment({ claim, onDone }: { claim: Claim; onDone: () => void }) {
  const request = claim.paymentRequests.find((r) => r.status === 'REQUESTED' || r.status === 'PARTIALLY_PAID')
  const left = request ? Math.round((request.amount - request.paidTotal) * 100) / 100 : 0
  const a = useAction()
  const [form, setForm] = useState({
    method: 'CHECK',
    amount: left.toFixed(2),
    paidAt: today(),
    reference: '',
  })
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  if (!request) return null
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const r = unwrap(
        await api.POST('/api/claims/{claimId}/paymentrequests/{paymentRequestId}/payments', {
          params: { path: { claimId: claim.id, paymentRequestId: request.id } },
          body: {
            method: form.method as 'CHECK' | 'ACH' | 'CREDIT_CARD' | 'WIRE',
            amount: form.amount,
            paidAt: form.paidAt,
            reference: form.reference.trim() || null,
          },
        }),
      )
      onDone()
      return `Payment of ${money(r.amount)} recorded: the claim is ${statusLabel(r.claimStatus)}.`
    })
  }
  const withdraw = () =>
    a.run(async () => {
      await patchClaim(claim.id, [{ op: 'replace', path: '/status', value: 'AUTHORIZED' }])
      onDone()
      return 'Payment request withdrawn: the claim is authorized again.'
    })
  return (
    <form onSubmit={submit} aria-label="Record a payment" noValidate data-testid="record-payment">
      <Stack gap="xs">
        <Text size="sm">
          Invoice {request.invoiceNumber}: {money(request.amount)} requested, {money(request.paidTotal)} paid,{' '}
          <span data-testid="payment-left">{money(left)}</span> left.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="sm">
          <NativeSelect
            label="Method"
            name="method"
            data={[
              { value: 'CHECK', label: 'Check' },
              { value: 'ACH', label: 'ACH' },
              { value: 'CREDIT_CARD', label: 'Credit card' },
              { value: 'WIRE', label: 'Wire' },
            ]}
            {...field('method')}
          />
          <TextInput
            label="Amount paid"
            name="amount"
            inputMode="decimal"
            maxLength={20}
            styles={{ input: { textAlign: 'right' } }}
            {...field('amount')}
          />
          <TextInput label="Paid on" type="date" name="paidAt" {...field('paidAt')} />
          <TextInput label="Reference" name="reference" maxLength={100} {...field('reference')} />
        </SimpleGrid>
        <Group gap="xs">
          <Button type="submit" loading={a.busy}>
            Record the payment
          </Button>
          {claim.status === 'PENDING_PAYMENT' && request.paidTotal === 0 && (
            <ConfirmButton
              label="Withdraw the request"
              confirm="Withdraw it"
              busy={a.busy}
              onConfirm={() => void withdraw()}
            />
          )}
        </Group>
        <Outcome problem={a.problem} done={a.done} fields={PAYMENT_FIELDS} />
      </Stack>
    </form>
  )
}

/** The claim's documents (GET /api/claims/{id}/documents) with their signed links, and an upload. */
export function Documents({ claimId, version, onDone }: { claimId: number; version: number; onDone: () => void }) {
  const docs = useApi(`claim-documents:${claimId}:${version}`, async () =>
    unwrap(await api.GET('/api/claims/{claimId}/documents', { params: { path: { claimId }, query: { limit: 1000 } } })),
  )
  const a = useAction()
  const [file, setFile] = useState<File | null>(null)
  const [title, setTitle] = useState('')
  const errors = fieldErrors(a.problem)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!file) return
    void a.run(async () => {
      const d = unwrap(
        await api.POST('/api/claims/{claimId}/documents', {
          params: {
            path: { claimId },
            query: { fileName: file.name, ...(title.trim() ? { title: title.trim() } : {}) },
          },
          // The body is the file itself, with its own type (docs/documents.md).
          body: file as unknown as string,
          bodySerializer: (b: unknown) => b as BodyInit,
          headers: { 'Content-Type': file.type || 'application/octet-stream' },
        }),
      )
      setFile(null)
      setTitle('')
      onDone()
      return `Uploaded: ${d.title}.`
    })
  }
  return (
    <Panel title="Documents" state={docs} testId="claim-documents">
      {(rows) => (
        <Stack gap="xs">
          {rows.length === 0 ? (
            <Text size="sm">No documents.</Text>
          ) : (
            <Table withTableBorder aria-label="Claim documents">
              <ColumnHeads columns={['Document', 'Version', 'Stored', 'By', 'Download']} />
              <Table.Tbody>
                {rows.flatMap((d) =>
                  d.versions.map((v) => (
                    <Table.Tr key={`${d.documentId}:${v.versionNo}`}>
                      <Table.Td>
                        {d.title}
                        {v.versionNo === d.currentVersion ? '' : ' (earlier version)'}
                      </Table.Td>
                      <Table.Td>{v.versionNo}</Table.Td>
                      <Table.Td>{dateTime(v.createdAt)}</Table.Td>
                      <Table.Td>{d.createdBy}</Table.Td>
                      <Table.Td>
                        <Anchor href={v.downloadUrl} target="_blank" rel="noopener" size="sm">
                          {v.fileName}
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  )),
                )}
              </Table.Tbody>
            </Table>
          )}
          <form onSubmit={submit} aria-label="Upload a document" noValidate>
            <Group align="end" gap="xs">
              <FileInput
                label="File"
                name="file"
                placeholder="PDF, image or text"
                accept="application/pdf,image/png,image/jpeg,image/gif,image/webp,image/tiff,text/plain"
                value={file}
                onChange={setFile}
                error={errors.fileName}
                w={280}
              />
              <TextInput
                label="Title"
                name="title"
                maxLength={255}
                value={title}
                error={errors.title}
                onChange={(e) => setTitle(e.currentTarget.value)}
              />
              <Button type="submit" variant="default" loading={a.busy} disabled={!file}>
                Upload
              </Button>
            </Group>
          </form>
          <Outcome problem={a.problem} done={a.done} fields={['fileName', 'title']} />
        </Stack>
      )}
    </Panel>
  )
}
