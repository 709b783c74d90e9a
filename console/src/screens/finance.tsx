// What the finance screens share (cash, ledgers, payouts, process runs, webhooks): the account
// purposes and their normal sides, sortable column headings (the rows of the page shown), the
// account holders to choose a payer from, an error found by the field it names or by its items
// (`applications[2].amount`), and the picker of a holder's open receivable items cash is applied to.
import { Checkbox, NativeSelect, Table, Text, TextInput } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import type { paths, Schemas } from '../api/types.ts'
import { day } from '../format.ts'
import { Link } from '../router.tsx'
import { Money, MoneyCell, numeric } from '../ui.tsx'

export type Purpose = NonNullable<NonNullable<paths['/api/ledgers']['get']['parameters']['query']>['purpose']>
export type HolderKind = NonNullable<NonNullable<paths['/api/accountholders']['get']['parameters']['query']>['kind']>
export type UnpaidItem = Schemas['UnpaidLedgerProduct']

export const PURPOSES: Purpose[] = [
  'DEALER_RECEIVABLE',
  'DISBURSEMENT_PAYABLE',
  'REFUND_PAYABLE',
  'CLAIM_PAYABLE',
  'UNAPPLIED_CASH',
  'CASH',
  'ADMINISTRATOR_REVENUE',
  'UNEARNED_REVENUE',
  'CLAIM_EXPENSE',
  'SALES_TAX_PAYABLE',
]
/** The purposes whose balance grows on the credit side (src/modules/finance/ledger.rules.ts). */
export const CREDIT_NORMAL = new Set<string>([
  'DISBURSEMENT_PAYABLE',
  'ADMINISTRATOR_REVENUE',
  'UNEARNED_REVENUE',
  'UNAPPLIED_CASH',
  'CLAIM_PAYABLE',
  'REFUND_PAYABLE',
  'SALES_TAX_PAYABLE',
])
export const HOLDER_KINDS: HolderKind[] = [
  'DEALER',
  'DEALER_GROUP',
  'AGENT',
  'INSURER',
  'CUSTOMER',
  'LIEN_HOLDER',
  'REPAIR_FACILITY',
  'ADMIN_COMPANY',
]

/** "DEALER_RECEIVABLE" as "dealer receivable". */
export const words = (s: string) => s.toLowerCase().replaceAll('_', ' ')

/** An integer typed in a filter, or the text as typed (the API then names the field). */
export const intOrText = (v: string): number | undefined =>
  v === '' ? undefined : /^\d{1,15}$/.test(v) ? Number(v) : (v as unknown as number)

/** The first error naming `field` itself or one of its members or items. */
export function errorAt(errors: Record<string, string>, field: string): string | undefined {
  if (errors[field]) return errors[field]
  const k = Object.keys(errors).find((f) => f.startsWith(`${field}[`) || f.startsWith(`${field}.`))
  return k ? errors[k] : undefined
}

/** The tenant's account holders of a kind (at most 1,000), for a payer or payee choice. */
export function useHolders(kind: string) {
  return useApi(`holders:${kind}`, async () =>
    unwrap(
      await api.GET('/api/accountholders', {
        params: { query: { kind: (kind || undefined) as HolderKind | undefined, limit: 1000 } },
      }),
    ),
  )
}

/** A choice of account holder of `kind`; its value is the holder's id. */
export function HolderSelect({
  kind,
  label,
  value,
  onChange,
  error,
  name,
}: {
  kind: string
  label: string
  value: string
  onChange: (v: string) => void
  error?: string
  name: string
}) {
  const holders = useHolders(kind)
  return (
    <NativeSelect
      label={label}
      name={name}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error ?? holders.problem?.detail}
      data={[
        { value: '', label: holders.data ? 'Choose…' : 'Loading…' },
        ...(holders.data ?? []).map((h) => ({ value: String(h.id), label: `${h.displayName} (${h.id})` })),
      ]}
    />
  )
}

/** A holder's open receivable items (oldest first), at most 1,000. */
export function useUnpaid(dealerId: string, version: number | string = 0) {
  return useApi(`unpaid:${dealerId}:${version}`, async () =>
    dealerId
      ? unwrap(
          await api.GET('/api/ledgers/unpaidLedgersProducts', {
            params: { query: { dealerId: Number(dealerId), pageSize: 1000 } },
          }),
        )
      : undefined,
  )
}

/** Amounts to apply, by contract id: an item is chosen while it has an entry. */
export type Chosen = Record<number, string>

/** The applications of `chosen` in the items' order, and the index of each contract in them. */
export function applicationsOf(items: UnpaidItem[], chosen: Chosen) {
  const picked = items.filter((i) => chosen[i.contractId] !== undefined)
  return {
    applications: picked.map((i) => ({ contractId: i.contractId, amount: chosen[i.contractId]! })),
    index: new Map(picked.map((i, n) => [i.contractId, n])),
  }
}

/**
 * The open items to apply cash to: each with a check box and the amount (its open amount to start
 * with); the API's errors on `applications[i]` shown at the item they name.
 */
export function ItemPicker({
  items,
  chosen,
  setChosen,
  errors,
  label,
}: {
  items: UnpaidItem[]
  chosen: Chosen
  setChosen: (c: Chosen) => void
  errors: Record<string, string>
  label: string
}) {
  const { index } = applicationsOf(items, chosen)
  if (items.length === 0) return <Text size="sm">No open item.</Text>
  const total = Object.values(chosen).reduce((s, v) => s + Math.round((Number(v) || 0) * 100), 0)
  return (
    <Table withTableBorder aria-label={label} data-testid="item-picker">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Apply</Table.Th>
          <Table.Th scope="col">Contract</Table.Th>
          <Table.Th scope="col">First posted</Table.Th>
          <Table.Th scope="col">Age</Table.Th>
          <Table.Th scope="col" style={numeric}>
            Open
          </Table.Th>
          <Table.Th scope="col" style={numeric}>
            Amount to apply
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((i) => {
          const on = chosen[i.contractId] !== undefined
          const n = index.get(i.contractId)
          const err =
            n === undefined
              ? undefined
              : (errors[`applications[${n}].amount`] ?? errors[`applications[${n}].contractId`])
          return (
            <Table.Tr key={i.contractId}>
              <Table.Td>
                <Checkbox
                  aria-label={`Apply to ${i.contractNumber}`}
                  checked={on}
                  onChange={(e) => {
                    const next = { ...chosen }
                    if (e.currentTarget.checked) next[i.contractId] = i.openAmount.toFixed(2)
                    else delete next[i.contractId]
                    setChosen(next)
                  }}
                />
              </Table.Td>
              <Table.Td>
                <Link to={`/contracts/${i.contractId}`}>{i.contractNumber}</Link>
              </Table.Td>
              <Table.Td>{day(i.firstPostedDate)}</Table.Td>
              <Table.Td>
                {i.ageDays} day{i.ageDays === 1 ? '' : 's'} ({i.agingBucket})
              </Table.Td>
              <MoneyCell value={i.openAmount} />
              <Table.Td style={numeric} w={170}>
                <TextInput
                  size="xs"
                  aria-label={`Amount to apply to ${i.contractNumber}`}
                  inputMode="decimal"
                  maxLength={16}
                  disabled={!on}
                  styles={{ input: numeric }}
                  value={chosen[i.contractId] ?? ''}
                  error={err}
                  onChange={(e) => setChosen({ ...chosen, [i.contractId]: e.currentTarget.value })}
                />
              </Table.Td>
            </Table.Tr>
          )
        })}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row" colSpan={5}>
            Chosen to apply
          </Table.Th>
          <Table.Td style={numeric} fw={600} data-testid="chosen-total">
            <Money value={total / 100} />
          </Table.Td>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  )
}
