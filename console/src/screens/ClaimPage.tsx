// A claim (docs/claims.md): GET /api/claims/{id} (status, holds, authorization, the jobs with their
// three Cs and lines, benefits, totals, payment requests with their payments, the latest inspection),
// its notes (GET /api/claims/{id}/notes/all) and documents (GET /api/claims/{id}/documents). The figures
// are shown as the API gives them. Actions, each the API's to allow or refuse (403 for roles without
// claims:approve, 409 for a status that does not allow it, shown as the API says):
//   authorize every pending job     PATCH /api/claims/{id} (JSON Patch: the jobs' and the claim's status)
//   add a job, decide a job, deny, close, void, reopen, place and release holds
//                                   PATCH /api/claims/{id} (ClaimWork.tsx)
//   request, complete, cancel an inspection   POST, PUT /api/claims/{id}/inspections
//   request payment                 POST /api/claims/{id}/paymentrequests
//   record a payment                POST /api/claims/{id}/paymentrequests/{requestId}/payments
//   add a note                      POST /api/claims/{id}/notes
//   upload a document               POST /api/claims/{id}/documents
// Another dealer's claim, for a dealer-side user, is the API's 404: shown as such.
import {
  Badge,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { dateTime, day, today } from '../format.ts'
import { Link } from '../router.tsx'
import {
  bindField,
  ColumnHeads,
  Facts,
  Money,
  MoneyCell,
  numeric,
  Outcome,
  Panel,
  RecordProblem,
  useAction,
} from '../ui.tsx'
import { CLAIM_COLORS, statusLabel } from './Claims.tsx'
import {
  AddJob,
  ClaimDecision,
  Documents,
  editable,
  Holds,
  Inspection,
  JobDecision,
  RecordPayment,
  useReasons,
  type Reasons,
} from './ClaimWork.tsx'

type Claim = Schemas['Claim']

const lineAmount = (requested: number, authorized: number | null) => (
  <>
    <Money value={requested} />
    {authorized !== null && authorized !== requested && (
      <Text span size="xs">
        {' '}
        (authorized <Money value={authorized} />)
      </Text>
    )}
  </>
)

function Jobs({ claim, reasons, onDone }: { claim: Claim; reasons: Reasons | undefined; onDone: () => void }) {
  if (claim.jobs.length === 0) return <Text size="sm">No jobs.</Text>
  const deciding = editable(claim)
  return (
    <Table withTableBorder aria-label="Jobs">
      <ColumnHeads
        columns={[
          'Job',
          'Complaint · cause · correction',
          'Component',
          'Lines',
          'Status',
          { numeric: 'Requested' },
          { numeric: 'Authorized' },
          ...(deciding ? ['Decide'] : []),
        ]}
      />
      <Table.Tbody>
        {claim.jobs.map((j, index) => (
          <Table.Tr key={j.lineNumber} data-testid={`job-${j.lineNumber}`}>
            <Table.Td>{j.lineNumber}</Table.Td>
            <Table.Td>
              <Text size="sm">{j.complaint.text}</Text>
              <Text size="xs">
                {j.cause?.text ?? 'cause not given'} · {j.correction?.text ?? 'correction not given'}
              </Text>
            </Table.Td>
            <Table.Td>{j.coverageComponentCode ?? (j.ppmServiceCode ? `PPM ${j.ppmServiceCode}` : '—')}</Table.Td>
            <Table.Td>
              {j.parts.map((p, i) => (
                <Text size="xs" key={`p${i}`}>
                  Part {p.partNumber} {p.description} × {p.quantity} at <Money value={p.requestedUnitPrice} />
                  {p.taxable ? ' (taxable)' : ''}: <Money value={p.requestedAmount} />
                  {p.authorizedUnitPrice !== null && p.authorizedUnitPrice !== p.requestedUnitPrice && (
                    <>
                      {' '}
                      (authorized at <Money value={p.authorizedUnitPrice} /> each)
                    </>
                  )}
                </Text>
              ))}
              {j.labor.map((l, i) => (
                <Text size="xs" key={`l${i}`}>
                  Labor {l.operationCode ?? ''} {l.hours} h at <Money value={l.rate} />:{' '}
                  {lineAmount(l.requestedAmount, l.authorizedAmount)}
                </Text>
              ))}
              {j.sublet.map((s, i) => (
                <Text size="xs" key={`s${i}`}>
                  Sublet {s.description}: {lineAmount(s.requestedAmount, s.authorizedAmount)}
                </Text>
              ))}
            </Table.Td>
            <Table.Td>
              {statusLabel(j.status)}
              {j.deniedReason ? ` (${j.deniedReason.text})` : ''}
            </Table.Td>
            <MoneyCell value={j.requestedTotal} />
            <MoneyCell value={j.authorizedTotal} />
            {deciding && (
              <Table.Td>
                <JobDecision claim={claim} index={index} reasons={reasons} onDone={onDone} />
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

function PaymentRequests({ claim }: { claim: Claim }) {
  if (claim.paymentRequests.length === 0) return <Text size="sm">No payment request.</Text>
  return (
    <Table withTableBorder aria-label="Payment requests">
      <ColumnHeads
        columns={[
          'Invoice',
          'Status',
          'Payee',
          'Requested',
          { numeric: 'Invoiced' },
          { numeric: 'Amount' },
          { numeric: 'Paid' },
        ]}
      />
      <Table.Tbody>
        {claim.paymentRequests.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>
              {r.invoiceNumber} of {day(r.invoiceDate)}
              {r.payments.map((p) => (
                <Text size="xs" key={p.id}>
                  {p.method.toLowerCase().replace('_', ' ')} {p.reference ?? ''} on {day(p.paidAt)}:{' '}
                  <Money value={p.amount} />
                </Text>
              ))}
            </Table.Td>
            <Table.Td>{statusLabel(r.status)}</Table.Td>
            <Table.Td>
              {statusLabel(r.payee.type)} ({r.payee.accountHolderId})
            </Table.Td>
            <Table.Td>
              {dateTime(r.createdAt)} by {r.createdBy}
            </Table.Td>
            <MoneyCell value={r.invoicedTotal} />
            <MoneyCell value={r.amount} />
            <MoneyCell value={r.paidTotal} />
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

const PAYMENT_FIELDS = ['invoiceNumber', 'invoiceDate', 'invoicedTotal'] as const

function PaymentRequestForm({ claim, onDone }: { claim: Claim; onDone: () => void }) {
  const a = useAction()
  const [form, setForm] = useState({ invoiceNumber: '', invoiceDate: today(), invoicedTotal: '' })
  const errors = fieldErrors(a.problem)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const r = unwrap(
        await api.POST('/api/claims/{claimId}/paymentrequests', {
          params: { path: { claimId: claim.id } },
          body: { ...form, invoicedTotal: form.invoicedTotal },
        }),
      )
      onDone()
      return `Payment of ${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(r.amount)} requested.`
    })
  }
  const field = bindField(form, setForm, errors)
  return (
    <form onSubmit={submit} aria-label="Request payment" noValidate>
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput label="Invoice number" name="invoiceNumber" maxLength={64} {...field('invoiceNumber')} />
          <TextInput label="Invoice date" type="date" name="invoiceDate" {...field('invoiceDate')} />
          <TextInput
            label="Invoiced total"
            name="invoicedTotal"
            inputMode="decimal"
            maxLength={16}
            styles={{ input: numeric }}
            description={`Payable: ${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(claim.totals.payable)}`}
            {...field('invoicedTotal')}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={a.busy}>
            Request payment
          </Button>
        </Group>
        <Outcome problem={a.problem} done={a.done} fields={PAYMENT_FIELDS} />
      </Stack>
    </form>
  )
}

function Notes({ claimId, version, onDone }: { claimId: number; version: number; onDone: () => void }) {
  const notes = useApi(`claim-notes:${claimId}:${version}`, async () =>
    unwrap(
      await api.GET('/api/claims/{claimId}/notes/all', {
        params: { path: { claimId }, query: { limit: 1000 } },
      }),
    ),
  )
  const a = useAction()
  const [text, setText] = useState('')
  const [visibility, setVisibility] = useState<'ALL' | 'STAFF'>('ALL')
  const errors = fieldErrors(a.problem)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      unwrap(
        await api.POST('/api/claims/{claimId}/notes', { params: { path: { claimId } }, body: { text, visibility } }),
      )
      setText('')
      onDone()
      return 'Note added.'
    })
  }
  return (
    <Panel title="Notes" state={notes} testId="claim-notes">
      {(rows) => (
        <Stack gap="xs">
          {rows.length === 0 && <Text size="sm">No notes.</Text>}
          {rows.map((n) => (
            <div key={n.id}>
              <Text size="xs">
                {dateTime(n.createdAt)} · {n.createdBy}
                {n.visibility === 'STAFF' ? ' · staff only' : ''}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {n.text}
              </Text>
            </div>
          ))}
          <form onSubmit={submit} aria-label="Add a note" noValidate>
            <Stack gap="xs">
              <Textarea
                label="New note"
                name="text"
                maxLength={4000}
                autosize
                minRows={2}
                value={text}
                error={errors.text}
                onChange={(e) => setText(e.currentTarget.value)}
              />
              <Group>
                <NativeSelect
                  aria-label="Who may read it"
                  value={visibility}
                  error={errors.visibility}
                  data={[
                    { value: 'ALL', label: 'Everyone who sees the claim' },
                    { value: 'STAFF', label: 'Staff only' },
                  ]}
                  onChange={(e) => setVisibility(e.currentTarget.value as 'ALL' | 'STAFF')}
                />
                <Button type="submit" loading={a.busy}>
                  Add note
                </Button>
              </Group>
              <Outcome problem={a.problem} done={a.done} fields={['text', 'visibility']} />
            </Stack>
          </form>
        </Stack>
      )}
    </Panel>
  )
}

export default function ClaimPage({ id }: { id: number }) {
  const [version, setVersion] = useState(0)
  const claim = useApi(`claim:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/claims/{claimId}', { params: { path: { claimId: id } } })),
  )
  const authorize = useAction()
  const reasons = useReasons()
  const refresh = () => setVersion((v) => v + 1)
  // The panels that need the claim and the tenant's reasons.
  const withReasons = {
    data: claim.data && reasons.data ? { claim: claim.data, reasons: reasons.data } : undefined,
    problem: claim.problem ?? reasons.problem,
    loading: claim.loading || reasons.loading,
  }

  if (claim.problem && !claim.data) {
    return <RecordProblem title={`Claim ${id}`} problem={claim.problem} back="/claims" backLabel="Back to the claims" />
  }
  const c = claim.data
  const authorizeAll = (cl: Claim) =>
    authorize.run(async () => {
      // The adjuster's decision as a JSON Patch (docs/claims.md "Deciding a claim"): every job not
      // denied authorized as requested, then the claim AUTHORIZED.
      const ops = [
        ...cl.jobs.flatMap((j, i) =>
          j.status === 'PENDING' ? [{ op: 'replace' as const, path: `/jobs/${i}/status`, value: 'AUTHORIZED' }] : [],
        ),
        { op: 'replace' as const, path: '/status', value: 'AUTHORIZED' },
      ]
      const next = unwrap(
        await api.PATCH('/api/claims/{claimId}', {
          params: { path: { claimId: cl.id } },
          body: ops,
          headers: { 'Content-Type': 'application/json-patch+json' },
        }),
      )
      refresh()
      return `Authorized: ${next.authorization?.number ?? ''}.`
    })

  return (
    <Stack data-testid="claim-page" data-ready={c && !claim.loading ? 'true' : undefined}>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {c ? `Claim ${c.claimNumber}` : `Claim ${id}`}
        </Title>
        {c && (
          <Group gap="xs">
            <Badge size="lg" variant="dot" color={CLAIM_COLORS[c.status] ?? 'gray.8'} data-testid="claim-status">
              {statusLabel(c.status)}
            </Badge>
            {c.holds.some((h) => !h.releasedAt) && (
              <Badge size="lg" variant="dot" color="orange.9">
                On hold
              </Badge>
            )}
          </Group>
        )}
      </Group>
      <Text size="sm">
        <Link to="/claims">All claims</Link>
        {c && (
          <>
            {' · '}
            <Link to={`/contracts/${c.contractId}`}>Contract {c.contractNumber}</Link>
          </>
        )}
      </Text>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Claim" state={claim}>
          {(x) => (
            <Facts
              label="Claim"
              rows={[
                ['Loss date', day(x.lossDate)],
                ['Odometer', x.odometer?.toLocaleString('en-US') ?? '—'],
                ['Reported', dateTime(x.reportedAt)],
                ['Repair facility', `${x.repairFacility.name} (${x.repairFacility.accountHolderId})`],
                ['Repair order', x.repairOrderNumber ?? '—'],
                ['Contact', x.contact ? [x.contact.name, x.contact.phoneNumber].filter(Boolean).join(' · ') : '—'],
                ['VIN', x.vin ?? '—'],
                [
                  'Authorization',
                  x.authorization
                    ? `${x.authorization.number}, ${dateTime(x.authorization.authorizedAt)}; valid until ${day(x.authorization.expiresAt?.slice(0, 10))}`
                    : 'not authorized',
                ],
                ['Denied', x.deniedReason?.text ?? '—'],
                [
                  'Inspection',
                  x.inspection ? `${statusLabel(x.inspection.status)} (${x.inspection.inspectionCompanyName})` : 'none',
                ],
              ]}
            />
          )}
        </Panel>
        <Panel title="Totals" state={claim} testId="claim-totals">
          {(x) => (
            <Table withTableBorder aria-label="Totals">
              <Table.Tbody>
                {(
                  [
                    ['Requested', x.totals.requested],
                    ['Authorized', x.totals.authorized],
                    ['Tax', x.totals.tax],
                    ['Deductible', x.totals.deductible],
                    ['Payable', x.totals.payable],
                    ['Paid', x.totals.paid],
                  ] as const
                ).map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th scope="row">{k}</Table.Th>
                    <Table.Td style={numeric} data-testid={`claim-${k.toLowerCase()}`}>
                      <Money value={v} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Panel>
      </SimpleGrid>

      <Panel title="Jobs" state={claim}>
        {(x) => (
          <Stack gap="xs">
            <Jobs claim={x} reasons={reasons.data} onDone={refresh} />
            {x.benefits.length > 0 && (
              <Text size="sm">
                Benefits:{' '}
                {x.benefits
                  .map((b) => `${b.type.toLowerCase()} ${statusLabel(b.status)} ${b.countedAmount.toFixed(2)}`)
                  .join('; ')}
              </Text>
            )}
            {(x.status === 'OPEN' || x.status === 'AUTHORIZED') && x.jobs.some((j) => j.status !== 'DENIED') && (
              <Group>
                <Button onClick={() => void authorizeAll(x)} loading={authorize.busy}>
                  {x.status === 'AUTHORIZED' ? 'Renew the authorization' : 'Authorize the jobs as requested'}
                </Button>
              </Group>
            )}
            <Outcome problem={authorize.problem} done={authorize.done} />
            {editable(x) && <AddJob key={`${x.id}:${x.version}`} claim={x} onDone={refresh} />}
          </Stack>
        )}
      </Panel>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Decision" state={withReasons} testId="claim-decision">
          {({ claim: x, reasons: r }) => <ClaimDecision claim={x} reasons={r} onDone={refresh} />}
        </Panel>
        <Panel title="Holds" state={withReasons} testId="claim-holds">
          {({ claim: x, reasons: r }) => <Holds claim={x} reasons={r} onDone={refresh} />}
        </Panel>
      </SimpleGrid>

      <Panel title="Inspection" state={withReasons} testId="claim-inspection">
        {({ claim: x, reasons: r }) => <Inspection key={x.version} claim={x} reasons={r} onDone={refresh} />}
      </Panel>

      <Panel title="Payment requests" state={claim} testId="claim-payments">
        {(x) => (
          <Stack gap="sm">
            <PaymentRequests claim={x} />
            {x.status === 'AUTHORIZED' && <PaymentRequestForm claim={x} onDone={refresh} />}
            <RecordPayment key={`${x.id}:${x.version}`} claim={x} onDone={refresh} />
          </Stack>
        )}
      </Panel>

      <Documents claimId={id} version={version} onDone={refresh} />

      <Notes claimId={id} version={version} onDone={refresh} />
    </Stack>
  )
}
