// Ledgers (docs/ledgers.md): the summary as of a date (GET /api/ledgerSummary: totals per purpose and
// the receivables' aging) and what each account holder owes and is owed (GET
// /api/ledgers/payReceiveLedgers: receivable, payables, unapplied cash, net), filtered by kind and
// holder, paged with the API's totalCount, ordered by holder (a heading sorts the page shown). A
// holder opens its ledger (/ledgers/{id}).
import { Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, day } from '../format.ts'
import { Link } from '../router.tsx'
import {
  ListCount,
  bindField,
  ColumnHeads,
  FilterButtons,
  MoneyCell,
  Outcome,
  Pager,
  Panel,
  useListQuery,
  SortHeads,
  sortRows,
  type SortColumn,
} from '../ui.tsx'
import { HOLDER_KINDS, intOrText, words, type HolderKind } from './finance.tsx'

type Row = Schemas['PayReceiveLedger']
const FILTERS = ['asOf', 'kind', 'accountHolderId'] as const
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Row>[] = [
  { key: 'accountHolderId', label: 'Holder' },
  { key: 'kind', label: 'Kind' },
  { key: 'receivable', label: 'Receivable', numeric: true },
  { key: 'disbursementPayable', label: 'Disbursements owed', numeric: true },
  { key: 'refundPayable', label: 'Refunds owed', numeric: true },
  { key: 'claimPayable', label: 'Claims owed', numeric: true },
  { key: 'unappliedCash', label: 'Unapplied cash', numeric: true },
  { key: 'net', label: 'Net', numeric: true },
]

export function LedgerTabs() {
  return (
    <Text size="sm">
      <Link to="/ledgers">Balances</Link> · <Link to="/ledgers/unpaid">Unpaid items</Link> ·{' '}
      <Link to="/cash">Cash</Link> · <Link to="/payouts">Payout runs</Link>
    </Text>
  )
}

export default function Ledgers() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/ledgers', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')
  const summary = useApi(`ledger-summary:${filters.asOf}`, async () =>
    unwrap(await api.GET('/api/ledgerSummary', { params: { query: { asOf: filters.asOf || undefined } } })),
  )
  const result = useApi(`payreceive${key}`, async () =>
    unwrap(
      await api.GET('/api/ledgers/payReceiveLedgers', {
        params: {
          query: {
            asOf: filters.asOf || undefined,
            kind: (filters.kind || undefined) as HolderKind | undefined,
            accountHolderId: intOrText(filters.accountHolderId),
            pageNumber: page,
            pageSize: size,
          },
        },
      }),
    ),
  )
  const errors = { ...fieldErrors(summary.problem), ...fieldErrors(result.problem) }
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.items ?? [], sort, COLUMNS)
  const total = result.data?.totalCount ?? 0

  return (
    <Stack>
      <Title order={1} size="h2">
        Ledgers
      </Title>
      <LedgerTabs />
      <form onSubmit={submit} role="search" aria-label="Filter ledgers" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="As of" type="date" name="asOf" {...field('asOf')} />
          <NativeSelect
            label="Kind"
            name="kind"
            data={[{ value: '', label: 'Any' }, ...HOLDER_KINDS.map((k) => ({ value: k, label: words(k) }))]}
            {...field('kind')}
          />
          <TextInput
            label="Account holder id"
            name="accountHolderId"
            inputMode="numeric"
            maxLength={15}
            {...field('accountHolderId')}
          />
          <FilterButtons label="Show" clearTo="/ledgers" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Totals by purpose" state={summary} testId="ledger-totals">
          {(s) => (
            <Table withTableBorder aria-label="Totals by purpose">
              <ColumnHeads
                columns={['Purpose', 'Side', { numeric: 'Debit' }, { numeric: 'Credit' }, { numeric: 'Balance' }]}
              />
              <Table.Tbody>
                {s.totals.map((t) => (
                  <Table.Tr key={t.purpose}>
                    <Table.Td>{words(t.purpose)}</Table.Td>
                    <Table.Td>{t.normalSide.toLowerCase()}</Table.Td>
                    <MoneyCell value={t.debit} />
                    <MoneyCell value={t.credit} />
                    <MoneyCell value={t.balance} />
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Panel>
        <Panel title="Receivables by age" state={summary} testId="ledger-aging">
          {(s) => (
            <Stack gap="xs">
              <Table withTableBorder aria-label="Receivables by age">
                <ColumnHeads columns={['Age', { numeric: 'Open' }]} />
                <Table.Tbody>
                  {s.receivableAging.map((b) => (
                    <Table.Tr key={b.bucket}>
                      <Table.Td>{b.bucket} days</Table.Td>
                      <MoneyCell value={b.amount} />
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text size="xs">As of {day(s.asOf)}.</Text>
            </Stack>
          )}
        </Panel>
      </SimpleGrid>

      <Group justify="space-between">
        <ListCount state={result} testId="ledgers-total">
          {`${count(total)} account holder${total === 1 ? '' : 's'} with ledger lines`}
        </ListCount>
        <Text size="xs" c="dimmed">
          By holder; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="What each holder owes and is owed">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.accountHolderId}>
                <Table.Td>
                  <Link to={`/ledgers/${r.accountHolderId}`}>{r.displayName}</Link> ({r.accountHolderId})
                </Table.Td>
                <Table.Td>{words(r.kind)}</Table.Td>
                <MoneyCell value={r.receivable} />
                <MoneyCell value={r.disbursementPayable} />
                <MoneyCell value={r.refundPayable} />
                <MoneyCell value={r.claimPayable} />
                <MoneyCell value={r.unappliedCash} />
                <MoneyCell value={r.net} />
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>No account holder matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
