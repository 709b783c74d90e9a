// Payout runs (docs/payouts.md): the runs, newest first (GET /api/payoutruns, filtered by payee and
// as-of dates, paged with the API's totalCount; a heading sorts the page shown), and a run computed
// first (`dryRun`: what would be paid, who is skipped and why, nothing written) then made
// (POST /api/payoutruns: 201 with the run). A run opens its page (/payouts/{id}).
import { Button, Checkbox, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useState } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, day, today } from '../format.ts'
import { Link, navigate } from '../router.tsx'
import {
  ListCount,
  bindField,
  ColumnHeads,
  FilterButtons,
  Money,
  MoneyCell,
  Outcome,
  Pager,
  useAction,
  useListQuery,
  SortHeads,
  sortRows,
  type SortColumn,
} from '../ui.tsx'
import { errorAt, intOrText, useHolders, words } from './finance.tsx'
import { LedgerTabs } from './Ledgers.tsx'

type Run = Schemas['PayoutRun']
const FILTERS = ['payeeId', 'asOfFrom', 'asOfTo'] as const
const SIZES = ['25', '50', '100']
const PAYABLES = ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE', 'CLAIM_PAYABLE'] as const
const COLUMNS: SortColumn<Run>[] = [
  { key: 'id', label: 'Run' },
  { key: 'asOf', label: 'As of' },
  { key: 'accountingDate', label: 'Posted' },
  { key: 'createdBy', label: 'By' },
  { key: 'payoutCount', label: 'Payouts', numeric: true },
  { key: 'total', label: 'Total', numeric: true },
]

type Item = Run['payouts'][number]['items'][number]

/** A payout's items: the sum per payable, then each item on demand (a disclosure, keyboard-operable). */
function ItemsOf({ items }: { items: Item[] }) {
  const sums = new Map<string, { cents: number; n: number }>()
  for (const it of items) {
    const s = sums.get(it.purpose) ?? { cents: 0, n: 0 }
    sums.set(it.purpose, { cents: s.cents + Math.round(it.amount * 100), n: s.n + 1 })
  }
  return (
    <>
      {[...sums].map(([purpose, s]) => (
        <Text size="xs" key={purpose}>
          {words(purpose)}: {s.n} item{s.n === 1 ? '' : 's'}, <Money value={s.cents / 100} />
        </Text>
      ))}
      <details>
        <summary>
          <Text span size="xs">
            The {items.length} item{items.length === 1 ? '' : 's'}
          </Text>
        </summary>
        {items.map((it, j) => (
          <Text size="xs" key={j}>
            {words(it.purpose)}
            {it.contractId ? (
              <>
                {' '}
                · <Link to={`/contracts/${it.contractId}`}>contract {it.contractId}</Link>
              </>
            ) : (
              ''
            )}
            {it.paymentRequestId ? ` · payment request ${it.paymentRequestId}` : ''}: <Money value={it.amount} />
          </Text>
        ))}
      </details>
    </>
  )
}

/** A run's payouts (payee, method, amount and the items paid or netted) and the payees skipped. */
export function RunPayouts({ run }: { run: Run }) {
  // The payees' names (the tenant's account holders, the first 1,000); an id without one is shown as it is.
  const holders = useHolders('')
  const names = new Map((holders.data ?? []).map((h) => [h.id, h.displayName]))
  return (
    <Stack gap="xs">
      {run.payouts.length === 0 ? (
        <Text size="sm">Nothing to pay.</Text>
      ) : (
        <Table withTableBorder aria-label="Payouts">
          <ColumnHeads
            columns={['Payee', 'Method', 'Items (paid, or netted when negative)', 'Entry', { numeric: 'Amount' }]}
          />
          <Table.Tbody>
            {run.payouts.map((p, i) => (
              <Table.Tr key={p.id ?? `dry${i}`}>
                <Table.Td>
                  <Link to={`/ledgers/${p.payeeId}`}>
                    {names.has(p.payeeId) ? `${names.get(p.payeeId)} (${p.payeeId})` : p.payeeId}
                  </Link>
                </Table.Td>
                <Table.Td>{p.paymentMethod}</Table.Td>
                <Table.Td>
                  <ItemsOf items={p.items} />
                </Table.Td>
                <Table.Td>{p.entryId ?? '—'}</Table.Td>
                <MoneyCell value={p.amount} />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(run.skipped ?? []).length > 0 && (
        <Text size="sm">
          Skipped (owing as much as owed, or more):{' '}
          {(run.skipped ?? []).map((s) => (
            <span key={s.payeeId}>
              {s.payeeId} (<Money value={s.net} />){' '}
            </span>
          ))}
        </Text>
      )}
    </Stack>
  )
}

function RunForm({ onDone }: { onDone: () => void }) {
  const [form, setForm] = useState({ asOf: today(), payeeIds: '' })
  const [purposes, setPurposes] = useState<string[]>([...PAYABLES])
  const [preview, setPreview] = useState<Run | undefined>()
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const body = (dryRun: boolean) => ({
    asOf: form.asOf || undefined,
    purposes,
    ...(form.payeeIds.trim()
      ? {
          payeeIds: form.payeeIds
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((x) => intOrText(x)!),
        }
      : {}),
    dryRun,
  })
  const compute = () =>
    a.run(async () => {
      const r = unwrap(await api.POST('/api/payoutruns', { body: body(true) }))
      setPreview(r)
      return `Computed: ${count(r.payoutCount)} payout${r.payoutCount === 1 ? '' : 's'}; nothing written.`
    })
  const pay = () =>
    a.run(async () => {
      const r = unwrap(await api.POST('/api/payoutruns', { body: body(false) }))
      setPreview(undefined)
      onDone()
      if (r.id) navigate(`/payouts/${r.id}`)
      return `Run ${r.id ?? ''} made.`
    })
  return (
    <Stack gap="sm" component="section" aria-label="Pay out">
      <Title order={2} size="h4">
        Pay out
      </Title>
      <form
        aria-label="Payout run"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void compute()
        }}
      >
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            <TextInput label="Pay what was due on" type="date" name="asOf" {...field('asOf')} />
            <TextInput
              label="Only these payees (ids, comma-separated)"
              name="payeeIds"
              maxLength={2000}
              {...field('payeeIds')}
              error={errorAt(errors, 'payeeIds')}
            />
            <Checkbox.Group
              label="Payables"
              value={purposes}
              onChange={setPurposes}
              error={errorAt(errors, 'purposes')}
            >
              <Group mt={4}>
                {PAYABLES.map((p) => (
                  <Checkbox key={p} value={p} label={words(p).replace(' payable', 's')} />
                ))}
              </Group>
            </Checkbox.Group>
          </SimpleGrid>
          <Group>
            <Button type="submit" variant="default" loading={a.busy}>
              Compute (dry run)
            </Button>
            <Button onClick={() => void pay()} loading={a.busy}>
              Pay now
            </Button>
          </Group>
          <Outcome
            problem={a.problem}
            done={a.done}
            fields={(a.problem?.errors ?? [])
              .map((e) => e.field)
              .filter((f) => ['asOf', 'payeeIds', 'purposes'].some((k) => errorAt({ [f]: 'x' }, k)))}
          />
          {preview && (
            <Stack gap="xs" data-testid="payout-preview">
              <Text size="sm" fw={600}>
                A run as of {day(preview.asOf)} would pay <Money value={preview.total} />:
              </Text>
              <RunPayouts run={preview} />
            </Stack>
          )}
        </Stack>
      </form>
    </Stack>
  )
}

export default function Payouts() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/payouts', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')
  const [version, setVersion] = useState(0)
  const result = useApi(`payouts${key}:${version}`, async () =>
    unwrap(
      await api.GET('/api/payoutruns', {
        params: {
          query: {
            payeeId: intOrText(filters.payeeId),
            asOfFrom: filters.asOfFrom || undefined,
            asOfTo: filters.asOfTo || undefined,
            pageNumber: page,
            pageSize: size,
          },
        },
      }),
    ),
  )
  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.items ?? [], sort, COLUMNS)
  const total = result.data?.totalCount ?? 0
  return (
    <Stack>
      <Title order={1} size="h2">
        Payout runs
      </Title>
      <LedgerTabs />
      <RunForm onDone={() => setVersion((v) => v + 1)} />
      <Title order={2} size="h4">
        Runs
      </Title>
      <form onSubmit={submit} role="search" aria-label="Filter payout runs" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Payee id" name="payeeId" inputMode="numeric" maxLength={15} {...field('payeeId')} />
          <TextInput label="As of from" type="date" name="asOfFrom" {...field('asOfFrom')} />
          <TextInput label="As of to" type="date" name="asOfTo" {...field('asOfTo')} />
          <FilterButtons label="Filter" clearTo="/payouts" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <ListCount state={result} testId="payouts-total">
        {`${count(total)} run${total === 1 ? '' : 's'}`}
      </ListCount>
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover withTableBorder aria-label="Payout runs">
          <SortHeads columns={COLUMNS} sort={sort} go={go} extra={['Made']} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id ?? 0}>
                <Table.Td>
                  <Link to={`/payouts/${r.id}`}>Run {r.id}</Link>
                </Table.Td>
                <Table.Td>{day(r.asOf)}</Table.Td>
                <Table.Td>{day(r.accountingDate)}</Table.Td>
                <Table.Td>{r.createdBy}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{count(r.payoutCount)}</Table.Td>
                <MoneyCell value={r.total} />
                <Table.Td>{dateTime(r.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 1}>No run yet.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
