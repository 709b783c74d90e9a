// A contract's cancellations (docs/cancellations.md), on the contract page:
//   the reasons of the contract's own rate-book version  GET /api/cancelreasons?version=&productType=
//   a quote                                             POST /api/contracts/{id}/cancelrequests?quoteOnly=true
//   a request                                           POST /api/contracts/{id}/cancelrequests
//   a direct cancel (staff)                             POST /api/contracts/{id}/cancels
//   a request's documents: upload, then submit          POST /api/cancelrequests/{id}/documents?fileName=, POST /api/cancelrequests/{id} { action: SUBMIT_DOCUMENTS }
//   approve, reject, withdraw a request                 POST /api/cancelrequests/{id} { action }
//   reverse a processed cancel                          POST /api/cancels/{id} { action: REVERSE }
//   the contract's requests and cancels                 GET /api/contracts/{id}/cancelrequests, /cancels
// The console decides nothing: every figure is the API's, and an action the user's roles do not
// allow is the API's 403, shown as such. Field errors (problem+json errors[]) are shown at their field.
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useState, type FormEvent, type ReactNode } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors, toProblem } from '../api/problem.ts'
import type { Contract, operations, Problem, Schemas } from '../api/types.ts'
import { dateTime, day, today } from '../format.ts'
import { bindField, ColumnHeads, Money, MoneyCell, numeric, Outcome, Panel } from '../ui.tsx'

type Quote = Schemas['CancelRequest']
type Cancel = Schemas['Cancel']
type ProductType = NonNullable<operations['listCancelReasons']['parameters']['query']>['productType']

const FORM_FIELDS = [
  'cancelDate',
  'cancelOdometer',
  'cancelReasonCode',
  'cancelReasonId',
  'notes',
  'payoffDate',
] as const

const REQUEST_COLORS: Record<string, string> = {
  REQUESTED: 'blue.9',
  PENDING_DOCUMENTS: 'yellow.9',
  REJECTED: 'red.9',
  WITHDRAWN: 'gray.8',
  PROCESSED: 'green.9',
}

function Rows({ rows, label }: { rows: Array<[string, ReactNode, string?]>; label: string }) {
  return (
    <Table withTableBorder aria-label={label}>
      <Table.Tbody>
        {rows.map(([k, v, testId]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row">{k}</Table.Th>
            <Table.Td style={numeric} data-testid={testId}>
              {v}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** A deduction shown negative; none is $0.00, not -$0.00. */
const minus = (v: number) => (v === 0 ? 0 : -v)

const payeeLabel = (p: Quote['refundPayee']) =>
  `${p.type.toLowerCase().replace('lienholder', 'lien holder')} (account holder ${p.accountHolderId})`

/** What a quote, a request or a cancel refunds, and to whom: every figure as the API computed it. */
export function RefundFigures({ q, title }: { q: Quote | Cancel; title: string }) {
  const c = q.calculation
  return (
    <Stack gap="xs" data-testid="refund-figures">
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text size="sm">
        {q.reason.name} · method <strong>{q.method.name}</strong> · decided by{' '}
        {c.decidedBy.toLowerCase().replace('_', ' ')}
        {q.withinFreeLook ? ' (within the free look)' : ''}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Rows
          label="Refund"
          rows={[
            ['Purchase price', <Money key="p" value={c.purchasePrice} />],
            ['Refundable amount', <Money key="r" value={c.refundableAmount} />],
            [
              'Unearned fraction',
              <span key="u" className="money">
                {c.unearnedRatio} ({(c.appliedUnearnedFactor * 100).toFixed(4)} %)
              </span>,
              'unearned',
            ],
            ['Gross refund', <Money key="g" value={c.grossRefund} />, 'gross-refund'],
            ['Cancel fee', <Money key="f" value={minus(c.cancelFee)} />, 'cancel-fee'],
            ['Claims deducted', <Money key="c" value={minus(c.claimsDeducted)} />, 'claims-deducted'],
            ['Sales tax refunded', <Money key="t" value={c.salesTaxRefund} />],
            [
              'Net refund',
              <strong key="n">
                <Money value={c.netCustomerRefund} />
              </strong>,
              'net-refund',
            ],
            ['Refund to', payeeLabel(q.refundPayee), 'refund-payee'],
          ]}
        />
        <Stack gap="xs">
          <Table withTableBorder aria-label="Each payee's share">
            <ColumnHeads
              columns={['Line', { numeric: 'Payee' }, { numeric: 'Amount' }, { numeric: 'Refunded share' }]}
            />
            <Table.Tbody>
              {q.funding.byDisbursement.map((d) => (
                <Table.Tr key={`${d.code}:${d.payeeAccountHolderId}`}>
                  <Table.Td>
                    {d.code} · {d.group.toLowerCase()}
                    {d.refundable ? '' : ' (not refundable)'}
                  </Table.Td>
                  <Table.Td style={numeric}>{d.payeeAccountHolderId}</Table.Td>
                  <MoneyCell value={d.amount} />
                  <MoneyCell value={d.refund} />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Rows
            label="Funding"
            rows={[
              ['Dealer chargeback', <Money key="d" value={q.funding.dealerChargeback} />],
              ['Administrator refund', <Money key="a" value={q.funding.adminRefund} />],
              ['Administrator share', <Money key="s" value={q.funding.administratorShare} />],
              ['Fee kept by', q.funding.feeRetained ? q.funding.feeRetained.retainedBy.toLowerCase() : '—'],
            ]}
          />
        </Stack>
      </SimpleGrid>
      {'messages' in q && q.messages.length > 0 && (
        <Alert color="blue">
          {q.messages.map((m) => (
            <Text size="sm" key={m}>
              {m}
            </Text>
          ))}
        </Alert>
      )}
    </Stack>
  )
}

type Form = {
  cancelDate: string
  cancelOdometer: string | number
  cancelReasonCode: string
  payoffDate: string
  notes: string
  includeOpenClaims: boolean
}

export default function ContractCancels({ contract, onChanged }: { contract: Contract; onChanged: () => void }) {
  const id = contract.id
  const [version, setVersion] = useState(0)
  const reasons = useApi(
    `cancelreasons:${contract.pricing.rateBookVersion}:${contract.product.productType}`,
    async () =>
      unwrap(
        await api.GET('/api/cancelreasons', {
          params: {
            query: {
              version: contract.pricing.rateBookVersion,
              productType: contract.product.productType as ProductType,
              limit: 200,
            },
          },
        }),
      ),
  )
  const requests = useApi(`cancelrequests:${id}:${version}`, async () =>
    unwrap(
      await api.GET('/api/contracts/{contractId}/cancelrequests', {
        params: { path: { contractId: id }, query: { limit: 100 } },
      }),
    ),
  )
  const cancels = useApi(`cancels:${id}:${version}`, async () =>
    unwrap(
      await api.GET('/api/contracts/{contractId}/cancels', {
        params: { path: { contractId: id }, query: { limit: 100 } },
      }),
    ),
  )

  const [form, setForm] = useState<Form>({
    cancelDate: today(),
    cancelOdometer: '',
    cancelReasonCode: '',
    payoffDate: '',
    notes: '',
    includeOpenClaims: false,
  })
  const [quote, setQuote] = useState<{ q: Quote | Cancel; title: string } | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const [busy, setBusy] = useState<string | undefined>()
  const [done, setDone] = useState<string | undefined>()

  const reason = reasons.data?.find((r) => r.code === form.cancelReasonCode)
  const body = () => ({
    cancelDate: form.cancelDate,
    cancelOdometer: form.cancelOdometer === '' ? null : Number(form.cancelOdometer),
    cancelReasonCode: form.cancelReasonCode || null,
    payoffDate: form.payoffDate || null,
    notes: form.notes || null,
    includeOpenClaims: form.includeOpenClaims,
  })

  async function run(what: string, act: () => Promise<void>) {
    setBusy(what)
    setProblem(undefined)
    setDone(undefined)
    try {
      await act()
    } catch (err) {
      setProblem(toProblem(err))
    } finally {
      setBusy(undefined)
    }
  }
  const changed = (message: string) => {
    setDone(message)
    setVersion((v) => v + 1)
    onChanged()
  }

  const path = { path: { contractId: id } }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run('quote', async () => {
      const q = unwrap(
        await api.POST('/api/contracts/{contractId}/cancelrequests', {
          params: { ...path, query: { quoteOnly: true } },
          body: body(),
        }),
      )
      setQuote({ q, title: `Quote: a cancel on ${day(q.cancelDate)}` })
    })
  }
  const request = () =>
    run('request', async () => {
      const q = unwrap(await api.POST('/api/contracts/{contractId}/cancelrequests', { params: path, body: body() }))
      setQuote({ q, title: `Request ${q.requestNumber ?? ''} (${q.status.toLowerCase().replace('_', ' ')})` })
      changed(`Cancel request ${q.requestNumber ?? ''} stored.`)
    })
  const processNow = () =>
    run('process', async () => {
      const c = unwrap(await api.POST('/api/contracts/{contractId}/cancels', { params: path, body: body() }))
      setQuote({ q: c, title: `Cancel ${c.cancelNumber} processed` })
      changed(`Cancel ${c.cancelNumber} processed: the contract is cancelled.`)
    })

  const errors = fieldErrors(problem)
  const field = bindField(form, setForm, errors)

  return (
    <Stack data-testid="cancellations" data-ready={requests.loading || cancels.loading ? undefined : 'true'}>
      <Title order={2} size="h3">
        Cancellation
      </Title>
      <form onSubmit={submit} aria-label="Cancel quote" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Cancel date" type="date" name="cancelDate" {...field('cancelDate')} />
          <NumberInput
            label="Odometer"
            name="cancelOdometer"
            min={0}
            allowDecimal={false}
            thousandSeparator=","
            value={form.cancelOdometer}
            onChange={(v) => setForm({ ...form, cancelOdometer: v })}
            error={errors.cancelOdometer}
            description={
              contract.saleOdometer === null ? undefined : `${contract.saleOdometer.toLocaleString('en-US')} at sale`
            }
          />
          <NativeSelect
            label="Reason"
            name="cancelReasonCode"
            {...field('cancelReasonCode')}
            data={[
              { value: '', label: reasons.data ? 'Choose a reason' : 'Loading the reasons…' },
              ...(reasons.data ?? []).map((r) => ({ value: r.code, label: r.name })),
            ]}
            error={
              errors.cancelReasonCode ?? errors.cancelReasonId ?? (reasons.problem ? reasons.problem.detail : undefined)
            }
            description={
              reason && reason.requiresDocuments.length > 0
                ? `Needs documents: ${reason.requiresDocuments.join(', ')}`
                : undefined
            }
          />
          {reason?.requiresPayoffDate ? (
            <TextInput label="Payoff date" type="date" name="payoffDate" {...field('payoffDate')} />
          ) : (
            <TextInput label="Notes" name="notes" maxLength={2000} {...field('notes')} />
          )}
        </SimpleGrid>
        <Group mt="sm" gap="sm">
          <Checkbox
            label="Cancel with claims still open"
            checked={form.includeOpenClaims}
            onChange={(e) => setForm({ ...form, includeOpenClaims: e.currentTarget.checked })}
          />
          <Button type="submit" loading={busy === 'quote'}>
            Quote
          </Button>
          <Button variant="default" onClick={() => void request()} loading={busy === 'request'}>
            Request cancel
          </Button>
          <Button color="red.9" variant="outline" onClick={() => void processNow()} loading={busy === 'process'}>
            Process cancel now
          </Button>
        </Group>
      </form>
      <Outcome problem={problem} done={done} fields={FORM_FIELDS} />
      {quote && <RefundFigures q={quote.q} title={quote.title} />}

      <Panel title="Cancel requests" state={requests} headingLevel={3} testId="cancel-requests">
        {(rows) =>
          rows.length === 0 ? (
            <Text size="sm">No cancel request.</Text>
          ) : (
            <Table withTableBorder aria-label="Cancel requests">
              <ColumnHeads
                columns={[
                  'Request',
                  'Status',
                  'Cancel date',
                  'Reason',
                  'Requested',
                  { numeric: 'Net refund' },
                  'Actions',
                ]}
              />
              <Table.Tbody>
                {rows.map((r) => (
                  <RequestRow key={r.id} r={r} run={run} busy={busy} changed={changed} />
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
      <Panel title="Cancels" state={cancels} headingLevel={3} testId="cancels">
        {(rows) =>
          rows.length === 0 ? (
            <Text size="sm">Not cancelled.</Text>
          ) : (
            <Table withTableBorder aria-label="Cancels">
              <ColumnHeads
                columns={['Cancel', 'Status', 'Cancel date', 'Processed', { numeric: 'Net refund' }, 'Actions']}
              />
              <Table.Tbody>
                {rows.map((c) => (
                  <CancelRow key={c.id} c={c} run={run} busy={busy} changed={changed} show={setQuote} />
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
    </Stack>
  )
}

type Act = {
  run: (what: string, act: () => Promise<void>) => Promise<void>
  busy: string | undefined
  changed: (message: string) => void
}

/** A reason asked for in place (reject, reverse): a small inline form. */
function ReasonAction({
  label,
  confirm,
  onConfirm,
  loading,
}: {
  label: string
  confirm: string
  onConfirm: (reason: string) => void
  loading: boolean
}) {
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  if (!open)
    return (
      <Button size="xs" variant="default" onClick={() => setOpen(true)}>
        {label}
      </Button>
    )
  return (
    <Group gap={4} wrap="nowrap">
      <TextInput
        size="xs"
        aria-label={`${label}: reason`}
        placeholder="Reason"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.currentTarget.value)}
        data-autofocus
      />
      <Button size="xs" color="red.9" loading={loading} onClick={() => onConfirm(reason)}>
        {confirm}
      </Button>
      <Button size="xs" variant="subtle" onClick={() => setOpen(false)}>
        Back
      </Button>
    </Group>
  )
}

/**
 * A document the request's reason asks for: the file is uploaded to the request's collection, then
 * submitted with its type (SUBMIT_DOCUMENTS); once every type is there the API moves the request to
 * REQUESTED. The types offered are the ones the API says are missing.
 */
function AddDocument({ r, run, busy, changed }: { r: Quote } & Act) {
  const rid = r.id!
  const missing = r.missingDocuments ?? []
  const [open, setOpen] = useState(false)
  const [type, setType] = useState(missing[0] ?? '')
  const [file, setFile] = useState<File | null>(null)
  if (!open)
    return (
      <Button size="xs" variant="default" onClick={() => setOpen(true)}>
        Add document
      </Button>
    )
  const attach = () =>
    run(`DOCUMENT:${rid}`, async () => {
      if (!file) return
      const uploaded = unwrap(
        await api.POST('/api/cancelrequests/{cancelRequestId}/documents', {
          params: { path: { cancelRequestId: rid }, query: { fileName: file.name } },
          // The file's bytes as they are, with their own type (the API answers 415 for one it refuses).
          body: file as never,
          bodySerializer: (b: unknown) => b as Blob,
          headers: { 'content-type': file.type || 'application/octet-stream' },
        }),
      )
      const res = unwrap(
        await api.POST('/api/cancelrequests/{cancelRequestId}', {
          params: { path: { cancelRequestId: rid } },
          body: { action: 'SUBMIT_DOCUMENTS', documents: [{ documentId: uploaded.documentId, type: type || null }] },
        }),
      )
      setOpen(false)
      setFile(null)
      changed(
        `Request ${res.requestNumber ?? rid}: ${file.name} attached as ${type}; ${res.status.toLowerCase().replace('_', ' ')}.`,
      )
    })
  return (
    <Stack gap={4} miw={220}>
      <NativeSelect
        size="xs"
        label="Document type"
        value={type}
        onChange={(e) => setType(e.currentTarget.value)}
        data={missing.length > 0 ? missing : [{ value: '', label: 'Any' }]}
      />
      <FileInput size="xs" label="File" placeholder="Choose a file" value={file} onChange={setFile} />
      <Group gap={4}>
        <Button size="xs" loading={busy === `DOCUMENT:${rid}`} disabled={!file} onClick={() => void attach()}>
          Attach and submit
        </Button>
        <Button size="xs" variant="subtle" onClick={() => setOpen(false)}>
          Back
        </Button>
      </Group>
    </Stack>
  )
}

function RequestRow({ r, run, busy, changed }: { r: Quote } & Act) {
  const rid = r.id!
  const act = (action: 'APPROVE' | 'REJECT' | 'WITHDRAW', reason?: string) =>
    run(`${action}:${rid}`, async () => {
      const res = unwrap(
        await api.POST('/api/cancelrequests/{cancelRequestId}', {
          params: { path: { cancelRequestId: rid } },
          body: { action, ...(reason === undefined ? {} : { reason }) },
        }),
      )
      changed(`Request ${res.requestNumber ?? rid}: ${res.status.toLowerCase().replace('_', ' ')}.`)
    })
  const open = r.status === 'REQUESTED' || r.status === 'PENDING_DOCUMENTS'
  return (
    <Table.Tr>
      <Table.Td>{r.requestNumber}</Table.Td>
      <Table.Td miw={170}>
        <Badge variant="dot" color={REQUEST_COLORS[r.status] ?? 'gray.8'}>
          {r.status}
        </Badge>
        {r.missingDocuments && r.missingDocuments.length > 0 && (
          <Text size="xs">Missing: {r.missingDocuments.join(', ')}</Text>
        )}
        {(r.documents ?? []).length > 0 && (
          <Text size="xs">
            Documents: {(r.documents ?? []).map((d) => `${d.type ?? 'untyped'} (#${d.documentId})`).join(', ')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{day(r.cancelDate)}</Table.Td>
      <Table.Td>{r.reason.name}</Table.Td>
      <Table.Td>
        {dateTime(r.requestedAt)} ({r.requestedBy.toLowerCase()})
      </Table.Td>
      <MoneyCell value={r.calculation.netCustomerRefund} />
      <Table.Td>
        {open && (
          <Group gap={4}>
            {r.status === 'PENDING_DOCUMENTS' && <AddDocument r={r} run={run} busy={busy} changed={changed} />}
            {r.status === 'REQUESTED' && (
              <Button size="xs" loading={busy === `APPROVE:${rid}`} onClick={() => void act('APPROVE')}>
                Approve and process
              </Button>
            )}
            <ReasonAction
              label="Reject"
              confirm="Reject request"
              loading={busy === `REJECT:${rid}`}
              onConfirm={(reason) => void act('REJECT', reason)}
            />
            <Button
              size="xs"
              variant="subtle"
              loading={busy === `WITHDRAW:${rid}`}
              onClick={() => void act('WITHDRAW')}
            >
              Withdraw
            </Button>
          </Group>
        )}
        {r.decisionNote && <Text size="xs">{r.decisionNote}</Text>}
      </Table.Td>
    </Table.Tr>
  )
}

function CancelRow({
  c,
  run,
  busy,
  changed,
  show,
}: { c: Cancel; show: (q: { q: Cancel; title: string }) => void } & Act) {
  const reverse = (reason: string) =>
    run(`REVERSE:${c.id}`, async () => {
      const res = unwrap(
        await api.POST('/api/cancels/{cancelId}', {
          params: { path: { cancelId: c.id } },
          body: { action: 'REVERSE', reason },
        }),
      )
      changed(`Cancel ${res.cancelNumber} reversed: the contract is reinstated.`)
    })
  return (
    <Table.Tr>
      <Table.Td>{c.cancelNumber}</Table.Td>
      <Table.Td miw={130}>
        <Badge variant="dot" color={c.status === 'REVERSED' ? 'gray.8' : 'red.9'}>
          {c.status}
        </Badge>
      </Table.Td>
      <Table.Td>{day(c.cancelDate)}</Table.Td>
      <Table.Td>{dateTime(c.processedAt)}</Table.Td>
      <Table.Td style={numeric} data-testid={`cancel-net-${c.cancelNumber}`}>
        <Money value={c.calculation.netCustomerRefund} />
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Button size="xs" variant="subtle" onClick={() => show({ q: c, title: `Cancel ${c.cancelNumber}` })}>
            Show figures
          </Button>
          {c.status === 'PROCESSED' && (
            <ReasonAction
              label="Reverse"
              confirm="Reverse cancel"
              loading={busy === `REVERSE:${c.id}`}
              onConfirm={reverse}
            />
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}
