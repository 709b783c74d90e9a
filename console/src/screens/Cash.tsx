// Cash received (docs/cash.md): GET /api/cashtransactions with its filters (payer, status, received
// dates), paged by limit/offset with the total from X-Total-Count, newest first (the API's order); a
// column heading sorts the page shown. Every choice is in the URL. "Receive cash" opens the form.
import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, day } from '../format.ts'
import { Link, navigate } from '../router.tsx'
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

type Cash = Schemas['CashTransaction']
const FILTERS = ['payerId', 'status', 'receivedFrom', 'receivedTo'] as const
const SIZES = ['25', '50', '100']
const COLUMNS: SortColumn<Cash>[] = [
  { key: 'id', label: 'Receipt' },
  { key: 'status', label: 'Status' },
  { key: 'payerId', label: 'Payer' },
  { key: 'paymentMethod', label: 'Method' },
  { key: 'reference', label: 'Reference' },
  { key: 'receivedDate', label: 'Received' },
  { key: 'createdAt', label: 'Recorded' },
  { key: 'amount', label: 'Amount', numeric: true },
  { key: 'appliedAmount', label: 'Applied', numeric: true },
  { key: 'unappliedAmount', label: 'Unapplied', numeric: true },
]

export const CASH_COLORS: Record<string, string> = { POSTED: 'green.9', RETURNED: 'red.9' }

export default function CashList() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/cash', FILTERS, SIZES, ['sort'])
  const sort = query.get('sort')
  const result = useApi(`cash${key}`, async () => {
    const res = await api.GET('/api/cashtransactions', {
      params: {
        query: {
          payerId: intOrText(filters.payerId),
          status: filters.status || undefined,
          receivedFrom: filters.receivedFrom || undefined,
          receivedTo: filters.receivedTo || undefined,
          limit: size,
          offset: (page - 1) * size,
        },
      },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })
  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.rows ?? [], sort, COLUMNS)
  const total = result.data?.total ?? 0

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Cash
        </Title>
        <Button onClick={() => navigate(`/cash/new${filters.payerId ? `?payerId=${filters.payerId}` : ''}`)}>
          Receive cash
        </Button>
      </Group>
      <form onSubmit={submit} role="search" aria-label="Filter cash" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput label="Payer id" name="payerId" inputMode="numeric" maxLength={15} {...field('payerId')} />
          <NativeSelect
            label="Status"
            name="status"
            data={[
              { value: '', label: 'Any' },
              { value: 'POSTED', label: 'posted' },
              { value: 'RETURNED', label: 'returned' },
            ]}
            {...field('status')}
          />
          <TextInput label="Received from" type="date" name="receivedFrom" {...field('receivedFrom')} />
          <TextInput label="Received to" type="date" name="receivedTo" {...field('receivedTo')} />
          <FilterButtons label="Filter" clearTo="/cash" />
        </SimpleGrid>
      </form>
      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />
      <Group justify="space-between">
        <ListCount state={result} testId="cash-total">
          {`${count(total)} receipt${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          Newest first; a column heading sorts this page.
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="Cash received" data-testid="cash-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Link to={`/cash/${c.id}`}>Receipt {c.id}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={CASH_COLORS[c.status] ?? 'gray.8'}>
                    {c.status.toLowerCase()}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Link to={`/ledgers/${c.payerId}`}>{c.payerId}</Link>
                </Table.Td>
                <Table.Td>{c.paymentMethod}</Table.Td>
                <Table.Td>{c.reference}</Table.Td>
                <Table.Td>{day(c.receivedDate)}</Table.Td>
                <Table.Td>{dateTime(c.createdAt)}</Table.Td>
                <MoneyCell value={c.amount} />
                <MoneyCell value={c.appliedAmount} />
                <MoneyCell value={c.unappliedAmount} />
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>No receipt matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pages={Math.max(1, Math.ceil(total / size))} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
