// Rate books (docs/rate-books.md): import a book (POST /api/Rates/ratebooks, or ?dryRun=true to
// check only) from a JSON file, with its rates optionally from a CSV file (sent as the book's
// `ratesCsv`); a refused book's validation report, every problem with its location as the API gives
// it (the file, then a JSON pointer, or a CSV row and column); and the versions (GET
// /api/Rates/ratebooks: newest first, paged by limit/offset with X-Total-Count, a column heading
// sorts the page shown), each with what it holds, which is in force, and its export
// (GET /api/Rates/ratebooks/{version}/document, downloaded as a file).
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Input,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core'
import { useRef, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { ApiProblem, toProblem } from '../api/problem.ts'
import type { operations, Problem, Schemas } from '../api/types.ts'
import { count, dateTime, day } from '../format.ts'
import { Link } from '../router.tsx'
import {
  Facts,
  numeric,
  Pager,
  Panel,
  ProblemAlert,
  saveFile,
  SortHeads,
  sortRows,
  useListQuery,
  type SortColumn,
} from '../ui.tsx'

type Version = Schemas['RateBookVersion']
type ImportBody = operations['importRateBook']['requestBody']['content']['application/json']
type ImportResult = operations['importRateBook']['responses'][200]['content']['application/json']
type BookProblem = operations['importRateBook']['responses'][422]['content']['application/problem+json']
export type BookError = BookProblem['errors'][number]

const SIZES = ['25', '50', '100']

/** What a version sorts by: its own fields, or the counts of its summary; in force first. */
const sortValue = (v: Version, key: string): string | number => {
  if (key in v.summary) return v.summary[key as keyof Version['summary']]
  const x = v[key as keyof Version]
  return typeof x === 'number' ? x : typeof x === 'boolean' ? (x ? 1 : 0) : String(x ?? '')
}
const column = (key: string, label: string, isNumeric?: true): SortColumn<Version> => ({
  key,
  label,
  numeric: isNumeric,
  value: (v) => sortValue(v, key),
})
const COLUMNS: Array<SortColumn<Version>> = [
  column('version', 'Version', true),
  column('inForce', 'In force'),
  column('effectiveDate', 'Effective'),
  column('description', 'Description'),
  column('importedAt', 'Imported'),
  column('importedBy', 'By'),
  column('products', 'Products', true),
  column('plans', 'Plans', true),
  column('terms', 'Terms', true),
  column('rates', 'Rates', true),
  column('vehicles', 'Vehicles', true),
]

/** Where a problem is, as the API gives it: a JSON pointer, or a CSV row (its column is apart). */
export const problemLocation = (e: BookError) =>
  e.row !== undefined ? `row ${e.row}` : e.path !== undefined ? e.path || '(the whole book)' : '—'
/** The CSV column of a CSV row's problem. */
export const problemColumn = (e: BookError) => (e.row !== undefined && e.field ? e.field : '—')

/** Downloads a version's book in the import format (the API's JSON as it is sent). */
export function ExportButton({ version, label = 'Export' }: { version: number; label?: string }) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>()
  const run = async () => {
    setBusy(true)
    setProblem(undefined)
    try {
      const blob = unwrap(
        await api.GET('/api/Rates/ratebooks/{version}/document', { params: { path: { version } }, parseAs: 'blob' }),
      )
      saveFile(blob, `rate-book-v${version}.json`)
    } catch (err) {
      setProblem(toProblem(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Stack gap={4}>
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => void run()}
        loading={busy}
        aria-label={`${label} version ${version}`}
      >
        {label}
      </Button>
      {problem && <ProblemAlert problem={problem} />}
    </Stack>
  )
}

/** A refused book's validation report: every problem, where it is, its code and message. */
function ValidationReport({ problem, names }: { problem: BookProblem; names: { book: string; csv?: string } }) {
  const fileName = (file: string) =>
    file === 'body' ? names.book : file === 'body#ratesCsv' ? (names.csv ?? `ratesCsv of ${names.book}`) : file
  return (
    <Stack gap="xs" data-testid="validation-report">
      <Title order={3} size="h5">
        Validation report
      </Title>
      <Alert color="red" role="alert" title={problem.title}>
        {problem.detail}; nothing was stored. Each problem is listed where it is: a JSON pointer into the book, or a row
        (the header is row 1) and column of the CSV.
      </Alert>
      <Table.ScrollContainer minWidth={800}>
        <Table withTableBorder striped aria-label="Validation report" data-testid="validation-problems">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" style={numeric}>
                #
              </Table.Th>
              <Table.Th scope="col">File</Table.Th>
              <Table.Th scope="col">Location</Table.Th>
              <Table.Th scope="col">Column</Table.Th>
              <Table.Th scope="col">Code</Table.Th>
              <Table.Th scope="col">Message</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {problem.errors.map((e, i) => (
              <Table.Tr key={i}>
                <Table.Td style={numeric}>{i + 1}</Table.Td>
                <Table.Td>
                  {fileName(e.file)}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    ({e.file})
                  </Text>
                </Table.Td>
                <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {problemLocation(e)}
                </Table.Td>
                <Table.Td ff="monospace">{problemColumn(e)}</Table.Td>
                <Table.Td ff="monospace">{e.code}</Table.Td>
                <Table.Td>{e.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  )
}

function ImportSummary({ result }: { result: ImportResult }) {
  const s = result.summary
  const what = result.dryRun
    ? 'Checked: the book has no problem. Nothing was stored (dry run).'
    : result.unchanged
      ? `Unchanged: the book equals version ${result.version}, the latest; nothing was stored.`
      : `Imported as version ${result.version}, effective ${day(result.effectiveDate)}.`
  return (
    <Stack gap="xs" data-testid="import-result">
      <Alert color="green" role="status">
        {what}
      </Alert>
      <Facts
        label="What the book holds"
        rows={[
          ['Effective', day(result.effectiveDate)],
          [
            'Checksum',
            <Text key="c" span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
              {result.checksum}
            </Text>,
          ],
          [
            'Holds',
            `${count(s.products)} products, ${count(s.programs)} programs, ${count(s.plans)} plans, ${count(s.terms)} terms, ${count(s.rates)} rates, ${count(s.vehicles)} vehicle entries, ${count(s.factorTables)} factor tables, ${count(s.disbursementCodes)} disbursement codes`,
          ],
        ]}
      />
    </Stack>
  )
}

type Phase = { step: 'reading' | 'sending'; bytes?: number }

function ImportForm({ onImported }: { onImported: () => void }) {
  const bookInput = useRef<HTMLInputElement>(null)
  const csvInput = useRef<HTMLInputElement>(null)
  const [dryRun, setDryRun] = useState(false)
  const [phase, setPhase] = useState<Phase | undefined>()
  const [missing, setMissing] = useState<string | undefined>()
  const [fileError, setFileError] = useState<string | undefined>()
  const [report, setReport] = useState<{ problem: BookProblem; names: { book: string; csv?: string } } | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const [result, setResult] = useState<ImportResult | undefined>()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const book = bookInput.current?.files?.[0]
    const csv = csvInput.current?.files?.[0]
    setMissing(undefined)
    setFileError(undefined)
    setReport(undefined)
    setProblem(undefined)
    setResult(undefined)
    if (!book) {
      setMissing('Choose the rate book (a JSON file)')
      return
    }
    try {
      setPhase({ step: 'reading' })
      let text = await book.text()
      if (csv) {
        // The CSV file's rates travel in the book as `ratesCsv` (docs/rate-books.md, "Rates as CSV").
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch (err) {
          setFileError(`${book.name} is not JSON (${(err as Error).message}): the CSV rates cannot be added to it`)
          return
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          setFileError(`${book.name} is not a JSON object: the CSV rates cannot be added to it`)
          return
        }
        text = JSON.stringify({ ...parsed, ratesCsv: await csv.text() })
      }
      setPhase({ step: 'sending', bytes: new Blob([text]).size })
      // The file's text is sent as it is: the API checks it whole (a file that is not JSON is its 400).
      const res = await api.POST('/api/Rates/ratebooks', {
        params: { query: dryRun ? { dryRun: true } : {} },
        body: text as unknown as ImportBody,
        bodySerializer: (b) => b as unknown as string,
      })
      if (res.response.status === 422 && res.error && (res.error as BookProblem).code === 'invalid_rate_book') {
        setReport({ problem: res.error as BookProblem, names: { book: book.name, csv: csv?.name } })
        return
      }
      setResult(unwrap(res))
      if (!dryRun) onImported()
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err.problem : toProblem(err))
    } finally {
      setPhase(undefined)
    }
  }

  return (
    <Stack gap="sm">
      <form onSubmit={(e) => void submit(e)} aria-label="Import a rate book" noValidate>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
          <Input.Wrapper
            id="ratebook-file"
            label="Rate book (JSON)"
            description="The whole book in the import format"
            error={missing ?? fileError}
            withAsterisk
          >
            <input
              id="ratebook-file"
              name="book"
              type="file"
              accept=".json,application/json"
              ref={bookInput}
              aria-invalid={missing || fileError ? true : undefined}
              aria-describedby={missing || fileError ? 'ratebook-file-error' : 'ratebook-file-description'}
              style={{ display: 'block', marginTop: 4 }}
            />
          </Input.Wrapper>
          <Input.Wrapper id="ratebook-csv" label="Rates as CSV (optional)" description="Added to the book's rates">
            <input
              id="ratebook-csv"
              name="ratesCsv"
              type="file"
              accept=".csv,text/csv"
              ref={csvInput}
              aria-describedby="ratebook-csv-description"
              style={{ display: 'block', marginTop: 4 }}
            />
          </Input.Wrapper>
          <Stack gap="xs" justify="end">
            <Checkbox
              label="Check only, store nothing (dry run)"
              checked={dryRun}
              onChange={(e) => setDryRun(e.currentTarget.checked)}
            />
            <Group>
              <Button type="submit" loading={phase !== undefined}>
                {dryRun ? 'Check' : 'Import'}
              </Button>
            </Group>
          </Stack>
        </SimpleGrid>
      </form>
      {phase && (
        <Stack gap={4} role="status" aria-live="polite" data-testid="import-progress">
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm">
              {phase.step === 'reading'
                ? 'Reading the file…'
                : `Sending ${count(Math.ceil((phase.bytes ?? 0) / 1024))} KiB; the service checks the whole book…`}
            </Text>
          </Group>
          <Progress value={100} animated striped aria-label="Import in progress" />
        </Stack>
      )}
      {problem && <ProblemAlert problem={problem} />}
      {report && <ValidationReport problem={report.problem} names={report.names} />}
      {result && <ImportSummary result={result} />}
    </Stack>
  )
}

export default function RateBooks() {
  const { query, size, page, go } = useListQuery('/rating', [], SIZES, ['sort'])
  const sort = query.get('sort')
  const [imports, setImports] = useState(0)

  const versions = useApi(`ratebooks?page=${page}&size=${size}&n=${imports}`, async () => {
    const res = await api.GET('/api/Rates/ratebooks', { params: { query: { limit: size, offset: (page - 1) * size } } })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })
  const rows = sortRows(versions.data?.rows ?? [], sort, COLUMNS)
  const total = versions.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / size))

  return (
    <Stack data-testid="rate-books" data-ready={versions.loading ? undefined : 'true'}>
      <Title order={1} size="h2">
        Rate books
      </Title>
      <Card withBorder component="section" aria-label="Import a rate book">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Import a rate book
          </Title>
          <ImportForm onImported={() => setImports((n) => n + 1)} />
        </Stack>
      </Card>
      <Panel title="Versions" state={versions} testId="ratebook-versions">
        {() => (
          <Stack gap="sm">
            <Group justify="space-between">
              <Text size="sm" role="status" aria-live="polite" data-testid="ratebook-versions-total">
                {`${count(total)} version${total === 1 ? '' : 's'}`}
              </Text>
              <Text size="xs" c="dimmed">
                Newest first; a column heading sorts this page. In force: of the versions effective today or before, the
                latest imported.
              </Text>
            </Group>
            <Table.ScrollContainer minWidth={1100}>
              <Table striped highlightOnHover withTableBorder aria-label="Rate-book versions">
                <SortHeads columns={COLUMNS} sort={sort} go={go} />
                <Table.Tbody>
                  {rows.map((v) => (
                    <Table.Tr key={v.version} data-testid={`ratebook-version-${v.version}`}>
                      <Table.Td style={numeric}>
                        <Link to={`/rating/versions/${v.version}`}>{v.version}</Link>
                      </Table.Td>
                      <Table.Td miw={100}>
                        {v.inForce ? (
                          <Badge color="green.9" variant="dot">
                            in force
                          </Badge>
                        ) : (
                          ''
                        )}
                      </Table.Td>
                      <Table.Td>{day(v.effectiveDate)}</Table.Td>
                      <Table.Td>{v.description ?? '—'}</Table.Td>
                      <Table.Td>{dateTime(v.importedAt)}</Table.Td>
                      <Table.Td>{v.importedBy}</Table.Td>
                      <Table.Td style={numeric}>{count(v.summary.products)}</Table.Td>
                      <Table.Td style={numeric}>{count(v.summary.plans)}</Table.Td>
                      <Table.Td style={numeric}>{count(v.summary.terms)}</Table.Td>
                      <Table.Td style={numeric}>{count(v.summary.rates)}</Table.Td>
                      <Table.Td style={numeric}>{count(v.summary.vehicles)}</Table.Td>
                      <Table.Td>
                        <ExportButton version={v.version} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                  {rows.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={COLUMNS.length + 1}>No rate book has been imported yet.</Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager page={page} pages={pages} size={size} sizes={SIZES} go={go} />
          </Stack>
        )}
      </Panel>
    </Stack>
  )
}
