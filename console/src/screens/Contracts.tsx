// Contracts: search (GET /api/contracts: number, VIN, holder's name, dealer number, status, sale
// dates), paged by limit/offset with the total from X-Total-Count, every choice in the URL. The API
// orders newest first; a sortable column's heading asks the API for its order (`sort`), over the
// whole search, not just the page shown. Errors the API names by query parameter are shown under
// that field.
import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors, otherErrors } from '../api/problem.ts'
import type { ContractStatus, ContractSummary } from '../api/types.ts'
import { count, day } from '../format.ts'
import { Link } from '../router.tsx'
import {
  ListCount,
  bindField,
  FilterButtons,
  MoneyCell,
  Pager,
  ProblemAlert,
  SortHeads,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'

const FILTERS = [
  'contractNumber',
  'vin',
  'customerName',
  'dealerNumber',
  'status',
  'saleDateFrom',
  'saleDateTo',
] as const
const STATUSES: ContractStatus[] = ['PENDING', 'FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED', 'VOIDED']
const SIZES = ['25', '50', '100']

type SortField = 'contractNumber' | 'customerName' | 'saleDate' | 'dealerCost' | 'retailPrice'
type ApiSort = SortField | `-${SortField}`
/** The columns; those the API can sort by (`sort`) have the API's field names as keys. */
const COLUMNS: ReadonlyArray<SortColumn<ContractSummary>> = [
  { key: 'contractNumber', label: 'Contract' },
  { key: 'status', label: 'Status', sortable: false },
  { key: 'customerName', label: 'Holder' },
  { key: 'productCode', label: 'Product / plan', sortable: false },
  { key: 'vin', label: 'VIN', sortable: false },
  { key: 'dealerId', label: 'Dealer', sortable: false },
  { key: 'saleDate', label: 'Sale date' },
  { key: 'dealerCost', label: 'Dealer cost', numeric: true },
  { key: 'retailPrice', label: 'Retail', numeric: true },
]
const SORTS = new Set<string>(COLUMNS.flatMap((c) => (c.sortable === false ? [] : [c.key, `-${c.key}`])))

export const STATUS_COLORS: Record<string, string> = {
  PENDING: 'yellow.9',
  FINALIZED: 'blue.9',
  ACTIVE: 'green.9',
  EXPIRED: 'gray.8',
  CANCELLED: 'red.9',
  VOIDED: 'dark.9',
}

export default function Contracts() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/contracts', FILTERS, SIZES, [
    'sort',
  ])
  const asked = query.get('sort')
  const sort = asked && SORTS.has(asked) ? (asked as ApiSort) : undefined

  const result = useApi(key, async () => {
    const res = await api.GET('/api/contracts', {
      params: {
        query: {
          contractNumber: filters.contractNumber || undefined,
          vin: filters.vin || undefined,
          customerName: filters.customerName || undefined,
          dealerNumber: filters.dealerNumber || undefined,
          status: (filters.status || undefined) as ContractStatus | undefined,
          saleDateFrom: filters.saleDateFrom || undefined,
          saleDateTo: filters.saleDateTo || undefined,
          sort,
          limit: size,
          offset: (page - 1) * size,
        },
      },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })

  const errors = fieldErrors(result.problem)
  const unplaced =
    result.problem && otherErrors(result.problem, FILTERS).length === (result.problem.errors?.length ?? 0)
  const field = bindField(form, setForm, errors)
  const rows = result.data?.rows ?? []
  const total = result.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / size))

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          Contracts
        </Title>
        <Button component={Link} to="/contracts/new">
          New contract
        </Button>
      </Group>
      <form onSubmit={submit} role="search" aria-label="Search contracts" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput label="Contract number" name="contractNumber" {...field('contractNumber')} />
          <TextInput label="VIN (or its last characters)" name="vin" {...field('vin')} />
          <TextInput label="Holder's name" name="customerName" {...field('customerName')} />
          <TextInput label="Dealer number" name="dealerNumber" {...field('dealerNumber')} />
          <NativeSelect
            label="Status"
            name="status"
            data={[{ value: '', label: 'Any' }, ...STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))]}
            {...field('status')}
          />
          <TextInput label="Sold from" type="date" name="saleDateFrom" {...field('saleDateFrom')} />
          <TextInput label="Sold to" type="date" name="saleDateTo" {...field('saleDateTo')} />
          <FilterButtons label="Search" clearTo="/contracts" />
        </SimpleGrid>
      </form>

      {result.problem && unplaced && <ProblemAlert problem={result.problem} />}
      {result.problem && !unplaced && (
        <Alert color="red" role="alert">
          {result.problem.detail}
        </Alert>
      )}

      <Group justify="space-between">
        <ListCount
          state={result}
          testId="contracts-total"
          loading="Searching…"
          refused="The search was refused: see the fields above."
        >
          {`${count(total)} contract${total === 1 ? '' : 's'}`}
        </ListCount>
        <Text size="xs" c="dimmed">
          {sort ? 'Sorted by the column marked; its heading again reverses it.' : 'Newest first; a ▴▾ heading sorts.'}
        </Text>
      </Group>

      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover withTableBorder aria-label="Contracts" data-testid="contracts-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Link to={`/contracts/${c.id}`}>{c.contractNumber}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[c.status] ?? 'gray.8'} variant="dot">
                    {c.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{c.customerName}</Table.Td>
                <Table.Td>
                  {c.productCode} · {c.planCode}
                </Table.Td>
                <Table.Td ff="monospace">{c.vin ?? '—'}</Table.Td>
                <Table.Td>{c.dealerId}</Table.Td>
                <Table.Td>{day(c.saleDate)}</Table.Td>
                <MoneyCell value={c.dealerCost} />
                <MoneyCell value={c.retailPrice} />
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>No contract matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Pager page={page} pages={pages} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
