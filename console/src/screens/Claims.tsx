// The adjuster's queue: GET /api/claims with its filters (status, dealer, VIN, loss dates), paged by
// pageNumber/pageSize with the API's totalCount, newest first, every choice in the URL. A dealer-side
// user sees its dealers' claims only (the API decides). Errors the API names by query parameter are
// shown under that field.
import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useEffect, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors, otherErrors } from '../api/problem.ts'
import type { Schemas } from '../api/types.ts'
import { count, dateTime, day } from '../format.ts'
import { Link, navigate, queryString, useLocation } from '../router.tsx'
import { Money, numeric, ProblemAlert } from '../ui.tsx'

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

const FILTERS = ['status', 'dealerId', 'vin', 'lossDateFrom', 'lossDateTo'] as const
type Filter = (typeof FILTERS)[number]
const SIZES = ['25', '50', '100']

const int = (v: string) => (/^\d{1,15}$/.test(v) ? Number(v) : undefined)

export default function Claims() {
  const { query } = useLocation()
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Record<Filter, string>
  const size = SIZES.includes(query.get('size') ?? '') ? Number(query.get('size')) : 25
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1)
  const [form, setForm] = useState(filters)
  const key = queryString({ ...filters, size, page })
  useEffect(() => setForm(filters), [key]) // eslint-disable-line react-hooks/exhaustive-deps

  const result = useApi(`claims${key}`, async () => {
    // A dealer id that is not a number is sent as it is typed: the API names the field.
    const dealerId = filters.dealerId ? (int(filters.dealerId) ?? (filters.dealerId as unknown as number)) : undefined
    return unwrap(
      await api.GET('/api/claims', {
        params: {
          query: {
            status: (filters.status || undefined) as ClaimStatus | undefined,
            dealerId,
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

  const go = (over: Record<string, string | number | undefined>) =>
    navigate(`/claims${queryString({ ...filters, size: size === 25 ? undefined : size, page, ...over })}`)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    navigate(`/claims${queryString({ ...form, size: size === 25 ? undefined : size })}`)
  }
  const errors = fieldErrors(result.problem)
  const unplaced = otherErrors(result.problem, FILTERS)
  const field = (name: Filter) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })
  const rows = result.data?.items ?? []
  const total = result.data?.totalCount ?? 0
  const pages = Math.max(1, result.data?.totalPages ?? 1)

  return (
    <Stack>
      <Title order={1} size="h2">
        Claims
      </Title>
      <form onSubmit={submit} role="search" aria-label="Filter claims" noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 6 }} spacing="sm">
          <NativeSelect
            label="Status"
            name="status"
            data={[{ value: '', label: 'Any' }, ...CLAIM_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]}
            {...field('status')}
          />
          <TextInput label="Dealer id" name="dealerId" inputMode="numeric" maxLength={15} {...field('dealerId')} />
          <TextInput label="VIN" name="vin" maxLength={17} {...field('vin')} />
          <TextInput label="Loss from" type="date" name="lossDateFrom" {...field('lossDateFrom')} />
          <TextInput label="Loss to" type="date" name="lossDateTo" {...field('lossDateTo')} />
          <Group align="end" gap="xs">
            <Button type="submit">Filter</Button>
            <Button variant="default" onClick={() => navigate('/claims')}>
              Clear
            </Button>
          </Group>
        </SimpleGrid>
      </form>

      {result.problem && (unplaced.length > 0 || !result.problem.errors?.length) && (
        <ProblemAlert problem={{ ...result.problem, errors: unplaced }} />
      )}

      <Text size="sm" role="status" aria-live="polite" data-testid="claims-total">
        {result.loading
          ? 'Loading…'
          : result.problem
            ? 'The filter was refused.'
            : `${count(total)} claim${total === 1 ? '' : 's'}`}
      </Text>

      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withTableBorder aria-label="Claims" data-testid="claims-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Claim</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Contract</Table.Th>
              <Table.Th scope="col">Repair facility</Table.Th>
              <Table.Th scope="col">Dealer</Table.Th>
              <Table.Th scope="col">Loss date</Table.Th>
              <Table.Th scope="col">Reported</Table.Th>
              <Table.Th scope="col" style={numeric}>
                Requested
              </Table.Th>
              <Table.Th scope="col" style={numeric}>
                Authorized
              </Table.Th>
              <Table.Th scope="col" style={numeric}>
                Payable
              </Table.Th>
              <Table.Th scope="col" style={numeric}>
                Paid
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
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
                <Table.Td style={numeric}>
                  <Money value={c.totals.requested} />
                </Table.Td>
                <Table.Td style={numeric}>
                  <Money value={c.totals.authorized} />
                </Table.Td>
                <Table.Td style={numeric}>
                  <Money value={c.totals.payable} />
                </Table.Td>
                <Table.Td style={numeric}>
                  <Money value={c.totals.paid} />
                </Table.Td>
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

      <Group justify="space-between">
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={(p) => go({ page: p === 1 ? undefined : p })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        />
        <NativeSelect
          aria-label="Rows per page"
          value={String(size)}
          data={SIZES.map((s) => ({ value: s, label: `${s} per page` }))}
          onChange={(e) =>
            go({ size: e.currentTarget.value === '25' ? undefined : e.currentTarget.value, page: undefined })
          }
        />
      </Group>
    </Stack>
  )
}
