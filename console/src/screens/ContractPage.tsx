// A contract: GET /api/contracts/{id} (parties, vehicle, dates, pricing lines), its coverage
// (/coveragegroups), status history (/statushistory) and documents (/documents: the contract PDF
// and its drafts; /files: uploaded files), each version with its signed download link.
// Another dealer's contract, for a dealer-side user, is the API's 404: shown as such.
// Then its servicing (ContractServicing.tsx): finalization while pending, holds, the edit lock, its
// journal entries and earnings; and its cancellation (ContractCancels.tsx).
import { Anchor, Badge, Group, List, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { useState } from 'react'
import { api, unwrap, useApi } from '../api/client.ts'
import type { Contract } from '../api/types.ts'
import { dateTime, day } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, Money, MoneyCell, numeric, Panel, RecordProblem } from '../ui.tsx'
import ContractCancels from './ContractCancels.tsx'
import {
  ContractEarnings,
  ContractFinalize,
  ContractHolds,
  ContractJournal,
  ContractLock,
} from './ContractServicing.tsx'
import { STATUS_COLORS } from './Contracts.tsx'

const holder = (c: Contract) =>
  c.customer.companyName ??
  [c.customer.firstName, c.customer.middleInitial, c.customer.lastName].filter(Boolean).join(' ')

const PRICING_TEST_IDS: Record<string, string> = {
  'Dealer cost': 'dealer-cost',
  'Retail price': 'retail-price',
  'Options retail': 'options-retail',
  'Total price': 'total-price',
  'Dealer markup': 'dealer-markup',
}

export default function ContractPage({ id }: { id: number }) {
  const path = { params: { path: { contractId: id } } }
  // Bumped by a cancel, an approval, a reversal, a finalization, a hold or a lock: the contract's status
  // and history (and its postings) are read again.
  const [changes, setChanges] = useState(0)
  const changed = () => setChanges((n) => n + 1)
  const contract = useApi(`contract:${id}:${changes}`, async () =>
    unwrap(await api.GET('/api/contracts/{contractId}', path)),
  )
  const coverage = useApi(`coverage:${id}`, async () =>
    unwrap(await api.GET('/api/contracts/{contractId}/coveragegroups', path)),
  )
  const history = useApi(`history:${id}:${changes}`, async () =>
    unwrap(
      await api.GET('/api/contracts/{contractId}/statushistory', {
        params: { path: { contractId: id }, query: { pageSize: 100 } },
      }),
    ),
  )
  const documents = useApi(`documents:${id}:${changes}`, async () => {
    const pdfs = unwrap(await api.GET('/api/contracts/{contractId}/documents', path))
    const files = unwrap(
      await api.GET('/api/contracts/{contractId}/files', {
        params: { path: { contractId: id }, query: { limit: 100 } },
      }),
    )
    return [...pdfs, ...files]
  })

  if (contract.problem) {
    return (
      <RecordProblem
        title={`Contract ${id}`}
        problem={contract.problem}
        back="/contracts"
        backLabel="Back to the contracts"
      />
    )
  }
  const loaded = contract.data
  return (
    <Stack
      data-testid="contract-page"
      data-ready={loaded && !coverage.loading && !history.loading && !documents.loading ? 'true' : undefined}
    >
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {loaded ? `Contract ${loaded.contractNumber}` : `Contract ${id}`}
        </Title>
        {loaded && (
          <Group gap="xs">
            <Badge
              size="lg"
              variant="dot"
              color={STATUS_COLORS[loaded.status] ?? 'gray.8'}
              data-testid="contract-status"
            >
              {loaded.status}
            </Badge>
            {loaded.holdStatus.onHold && (
              <Badge size="lg" variant="dot" color="orange.9">
                On hold ({loaded.holdStatus.openHoldCount})
              </Badge>
            )}
            {loaded.locked && (
              <Badge size="lg" variant="dot" color="gray.8">
                Locked
              </Badge>
            )}
          </Group>
        )}
      </Group>
      <Text size="sm">
        <Link to="/contracts">All contracts</Link>
      </Text>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Sale" state={contract}>
          {(c) => (
            <Facts
              rows={[
                ['Holder', holder(c)],
                ['Dealer', `${c.dealer.name} (${c.dealer.dealerNumber})`],
                ['Product', `${c.product.name} (${c.product.productCode})`],
                ['Plan', `${c.plan.name} · form ${c.plan.formNumber}`],
                ['Term', `${c.term.months} months / ${c.term.miles.toLocaleString('en-US')} miles`],
                ['Deductible', <Money key="d" value={c.deductible.amount} />],
                ['Sale date', day(c.saleDate)],
                ['Coverage', `${day(c.effectiveDate)} to ${day(c.expirationDate)}`],
                ['Created', dateTime(c.createdAt)],
              ]}
            />
          )}
        </Panel>
        <Panel title="Vehicle" state={contract}>
          {(c) => (
            <Facts
              rows={[
                [
                  'VIN',
                  <Text key="v" ff="monospace" size="sm">
                    {c.vehicle.vin ?? '—'}
                  </Text>,
                ],
                [
                  'Vehicle',
                  [c.vehicle.year, c.vehicle.make, c.vehicle.model, c.vehicle.trim].filter(Boolean).join(' '),
                ],
                ['Condition', c.vehicle.condition],
                [
                  'Odometer',
                  `${c.saleOdometer?.toLocaleString('en-US') ?? '—'} at sale; covered to ${c.expirationOdometer?.toLocaleString('en-US') ?? '—'}`,
                ],
                ['Lien holder', c.lienHolder?.name ?? 'none'],
              ]}
            />
          )}
        </Panel>
      </SimpleGrid>

      <Panel title="Pricing" state={contract}>
        {(c) => (
          <Table withTableBorder striped aria-label="Pricing lines">
            <ColumnHeads columns={['Line', 'Group', 'Source', { numeric: 'Payee' }, { numeric: 'Amount' }]} />
            <Table.Tbody>
              {c.pricing.lines.map((l) => (
                <Table.Tr key={`${l.code}:${l.optionCode ?? ''}:${l.payeeAccountHolderId}`}>
                  <Table.Td>{l.label}</Table.Td>
                  <Table.Td>{l.group}</Table.Td>
                  <Table.Td>{l.source.toLowerCase().replace('_', ' ')}</Table.Td>
                  <Table.Td style={numeric}>{l.payeeAccountHolderId}</Table.Td>
                  <MoneyCell value={l.amount} />
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              {(
                [
                  ['Dealer cost', c.pricing.dealerCost],
                  ['Retail price', c.pricing.retailPrice],
                  ['Options retail', c.pricing.optionsRetail],
                  ['Total price', c.pricing.totalPrice],
                  ['Dealer markup', c.pricing.dealerMarkup],
                ] as const
              ).map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th scope="row" colSpan={4}>
                    {k}
                  </Table.Th>
                  <Table.Td style={numeric} fw={600} data-testid={PRICING_TEST_IDS[k]}>
                    <Money value={v} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tfoot>
          </Table>
        )}
      </Panel>

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Panel title="Coverage" state={coverage}>
          {(groups) =>
            groups.length === 0 ? (
              <Text size="sm">The plan lists no coverage groups.</Text>
            ) : (
              <Stack gap="xs">
                {groups.map((g) => (
                  <div key={g.code}>
                    <Text fw={600} size="sm">
                      {g.name}
                    </Text>
                    <List size="sm">
                      {g.components.map((x) => (
                        <List.Item key={x.code}>{x.name}</List.Item>
                      ))}
                    </List>
                  </div>
                ))}
              </Stack>
            )
          }
        </Panel>
        <Stack>
          <Panel title="Status history" state={history}>
            {(page) => (
              <Table withTableBorder aria-label="Status history">
                <ColumnHeads columns={['Event', 'Status', 'Effective', 'Recorded', 'By']} />
                <Table.Tbody>
                  {page.items.map((h) => (
                    <Table.Tr key={h.historyId}>
                      <Table.Td>{h.event}</Table.Td>
                      <Table.Td>
                        {h.fromStatus ? `${h.fromStatus} → ` : ''}
                        {h.toStatus}
                      </Table.Td>
                      <Table.Td>{day(h.effectiveDate)}</Table.Td>
                      <Table.Td>{dateTime(h.occurredAt)}</Table.Td>
                      <Table.Td>{h.actor}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Panel>
          <Panel title="Documents" state={documents}>
            {(docs) =>
              docs.length === 0 ? (
                <Text size="sm">No documents yet.</Text>
              ) : (
                <Table withTableBorder aria-label="Documents">
                  <ColumnHeads columns={['Document', 'Version', 'Stored', 'Download']} />
                  <Table.Tbody>
                    {docs.flatMap((d) =>
                      d.versions.map((v) => (
                        <Table.Tr key={`${d.documentId}:${v.versionNo}`}>
                          <Table.Td>
                            {d.title}
                            {v.versionNo === d.currentVersion ? '' : ' (earlier version)'}
                          </Table.Td>
                          <Table.Td>{v.versionNo}</Table.Td>
                          <Table.Td>{dateTime(v.createdAt)}</Table.Td>
                          <Table.Td>
                            <Anchor href={v.downloadUrl} target="_blank" rel="noopener" size="sm">
                              {v.fileName}
                            </Anchor>
                          </Table.Td>
                        </Table.Tr>
                      )),
                    )}
                  </Table.Tbody>
                </Table>
              )
            }
          </Panel>
        </Stack>
      </SimpleGrid>

      {loaded && (
        <>
          {loaded.status === 'PENDING' && <ContractFinalize contract={loaded} onChanged={changed} />}
          <ContractHolds contract={loaded} onChanged={changed} />
          <ContractLock contract={loaded} onChanged={changed} />
          <ContractJournal contract={loaded} changes={changes} />
          <ContractEarnings contract={loaded} changes={changes} />
          <ContractCancels contract={loaded} onChanged={changed} />
        </>
      )}
    </Stack>
  )
}
