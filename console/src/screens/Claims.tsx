// The adjuster's queue: GET /api/claims with its filters (status, dealer, contract, repair facility,
// VIN, loss dates), paged by pageNumber/pageSize with the API's totalCount, newest first (the API's
// order; a column heading sorts the rows of the page shown), every choice in the URL. A dealer-side
// user sees its dealers' claims only (the API decides). Errors the API names by query parameter are
// shown under that field. "New claim" opens the intake (ClaimIntake.tsx).
import { Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core'
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
  SortHeads,
  sortRows,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'

export type ClaimStatus = Schemas['ClaimSummary']['status']
export const CLAIM_STATUSES: ClaimStatus[] = [
  'OPEN',
  'PENDING_INSPECTION',
  'AUTHORIZED',
  'PENDING_PAYMENT',
  'PARTIALLY_PAID',
  'PAID',
  'DENIED',
  'CLOSED',
  'VOIDED',
]
export const CLAIM_COLORS: Record<string, string> = {
  OPEN: 'blue.9',
  PENDING_INSPECTION: 'yellow.9',
  AUTHORIZED: 'teal.9',
  PENDING_PAYMENT: 'orange.9',
  PARTIALLY_PAID: 'grape.9',
  PAID: 'green.9',
  DENIED: 'red.9',
  CLOSED: 'gray.8',
  VOIDED: 'dark.9',
}
export const statusLabel = (s: string) => s.toLowerCase().replaceAll('_', ' ')

const FILTERS = ['status', 'dealerId', 'contractId', 'repairFacilityId', 'vin', 'lossDateFrom', 'lossDateTo'] as const
const SIZES = ['25', '50', '100']

type Row = Schemas['ClaimSummary']
const COLUMNS: Array<SortColumn<Row>> = [
  { key: 'claimNumber', label: 'Claim', value: (c) => c.claimNumber },
  { key: 'status', label: 'Status', value: (c) => c.status },
  { key: 'contractNumber', label: 'Contract', value: (c) => c.contractNumber },
  { key: 'repairFacility', label: 'Repair facility', value: (c) => c.repairFacility.name },
  { key: 'dealerId', label: 'Dealer', value: (c) => c.dealerId },
  { key: 'lossDate', label: 'Loss date', value: (c) => c.lossDate },
  { key: 'reportedAt', label: 'Reported', value: (c) => c.reportedAt },
  { key: 'requested', label: 'Requested', numeric: true, value: (c) => c.totals.requested },
  { key: 'authorized', label: 'Authorized', numeric: true, value: (c) => c.totals.authorized },
  { key: 'payable', label: 'Payable', numeric: true, value: (c) => c.totals.payable },
  { key: 'paid', label: 'Paid', numeric: true, value: (c) => c.totals.paid },
]

const int = (v: string) => (/^\d{1,15}$/.test(v) ? Number(v) : undefined)

export default function Claims() {
  const { query, filters, size, page, form, setForm, key, go, submit } = useListQuery('/claims', FILTERS, SIZES, [
    'sort',
  ])
  const sort = query.get('sort')

  const result = useApi(`claims${key}`, async () => {
    // A dealer id that is not a number is sent as it is typed: the API names the field.
    const dealerId = filters.dealerId ? (int(filters.dealerId) ?? (filters.dealerId as unknown as number)) : undefined
    return unwrap(
      await api.GET('/api/claims', {
        params: {
          query: {
            status: (filters.status || undefined) as ClaimStatus | undefined,
            dealerId,
            contractId: (int(filters.contractId) ?? (filters.contractId || undefined)) as number | undefined,
            repairFacilityId: (int(filters.repairFacilityId) ?? (filters.repairFacilityId || undefined)) as
              number | undefined,
            vin: filters.vin || undefined,
            lossDateFrom: filters.lossDateFrom || undefined,
            lossDateTo: filters.lossDateTo || undefined,
            pageNumber: page,
            pageSize: size,
          },
        },
      }),
    )
  })

  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const rows = sortRows(result.data?.items ?? [], sort, COLUMNS)
  const total = result.data?.totalCount ?? 0
  const pages = Math.max(1, result.data?.totalPages ?? 1)

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Claims
        </Title>
        <Button onClick={() => navigate('/claims/new')}>New claim</Button>
      </Group>
      <form onSubmit={submit} role="search" aria-label="Filter claims" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <NativeSelect
            label="Status"
            name="status"
            data={[{ value: '', label: 'Any' }, ...CLAIM_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]}
            {...field('status')}
          />
          <TextInput label="Dealer id" name="dealerId" inputMode="numeric" maxLength={15} {...field('dealerId')} />
          <TextInput
            label="Contract id"
            name="contractId"
            inputMode="numeric"
            maxLength={15}
            {...field('contractId')}
          />
          <TextInput
            label="Repair facility id"
            name="repairFacilityId"
            inputMode="numeric"
            maxLength={15}
            {...field('repairFacilityId')}
          />
          <TextInput label="VIN" name="vin" maxLength={17} {...field('vin')} />
          <TextInput label="Loss from" type="date" name="lossDateFrom" {...field('lossDateFrom')} />
          <TextInput label="Loss to" type="date" name="lossDateTo" {...field('lossDateTo')} />
          <FilterButtons label="Filter" clearTo="/claims" />
        </SimpleGrid>
      </form>

      <Outcome problem={result.problem} done={undefined} fields={FILTERS} />

      <ListCount state={result} testId="claims-total">
        {`${count(total)} claim${total === 1 ? '' : 's'}`}
      </ListCount>

      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="Claims" data-testid="claims-table">
          <SortHeads columns={COLUMNS} sort={sort} go={go} />
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Link to={`/claims/${c.id}`}>{c.claimNumber}</Link>
                </Table.Td>
                <Table.Td miw={175}>
                  <Badge variant="dot" color={CLAIM_COLORS[c.status] ?? 'gray.8'}>
                    {statusLabel(c.status)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Link to={`/contracts/${c.contractId}`}>{c.contractNumber}</Link>
                </Table.Td>
                <Table.Td>{c.repairFacility.name}</Table.Td>
                <Table.Td>{c.dealerId}</Table.Td>
                <Table.Td>{day(c.lossDate)}</Table.Td>
                <Table.Td>{dateTime(c.reportedAt)}</Table.Td>
                <MoneyCell value={c.totals.requested} />
                <MoneyCell value={c.totals.authorized} />
                <MoneyCell value={c.totals.payable} />
                <MoneyCell value={c.totals.paid} />
              </Table.Tr>
            ))}
            {!result.loading && rows.length === 0 && !result.problem && (
              <Table.Tr>
                <Table.Td colSpan={11}>No claim matches.</Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Pager page={page} pages={pages} size={size} sizes={SIZES} go={go} />
    </Stack>
  )
}
