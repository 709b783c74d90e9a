// Small pieces the screens share: a panel that shows its data, its loading state or the API's
// problem (never a blank screen), right-aligned money (and money cells), column headings, a
// label/value table, a record's page when the record cannot be read, an action's state and outcome,
// the binding of a form's text fields, a paged list's URL state, filter buttons and pager, and a
// download saved as a file.
import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core'
import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import type { Loaded } from './api/client.ts'
import { otherErrors, toProblem } from './api/problem.ts'
import type { Problem } from './api/types.ts'
import { money } from './format.ts'
import { Link, navigate, queryString, useLocation } from './router.tsx'

export function ProblemAlert({ problem }: { problem: Problem }) {
  const denied = problem.status === 403
  return (
    <Alert color={denied ? 'gray' : 'red'} title={denied ? 'Not available to your roles' : problem.title} role="alert">
      <Text size="sm">{problem.detail}</Text>
      {(problem.errors ?? []).map((e) => (
        <Text size="sm" key={`${e.field}:${e.code}`}>
          {e.field}: {e.message}
        </Text>
      ))}
      {problem.requestId && (
        <Text size="xs" c="dimmed">
          Request {problem.requestId}
        </Text>
      )}
    </Alert>
  )
}

export function Panel<T>({
  title,
  state,
  children,
  headingLevel = 2,
  testId,
}: {
  title: string
  state: Loaded<T>
  children: (data: T) => ReactNode
  headingLevel?: 2 | 3
  testId?: string
}) {
  return (
    <Card
      withBorder
      component="section"
      aria-label={title}
      data-testid={testId}
      data-loading={state.loading || undefined}
    >
      <Stack gap="sm">
        <Title order={headingLevel} size="h4">
          {title}
        </Title>
        {state.problem ? (
          <ProblemAlert problem={state.problem} />
        ) : state.data === undefined ? (
          <Center p="md">
            <Loader size="sm" aria-label={`Loading ${title}`} />
          </Center>
        ) : (
          children(state.data)
        )}
      </Stack>
    </Card>
  )
}

/** A money cell: right-aligned, tabular figures. */
export function Money({ value }: { value: number | null | undefined }) {
  return <span className="money">{value === null || value === undefined ? '—' : money(value)}</span>
}

export const numeric = { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' as const }

/** A table cell holding money, right-aligned. */
export function MoneyCell({ value }: { value: number | null | undefined }) {
  return (
    <Table.Td style={numeric}>
      <Money value={value} />
    </Table.Td>
  )
}

/** A filter form's buttons: apply it, or clear it by going back to the list's bare `clearTo`. */
export function FilterButtons({ label, clearTo }: { label: string; clearTo: string }) {
  return (
    <Group align="end" gap="xs">
      <Button type="submit">{label}</Button>
      <Button variant="default" onClick={() => navigate(clearTo)}>
        Clear
      </Button>
    </Group>
  )
}

/** Label/value rows of a record (a contract's sale, a claim's facts). */
export function Facts({ rows, label }: { rows: Array<[string, ReactNode]>; label?: string }) {
  return (
    <Table variant="vertical" withTableBorder layout="fixed" aria-label={label}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row" w={170}>
              {k}
            </Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** A record's page when the record itself could not be read (the API's 404, 403, …). */
export function RecordProblem({
  title,
  problem,
  back,
  backLabel,
}: {
  title: string
  problem: Problem
  back: string
  backLabel: string
}) {
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <ProblemAlert problem={problem} />
      <Text size="sm">
        <Link to={back}>{backLabel}</Link>
      </Text>
    </Stack>
  )
}

/** An action's state: busy while it runs, then the API's problem or what it did. */
export function useAction() {
  const [problem, setProblem] = useState<Problem | undefined>()
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<string | undefined>()
  const run = async (act: () => Promise<string>) => {
    setBusy(true)
    setProblem(undefined)
    setDone(undefined)
    try {
      setDone(await act())
    } catch (err) {
      setProblem(toProblem(err))
    } finally {
      setBusy(false)
    }
  }
  return { problem, busy, done, run }
}

/** An action's outcome under its form: the problem but for the errors shown at the form's fields, or what was done. */
export function Outcome({
  problem,
  done,
  fields = [],
}: {
  problem: Problem | undefined
  done: string | undefined
  fields?: readonly string[]
}) {
  const rest = otherErrors(problem, fields)
  return (
    <>
      {problem && (rest.length > 0 || !problem.errors?.length) && (
        <ProblemAlert problem={{ ...problem, errors: rest }} />
      )}
      {done && (
        <Alert color="green" role="status">
          {done}
        </Alert>
      )}
    </>
  )
}

/**
 * Binds a form's text field by name: its value, its change and (when `errors` is given) the error the
 * API named it by.
 */
export function bindField<F extends Record<string, unknown>>(
  form: F,
  setForm: (form: F) => void,
  errors?: Record<string, string>,
) {
  return (name: keyof F & string) => ({
    value: form[name] as string,
    ...(errors ? { error: errors[name] } : {}),
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  })
}

/**
 * A paged list's state, all in the URL at `path`: its filters, rows per page (one of `sizes`, 25 by
 * default) and page, with the filter form's values, which follow the URL (back and forward, a shared
 * link). `go` changes some of them in the URL; `submit` applies the form from page 1. The parameters
 * named in `keep` (a sort) are kept by both.
 */
export function useListQuery<F extends string>(
  path: string,
  names: readonly F[],
  sizes: readonly string[],
  keep: readonly string[] = [],
) {
  const { query } = useLocation()
  const filters = Object.fromEntries(names.map((f) => [f, query.get(f) ?? ''])) as Record<F, string>
  const size = sizes.includes(query.get('size') ?? '') ? Number(query.get('size')) : 25
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1)
  const kept = Object.fromEntries(keep.map((k) => [k, query.get(k)]))
  const [form, setForm] = useState(filters)
  // The list's identity: what it shows changes with any of these, a sort included.
  const key = queryString({ ...filters, ...kept, size, page })
  useEffect(() => setForm(filters), [key]) // eslint-disable-line react-hooks/exhaustive-deps
  const sizeParam = size === 25 ? undefined : size
  const go = (over: Record<string, string | number | undefined>) =>
    navigate(`${path}${queryString({ ...filters, size: sizeParam, page, ...kept, ...over })}`)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    navigate(`${path}${queryString({ ...form, size: sizeParam, ...kept })}`)
  }
  return { query, filters, size, page, form, setForm, key, go, submit }
}

/** A paged list's pager and rows-per-page choice; `go` gets what changes in the URL. */
export function Pager({
  page,
  pages,
  size,
  sizes,
  go,
}: {
  page: number
  pages: number
  size: number
  sizes: readonly string[]
  go: (over: Record<string, string | number | undefined>) => void
}) {
  return (
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
        data={sizes.map((s) => ({ value: s, label: `${s} per page` }))}
        onChange={(e) =>
          go({ size: e.currentTarget.value === '25' ? undefined : e.currentTarget.value, page: undefined })
        }
      />
    </Group>
  )
}

/** Saves `blob` as a file named `name` (the browser's download). */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A table's column headings; `{ numeric: label }` heads a right-aligned figures column. */
export function ColumnHeads({ columns }: { columns: ReadonlyArray<string | { numeric: string }> }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <Table.Th key={c} scope="col">
              {c}
            </Table.Th>
          ) : (
            <Table.Th key={c.numeric} scope="col" style={numeric}>
              {c.numeric}
            </Table.Th>
          ),
        )}
      </Table.Tr>
    </Table.Thead>
  )
}

/**
 * A column of a sortable table. `sortable: false`: its heading does not sort. `value` reads what a
 * row sorts by (by default the row's property named `key`).
 */
export type SortColumn<T> = {
  key: string
  label: string
  numeric?: boolean
  sortable?: boolean
  value?: (row: T) => unknown
}

/** `sort` ("key" or "-key") of a column that sorts; null for anything else. */
function sortedBy<T>(columns: ReadonlyArray<SortColumn<T>>, sort: string | null | undefined) {
  if (!sort) return null
  const desc = sort.startsWith('-')
  const column = columns.find((c) => c.key === (desc ? sort.slice(1) : sort) && c.sortable !== false)
  return column ? { column, desc } : null
}

/**
 * The rows of the page shown in the order `sort` asks (for lists whose API has no sort of its
 * own); numbers by value, everything else as text; rows as they came when `sort` names no column.
 */
export function sortRows<T>(
  rows: readonly T[],
  sort: string | null | undefined,
  columns: ReadonlyArray<SortColumn<T>>,
): T[] {
  const by = sortedBy(columns, sort)
  if (!by) return [...rows]
  const read = by.column.value ?? ((row: T) => (row as Record<string, unknown>)[by.column.key])
  return rows.toSorted((a, b) => {
    const x = read(a) ?? ''
    const y = read(b) ?? ''
    const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
    return by.desc ? -cmp : cmp
  })
}

/**
 * The headings of a sortable table: a heading that sorts is a button cycling ascending, descending,
 * none (`sort` in the URL through `go`, back to the first page), its state in `aria-sort`; `extra`
 * headings after them do not sort. The arrows are for the eye only.
 */
export function SortHeads<T>({
  columns,
  sort,
  go,
  extra = [],
}: {
  columns: ReadonlyArray<SortColumn<T>>
  sort: string | null | undefined
  go: (over: Record<string, string | number | undefined>) => void
  extra?: readonly string[]
}) {
  const by = sortedBy(columns, sort)
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => {
          if (c.sortable === false)
            return (
              <Table.Th key={c.key} scope="col" style={c.numeric ? numeric : undefined}>
                {c.label}
              </Table.Th>
            )
          const state = by?.column !== c ? undefined : by.desc ? 'descending' : 'ascending'
          return (
            <Table.Th key={c.key} scope="col" aria-sort={state ?? 'none'} style={c.numeric ? numeric : undefined}>
              <UnstyledButton
                fw={600}
                fz="sm"
                onClick={() =>
                  go({
                    sort: state === 'ascending' ? `-${c.key}` : state === 'descending' ? undefined : c.key,
                    page: undefined,
                  })
                }
              >
                {c.label}
                <span aria-hidden>{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ' ▴▾'}</span>
              </UnstyledButton>
            </Table.Th>
          )
        })}
        {extra.map((e) => (
          <Table.Th key={e} scope="col">
            {e}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  )
}

/**
 * A list's count line, a live region read out when it changes: `loading` while the API answers, the
 * refusal when it refuses (its fields say why), else `children` (what was found).
 */
export function ListCount({
  state,
  testId,
  loading = 'Loading…',
  refused = 'The filter was refused.',
  children,
}: {
  state: { loading: boolean; problem: Problem | undefined }
  testId: string
  loading?: string
  refused?: string
  children: ReactNode
}) {
  return (
    <Text size="sm" role="status" aria-live="polite" data-testid={testId}>
      {state.loading ? loading : state.problem ? refused : children}
    </Text>
  )
}
