// The contract wizard: digital retailing (spec §1 workflow 2, docs/contracts.md "The workflow"), step by step:
//   1. the dealer and the vehicle, quoted             GET /api/dealers (the choice), GET /api/Rates/rateQuote/{dealerNumber}
//   2. a plan, term and deductible, options, retail   (from the quote's reply)
//   3. the buyer and the plan's custom fields         GET /api/Rates/Products/{productId}/customfields?rateId=&quoteId=
//   4. the draft PDF, then the contract               POST /api/contracts/draftdocument, POST /api/contracts
//   5. finalized                                      POST /api/contracts/{id}/finalize
// Prices are the quote's and the contract's as the API answers them; nothing is computed here. Every
// error the API names by field (the quote's query parameters, the deal's body, `customFields/<key>`)
// is shown under that field, the rest above the buttons.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useEffect, useMemo, useState, type FormEvent } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors, toProblem } from '../api/problem.ts'
import type { Contract, operations, Problem, Schemas } from '../api/types.ts'
import { dateTime, day, money, today } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, Money, MoneyCell, Outcome, ProblemAlert } from '../ui.tsx'
import { STATUS_COLORS } from './Contracts.tsx'

type Quote = Schemas['RateQuote']
type Plan = Quote['products'][number]['programs'][number]['plans'][number]
type CustomField =
  operations['listProductCustomFields']['responses'][200]['content']['application/json']['fields'][number]
type Deal = NonNullable<operations['createContract']['requestBody']>['content']['application/json']
type QuoteQuery = NonNullable<operations['getRateQuote']['parameters']['query']>
type Finalized = operations['finalizeContract']['responses'][200]['content']['application/json']

const PRODUCT_TYPES = ['VSC', 'GAP', 'TIRE_WHEEL', 'PPM', 'KEY', 'DENT', 'APPEARANCE', 'THEFT', 'OTHER'] as const
const CONDITIONS = ['USED', 'NEW', 'CERTIFIED'] as const

const QUOTE_FIELDS = [
  'dealerNumber',
  'vin',
  'vehicleCondition',
  'odometer',
  'inServiceDate',
  'vehiclePurchasePrice',
  'saleDate',
  'productTypes',
] as const
type QuoteForm = Record<(typeof QUOTE_FIELDS)[number], string>

const BUYER_FIELDS = [
  'firstName',
  'lastName',
  'companyName',
  'emailAddress',
  'phoneNumber',
  'line1',
  'city',
  'state',
  'postalCode',
] as const
type BuyerForm = Record<(typeof BUYER_FIELDS)[number], string>
/** The deal's body path of each buyer field, as the API names it in errors[] (dots or slashes). */
const BUYER_PATH: Record<(typeof BUYER_FIELDS)[number], string> = {
  firstName: 'customer.firstName',
  lastName: 'customer.lastName',
  companyName: 'customer.companyName',
  emailAddress: 'customer.emailAddress',
  phoneNumber: 'customer.phoneNumber',
  line1: 'customer.address.line1',
  city: 'customer.address.city',
  state: 'customer.address.state',
  postalCode: 'customer.address.postalCode',
}

/** A text the user typed, as a number when it reads as one (else as typed: the API names it then). */
const asNumber = (s: string): number => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : (s as never))
const orUndefined = (s: string) => (s.trim() === '' ? undefined : s.trim())

/** The API's field errors by field, `a/b` and `a.b` alike (contract rules use slashes, schema errors dots). */
function errorsByField(problem: Problem | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(fieldErrors(problem))) out[k.replaceAll('/', '.')] ??= v
  return out
}

const planKey = (productId: number, planId: number) => `${productId}:${planId}`

function planChoices(quote: Quote) {
  return quote.products.flatMap((product) =>
    product.programs.flatMap((program) =>
      program.plans.map((plan) => ({
        key: planKey(product.productId, plan.planId),
        label: `${product.productName} · ${program.programName} · ${plan.planName}`,
        product,
        plan,
      })),
    ),
  )
}

/** The wizard; "Start another contract" begins again from a blank one. */
export default function ContractWizard() {
  const [round, setRound] = useState(0)
  return <Wizard key={round} onAgain={() => setRound((n) => n + 1)} />
}

function Wizard({ onAgain }: { onAgain: () => void }) {
  const dealers = useApi('wizard:dealers', async () =>
    unwrap(await api.GET('/api/dealers', { params: { query: { status: 'ACTIVE', limit: 1000 } } })),
  )

  // 1. The quote.
  const [quoteForm, setQuoteForm] = useState<QuoteForm>({
    dealerNumber: '',
    vin: '',
    vehicleCondition: 'USED',
    odometer: '',
    inServiceDate: '',
    vehiclePurchasePrice: '',
    saleDate: today(),
    productTypes: '',
  })
  const [quote, setQuote] = useState<Quote | undefined>()
  const [quoteProblem, setQuoteProblem] = useState<Problem | undefined>()
  const [quoting, setQuoting] = useState(false)

  // 2. The coverage.
  const [choice, setChoice] = useState({ plan: '', termId: '', deductibleId: '' })
  const [options, setOptions] = useState<number[]>([])
  const [retail, setRetail] = useState('')

  // 3. The buyer and custom fields.
  const [buyer, setBuyer] = useState<BuyerForm>(Object.fromEntries(BUYER_FIELDS.map((f) => [f, ''])) as BuyerForm)
  const [custom, setCustom] = useState<Record<string, string | boolean>>({})

  // 4. Draft, contract, finalization.
  const [dealProblem, setDealProblem] = useState<Problem | undefined>()
  const [busy, setBusy] = useState<'draft' | 'create' | 'finalize' | undefined>()
  const [draft, setDraft] = useState<{ url: string; bytes: number } | undefined>()
  const [created, setCreated] = useState<Contract | undefined>()
  const [finalized, setFinalized] = useState<Finalized | undefined>()
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID())

  useEffect(() => {
    if (!quoteForm.dealerNumber && dealers.data?.[0])
      setQuoteForm((f) => ({ ...f, dealerNumber: dealers.data![0]!.dealerNumber }))
  }, [dealers.data, quoteForm.dealerNumber])
  // The draft's object URL is let go when replaced or when the wizard closes.
  useEffect(() => () => draft && URL.revokeObjectURL(draft.url), [draft])

  const plans = useMemo(() => (quote ? planChoices(quote) : []), [quote])
  const chosenPlan = plans.find((p) => p.key === choice.plan)
  const term = chosenPlan?.plan.terms.find((t) => String(t.termId) === choice.termId)
  const deductible = term?.deductibles.find((d) => String(d.deductibleId) === choice.deductibleId)
  const rate = deductible?.rate

  const fields = useApi(`wizard:fields:${quote?.quoteId ?? ''}:${rate?.rateId ?? ''}`, async () => {
    if (!quote || !rate || !chosenPlan) return undefined
    const reply = unwrap(
      await api.GET('/api/Rates/Products/{productId}/customfields', {
        params: {
          path: { productId: chosenPlan.product.productId },
          query: { rateId: rate.rateId, quoteId: quote.quoteId },
        },
      }),
    )
    return { ...reply, forRate: rate.rateId }
  })

  // The fields of the rate chosen now (a change of rate reads them again: the last ones are not sent meanwhile).
  const fieldsReady = !!rate && fields.data?.forRate === rate.rateId && !fields.loading
  const quoteErrors = errorsByField(quoteProblem)
  const dealErrors = errorsByField(dealProblem)

  /** Anything changed before the contract exists: the draft and the error shown are no longer the deal's. */
  const touched = () => {
    if (created) return
    setDraft(undefined)
    setDealProblem(undefined)
    setIdempotencyKey(crypto.randomUUID())
  }

  const chooseRate = (plan: string, termId: string, deductibleId: string) => {
    touched()
    const p = plans.find((x) => x.key === plan)
    const t = p?.plan.terms.find((x) => String(x.termId) === termId) ?? p?.plan.terms[0]
    const d = t?.deductibles.find((x) => String(x.deductibleId) === deductibleId) ?? t?.deductibles[0]
    setChoice({ plan, termId: t ? String(t.termId) : '', deductibleId: d ? String(d.deductibleId) : '' })
    setOptions(d ? d.options.filter((o) => o.required || o.selected).map((o) => o.optionId) : [])
    setRetail(d ? String(d.rate.suggestedRetail) : '')
  }

  const getQuote = async (e: FormEvent) => {
    e.preventDefault()
    setQuoting(true)
    setQuoteProblem(undefined)
    setCreated(undefined)
    setFinalized(undefined)
    setDraft(undefined)
    setDealProblem(undefined)
    setIdempotencyKey(crypto.randomUUID())
    try {
      const query: QuoteQuery = {
        vin: orUndefined(quoteForm.vin),
        vehicleCondition: (orUndefined(quoteForm.vehicleCondition) as QuoteQuery['vehicleCondition']) ?? undefined,
        odometer: quoteForm.odometer.trim() ? asNumber(quoteForm.odometer) : undefined,
        inServiceDate: orUndefined(quoteForm.inServiceDate),
        vehiclePurchasePrice: quoteForm.vehiclePurchasePrice.trim()
          ? asNumber(quoteForm.vehiclePurchasePrice)
          : undefined,
        saleDate: orUndefined(quoteForm.saleDate),
        productTypes: orUndefined(quoteForm.productTypes),
      }
      const q = unwrap(
        await api.GET('/api/Rates/rateQuote/{dealerNumber}', {
          params: { path: { dealerNumber: quoteForm.dealerNumber.trim() }, query },
        }),
      )
      setQuote(q)
      const first = planChoices(q)[0]
      if (first) {
        const t = first.plan.terms[0]
        const d = t?.deductibles[0]
        setChoice({ plan: first.key, termId: String(t?.termId ?? ''), deductibleId: String(d?.deductibleId ?? '') })
        setOptions(d ? d.options.filter((o) => o.required || o.selected).map((o) => o.optionId) : [])
        setRetail(d ? String(d.rate.suggestedRetail) : '')
      } else setChoice({ plan: '', termId: '', deductibleId: '' })
      setCustom({})
    } catch (err) {
      setQuote(undefined)
      setQuoteProblem(toProblem(err))
    } finally {
      setQuoting(false)
    }
  }

  const deal = (): Deal => {
    const address =
      buyer.line1 || buyer.city || buyer.state || buyer.postalCode
        ? { line1: buyer.line1, city: buyer.city, state: buyer.state.toUpperCase(), postalCode: buyer.postalCode }
        : undefined
    const customFields: Record<string, unknown> = {}
    for (const f of fields.data?.fields ?? []) {
      const v = custom[f.key]
      if (v === undefined || v === '') continue
      customFields[f.key] = typeof v === 'boolean' ? v : f.type === 'INTEGER' ? asNumber(v) : v
    }
    return {
      quoteId: quote!.quoteId,
      rateId: rate!.rateId,
      retailPrice: asNumber(retail),
      selectedOptionIds: options,
      vehicle: { vin: quote!.vehicle.vin ?? quoteForm.vin.trim() },
      customer: {
        firstName: orUndefined(buyer.firstName),
        lastName: orUndefined(buyer.lastName),
        companyName: orUndefined(buyer.companyName),
        emailAddress: orUndefined(buyer.emailAddress),
        phoneNumber: orUndefined(buyer.phoneNumber),
        ...(address ? { address } : {}),
      },
      customFields,
    }
  }

  const run = async (what: 'draft' | 'create' | 'finalize', act: () => Promise<void>) => {
    setBusy(what)
    setDealProblem(undefined)
    try {
      await act()
    } catch (err) {
      setDealProblem(toProblem(err))
    } finally {
      setBusy(undefined)
    }
  }

  const previewDraft = () =>
    run('draft', async () => {
      const blob = unwrap(await api.POST('/api/contracts/draftdocument', { body: deal(), parseAs: 'blob' }))
      setDraft({ url: URL.createObjectURL(blob), bytes: blob.size })
    })
  // One Idempotency-Key per deal: a retry after a lost answer or a 5xx replays the first reply (one
  // contract); a deal the API answered with a refusal is another request once corrected, so a new key.
  const create = () =>
    run('create', async () => {
      const res = await api.POST('/api/contracts', { body: deal(), headers: { 'Idempotency-Key': idempotencyKey } })
      if (res.response.status >= 400 && res.response.status < 500) setIdempotencyKey(crypto.randomUUID())
      setCreated(unwrap(res))
    })
  const finalize = () =>
    run('finalize', async () => {
      setFinalized(
        unwrap(
          await api.POST('/api/contracts/{contractId}/finalize', {
            params: { path: { contractId: created!.id } },
            body: {},
          }),
        ),
      )
    })

  const quoteField = (name: (typeof QUOTE_FIELDS)[number]) => ({
    name,
    value: quoteForm[name],
    error: quoteErrors[name],
    onChange: (e: { currentTarget: { value: string } }) =>
      setQuoteForm({ ...quoteForm, [name]: e.currentTarget.value }),
  })
  const buyerField = (name: (typeof BUYER_FIELDS)[number]) => ({
    name: BUYER_PATH[name],
    value: buyer[name],
    error: dealErrors[BUYER_PATH[name]],
    disabled: !!created,
    onChange: (e: { currentTarget: { value: string } }) => {
      touched()
      setBuyer({ ...buyer, [name]: e.currentTarget.value })
    },
  })
  // Every field the deal's form shows an error at: the rest are listed above the buttons.
  const shownFields = [
    'retailPrice',
    'selectedOptionIds',
    'customer',
    ...Object.values(BUYER_PATH),
    ...(fields.data?.fields ?? []).map((f) => `customFields.${f.key}`),
  ]
  const dealRest = dealProblem && {
    ...dealProblem,
    errors: (dealProblem.errors ?? []).map((e) => ({ ...e, field: e.field.replaceAll('/', '.') })),
  }

  return (
    <Stack data-testid="contract-wizard">
      <Title order={1} size="h2">
        New contract
      </Title>
      <Text size="sm">
        <Link to="/contracts">All contracts</Link> · Quote a vehicle, choose the coverage, fill in the buyer and the
        plan's fields, look at the draft, then create and finalize the contract.
      </Text>

      <section aria-labelledby="wizard-quote">
        <Stack gap="sm">
          <Title order={2} size="h4" id="wizard-quote">
            1. Dealer and vehicle
          </Title>
          <form onSubmit={getQuote} aria-label="Quote" noValidate>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              {dealers.data ? (
                <NativeSelect
                  label="Dealer"
                  data={dealers.data.map((d) => ({
                    value: d.dealerNumber,
                    label: `${d.displayName ?? d.legalName} (${d.dealerNumber})`,
                  }))}
                  {...quoteField('dealerNumber')}
                />
              ) : (
                <TextInput
                  label="Dealer number"
                  description={dealers.problem ? 'The dealers could not be listed: type the number' : undefined}
                  {...quoteField('dealerNumber')}
                />
              )}
              <TextInput label="VIN" ff="monospace" maxLength={17} {...quoteField('vin')} />
              <NativeSelect
                label="Condition"
                data={CONDITIONS.map((c) => ({ value: c, label: c.toLowerCase() }))}
                {...quoteField('vehicleCondition')}
              />
              <TextInput label="Odometer (miles)" inputMode="numeric" {...quoteField('odometer')} />
              <TextInput label="In service since" type="date" {...quoteField('inServiceDate')} />
              <TextInput label="Vehicle price" inputMode="decimal" {...quoteField('vehiclePurchasePrice')} />
              <TextInput label="Sale date" type="date" {...quoteField('saleDate')} />
              <NativeSelect
                label="Product type"
                data={[{ value: '', label: 'Any' }, ...PRODUCT_TYPES.map((p) => ({ value: p, label: p }))]}
                {...quoteField('productTypes')}
              />
            </SimpleGrid>
            <Group mt="sm">
              <Button type="submit" loading={quoting}>
                Get rates
              </Button>
            </Group>
          </form>
          <Outcome problem={quoteProblem} done={undefined} fields={QUOTE_FIELDS} />
        </Stack>
      </section>

      {quote && (
        <section aria-labelledby="wizard-coverage" data-testid="wizard-quote">
          <Stack gap="sm">
            <Title order={2} size="h4" id="wizard-coverage">
              2. Coverage and price
            </Title>
            <Text size="sm">
              {[quote.vehicle.year, quote.vehicle.make, quote.vehicle.model, quote.vehicle.trim]
                .filter(Boolean)
                .join(' ')}{' '}
              · sale date {day(quote.saleDate)} · rate book{' '}
              {quote.rateBook ? `version ${quote.rateBook.version}` : 'none'} · quote valid until{' '}
              {dateTime(quote.quoteExpiresAt)}
            </Text>
            {quote.messages.map((m) => (
              <Alert
                key={`${m.code}:${m.productCode ?? ''}:${m.text}`}
                color={m.severity === 'WARNING' ? 'yellow' : 'blue'}
                role="note"
              >
                {m.text}
              </Alert>
            ))}
            {plans.length === 0 ? (
              <Alert color="yellow" role="status">
                No plan is offered for this vehicle by this dealer.
              </Alert>
            ) : (
              <>
                <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
                  <NativeSelect
                    label="Plan"
                    value={choice.plan}
                    data={plans.map((p) => ({ value: p.key, label: p.label }))}
                    onChange={(e) => chooseRate(e.currentTarget.value, '', '')}
                    disabled={!!created}
                  />
                  <NativeSelect
                    label="Term"
                    value={choice.termId}
                    data={(chosenPlan?.plan.terms ?? []).map((t) => ({
                      value: String(t.termId),
                      label: `${t.termMonths} months / ${t.termMiles.toLocaleString('en-US')} miles`,
                    }))}
                    onChange={(e) => chooseRate(choice.plan, e.currentTarget.value, choice.deductibleId)}
                    disabled={!!created}
                  />
                  <NativeSelect
                    label="Deductible"
                    value={choice.deductibleId}
                    data={(term?.deductibles ?? []).map((d) => ({
                      value: String(d.deductibleId),
                      label: `${d.code} · $${d.amount}`,
                    }))}
                    onChange={(e) => chooseRate(choice.plan, choice.termId, e.currentTarget.value)}
                    disabled={!!created}
                  />
                </SimpleGrid>
                {rate && chosenPlan && term && deductible && (
                  <RateFigures plan={chosenPlan.plan} term={term} rate={rate} />
                )}
                {deductible && deductible.options.length > 0 && (
                  <Checkbox.Group
                    label="Options and surcharges"
                    value={options.map(String)}
                    onChange={(v) => {
                      touched()
                      setOptions(v.map(Number))
                    }}
                    error={dealErrors.selectedOptionIds}
                  >
                    <Stack gap={4} mt={4}>
                      {deductible.options.map((o) => (
                        <Checkbox
                          key={o.optionId}
                          value={String(o.optionId)}
                          disabled={o.required || !!created}
                          label={
                            <>
                              {o.name} ({o.kind.toLowerCase()}
                              {o.required ? ', required' : ''}): retail <Money value={o.suggestedRetail} />, dealer cost{' '}
                              <Money value={o.dealerCost} />
                            </>
                          }
                        />
                      ))}
                    </Stack>
                  </Checkbox.Group>
                )}
                {rate && (
                  <TextInput
                    label="Retail price"
                    name="retailPrice"
                    inputMode="decimal"
                    w={260}
                    description={
                      rate.retailLocked
                        ? `Locked at the suggested retail`
                        : `Between ${money(rate.minRetail)} and ${money(rate.maxRetail)}; options come on top`
                    }
                    value={retail}
                    error={dealErrors.retailPrice}
                    disabled={!!created || rate.retailLocked}
                    onChange={(e) => {
                      touched()
                      setRetail(e.currentTarget.value)
                    }}
                  />
                )}
              </>
            )}
          </Stack>
        </section>
      )}

      {quote && rate && (
        <section
          aria-labelledby="wizard-buyer"
          data-testid="wizard-buyer"
          data-ready={fieldsReady ? 'true' : undefined}
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id="wizard-buyer">
              3. Buyer and the plan's fields
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              <TextInput label="First name" {...buyerField('firstName')} />
              <TextInput label="Last name" {...buyerField('lastName')} />
              <TextInput label="Company (a business buyer)" {...buyerField('companyName')} />
              <TextInput label="Email" type="email" {...buyerField('emailAddress')} />
              <TextInput label="Phone" type="tel" {...buyerField('phoneNumber')} />
              <TextInput label="Street" {...buyerField('line1')} />
              <TextInput label="City" {...buyerField('city')} />
              <Group grow gap="xs" align="start">
                <TextInput label="State" maxLength={2} {...buyerField('state')} />
                <TextInput label="ZIP" {...buyerField('postalCode')} />
              </Group>
            </SimpleGrid>
            {dealErrors.customer && (
              <Text size="sm" c="red.9">
                {dealErrors.customer}
              </Text>
            )}
            {fields.problem ? (
              <ProblemAlert problem={fields.problem} />
            ) : !fieldsReady || !fields.data ? (
              <Text size="sm">Reading the plan's custom fields…</Text>
            ) : fields.data.fields.length === 0 ? (
              <Text size="sm">The plan asks for no custom fields.</Text>
            ) : (
              <Fieldset
                variant="unstyled"
                legend={`The plan's fields (rate book version ${fields.data.rateBookVersion})`}
              >
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
                  {fields.data.fields.map((f) => (
                    <CustomFieldInput
                      key={f.key}
                      field={f}
                      value={custom[f.key]}
                      error={dealErrors[`customFields.${f.key}`]}
                      disabled={!!created}
                      onChange={(v) => {
                        touched()
                        setCustom({ ...custom, [f.key]: v })
                      }}
                    />
                  ))}
                </SimpleGrid>
              </Fieldset>
            )}
          </Stack>
        </section>
      )}

      {quote && rate && (
        <section aria-labelledby="wizard-contract" data-testid="wizard-contract">
          <Stack gap="sm">
            <Title order={2} size="h4" id="wizard-contract">
              4. Draft and contract
            </Title>
            {!created && (
              <Group>
                <Button
                  variant="default"
                  onClick={previewDraft}
                  loading={busy === 'draft'}
                  disabled={!!busy || !fieldsReady}
                >
                  Preview the draft PDF
                </Button>
                <Button onClick={create} loading={busy === 'create'} disabled={!!busy || !fieldsReady}>
                  Create the contract
                </Button>
              </Group>
            )}
            {busy && (
              <Text size="sm" role="status">
                {busy === 'draft'
                  ? 'Producing the draft…'
                  : busy === 'create'
                    ? 'Creating the contract…'
                    : 'Finalizing the contract…'}
              </Text>
            )}
            <Outcome problem={dealRest} done={undefined} fields={shownFields} />
            {draft && !created && (
              <Stack gap="xs" data-testid="draft-preview">
                <Text size="sm" role="status">
                  Draft produced ({Math.ceil(draft.bytes / 1024)} KiB, marked DRAFT, nothing stored).{' '}
                  <Anchor href={draft.url} download="draft-contract.pdf">
                    Download the draft PDF
                  </Anchor>
                </Text>
                <iframe
                  title="Draft contract PDF"
                  src={draft.url}
                  style={{ width: '100%', height: 640, border: '1px solid var(--mantine-color-gray-4)' }}
                />
              </Stack>
            )}
            {created && (
              <CreatedContract
                contract={finalized?.contract ?? created}
                finalized={finalized}
                onFinalize={finalize}
                finalizing={busy === 'finalize'}
                onAgain={onAgain}
              />
            )}
          </Stack>
        </section>
      )}
    </Stack>
  )
}

function RateFigures({
  plan,
  term,
  rate,
}: {
  plan: Plan
  term: Plan['terms'][number]
  rate: Plan['terms'][number]['deductibles'][number]['rate']
}) {
  return (
    <Table withTableBorder aria-label="The chosen rate" data-testid="chosen-rate" w="auto">
      <ColumnHeads
        columns={[
          'Rate',
          'Form',
          'Expires',
          { numeric: 'Dealer cost' },
          { numeric: 'Suggested retail' },
          { numeric: 'Retail from' },
          { numeric: 'Retail to' },
        ]}
      />
      <Table.Tbody>
        <Table.Tr>
          <Table.Td ff="monospace">{rate.rateId}</Table.Td>
          <Table.Td>{plan.formNumber}</Table.Td>
          <Table.Td>
            {day(term.expirationDate)}
            {term.expirationOdometer !== null ? ` or ${term.expirationOdometer.toLocaleString('en-US')} miles` : ''}
          </Table.Td>
          <MoneyCell value={rate.dealerCost} />
          <MoneyCell value={rate.suggestedRetail} />
          <MoneyCell value={rate.minRetail} />
          <MoneyCell value={rate.maxRetail} />
        </Table.Tr>
      </Table.Tbody>
    </Table>
  )
}

function CustomFieldInput({
  field,
  value,
  error,
  disabled,
  onChange,
}: {
  field: CustomField
  value: string | boolean | undefined
  error: string | undefined
  disabled: boolean
  onChange: (v: string | boolean) => void
}) {
  const name = `customFields.${field.key}`
  const description = [
    field.unique ? 'one contract only' : '',
    field.maxLength !== undefined ? `at most ${field.maxLength} characters` : '',
    field.min !== undefined || field.max !== undefined ? `from ${field.min ?? '…'} to ${field.max ?? '…'}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  if (field.type === 'BOOLEAN')
    return (
      <Checkbox
        label={field.label}
        name={name}
        checked={value === true}
        error={error}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    )
  if (field.type === 'LIST')
    return (
      <NativeSelect
        label={field.label}
        name={name}
        required={field.required}
        value={typeof value === 'string' ? value : ''}
        data={[{ value: '', label: '—' }, ...(field.options ?? [])]}
        error={error}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    )
  return (
    <TextInput
      label={field.label}
      name={name}
      required={field.required}
      description={description || undefined}
      type={field.type === 'DATE' ? 'date' : 'text'}
      inputMode={field.type === 'STRING' || field.type === 'DATE' ? undefined : 'decimal'}
      value={typeof value === 'string' ? value : ''}
      error={error}
      disabled={disabled}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  )
}

function CreatedContract({
  contract,
  finalized,
  onFinalize,
  finalizing,
  onAgain,
}: {
  contract: Contract
  finalized: Finalized | undefined
  onFinalize: () => void
  finalizing: boolean
  onAgain: () => void
}) {
  const entry = finalized?.journalEntry
  return (
    <Stack gap="sm" data-testid="created-contract">
      <Alert color="green" role="status">
        <Group gap="xs">
          <Text size="sm" fw={700}>
            Contract {contract.contractNumber} {finalized ? 'finalized' : 'created'}.
          </Text>
          <Text size="sm">Status</Text>
          <Badge variant="dot" color={STATUS_COLORS[contract.status] ?? 'gray.8'} data-testid="wizard-status">
            {contract.status}
          </Badge>
          <Text size="sm">
            · <Link to={`/contracts/${contract.id}`}>Open contract {contract.contractNumber}</Link>
          </Text>
        </Group>
      </Alert>
      <Facts
        label="The contract's price"
        rows={[
          ['Plan', `${contract.product.name} · ${contract.plan.name} · form ${contract.plan.formNumber}`],
          ['Term', `${contract.term.months} months / ${contract.term.miles.toLocaleString('en-US')} miles`],
          ['Coverage', `${day(contract.effectiveDate)} to ${day(contract.expirationDate)}`],
          ['Dealer cost', <Money key="d" value={contract.pricing.dealerCost} />],
          ['Retail price', <Money key="r" value={contract.pricing.retailPrice} />],
          ['Options retail', <Money key="o" value={contract.pricing.optionsRetail} />],
          ['Total price', <Money key="t" value={contract.pricing.totalPrice} />],
        ]}
      />
      <Group>
        {!finalized && (
          <>
            <Button onClick={onFinalize} loading={finalizing} disabled={finalizing}>
              Finalize the contract
            </Button>
            <Text size="sm">Posts the sale to the ledger and produces the final PDF.</Text>
          </>
        )}
        <Button variant="default" onClick={onAgain}>
          Start another contract
        </Button>
      </Group>
      {entry && (
        <Table withTableBorder captionSide="top" aria-label="Journal entry posted" data-testid="wizard-entry">
          <caption>
            Journal entry {entry.entryId} ({entry.kind}), {day(entry.effectiveDate)}
          </caption>
          <ColumnHeads columns={['Account holder', 'Purpose', 'Code', { numeric: 'Debit' }, { numeric: 'Credit' }]} />
          <Table.Tbody>
            {entry.lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td>{l.accountHolderId}</Table.Td>
                <Table.Td>{l.purpose}</Table.Td>
                <Table.Td>{l.disbursementCode ?? '—'}</Table.Td>
                <MoneyCell value={l.debit || null} />
                <MoneyCell value={l.credit || null} />
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row" colSpan={3}>
                Total
              </Table.Th>
              <MoneyCell value={entry.totalDebit} />
              <MoneyCell value={entry.totalCredit} />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      )}
      {finalized?.document && (
        <Text size="sm">
          Final PDF: version {finalized.document.versionNo} of document {finalized.document.documentId} (on the contract
          page, with its download link).
        </Text>
      )}
    </Stack>
  )
}
