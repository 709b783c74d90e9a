// The quick rater (docs/rate-quote.md): a dealer, a VIN and the deal's facts → GET
// /api/Rates/rateQuote/{dealerNumber}: the vehicle as the API decoded and classed it, the messages,
// and every product → program → plan → term → deductible offered with its prices (dealer cost,
// suggested, minimum and maximum retail) and their lines (the disbursements adding up to the dealer
// cost, and the options). A quote with no plans is asked again with explain=true (rates:explain):
// every product, program, plan, term and deductible left out, with the rule that excluded it and, for
// criteria, the value of each part. The deal's facts are kept in the URL, so a quote can be shared;
// each is sent as typed, and the API's errors are shown under the field they name.
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors, toProblem } from '../api/problem.ts'
import type { operations, Problem, Schemas } from '../api/types.ts'
import { count, dateTime, day } from '../format.ts'
import { navigate } from '../router.tsx'
import {
  bindField,
  ColumnHeads,
  Facts,
  Money,
  MoneyCell,
  numeric,
  Outcome,
  Panel,
  ProblemAlert,
  useListQuery,
} from '../ui.tsx'

type Quote = Schemas['RateQuote']
type QuoteQuery = NonNullable<operations['getRateQuote']['parameters']['query']>
type Exclusion = NonNullable<Quote['exclusions']>[number]
type Plan = Quote['products'][number]['programs'][number]['plans'][number]
type Deductible = Plan['terms'][number]['deductibles'][number]

const FIELDS = [
  'dealerNumber',
  'vin',
  'vehicleCondition',
  'odometer',
  'saleDate',
  'inServiceDate',
  'vehicleYear',
  'vehicleMake',
  'vehicleModel',
  'vehicleTrim',
  'assetType',
  'vehiclePurchasePrice',
  'msrp',
  'financeType',
  'amountFinanced',
  'financeTermMonths',
  'apr',
  'customerState',
  'productTypes',
  'surcharges',
  'explain',
] as const
type Field = (typeof FIELDS)[number]
const QUERY_FIELDS = FIELDS.filter((f) => f !== 'dealerNumber' && f !== 'explain')

/**
 * The query as typed: each value is sent as its text, which the API reads and checks itself
 * (docs/rate-quote.md: "whatever the client, the server reads the query's text"), so a malformed
 * value is the API's 400 naming its field, never a value the console changed.
 */
function quoteQuery(filters: Record<Field, string>, explain: boolean): QuoteQuery {
  const q: Record<string, string | boolean> = {}
  for (const f of QUERY_FIELDS) if (filters[f].trim() !== '') q[f] = filters[f].trim()
  if (explain) q.explain = true
  return q as unknown as QuoteQuery
}

type Result = { quote: Quote; why?: Quote; whyProblem?: Problem }

const yesNo = (v: boolean | null | undefined) => (v === true ? 'true' : v === false ? 'false' : 'unknown')

type Explanation = { text?: unknown; value?: unknown; skipped?: unknown; children?: unknown }

/** A criteria explanation tree: each sub-expression with its value (unknown: a missing fact). */
function ExplanationTree({ node }: { node: Explanation }) {
  const children = Array.isArray(node.children) ? (node.children as Explanation[]) : []
  return (
    <li>
      <Text span ff="monospace" size="xs">
        {String(node.text ?? '')}
      </Text>{' '}
      <Text span size="xs" fw={600}>
        → {node.skipped ? 'not evaluated' : yesNo(node.value as boolean | null)}
      </Text>
      {children.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {children.map((c, i) => (
            <ExplanationTree key={i} node={c} />
          ))}
        </ul>
      )}
    </li>
  )
}

const exclusionPath = (e: Exclusion) =>
  [e.productCode, e.programCode, e.planCode, e.termCode, e.deductibleCode].filter(Boolean).join(' › ')

/** What the API's explain left out, and why, in its order. */
function Exclusions({ exclusions, label }: { exclusions: Exclusion[]; label: string }) {
  if (exclusions.length === 0) return <Text size="sm">Nothing was left out by a rule.</Text>
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table withTableBorder striped aria-label={label} data-testid="exclusions">
        <ColumnHeads columns={['Level', 'What', 'Reason', 'Why', 'Criteria, part by part']} />
        <Table.Tbody>
          {exclusions.map((e, i) => (
            <Table.Tr key={i}>
              <Table.Td>{e.level.toLowerCase()}</Table.Td>
              <Table.Td ff="monospace">{exclusionPath(e)}</Table.Td>
              <Table.Td ff="monospace">{e.reason}</Table.Td>
              <Table.Td>{e.text}</Table.Td>
              <Table.Td>
                {e.criteria ? (
                  <ul style={{ margin: 0, paddingLeft: 18 }} aria-label={`Criteria of ${exclusionPath(e)}`}>
                    <ExplanationTree node={e.criteria.explanation as Explanation} />
                  </ul>
                ) : (
                  '—'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/** A priced deductible's lines: the disbursements (adding up to the dealer cost) and the options. */
function Lines({ d }: { d: Deductible }) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
      <Table withTableBorder aria-label={`Lines of ${d.rate.rateId}`} data-testid={`lines-${d.rate.rateId}`}>
        <ColumnHeads columns={['Code', 'Label', 'Group', 'Source', { numeric: 'Amount' }]} />
        <Table.Tbody>
          {d.rate.disbursements.map((l, i) => (
            <Table.Tr key={i}>
              <Table.Td ff="monospace">{l.code}</Table.Td>
              <Table.Td>{l.label}</Table.Td>
              <Table.Td>{l.group}</Table.Td>
              <Table.Td>{l.source === 'RATE' ? 'rate' : `account holder ${l.accountHolderId ?? ''}`}</Table.Td>
              <MoneyCell value={l.amount} />
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row" colSpan={4}>
              Dealer cost
            </Table.Th>
            <MoneyCell value={d.rate.dealerCost} />
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {d.options.length > 0 && (
        <Table withTableBorder aria-label={`Options of ${d.rate.rateId}`}>
          <ColumnHeads
            columns={['Option', 'Kind', 'Sold', { numeric: 'Dealer cost' }, { numeric: 'Suggested retail' }]}
          />
          <Table.Tbody>
            {d.options.map((o) => (
              <Table.Tr key={o.optionId}>
                <Table.Td>
                  {o.name}{' '}
                  <Text span size="xs" ff="monospace">
                    ({o.code})
                  </Text>
                </Table.Td>
                <Table.Td>{o.kind.toLowerCase()}</Table.Td>
                <Table.Td>{o.required ? 'required' : o.selected ? 'selected' : 'offered'}</Table.Td>
                <MoneyCell value={o.dealerCost} />
                <MoneyCell value={o.suggestedRetail} />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </SimpleGrid>
  )
}

type Term = Plan['terms'][number]

/** A price: term, expiration, deductible and the rate's figures; its lines open in a row below. */
function PriceRow({ t, d }: { t: Term; d: Deductible }) {
  const [open, setOpen] = useState(false)
  const id = `lines-row-${d.rate.rateId}`
  const what = `${d.rate.disbursements.length} lines${d.options.length ? `, ${d.options.length} options` : ''}`
  return (
    <>
      <Table.Tr data-testid={`rate-${d.rate.rateId}`}>
        <Table.Td>
          {t.termMonths} months / {t.termMiles === 0 ? 'unlimited miles' : `${count(t.termMiles)} miles`}
        </Table.Td>
        <Table.Td>
          {day(t.expirationDate)}
          {t.expirationOdometer !== null ? ` or ${count(t.expirationOdometer)} mi` : ''}
        </Table.Td>
        <Table.Td>
          {d.code} · <Money value={d.amount} /> {d.type.toLowerCase()}
        </Table.Td>
        <Table.Td style={numeric} data-testid="dealer-cost">
          <Money value={d.rate.dealerCost} />
        </Table.Td>
        <Table.Td style={numeric} data-testid="suggested-retail">
          <Money value={d.rate.suggestedRetail} />
        </Table.Td>
        <MoneyCell value={d.rate.minRetail} />
        <Table.Td style={numeric}>
          <Money value={d.rate.maxRetail} />
          {d.rate.retailLocked ? ' (locked)' : ''}
        </Table.Td>
        <Table.Td>
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'} {what}
          </Button>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr id={id}>
          <Table.Td colSpan={8}>
            <Lines d={d} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  )
}

function PlanTable({ plan, programName }: { plan: Plan; programName: string }) {
  return (
    <Stack gap={4} data-testid={`plan-${plan.planCode}`}>
      <Title order={4} size="h6">
        {programName} › {plan.planName}{' '}
        <Text span size="xs" ff="monospace">
          ({plan.planCode}, form {plan.formNumber})
        </Text>
      </Title>
      {plan.requiresCustomFields && (
        <Text size="xs">
          Asks for: {plan.customFields.map((f) => `${f.label}${f.required ? ' (required)' : ''}`).join(', ')}
        </Text>
      )}
      <Table.ScrollContainer minWidth={1000}>
        <Table withTableBorder striped aria-label={`${plan.planName} prices`}>
          <ColumnHeads
            columns={[
              'Term',
              'Expires',
              'Deductible',
              { numeric: 'Dealer cost' },
              { numeric: 'Suggested retail' },
              { numeric: 'Min retail' },
              { numeric: 'Max retail' },
              'Lines',
            ]}
          />
          <Table.Tbody>
            {plan.terms.flatMap((t) => t.deductibles.map((d) => <PriceRow key={d.rate.rateId} t={t} d={d} />))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  )
}

function QuoteView({ result }: { result: Result }) {
  const { quote, why, whyProblem } = result
  const v = quote.vehicle
  const plans = quote.products.reduce((n, p) => n + p.programs.reduce((m, g) => m + g.plans.length, 0), 0)
  const vehicle = [v.year, v.make, v.model, v.trim].filter((x) => x !== null).join(' ') || 'not known'
  return (
    <Stack gap="md" data-testid="quote">
      <Facts
        label="The quote"
        rows={[
          ['Dealer', quote.dealerNumber],
          ['Sale date', day(quote.saleDate)],
          [
            'Rate book',
            quote.rateBook
              ? `version ${quote.rateBook.version}, effective ${day(quote.rateBook.effectiveDate)}`
              : 'none in force',
          ],
          ['Vehicle', `${vehicle}${v.vin ? ` · VIN ${v.vin}` : ''}`],
          [
            'Class, condition',
            `${v.vehicleClass ? `class ${v.vehicleClass}` : 'no class'} · ${v.condition?.toLowerCase() ?? 'condition not given'} · ${v.odometer !== null ? `${count(v.odometer)} miles` : 'odometer not given'}`,
          ],
          [
            'Warranties',
            v.manufacturerWarranties.length
              ? v.manufacturerWarranties
                  .map((w) => `${w.type.toLowerCase()} ${w.months} months / ${count(w.miles)} miles`)
                  .join('; ')
              : 'none known',
          ],
          ['Quoted', `${dateTime(quote.quotedAt)}; valid until ${dateTime(quote.quoteExpiresAt)}`],
          [
            'Quote id',
            <Text key="id" span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }} data-testid="quote-id">
              {quote.quoteId}
            </Text>,
          ],
        ]}
      />
      {quote.messages.map((m, i) => (
        <Alert key={i} color={m.severity === 'WARNING' ? 'yellow' : 'blue'} data-testid="quote-message">
          <Text size="sm">
            <Text span ff="monospace" size="xs">
              {m.code}
            </Text>{' '}
            {m.text}
          </Text>
        </Alert>
      ))}
      <Text size="sm" role="status" aria-live="polite" data-testid="quote-total">
        {plans === 0
          ? 'No plans offered.'
          : `${count(plans)} plan${plans === 1 ? '' : 's'} offered in ${count(quote.products.length)} product${quote.products.length === 1 ? '' : 's'}`}
      </Text>
      {quote.products.map((p) => (
        <Card
          key={p.productId}
          withBorder
          component="section"
          aria-label={p.productName}
          data-testid={`product-${p.productCode}`}
        >
          <Stack gap="sm">
            <Title order={3} size="h5">
              {p.productName}{' '}
              <Text span size="xs" ff="monospace">
                ({p.productCode}, {p.productType})
              </Text>
            </Title>
            {p.programs.flatMap((g) =>
              g.plans.map((plan) => <PlanTable key={plan.planId} plan={plan} programName={g.programName} />),
            )}
          </Stack>
        </Card>
      ))}
      {(why || whyProblem) && (
        <Card
          withBorder
          component="section"
          aria-label={plans === 0 ? 'Why no plans' : 'What was left out'}
          data-testid="why"
        >
          <Stack gap="sm">
            <Title order={3} size="h5">
              {plans === 0 ? 'Why no plans' : 'What was left out'}
            </Title>
            {whyProblem ? (
              <ProblemAlert problem={whyProblem} />
            ) : (
              <Exclusions
                exclusions={why?.exclusions ?? []}
                label={plans === 0 ? 'Why no plans' : 'What was left out'}
              />
            )}
          </Stack>
        </Card>
      )}
    </Stack>
  )
}

const CONDITIONS = ['NEW', 'USED', 'CERTIFIED']
const ASSET_TYPES = ['AUTO', 'RV', 'MARINE', 'POWERSPORTS', 'OTHER']
const FINANCE_TYPES = ['CASH', 'RETAIL', 'LEASE', 'BALLOON']
const choices = (values: string[], none: string) => [
  { value: '', label: none },
  ...values.map((v) => ({ value: v, label: v.toLowerCase() })),
]

export default function QuickRater() {
  const { filters, form, setForm, key } = useListQuery('/quick-rater', FIELDS, ['25'])
  const explain = filters.explain === 'true'

  // Dealer numbers to choose from (GET /api/dealers, accountholders:read); without it the number is typed.
  const dealers = useApi('quick-rater-dealers', async () =>
    unwrap(await api.GET('/api/dealers', { params: { query: { limit: 200 } } })),
  )

  const result = useApi<Result | undefined>(`quick-rater${key}`, async () => {
    if (!filters.dealerNumber.trim()) return undefined
    const ask = async (withExplain: boolean) =>
      unwrap(
        await api.GET('/api/Rates/rateQuote/{dealerNumber}', {
          params: { path: { dealerNumber: filters.dealerNumber.trim() }, query: quoteQuery(filters, withExplain) },
        }),
      )
    const quote = await ask(explain)
    if (explain) return { quote, why: quote }
    if (quote.products.length > 0) return { quote }
    // No plans: the same deal explained says why (explain needs rates:explain; a refusal is shown as such).
    try {
      return { quote, why: await ask(true) }
    } catch (err) {
      return { quote, whyProblem: toProblem(err) }
    }
  })

  const errors = fieldErrors(result.problem)
  const field = bindField(form, setForm, errors)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const q = new URLSearchParams()
    for (const f of FIELDS) if (form[f].trim() !== '') q.set(f, form[f].trim())
    const s = q.toString()
    navigate(`/quick-rater${s ? `?${s}` : ''}`)
  }

  return (
    <Stack data-testid="quick-rater" data-ready={result.loading ? undefined : 'true'}>
      <Title order={1} size="h2">
        Quick rater
      </Title>
      <Card withBorder component="section" aria-label="The deal">
        <form onSubmit={submit} aria-label="Quote a deal" noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4">
              The deal
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              <TextInput
                label="Dealer number"
                name="dealerNumber"
                required
                list="quick-rater-dealers"
                autoComplete="off"
                {...field('dealerNumber')}
                error={errors.dealerNumber}
              />
              <TextInput
                label="VIN"
                name="vin"
                maxLength={17}
                styles={{ input: { fontFamily: 'monospace' } }}
                {...field('vin')}
              />
              <NativeSelect
                label="Condition"
                name="vehicleCondition"
                data={choices(CONDITIONS, 'Not given')}
                {...field('vehicleCondition')}
              />
              <TextInput label="Odometer (miles)" name="odometer" inputMode="numeric" {...field('odometer')} />
              <TextInput
                label="Sale date"
                type="date"
                name="saleDate"
                description="Empty: today"
                {...field('saleDate')}
              />
              <TextInput label="In-service date" type="date" name="inServiceDate" {...field('inServiceDate')} />
              <TextInput
                label="Vehicle price"
                name="vehiclePurchasePrice"
                inputMode="decimal"
                {...field('vehiclePurchasePrice')}
              />
              <TextInput label="MSRP" name="msrp" inputMode="decimal" {...field('msrp')} />
              <NativeSelect
                label="Finance type"
                name="financeType"
                data={choices(FINANCE_TYPES, 'Not given')}
                {...field('financeType')}
              />
              <TextInput
                label="Amount financed"
                name="amountFinanced"
                inputMode="decimal"
                {...field('amountFinanced')}
              />
              <TextInput
                label="Finance term (months)"
                name="financeTermMonths"
                inputMode="numeric"
                {...field('financeTermMonths')}
              />
              <TextInput label="APR (%)" name="apr" inputMode="decimal" {...field('apr')} />
              <TextInput
                label="Customer state"
                name="customerState"
                maxLength={2}
                description="Empty: the dealer's"
                {...field('customerState')}
              />
              <TextInput
                label="Product types"
                name="productTypes"
                description="Comma list, e.g. VSC,GAP; empty: all"
                {...field('productTypes')}
              />
              <TextInput
                label="Options to select"
                name="surcharges"
                description="Comma list of option codes"
                {...field('surcharges')}
              />
              <NativeSelect
                label="Asset type"
                name="assetType"
                data={choices(ASSET_TYPES, 'Auto (default)')}
                {...field('assetType')}
              />
              <TextInput
                label="Year (without a VIN)"
                name="vehicleYear"
                inputMode="numeric"
                {...field('vehicleYear')}
              />
              <TextInput label="Make (without a VIN)" name="vehicleMake" {...field('vehicleMake')} />
              <TextInput label="Model (without a VIN)" name="vehicleModel" {...field('vehicleModel')} />
              <TextInput label="Trim" name="vehicleTrim" {...field('vehicleTrim')} />
            </SimpleGrid>
            <datalist id="quick-rater-dealers">
              {(dealers.data ?? []).map((d) => (
                <option key={d.id} value={d.dealerNumber}>
                  {d.displayName}
                </option>
              ))}
            </datalist>
            <Group justify="space-between">
              <Checkbox
                label="Explain what is left out (needs rates:explain)"
                name="explain"
                checked={form.explain === 'true'}
                onChange={(e) => setForm({ ...form, explain: e.currentTarget.checked ? 'true' : '' })}
              />
              <Group gap="xs">
                <Button variant="default" onClick={() => navigate('/quick-rater')}>
                  Clear
                </Button>
                <Button type="submit">Quote</Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </Card>

      <Outcome problem={result.problem} done={undefined} fields={FIELDS} />

      {filters.dealerNumber.trim() === '' ? (
        <Text size="sm">Give a dealer number and the deal's facts, then Quote.</Text>
      ) : result.problem ? (
        <Text size="sm" role="status" data-testid="quote-total">
          The quote was refused{result.problem.errors?.length ? ': see the fields above' : ''}.
        </Text>
      ) : (
        <Panel title="Quote" state={result}>
          {(r) => (r ? <QuoteView result={r} /> : null)}
        </Panel>
      )}
    </Stack>
  )
}
