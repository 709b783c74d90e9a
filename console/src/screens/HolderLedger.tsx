// An account holder's ledger (docs/ledgers.md, docs/statements.md):
//   who and what it owes / is owed        GET /api/ledgers/payReceiveLedgers?accountHolderId=
//   balances by purpose, receivables aging GET /api/ledgerSummary?accountHolderId=
//   its journal lines                      GET /api/ledgers?accountHolderId=&purpose=&from=&to=&contractId=
//   a statement (PDF or CSV)               POST /api/accountholders/{id}/statementrequests, polled by
//                                          GET …/statementrequests/{requestId} while the API makes it
// The API gives no running balance per line, only the page's `openingBalance` (the balance before
// `from`); the balance after each line is that plus the lines before it in the period: the earlier
// pages' lines are read (1,000 at a time) and summed in cents, then the page's lines one by one.
import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, day, moneyFromCents, toCents, today } from '../format.ts'
import { Link } from '../router.tsx'
import {
  ListCount,
  bindField,
  ColumnHeads,
  Facts,
  FilterButtons,
  Money,
  MoneyCell,
  numeric,
  Outcome,
  Pager,
  Panel,
  RecordProblem,
  useAction,
  useListQuery,
} from '../ui.tsx'
import { CREDIT_NORMAL, intOrText, PURPOSES, words, type Purpose } from './finance.tsx'
import { LedgerTabs } from './Ledgers.tsx'

type Statement = Schemas['StatementRequest']
const FILTERS = ['purpose', 'from', 'to', 'contractId'] as const
const SIZES = ['25', '50', '100']
const PREFIX_PAGE = 1000

type Line = Schemas['LedgerLine']
const signed = (l: Line, purpose: string) =>
  CREDIT_NORMAL.has(purpose) ? toCents(l.credit) - toCents(l.debit) : toCents(l.debit) - toCents(l.credit)

function Statements({ holderId }: { holderId: number }) {
  const [form, setForm] = useState({
    from: `${today().slice(0, 7)}-01`,
    to: today(),
    format: 'CSV',
    purpose: 'DEALER_RECEIVABLE',
  })
  const [request, setRequest] = useState<Statement | undefined>()
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const pending = request && (request.status === 'QUEUED' || request.status === 'RUNNING')

  // A large statement is made in the background: it is read again every second until it is done.
  useEffect(() => {
    if (!pending) return
    const t = setTimeout(() => {
      void api
        .GET('/api/accountholders/{accountHolderId}/statementrequests/{statementRequestId}', {
          params: { path: { accountHolderId: holderId, statementRequestId: request.id } },
        })
        .then((r) => r.data && setRequest(r.data))
    }, 1000)
    return () => clearTimeout(t)
  }, [pending, request, holderId])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setRequest(undefined)
    void a.run(async () => {
      const r = unwrap(
        await api.POST('/api/accountholders/{accountHolderId}/statementrequests', {
          params: { path: { accountHolderId: holderId } },
          body: {
            from: form.from,
            to: form.to,
            format: form.format as 'PDF' | 'CSV',
            ...(form.purpose ? { purpose: form.purpose as Purpose } : {}),
          },
        }),
      )
      setRequest(r)
      return r.status === 'COMPLETED' ? `Statement ${r.id} made.` : `Statement ${r.id} requested: it is being made.`
    })
  }

  return (
    <Stack gap="sm" component="section" aria-label="Statement">
      <Title order={2} size="h4">
        Statement
      </Title>
      <form onSubmit={submit} aria-label="Request a statement" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput label="Statement from" type="date" name="from" {...field('from')} />
          <TextInput label="Statement to" type="date" name="to" {...field('to')} />
          <NativeSelect label="Format" name="format" data={['CSV', 'PDF']} {...field('format')} />
          <NativeSelect
            label="Accounts"
            name="purpose"
            data={[{ value: '', label: 'every account' }, ...PURPOSES.map((p) => ({ value: p, label: words(p) }))]}
            {...field('purpose')}
          />
          <Group align="end">
            <Button type="submit" loading={a.busy}>
              Make statement
            </Button>
          </Group>
        </SimpleGrid>
      </form>
      <Outcome problem={a.problem} done={a.done} fields={['from', 'to', 'format', 'purpose']} />
      {request && (
        <Stack gap="xs" data-testid="statement" data-status={request.status}>
          {pending && (
            <>
              <Text size="sm" role="status">
                Statement {request.id} is {request.status.toLowerCase()}…
              </Text>
              <Progress value={100} striped animated aria-label="Making the statement" />
            </>
          )}
          {request.status === 'FAILED' && (
            <Text size="sm" c="red.9" role="alert">
              The statement failed: {request.failureReason}
            </Text>
          )}
          {request.status === 'COMPLETED' && (
            <Facts
              label="Statement made"
              rows={[
                ['Period', `${day(request.from)} to ${day(request.to)}`],
                ['Accounts', request.purpose ? words(request.purpose) : 'every account'],
                ['Opening balance', <Money key="o" value={request.openingBalance} />],
                [
                  'Closing balance',
                  <span key="c" data-testid="statement-closing">
                    <Money value={request.closingBalance} />
                  </span>,
                ],
                ['Lines', count(request.lineCount ?? 0)],
                [
                  'Download',
                  <Anchor key="d" href={request.downloadUrl ?? undefined} download>
                    Download the {request.format} statement
                  </Anchor>,
                ],
                ['Link valid until', dateTime(request.downloadUrlExpiresAt)],
              ]}
            />
          )}
        </Stack>
      )}
    </Stack>
  )
}

export default function HolderLedger({ id }: { id: number }) {
  const { filters, size, page, form, setForm, key, go, submit } = useListQuery(`/ledgers/${id}`, FILTERS, SIZES)
  const holder = useApi(`holder-ledger:${id}`, async () =>
    unwrap(await api.GET('/api/ledgers/payReceiveLedgers', { params: { query: { accountHolderId: id } } })),
  )
  const summary = useApi(`holder-summary:${id}`, async () =>
    unwrap(await api.GET('/api/ledgerSummary', { params: { query: { accountHolderId: id } } })),
  )
  const lines = useApi(`holder-lines:${id}${key}`, async () => {
    const query = {
      accountHolderId: id,
      purpose: (filters.purpose || undefined) as Purpose | undefined,
      from: filters.from || undefined,
      to: filters.to || undefined,
      contractId: intOrText(filters.contractId),
    }
    const shown = unwrap(
      await api.GET('/api/ledgers', { params: { query: { ...query, pageNumber: page, pageSize: size } } }),
    )
    // The lines of the earlier pages, summed: read 1,000 at a time (the sizes divide 1,000).
    let before = 0
    const prefix = Math.min((page - 1) * size, shown.totalCount)
    for (let p = 1; (p - 1) * PREFIX_PAGE < prefix; p++) {
      const chunk = unwrap(
        await api.GET('/api/ledgers', { params: { query: { ...query, pageNumber: p, pageSize: PREFIX_PAGE } } }),
      )
      for (const l of chunk.items.slice(0, prefix - (p - 1) * PREFIX_PAGE)) before += signed(l, filters.purpose)
    }
    return { ...shown, before }
  })

  if (holder.problem)
    return (
      <RecordProblem
        title={`Account holder ${id}`}
        problem={holder.problem}
        back="/ledgers"
        backLabel="Back to the ledgers"
      />
    )
  const h = holder.data?.items[0]
  const errors = fieldErrors(lines.problem)
  const field = bindField(form, setForm, errors)

  let running = lines.data ? toCents(lines.data.openingBalance ?? 0) + lines.data.before : 0
  const rows = (lines.data?.items ?? []).map((l) => {
    running += signed(l, filters.purpose)
    return { l, balance: running }
  })

  return (
    <Stack
      data-testid="holder-ledger"
      data-ready={holder.data && !summary.loading && !lines.loading ? 'true' : undefined}
    >
      <Title order={1} size="h2">
        {h ? `${h.displayName}'s ledger` : `Account holder ${id}'s ledger`}
      </Title>
      <LedgerTabs />
      <Text size="sm">
        <Link to={`/cash/new?payerId=${id}`}>Receive cash from this holder</Link> ·{' '}
        <Link to={`/ledgers/unpaid?dealerId=${id}`}>Its unpaid items</Link> ·{' '}
        <Link to={`/cash?payerId=${id}`}>Its cash</Link>
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Balances" state={summary} testId="holder-balances">
          {(s) => (
            <Stack gap="xs">
              {s.balances.length === 0 ? (
                <Text size="sm">No ledger lines.</Text>
              ) : (
                <Table withTableBorder aria-label="Balances by purpose">
                  <ColumnHeads
                    columns={['Account', { numeric: 'Debit' }, { numeric: 'Credit' }, { numeric: 'Balance' }]}
                  />
                  <Table.Tbody>
                    {s.balances.map((b) => (
                      <Table.Tr key={b.purpose} data-testid={`balance-${b.purpose}`}>
                        <Table.Td>{words(b.purpose)}</Table.Td>
                        <MoneyCell value={b.debit} />
                        <MoneyCell value={b.credit} />
                        <MoneyCell value={b.balance} />
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              <Text size="xs">As of {day(s.asOf)}; each balance on its account's normal side.</Text>
            </Stack>
          )}
        </Panel>
        <Panel title="Receivable by age" state={summary} testId="holder-aging">
          {(s) => (
            <Facts
              label="Receivable by age"
              rows={[
                ...s.receivableAging.map(
                  (b) => [`${b.bucket} days`, <Money key={b.bucket} value={b.amount} />] as [string, ReactNode],
                ),
                ['Net (owes when positive)', <Money key="n" value={h?.net} />],
              ]}
            />
          )}
        </Panel>
      </SimpleGrid>

      <Title order={2} size="h4">
        Lines
      </Title>
      <form onSubmit={submit} role="search" aria-label="Filter the lines" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <NativeSelect
            label="Account"
            name="purpose"
            data={[{ value: '', label: 'every account' }, ...PURPOSES.map((p) => ({ value: p, label: words(p) }))]}
            {...field('purpose')}
          />
          <TextInput label="From" type="date" name="from" {...field('from')} />
          <TextInput label="To" type="date" name="to" {...field('to')} />
          <TextInput
            label="Contract id"
            name="contractId"
            inputMode="numeric"
            maxLength={15}
            {...field('contractId')}
          />
          <FilterButtons label="Show" clearTo={`/ledgers/${id}`} />
        </SimpleGrid>
      </form>
      <Outcome problem={lines.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={lines} testId="lines-total">
          {`${count(lines.data?.totalCount ?? 0)} line${lines.data?.totalCount === 1 ? '' : 's'}; opening balance ${moneyFromCents(toCents(lines.data?.openingBalance ?? 0))}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          In the ledger's order (accounting date, entry, line); balance{' '}
          {filters.purpose && CREDIT_NORMAL.has(filters.purpose) ? 'credit − debit' : 'debit − credit'}.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped withTableBorder aria-label="Ledger lines" data-testid="ledger-lines">
          <ColumnHeads
            columns={[
              'Date',
              'Entry',
              'Kind',
              'Account',
              'Contract',
              'Code',
              'Memo',
              { numeric: 'Debit' },
              { numeric: 'Credit' },
              { numeric: 'Balance' },
            ]}
          />
          <Table.Tbody>
            {rows.map(({ l, balance }) => (
              <Table.Tr key={`${l.entryId}:${l.lineNo}`}>
                <Table.Td>{day(l.effectiveDate)}</Table.Td>
                <Table.Td>
                  {l.entryId}.{l.lineNo}
                </Table.Td>
                <Table.Td>{words(l.kind)}</Table.Td>
                <Table.Td>{words(l.purpose)}</Table.Td>
                <Table.Td>
                  {l.contractId ? (
                    <Link to={`/contracts/${l.contractId}`}>{l.contractNumber ?? l.contractId}</Link>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>{l.disbursementCode ?? ''}</Table.Td>
                <Table.Td>{l.memo ?? ''}</Table.Td>
                <MoneyCell value={l.debit || null} />
                <MoneyCell value={l.credit || null} />
                <Table.Td style={numeric}>{moneyFromCents(balance)}</Table.Td>
              </Table.Tr>
            ))}
            {!lines.loading && rows.length === 0 && !lines.problem && (
              <Table.Tr>
                <Table.Td colSpan={10}>No line in the period.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, lines.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
      <Statements holderId={id} />
    </Stack>
  )
}
