// What the reports screens share (docs/reporting.md; loss ratios, reinsurance statements, report
// runs): the links between them, whole months as the API's dates, the statement's figures and their
// labels, a loss ratio as a percentage, the report downloaded in another format (CSV, XLSX, PDF: the
// API wants the user's credentials, so the file is fetched and saved, not linked), and a chart
// loaded on its own.
import { Button, Group, Skeleton, Stack, Text } from '@mantine/core'
import { lazy, Suspense, useState, type ComponentProps } from 'react'
import { unwrap } from '../api/client.ts'
import { toProblem } from '../api/problem.ts'
import type { Problem } from '../api/types.ts'
import { Link } from '../router.tsx'
import { ProblemAlert, saveFile } from '../ui.tsx'

/** The links across the top of every reports screen. */
export function ReportTabs() {
  return (
    <Text size="sm">
      <Link to="/reports/lossratios">Loss ratios</Link> · <Link to="/reports/statements">Reinsurance statements</Link> ·{' '}
      <Link to="/reports/runs">Report runs</Link>
    </Text>
  )
}

const MONTH = /^(\d{4})-(\d{2})$/

/** The month before the one of `today` ("2026-11-27" → "2026-10"): the last month that has ended. */
export function lastMonth(today: string): string {
  const y = Number(today.slice(0, 4))
  const m = Number(today.slice(5, 7))
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
}

/** A month's first day; anything that is not YYYY-MM is sent as typed (the API then names it). */
export function monthStart(month: string): string {
  return MONTH.test(month) ? `${month}-01` : month
}

/**
 * A month's last day, or `today` when it is the current month (the API answers no day after today);
 * anything that is not YYYY-MM is sent as typed.
 */
export function monthEnd(month: string, today: string): string {
  const m = MONTH.exec(month)
  if (!m) return month
  if (month === today.slice(0, 7)) return today
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate()
  return `${month}-${String(last).padStart(2, '0')}`
}

/** A "YYYY-MM" month as "September 2026" (as typed when it is not one). */
export function monthName(month: string): string {
  const m = MONTH.exec(month)
  if (!m) return month
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(Number(m[1]), Number(m[2]) - 1, 1),
  )
}

const percentFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** The API's 4-place loss ratio ("0.6250") as a percentage ("62.50 %"); "n/a" when nothing was earned (null). */
export function ratioPercent(ratio: string | null | undefined): string {
  if (ratio === null || ratio === undefined) return 'n/a'
  // Four places are two after the percent sign: exact once scaled to whole hundredths.
  return `${percentFormat.format(Math.round(Number(ratio) * 10_000) / 100)} %`
}

/** The loss ratio as a number of percent (for charts and sorting); null when there is none. */
export const ratioNumber = (ratio: string | null | undefined): number | null =>
  ratio === null || ratio === undefined ? null : Math.round(Number(ratio) * 10_000) / 100

/** The money figures of a reinsurance statement, in the statement's order, with their labels. */
export const FIGURES = [
  { key: 'writtenPremium', label: 'Written premium ceded', short: 'Written' },
  { key: 'cancellations', label: 'Cancellations', short: 'Cancelled' },
  { key: 'netWrittenPremium', label: 'Net written premium', short: 'Net written' },
  { key: 'earnedPremium', label: 'Earned premium', short: 'Earned' },
  { key: 'unearnedPremium', label: 'Unearned premium reserve', short: 'Unearned' },
  { key: 'claimsPaid', label: 'Claims paid', short: 'Claims paid' },
  { key: 'claimsOutstanding', label: 'Claims outstanding', short: 'Outstanding' },
  { key: 'claimsIncurred', label: 'Claims incurred', short: 'Incurred' },
  { key: 'cedingFee', label: 'Ceding fee', short: 'Ceding fee' },
  { key: 'administratorFee', label: 'Administrator fee', short: 'Admin. fee' },
  { key: 'underwritingResult', label: 'Underwriting result', short: 'Result' },
] as const
export type Figure = (typeof FIGURES)[number]['key']
export const COLUMNS = ['mtd', 'qtd', 'ytd', 'itd'] as const
export type Column = (typeof COLUMNS)[number]
export const COLUMN_LABELS: Record<Column, string> = {
  mtd: 'Month to date',
  qtd: 'Quarter to date',
  ytd: 'Year to date',
  itd: 'Inception to date',
}
export const figureLabel = (figure: string) => FIGURES.find((f) => f.key === figure)?.label ?? figure

export type Format = 'csv' | 'xlsx' | 'pdf' | 'json'

/** The file name of a download: the API's (Content-Disposition), else `fallback`. */
function fileName(response: Response, fallback: string): string {
  const m = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')
  return m?.[1] ?? fallback
}

/**
 * Buttons downloading the report in other formats: `load(format)` asks the API (the typed client,
 * `parseAs: 'blob'`), the file is saved under the API's name; a refusal is shown below them.
 */
export function Downloads({
  formats,
  load,
  name,
  what,
}: {
  formats: readonly Format[]
  load: (format: Format) => Promise<{ data?: Blob; error?: unknown; response: Response }>
  /** The file's name without its extension, when the API gives none. */
  name: string
  /** What is downloaded, for the buttons' accessible names ("the loss ratios"). */
  what: string
}) {
  const [busy, setBusy] = useState<Format | undefined>()
  const [problem, setProblem] = useState<Problem | undefined>()
  const run = async (format: Format) => {
    setBusy(format)
    setProblem(undefined)
    try {
      const result = await load(format)
      saveFile(unwrap(result), fileName(result.response, `${name}.${format}`))
    } catch (err) {
      setProblem(toProblem(err))
    } finally {
      setBusy(undefined)
    }
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm">Download</Text>
        {formats.map((f) => (
          <Button
            key={f}
            size="compact-sm"
            variant="default"
            loading={busy === f}
            onClick={() => void run(f)}
            aria-label={`Download ${what} as ${f.toUpperCase()}`}
          >
            {f.toUpperCase()}
          </Button>
        ))}
      </Group>
      {problem && <ProblemAlert problem={problem} />}
    </Stack>
  )
}

const Chart = lazy(() => import('./Chart.tsx'))

/** A chart once its code is loaded (a placeholder of its size until then). */
export function LazyChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<Skeleton h={props.h} />}>
      <Chart {...props} />
    </Suspense>
  )
}
