// A receipt (docs/cash.md): GET /api/cashtransactions/{id} (amount, applied and unapplied, the
// applications by contract), the payer's receivable balance now (GET /api/ledgerSummary), and its
// actions, each the API's to allow or refuse:
//   apply more to the payer's open items   PATCH /api/cashtransactions/{id} { applications }
//   returned payment (NSF)                  PATCH /api/cashtransactions/{id} { status: RETURNED, returnReason }
import { Badge, Button, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useState, type FormEvent, type ReactNode } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import { dateTime, day } from '../format.ts'
import { Link, useLocation } from '../router.tsx'
import { ColumnHeads, Facts, Money, MoneyCell, Outcome, Panel, RecordProblem, useAction } from '../ui.tsx'
import { CASH_COLORS } from './Cash.tsx'
import { applicationsOf, ItemPicker, useUnpaid, type Chosen } from './finance.tsx'

export default function CashPage({ id }: { id: number }) {
  const { query } = useLocation()
  const [version, setVersion] = useState(0)
  const cash = useApi(`cash:${id}:${version}`, async () =>
    unwrap(await api.GET('/api/cashtransactions/{cashTransactionId}', { params: { path: { cashTransactionId: id } } })),
  )
  const payer = cash.data ? String(cash.data.payerId) : ''
  const balance = useApi(`cash-balance:${payer}:${version}`, async () =>
    payer
      ? unwrap(
          await api.GET('/api/ledgerSummary', {
            params: { query: { accountHolderId: Number(payer), purpose: 'DEALER_RECEIVABLE' } },
          }),
        )
      : undefined,
  )
  // The payer's name (its pay/receive ledger row), shown beside its id.
  const name = useApi(`cash-payer:${payer}`, async () =>
    payer
      ? unwrap(
          await api.GET('/api/ledgers/payReceiveLedgers', { params: { query: { accountHolderId: Number(payer) } } }),
        ).items[0]?.displayName
      : undefined,
  )
  const unpaid = useUnpaid(payer, version)
  const [chosen, setChosen] = useState<Chosen>({})
  const apply = useAction()
  const nsf = useAction()
  const [reason, setReason] = useState('NSF')
  const changed = () => {
    setChosen({})
    setVersion((v) => v + 1)
  }

  if (cash.problem)
    return <RecordProblem title={`Receipt ${id}`} problem={cash.problem} back="/cash" backLabel="Back to the cash" />
  const c = cash.data
  const applyErrors = fieldErrors(apply.problem)
  const nsfErrors = fieldErrors(nsf.problem)

  const submitApply = (e: FormEvent) => {
    e.preventDefault()
    void apply.run(async () => {
      const { applications } = applicationsOf(unpaid.data?.items ?? [], chosen)
      const r = unwrap(
        await api.PATCH('/api/cashtransactions/{cashTransactionId}', {
          params: { path: { cashTransactionId: id } },
          body: { applications },
        }),
      )
      changed()
      return `Applied; ${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(r.unappliedAmount)} left unapplied.`
    })
  }
  const submitReturn = (e: FormEvent) => {
    e.preventDefault()
    void nsf.run(async () => {
      unwrap(
        await api.PATCH('/api/cashtransactions/{cashTransactionId}', {
          params: { path: { cashTransactionId: id } },
          body: { status: 'RETURNED', returnReason: reason },
        }),
      )
      changed()
      return 'Marked returned: the receipt and its applications are reversed, the items are open again.'
    })
  }

  return (
    <Stack data-testid="cash-page" data-ready={c && !balance.loading && !unpaid.loading ? 'true' : undefined}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Receipt {id}
        </Title>
        {c && (
          <Badge size="lg" variant="dot" color={CASH_COLORS[c.status] ?? 'gray.8'} data-testid="cash-status">
            {c.status.toLowerCase()}
          </Badge>
        )}
      </Group>
      <Text size="sm">
        <Link to="/cash">All cash</Link>
        {c && (
          <>
            {' · '}
            <Link to={`/ledgers/${c.payerId}`}>The payer's ledger</Link>
            {' · '}
            <Link to={`/cash/new?payerId=${c.payerId}`}>Receive more from this payer</Link>
          </>
        )}
      </Text>
      {query.get('received') && c && (
        <Text size="sm" role="status">
          Received <Money value={c.amount} />: <Money value={c.appliedAmount} /> applied.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Receipt" state={cash}>
          {(r) => (
            <Facts
              rows={[
                [
                  'Payer',
                  <Link key="p" to={`/ledgers/${r.payerId}`}>
                    {name.data ? `${name.data} (${r.payerId})` : `Account holder ${r.payerId}`}
                  </Link>,
                ],
                ['Method', `${r.paymentMethod} ${r.reference}`],
                ['Amount', <Money key="a" value={r.amount} />],
                [
                  'Applied',
                  <span key="ap" data-testid="cash-applied">
                    <Money value={r.appliedAmount} />
                  </span>,
                ],
                [
                  'Unapplied',
                  <span key="u" data-testid="cash-unapplied">
                    <Money value={r.unappliedAmount} />
                  </span>,
                ],
                ['Received', day(r.receivedDate)],
                ['Accounting date', day(r.accountingDate)],
                ['Recorded', dateTime(r.createdAt)],
                ['Memo', r.memo ?? '—'],
                ...(r.returnReason ? [['Returned', r.returnReason] as [string, string]] : []),
                ['Journal entries', r.entryIds.join(', ')],
              ]}
            />
          )}
        </Panel>
        <Panel title="The payer's receivable now" state={balance} testId="payer-balance">
          {(s) =>
            s && (
              <Facts
                rows={[
                  [
                    'Balance',
                    <span key="b" data-testid="payer-receivable">
                      <Money value={s.totals.find((t) => t.purpose === 'DEALER_RECEIVABLE')?.balance ?? 0} />
                    </span>,
                  ],
                  ...s.receivableAging.map(
                    (b) => [`${b.bucket} days`, <Money key={b.bucket} value={b.amount} />] as [string, ReactNode],
                  ),
                  ['As of', day(s.asOf)],
                ]}
              />
            )
          }
        </Panel>
      </SimpleGrid>
      <Panel title="Applications" state={cash}>
        {(r) =>
          r.applications.length === 0 ? (
            <Text size="sm">Nothing applied.</Text>
          ) : (
            <Table withTableBorder aria-label="Applications">
              <ColumnHeads columns={['Contract', 'Applied', 'State', { numeric: 'Amount' }]} />
              <Table.Tbody>
                {r.applications.map((x, i) => (
                  <Table.Tr key={`${x.contractId}:${i}`}>
                    <Table.Td>
                      <Link to={`/contracts/${x.contractId}`}>{x.contractNumber ?? x.contractId}</Link>
                    </Table.Td>
                    <Table.Td>{dateTime(x.appliedAt)}</Table.Td>
                    <Table.Td>{x.reversed ? 'reversed' : 'applied'}</Table.Td>
                    <MoneyCell value={x.amount} />
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
      {c?.status === 'POSTED' && (
        <>
          <Panel title="Apply to open items" state={unpaid} testId="apply-more">
            {(page) =>
              page && (
                <form onSubmit={submitApply} aria-label="Apply to open items" noValidate>
                  <Stack gap="xs">
                    <Text size="sm">
                      Unapplied: <Money value={c.unappliedAmount} />
                    </Text>
                    <ItemPicker
                      items={page.items}
                      chosen={chosen}
                      setChosen={setChosen}
                      errors={applyErrors}
                      label="Open items of the payer"
                    />
                    <Group>
                      <Button type="submit" loading={apply.busy} disabled={Object.keys(chosen).length === 0}>
                        Apply
                      </Button>
                    </Group>
                    <Outcome
                      problem={apply.problem}
                      done={apply.done}
                      fields={(apply.problem?.errors ?? [])
                        .map((e) => e.field)
                        .filter((f) => f.startsWith('applications['))}
                    />
                  </Stack>
                </form>
              )
            }
          </Panel>
          <form onSubmit={submitReturn} aria-label="Returned payment" noValidate>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Returned payment
              </Title>
              <Group align="end">
                <TextInput
                  label="Return reason"
                  name="returnReason"
                  maxLength={200}
                  value={reason}
                  error={nsfErrors.returnReason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <Button type="submit" color="red.9" variant="outline" loading={nsf.busy}>
                  Mark returned (NSF)
                </Button>
              </Group>
              <Outcome problem={nsf.problem} done={nsf.done} fields={['returnReason']} />
            </Stack>
          </form>
        </>
      )}
      {c?.status === 'RETURNED' && nsf.done && <Outcome problem={undefined} done={nsf.done} />}
    </Stack>
  )
}
