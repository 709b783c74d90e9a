// The contract page's servicing sections (docs/contracts.md "Lifecycle", docs/earnings.md, docs/ledger.md):
//   holds: list, place, resolve     GET/POST /api/contracts/{id}/holds, GET /api/contracts/holdreasons,
//                                   POST /api/contracts/{id}/holds/{holdId}/resolves
//   the edit lock                   GET/POST/DELETE /api/contracts/{id}/lock
//   journal entries (its postings)  GET /api/contracts/{id}/journalentries?limit=&offset=
//   earnings                        GET /api/contracts/{id}/earningdetails?asOf=&schedule=
// Every figure is the API's; a refusal (a hold on a finalized contract, another user's lock, a 403)
// is the API's problem, shown where the action is.
import {
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
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
import type { Contract, Schemas } from '../api/types.ts'
import { dateTime, day } from '../format.ts'
import { navigate, queryString, useLocation } from '../router.tsx'
import { ColumnHeads, Facts, Money, MoneyCell, numeric, Outcome, Pager, Panel, useAction } from '../ui.tsx'

type Hold = Schemas['ContractHold']
type ReasonCode = Hold['reasonCode']

/** Holds: the open ones block finalization until resolved. */
export function ContractHolds({ contract, onChanged }: { contract: Contract; onChanged: () => void }) {
  const id = contract.id
  const [n, setN] = useState(0)
  const holds = useApi(`holds:${id}:${n}`, async () =>
    unwrap(await api.GET('/api/contracts/{contractId}/holds', { params: { path: { contractId: id } } })),
  )
  const reasons = useApi('holdreasons', async () => unwrap(await api.GET('/api/contracts/holdreasons')))
  const [form, setForm] = useState({ reasonCode: '', note: '' })
  const [resolving, setResolving] = useState<{ holdId: number; note: string } | undefined>()
  // One action at a time (place or resolve): its outcome is the one shown.
  const act = useAction()
  const errors = fieldErrors(act.problem)
  const changed = () => {
    setN((x) => x + 1)
    onChanged()
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void act.run(async () => {
      const h = unwrap(
        await api.POST('/api/contracts/{contractId}/holds', {
          params: { path: { contractId: id } },
          body: { reasonCode: (form.reasonCode || reasons.data?.[0]?.code) as ReasonCode, note: form.note || null },
        }),
      )
      setForm({ reasonCode: form.reasonCode, note: '' })
      changed()
      return `Hold ${h.holdId} placed (${h.reason}).`
    })
  }
  const resolveHold = (e: FormEvent) => {
    e.preventDefault()
    const r = resolving!
    void act.run(async () => {
      unwrap(
        await api.POST('/api/contracts/{contractId}/holds/{holdId}/resolves', {
          params: { path: { contractId: id, holdId: r.holdId } },
          body: { note: r.note || null },
        }),
      )
      setResolving(undefined)
      changed()
      return `Hold ${r.holdId} resolved.`
    })
  }

  return (
    <Panel title="Holds" state={holds} testId="holds">
      {(rows) => (
        <Stack gap="sm">
          {rows.length === 0 ? (
            <Text size="sm">No holds.</Text>
          ) : (
            <Table withTableBorder aria-label="Holds">
              <ColumnHeads columns={['Hold', 'Reason', 'Note', 'Placed', 'Status', '']} />
              <Table.Tbody>
                {rows.map((h) => (
                  <Table.Tr key={h.holdId} data-testid={`hold-${h.holdId}`}>
                    <Table.Td>{h.holdId}</Table.Td>
                    <Table.Td>{h.reason}</Table.Td>
                    <Table.Td>{h.note ?? '—'}</Table.Td>
                    <Table.Td>
                      {dateTime(h.createdAt)} by {h.createdBy}
                    </Table.Td>
                    <Table.Td>
                      {h.resolved ? (
                        <>
                          <Badge variant="dot" color="green.9">
                            Resolved
                          </Badge>{' '}
                          {dateTime(h.resolvedAt)} by {h.resolvedBy}
                          {h.resolutionNote ? `: ${h.resolutionNote}` : ''}
                        </>
                      ) : (
                        <Badge variant="dot" color="orange.9">
                          Open
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {!h.resolved &&
                        (resolving?.holdId === h.holdId ? (
                          <form onSubmit={resolveHold} aria-label={`Resolve hold ${h.holdId}`}>
                            <Group gap="xs" align="end" wrap="nowrap">
                              <TextInput
                                size="xs"
                                label="Resolution note"
                                value={resolving.note}
                                onChange={(e) => setResolving({ holdId: h.holdId, note: e.currentTarget.value })}
                              />
                              <Button size="xs" type="submit" loading={act.busy}>
                                Resolve hold
                              </Button>
                              <Button size="xs" variant="default" onClick={() => setResolving(undefined)}>
                                Keep
                              </Button>
                            </Group>
                          </form>
                        ) : (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setResolving({ holdId: h.holdId, note: '' })}
                          >
                            Resolve
                          </Button>
                        ))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <form onSubmit={submit} aria-label="Place a hold" noValidate>
            <Group align="start" gap="sm">
              <NativeSelect
                label="Hold reason"
                name="reasonCode"
                value={form.reasonCode || reasons.data?.[0]?.code || ''}
                data={(reasons.data ?? []).map((r) => ({ value: r.code, label: r.name }))}
                error={errors.reasonCode}
                onChange={(e) => setForm({ ...form, reasonCode: e.currentTarget.value })}
              />
              <TextInput
                label="Hold note"
                name="note"
                value={form.note}
                error={errors.note}
                onChange={(e) => setForm({ ...form, note: e.currentTarget.value })}
              />
              <Button type="submit" mt={25} loading={act.busy}>
                Place hold
              </Button>
            </Group>
          </form>
          <Outcome problem={act.problem} done={act.done} fields={['reasonCode', 'note']} />
        </Stack>
      )}
    </Panel>
  )
}

/** The edit lock: 15 minutes, renewable; while held, other users' changes are refused (423). */
export function ContractLock({ contract, onChanged }: { contract: Contract; onChanged: () => void }) {
  const id = contract.id
  const [n, setN] = useState(0)
  const lock = useApi(`lock:${id}:${n}`, async () =>
    unwrap(await api.GET('/api/contracts/{contractId}/lock', { params: { path: { contractId: id } } })),
  )
  const act = useAction()
  const changed = () => {
    setN((x) => x + 1)
    onChanged()
  }
  return (
    <Panel title="Edit lock" state={lock} testId="lock">
      {(l) => (
        <Stack gap="sm">
          <Text size="sm" data-testid="lock-state">
            {l.locked
              ? `Locked by ${l.heldByYou ? 'you' : (l.user ?? `user ${l.userId}`)} until ${dateTime(l.expiresAt)}.`
              : 'Not locked.'}
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              loading={act.busy}
              onClick={() =>
                act.run(async () => {
                  const r = unwrap(
                    await api.POST('/api/contracts/{contractId}/lock', {
                      params: { path: { contractId: id } },
                      body: {},
                    }),
                  )
                  changed()
                  return `Locked until ${dateTime(r.expiresAt)}.`
                })
              }
            >
              {l.heldByYou ? 'Renew the lock' : 'Take the edit lock'}
            </Button>
            {l.heldByYou && (
              <Button
                variant="default"
                loading={act.busy}
                onClick={() =>
                  act.run(async () => {
                    const r = await api.DELETE('/api/contracts/{contractId}/lock', {
                      params: { path: { contractId: id } },
                    })
                    unwrap(r)
                    changed()
                    return 'Lock released.'
                  })
                }
              >
                Release the lock
              </Button>
            )}
          </Group>
          <Outcome problem={act.problem} done={act.done} />
        </Stack>
      )}
    </Panel>
  )
}

const ENTRY_SIZES = ['25', '50', '100']

/** The contract's journal entries (its sale, rerates, cancels, earnings, cash), paged in the URL. */
export function ContractJournal({ contract, changes }: { contract: Contract; changes: number }) {
  const id = contract.id
  const { query, path } = useLocation()
  const size = ENTRY_SIZES.includes(query.get('entriesSize') ?? '') ? Number(query.get('entriesSize')) : 25
  const page = Math.max(1, Number.parseInt(query.get('entriesPage') ?? '1', 10) || 1)
  const entries = useApi(`journal:${id}:${page}:${size}:${changes}`, async () => {
    const res = await api.GET('/api/contracts/{contractId}/journalentries', {
      params: { path: { contractId: id }, query: { limit: size, offset: (page - 1) * size } },
    })
    return { rows: unwrap(res), total: Number(res.response.headers.get('x-total-count') ?? 0) }
  })
  // The pager's page and size, kept in the URL beside the page's other parameters.
  const go = (over: Record<string, string | number | undefined>) =>
    navigate(
      `${path}${queryString({
        ...Object.fromEntries(query.entries()),
        entriesPage: 'page' in over ? over.page : page === 1 ? undefined : page,
        entriesSize: 'size' in over ? over.size : size === 25 ? undefined : size,
      })}`,
      { replace: true },
    )
  return (
    <Panel title="Journal entries" state={entries} testId="journal">
      {({ rows, total }) => (
        <Stack gap="sm">
          {rows.length === 0 ? (
            <Text size="sm">Nothing posted yet (a contract is posted when it is finalized).</Text>
          ) : (
            rows.map((e) => {
              const debit = e.lines.reduce((s, l) => s + (l.side === 'DEBIT' ? Math.round(l.amount * 100) : 0), 0)
              const credit = e.lines.reduce((s, l) => s + (l.side === 'CREDIT' ? Math.round(l.amount * 100) : 0), 0)
              return (
                <Table key={e.id} withTableBorder aria-label={`Journal entry ${e.id}`} data-testid={`entry-${e.id}`}>
                  <caption style={{ textAlign: 'left' }}>
                    <Text size="sm" component="span" fw={600}>
                      Entry {e.id} · {e.kind}
                    </Text>{' '}
                    <Text size="sm" component="span">
                      dated {day(e.effectiveDate)}, posted {dateTime(e.postedAt)} by {e.postedBy}
                      {e.memo ? ` · ${e.memo}` : ''}
                      {e.reversesEntryId ? ` · reverses entry ${e.reversesEntryId}` : ''}
                    </Text>
                  </caption>
                  <ColumnHeads
                    columns={['Line', 'Account holder', 'Purpose', 'Code', { numeric: 'Debit' }, { numeric: 'Credit' }]}
                  />
                  <Table.Tbody>
                    {e.lines.map((l) => (
                      <Table.Tr key={l.lineNo}>
                        <Table.Td>{l.lineNo}</Table.Td>
                        <Table.Td>
                          {l.accountHolderName} ({l.accountHolderId})
                        </Table.Td>
                        <Table.Td>{l.purpose}</Table.Td>
                        <Table.Td>{l.disbursementCode ?? '—'}</Table.Td>
                        <MoneyCell value={l.side === 'DEBIT' ? l.amount : null} />
                        <MoneyCell value={l.side === 'CREDIT' ? l.amount : null} />
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr>
                      <Table.Th scope="row" colSpan={4}>
                        Total
                      </Table.Th>
                      <Table.Td style={numeric} fw={600} data-testid="entry-debit">
                        <Money value={debit / 100} />
                      </Table.Td>
                      <Table.Td style={numeric} fw={600} data-testid="entry-credit">
                        <Money value={credit / 100} />
                      </Table.Td>
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              )
            })
          )}
          {total > 0 && (
            <Group justify="space-between" align="center">
              <Text size="sm" data-testid="journal-total">
                {total} {total === 1 ? 'entry' : 'entries'}
              </Text>
              <Pager page={page} pages={Math.max(1, Math.ceil(total / size))} size={size} sizes={ENTRY_SIZES} go={go} />
            </Group>
          )}
        </Stack>
      )}
    </Panel>
  )
}

/** How each priced line is earned as of a date (the URL's `asOf`, default today), with its schedule. */
export function ContractEarnings({ contract, changes }: { contract: Contract; changes: number }) {
  const id = contract.id
  const { query, path } = useLocation()
  const asOf = query.get('asOf') ?? ''
  const schedule = query.get('schedule') === 'true'
  const [form, setForm] = useState(asOf)
  const earnings = useApi(`earnings:${id}:${asOf}:${schedule}:${changes}`, async () =>
    unwrap(
      await api.GET('/api/contracts/{contractId}/earningdetails', {
        params: { path: { contractId: id }, query: { asOf: asOf || undefined, schedule } },
      }),
    ),
  )
  const errors = fieldErrors(earnings.problem)
  const go = (over: Record<string, string | undefined>) =>
    navigate(`${path}${queryString({ ...Object.fromEntries(query.entries()), ...over })}`, { replace: true })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    go({ asOf: form || undefined })
  }
  const d = earnings.data
  return (
    <Card
      withBorder
      component="section"
      aria-labelledby="earnings-title"
      data-testid="earnings"
      data-loading={earnings.loading || undefined}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="earnings-title">
          Earnings
        </Title>
        <form onSubmit={submit} aria-label="The earnings date" noValidate>
          <Group align="end" gap="sm">
            <TextInput
              label="Earnings as of"
              type="date"
              name="asOf"
              value={form}
              error={errors.asOf}
              description="Empty: today in the tenant's zone"
              onChange={(e) => setForm(e.currentTarget.value)}
            />
            <Button type="submit" variant="default">
              Show
            </Button>
            <Checkbox
              label="Schedule by month"
              checked={schedule}
              onChange={(e) => go({ schedule: e.currentTarget.checked ? 'true' : undefined })}
            />
          </Group>
        </form>
        {earnings.problem ? (
          <Outcome problem={earnings.problem} done={undefined} fields={['asOf']} />
        ) : !d ? (
          <Center p="md">
            <Loader size="sm" aria-label="Loading the earnings" />
          </Center>
        ) : (
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Facts
                label="Earnings totals"
                rows={[
                  ['As of', `${day(d.asOf)}${d.asOf !== d.requestedAsOf ? ` (asked ${day(d.requestedAsOf)})` : ''}`],
                  ['Term', `${d.termMonths} months, ${day(d.effectiveDate)} to ${day(d.expirationDate)}`],
                  ['Earnings stopped', d.earningsStoppedOn ? day(d.earningsStoppedOn) : 'no'],
                  ['Posted through', d.postedThrough ? day(d.postedThrough) : 'no earnings run yet'],
                ]}
              />
              <Table withTableBorder aria-label="Earned and unearned">
                <Table.Tbody>
                  {(
                    [
                      ['Amount', d.totals.amount, 'earnings-amount'],
                      ['Earned to date', d.totals.earnedToDate, 'earnings-earned'],
                      ['Unearned', d.totals.unearned, 'earnings-unearned'],
                    ] as const
                  ).map(([k, v, t]) => (
                    <Table.Tr key={k}>
                      <Table.Th scope="row">{k}</Table.Th>
                      <Table.Td style={numeric} data-testid={t}>
                        <Money value={v} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </SimpleGrid>
            <Table.ScrollContainer minWidth={900}>
              <Table withTableBorder striped aria-label="Earnings by line">
                <ColumnHeads
                  columns={[
                    'Line',
                    'Method',
                    { numeric: 'Amount' },
                    { numeric: 'Earned' },
                    { numeric: 'Unearned' },
                    { numeric: 'Factor' },
                    { numeric: 'Posted' },
                    { numeric: 'Due to post' },
                  ]}
                />
                <Table.Tbody>
                  {d.lines.map((l) => (
                    <Table.Tr key={l.lineNumber}>
                      <Table.Td>
                        {l.label} ({l.code}){l.refundable ? '' : ', not refundable'}
                      </Table.Td>
                      <Table.Td>
                        {l.method.toLowerCase().replaceAll('_', ' ')}
                        {l.curveCode ? ` ${l.curveCode}` : ''}
                      </Table.Td>
                      <MoneyCell value={l.amount} />
                      <MoneyCell value={l.earnedToDate} />
                      <MoneyCell value={l.unearned} />
                      <Table.Td style={numeric} title={l.earnedFraction}>
                        {l.earnedFactor}
                      </Table.Td>
                      <MoneyCell value={l.earnedPosted} />
                      <MoneyCell value={l.dueToPost} />
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {schedule &&
              d.lines
                .filter((l) => l.schedule && l.schedule.length > 0)
                .map((l) => (
                  <details key={l.lineNumber}>
                    <summary>
                      <Text size="sm" component="span">
                        Schedule of {l.label} ({l.code}), {l.schedule!.length} periods
                      </Text>
                    </summary>
                    <Table withTableBorder aria-label={`Schedule of ${l.label} (${l.code})`}>
                      <ColumnHeads
                        columns={[
                          'Period',
                          { numeric: 'Earned in it' },
                          { numeric: 'Earned to date' },
                          { numeric: 'Unearned' },
                        ]}
                      />
                      <Table.Tbody>
                        {l.schedule!.map((s) => (
                          <Table.Tr key={s.periodStart}>
                            <Table.Td>
                              {day(s.periodStart)} to {day(s.periodEnd)}
                            </Table.Td>
                            <MoneyCell value={s.earnedThisPeriod} />
                            <MoneyCell value={s.earnedToDate} />
                            <MoneyCell value={s.unearned} />
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </details>
                ))}
          </Stack>
        )}
      </Stack>
    </Card>
  )
}

/** A pending contract's finalization: posted to the ledger, the final PDF produced (refused while on hold). */
export function ContractFinalize({ contract, onChanged }: { contract: Contract; onChanged: () => void }) {
  const act = useAction()
  return (
    <Card withBorder component="section" aria-labelledby="finalize-title" data-testid="finalize">
      <Stack gap="sm">
        <Title order={2} size="h4" id="finalize-title">
          Finalize
        </Title>
        <Text size="sm">
          The contract is pending. Finalizing posts its sale to the ledger and produces the final PDF; open holds must
          be resolved first.
        </Text>
        <Group>
          <Button
            loading={act.busy}
            onClick={() =>
              act.run(async () => {
                const r = unwrap(
                  await api.POST('/api/contracts/{contractId}/finalize', {
                    params: { path: { contractId: contract.id } },
                    body: {},
                  }),
                )
                onChanged()
                return `Contract ${r.contract.contractNumber} finalized: ${r.contract.status}${r.journalEntry ? `, journal entry ${r.journalEntry.entryId} posted` : ''}.`
              })
            }
          >
            Finalize the contract
          </Button>
        </Group>
        <Outcome problem={act.problem} done={act.done} />
      </Stack>
    </Card>
  )
}
