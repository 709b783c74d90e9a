// Claim intake (docs/claims.md "Intake"): the contract found by its number or VIN (GET /api/contracts,
// `contractNumber` or `vin`), then the loss (date, odometer), the repair facility (GET
// /api/repairfacilities), the repair order, contact and tax rate, and the first job with its three Cs
// and lines (ClaimJobForm.tsx), filed by POST /api/claims. The API judges everything (the contract in
// force on the loss date, the odometer against the sale's and the coverage's, the waiting period, the
// lookups, the lines) and every refusal is shown under the field it names. The search and the chosen
// contract are in the URL (`/claims/new?q=…&contractId=…`), so the page can be linked from a contract.
import {
  Badge,
  Button,
  Card,
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
import { fieldErrors } from '../api/problem.ts'
import { day, today } from '../format.ts'
import { Link, navigate, queryString, useLocation } from '../router.tsx'
import { bindField, ColumnHeads, Outcome, Panel, ProblemAlert, useAction } from '../ui.tsx'
import { emptyJob, JobFields, jobBody, jobFieldNames, useThreeCs, type JobDraft } from './ClaimJobForm.tsx'
import { STATUS_COLORS } from './Contracts.tsx'

const VIN_LIKE = /^[A-HJ-NPR-Z0-9]{6,17}$/i

const CLAIM_FIELDS = [
  'contractId',
  'lossDate',
  'odometer',
  'repairFacilityId',
  'repairOrderNumber',
  'taxRate',
  'contact.name',
  'contact.phoneNumber',
  'contact.emailAddress',
] as const

/** The contracts a number or VIN finds (both searched when the text could be either). */
function useContractSearch(q: string) {
  return useApi(`claim-intake-search:${q}`, async () => {
    if (!q) return []
    const byNumber = api.GET('/api/contracts', { params: { query: { contractNumber: q, limit: 50 } } }).then(unwrap)
    const byVin = VIN_LIKE.test(q)
      ? api.GET('/api/contracts', { params: { query: { vin: q, limit: 50 } } }).then(unwrap)
      : Promise.resolve([])
    const [a, b] = await Promise.all([byNumber, byVin])
    const seen = new Set<number>()
    return [...a, ...b].filter((c) => !seen.has(c.id) && !!seen.add(c.id))
  })
}

function ContractFinder({ q, chosen }: { q: string; chosen: number | undefined }) {
  const [text, setText] = useState(q)
  const found = useContractSearch(q)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    navigate(`/claims/new${queryString({ q: text.trim() })}`)
  }
  return (
    <Card withBorder component="section" aria-label="Contract">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Contract
        </Title>
        <form onSubmit={submit} role="search" aria-label="Find the contract" noValidate>
          <Group align="end" gap="xs">
            <TextInput
              label="Contract number or VIN"
              name="q"
              maxLength={60}
              w={320}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            <Button type="submit" variant="default">
              Find
            </Button>
          </Group>
        </form>
        {found.problem && <ProblemAlert problem={found.problem} />}
        {q && found.data && (
          <Text size="sm" role="status" aria-live="polite" data-testid="intake-found">
            {found.data.length === 0
              ? 'No contract has this number or VIN.'
              : `${found.data.length} contract${found.data.length === 1 ? '' : 's'} found.`}
          </Text>
        )}
        {found.data && found.data.length > 0 && (
          <Table.ScrollContainer minWidth={800}>
            <Table withTableBorder aria-label="Contracts found">
              <ColumnHeads columns={['Contract', 'Status', 'Holder', 'Product / plan', 'VIN', 'Coverage', '']} />
              <Table.Tbody>
                {found.data.map((c) => (
                  <Table.Tr key={c.id} aria-selected={c.id === chosen}>
                    <Table.Td>{c.contractNumber}</Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={STATUS_COLORS[c.status] ?? 'gray.8'}>
                        {c.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{c.customerName}</Table.Td>
                    <Table.Td>
                      {c.productCode} · {c.planCode}
                    </Table.Td>
                    <Table.Td ff="monospace">{c.vin ?? '—'}</Table.Td>
                    <Table.Td>
                      {day(c.effectiveDate)} to {day(c.expirationDate)}
                    </Table.Td>
                    <Table.Td>
                      {c.id === chosen ? (
                        <Text size="sm" fw={600}>
                          Chosen
                        </Text>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Claim on ${c.contractNumber}`}
                          onClick={() => navigate(`/claims/new${queryString({ q, contractId: c.id })}`)}
                        >
                          Claim on this contract
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  )
}

function IntakeForm({ contractId }: { contractId: number }) {
  const path = { params: { path: { contractId } } }
  const facts = useApi(`claim-intake-contract:${contractId}`, async () => {
    const [contract, groups, ppm] = await Promise.all([
      api.GET('/api/contracts/{contractId}', path).then(unwrap),
      api.GET('/api/contracts/{contractId}/coveragegroups', path).then(unwrap),
      api.GET('/api/contracts/{contractId}/ppmservices', path).then(unwrap),
    ])
    return { contract, groups, ppm }
  })
  const facilities = useApi('claim-intake-facilities', async () =>
    unwrap(await api.GET('/api/repairfacilities', { params: { query: { status: 'ACTIVE', limit: 1000 } } })),
  )
  const lists = useThreeCs()
  const a = useAction()
  const [form, setForm] = useState({
    lossDate: today(),
    odometer: '',
    repairFacilityId: '',
    repairOrderNumber: '',
    taxRate: '',
    'contact.name': '',
    'contact.phoneNumber': '',
    'contact.emailAddress': '',
  })
  const [job, setJob] = useState<JobDraft>(emptyJob())
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const withJob = job.complaintId !== '' || job.parts.length + job.labor.length + job.sublet.length > 0

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const contact = {
        name: form['contact.name'].trim() || null,
        phoneNumber: form['contact.phoneNumber'].trim() || null,
        emailAddress: form['contact.emailAddress'].trim() || null,
      }
      const odometer = form.odometer.trim()
      const claim = unwrap(
        await api.POST('/api/claims', {
          body: {
            contractId,
            lossDate: form.lossDate,
            // Sent as typed when it is not a whole number: the API names the field.
            odometer:
              odometer === '' ? null : /^\d{1,9}$/.test(odometer) ? Number(odometer) : (odometer as unknown as number),
            repairFacilityId: Number(form.repairFacilityId || 0),
            repairOrderNumber: form.repairOrderNumber.trim() || null,
            ...(form.taxRate.trim() ? { taxRate: form.taxRate.trim() } : {}),
            contact: contact.name || contact.phoneNumber || contact.emailAddress ? contact : null,
            jobs: withJob ? [jobBody(job)] : [],
          },
        }),
      )
      navigate(`/claims/${claim.id}`)
      return `Claim ${claim.claimNumber} filed.`
    })
  }

  if (facts.problem) return <ProblemAlert problem={facts.problem} />
  const c = facts.data?.contract
  const components = (facts.data?.groups ?? []).flatMap((g) =>
    g.components.map((x) => ({ code: x.code, name: x.name, group: g.name })),
  )
  const shown = [...CLAIM_FIELDS, ...jobFieldNames(job, 'jobs[0]')]

  return (
    <form onSubmit={submit} aria-label="File the claim" noValidate data-testid="intake-form">
      <Stack>
        <Card withBorder component="section" aria-label="The loss">
          <Stack gap="sm">
            <Title order={2} size="h4">
              The loss
            </Title>
            {c && (
              <Text size="sm" data-testid="intake-contract">
                Contract <Link to={`/contracts/${c.id}`}>{c.contractNumber}</Link> · {c.status} ·{' '}
                {[c.vehicle.year, c.vehicle.make, c.vehicle.model].filter(Boolean).join(' ')} · coverage{' '}
                {day(c.effectiveDate)} to {day(c.expirationDate)}
                {c.expirationOdometer ? ` or ${c.expirationOdometer.toLocaleString('en-US')} miles` : ''} · deductible{' '}
                {new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(c.deductible.amount)}
              </Text>
            )}
            {errors.contractId && (
              <Text size="sm" c="red.9" role="alert" data-testid="intake-contract-error">
                Contract: {errors.contractId}
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
              <TextInput label="Loss date" type="date" name="lossDate" required {...field('lossDate')} />
              <TextInput
                label="Odometer"
                name="odometer"
                inputMode="numeric"
                maxLength={9}
                styles={{ input: { textAlign: 'right' } }}
                description={
                  c?.saleOdometer !== undefined && c?.saleOdometer !== null
                    ? `${c.saleOdometer.toLocaleString('en-US')} at sale`
                    : undefined
                }
                {...field('odometer')}
              />
              <NativeSelect
                label="Repair facility"
                name="repairFacilityId"
                required
                data={[
                  { value: '', label: facilities.data ? 'Choose the repair facility' : 'Loading…' },
                  ...(facilities.data ?? []).map((f) => ({
                    value: String(f.id),
                    label: `${f.displayName ?? f.legalName} (${f.facilityCode ?? f.id}${f.addresses[0] ? `, ${f.addresses[0].city} ${f.addresses[0].state}` : ''})`,
                  })),
                ]}
                {...field('repairFacilityId')}
              />
              <TextInput label="Repair order" name="repairOrderNumber" maxLength={60} {...field('repairOrderNumber')} />
              <TextInput
                label="Tax rate on parts"
                name="taxRate"
                inputMode="decimal"
                maxLength={20}
                placeholder="0.0825"
                description="A fraction; none: 0"
                {...field('taxRate')}
              />
              <TextInput label="Contact name" name="contact.name" maxLength={200} {...field('contact.name')} />
              <TextInput
                label="Contact phone"
                name="contact.phoneNumber"
                type="tel"
                maxLength={40}
                {...field('contact.phoneNumber')}
              />
              <TextInput
                label="Contact email"
                name="contact.emailAddress"
                type="email"
                maxLength={320}
                {...field('contact.emailAddress')}
              />
            </SimpleGrid>
            {facilities.problem && <ProblemAlert problem={facilities.problem} />}
          </Stack>
        </Card>

        <Panel title="Job 1" state={lists}>
          {(l) => (
            <JobFields
              draft={job}
              setDraft={setJob}
              lists={l}
              components={components}
              ppmServices={facts.data?.ppm ?? []}
              errors={errors}
              prefix="jobs[0]"
              label="Job 1"
            />
          )}
        </Panel>

        <Group>
          <Button type="submit" loading={a.busy} disabled={!c}>
            File the claim
          </Button>
          <Text size="sm" c="dimmed">
            A claim may be filed without a job; its jobs can be added on the claim's page.
          </Text>
        </Group>
        <Outcome problem={a.problem} done={a.done} fields={shown} />
      </Stack>
    </form>
  )
}

export default function ClaimIntake() {
  const { query } = useLocation()
  const q = (query.get('q') ?? '').trim()
  const raw = query.get('contractId') ?? ''
  const contractId = /^\d{1,15}$/.test(raw) ? Number(raw) : undefined
  return (
    <Stack>
      <Title order={1} size="h2">
        New claim
      </Title>
      <Text size="sm">
        <Link to="/claims">All claims</Link>
      </Text>
      <ContractFinder key={q} q={q} chosen={contractId} />
      {contractId ? (
        <IntakeForm key={contractId} contractId={contractId} />
      ) : (
        <Text size="sm">Find the contract by its number or VIN, then choose it.</Text>
      )}
    </Stack>
  )
}
