// Column headings that sort the rows of the page shown (for lists whose API orders by id and has no
// sort parameter), the sort kept in the URL as `sort=key` or `sort=-key`.
import { Table, UnstyledButton } from '@mantine/core'
import { numeric } from '../ui.tsx'

export type SortColumn = { key: string; label: string; numeric?: boolean; sortable?: boolean }

export function sortRows<T>(rows: readonly T[], sort: string | null, value: (row: T, key: string) => unknown): T[] {
  if (!sort) return [...rows]
  const desc = sort.startsWith('-')
  const key = desc ? sort.slice(1) : sort
  return rows.toSorted((a, b) => {
    const x = value(a, key) ?? ''
    const y = value(b, key) ?? ''
    const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return desc ? -cmp : cmp
  })
}

export function SortHeads({
  columns,
  sort,
  go,
}: {
  columns: readonly SortColumn[]
  sort: string | null
  go: (over: Record<string, string | undefined>) => void
}) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => {
          const state = sort === c.key ? 'ascending' : sort === `-${c.key}` ? 'descending' : undefined
          return (
            <Table.Th
              key={c.key}
              scope="col"
              aria-sort={c.sortable === false ? undefined : (state ?? 'none')}
              style={c.numeric ? numeric : undefined}
            >
              {c.sortable === false ? (
                c.label
              ) : (
                <UnstyledButton
                  fw={600}
                  fz="sm"
                  onClick={() =>
                    go({ sort: state === 'ascending' ? `-${c.key}` : state === 'descending' ? undefined : c.key })
                  }
                >
                  {c.label}
                  {state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}
                </UnstyledButton>
              )}
            </Table.Th>
          )
        })}
      </Table.Tr>
    </Table.Thead>
  )
}
