// Unpaid items (docs/ledgers.md "GET /api/ledgers/unpaidLedgersProducts"): the open receivable items,
// per dealer and contract, oldest first posting first (the API's order), filtered by dealer, as-of
// date and minimum age, paged with the API's totalCount; a heading sorts the page shown. A dealer's
// items can be paid from "Receive cash".
import { Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, day } from '../format.ts'
import { Link } from '../router.tsx'
import {
  ListCount,
  bindField,
  FilterButtons,
  MoneyCell,
  Outcome,
  Pager,
  useListQuery,
  SortHeads,
  sortRows,
  type SortColumn,
} from '../ui.tsx'
import { intOrText } from './finance.tsx'
import { LedgerTabs } from './Ledgers.tsx'

type Row = Schemas['UnpaidLedgerProduct']
const FILTERS = ['dealerId', 'asOf', 'minAge'] as const
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Row>[] = [
  { key: 'contractNumber', label: 'Contract' },
  { key: 'dealerId', label: 'Dealer' },
  { key: 'productId', label: 'Product' },
  { key: 'firstPostedDate', label: 'First posted' },
  { key: 'ageDays', label: 'Age (days)', numeric: true },
  { key: 'agingBucket', label: 'Bucket' },
  { key: 'openAmount', label: 'Open', numeric: true },
]

export default function UnpaidItems() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery(
    '/ledgers/unpaid',
    FILTERS,
    SIZES,
    ['sort'],
  )
  const sort = query.get('sort')
  const result = useApi(`unpaid-list${key}`, async () =>
    unwrap(
      await api.GET('/api/ledgers/unpaidLedgersProducts', {
        params: {
          query: {
            dealerId: intOrText(filters.dealerId),
            asOf: filters.asOf || undefined,
            minAge: intOrText(filters.minAge),
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
        Unpaid items
      </Title>
      <LedgerTabs />
      <form onSubmit={submit} role="search" aria-label="Filter unpaid items" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Dealer id" name="dealerId" inputMode="numeric" maxLength={15} {...field('dealerId')} />
          <TextInput label="As of" type="date" name="asOf" {...field('asOf')} />
          <TextInput label="At least (days old)" name="minAge" inputMode="numeric" maxLength={6} {...field('minAge')} />
          <FilterButtons label="Show" clearTo="/ledgers/unpaid" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={result} testId="unpaid-total">
          {`${count(total)} open item${total === 1 ? '' : 's'} as of ${day(result.data?.asOf)}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          Oldest first; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover withTableBorder aria-label="Unpaid items">
          <SortHeads columns={COLUMNS} sort={sort} go={go} extra={['Pay']} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={`${r.dealerId}:${r.contractId}`}>
                <Table.Td>
                  <Link to={`/contracts/${r.contractId}`}>{r.contractNumber}</Link>
                </Table.Td>
                <Table.Td>
                  <Link to={`/ledgers/${r.dealerId}`}>{r.dealerId}</Link>
                </Table.Td>
                <Table.Td>{r.productId}</Table.Td>
                <Table.Td>{day(r.firstPostedDate)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{r.ageDays}</Table.Td>
                <Table.Td>{r.agingBucket}</Table.Td>
                <MoneyCell value={r.openAmount} />
                <Table.Td>
                  <Link to={`/cash/new?payerId=${r.dealerId}`}>Receive cash</Link>
                </Table.Td>
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 1}>No open item.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, result.data?.totalPages ?? 1)} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
