// A rate-book version (docs/rate-books.md, "Versions"): GET /api/Rates/ratebooks/{version} (when
// imported, by whom, effective date, checksum, counts, whether in force) and what it holds, read
// from its stored book (GET /api/Rates/ratebooks/{version}/document): the products with their
// programs, plans (conditions, form, terms, deductibles), the disbursement codes and vehicle classes.
// The export downloads that book.
import { Badge, Group, Stack, Table, Text, Title } from '@mantine/core'
import { api, unwrap, useApi } from '../api/client.ts'
import type { operations } from '../api/types.ts'
import { count, dateTime, day } from '../format.ts'
import { Link } from '../router.tsx'
import { ColumnHeads, Facts, numeric, Panel, RecordProblem } from '../ui.tsx'
import { ExportButton } from './RateBooks.tsx'

// The stored book is the import format (the API's export is that document).
type Book = operations['importRateBook']['requestBody']['content']['application/json']

function Contents({ book }: { book: Book }) {
  return (
    <Stack gap="md">
      <Title order={3} size="h5">
        Products, programs and plans
      </Title>
      <Table.ScrollContainer minWidth={900}>
        <Table withTableBorder striped aria-label="Products, programs and plans">
          <ColumnHeads
            columns={[
              'Product',
              'Type',
              'Program',
              'Plan',
              'Conditions',
              'Form',
              'Terms',
              { numeric: 'Deductibles' },
              { numeric: 'Options' },
            ]}
          />
          <Table.Tbody>
            {book.products.flatMap((p) =>
              p.programs.flatMap((g) =>
                g.plans.map((plan) => (
                  <Table.Tr key={`${p.code}/${g.code}/${plan.code}`}>
                    <Table.Td>
                      {p.name}{' '}
                      <Text span size="xs" ff="monospace">
                        ({p.code})
                      </Text>
                    </Table.Td>
                    <Table.Td>{p.type}</Table.Td>
                    <Table.Td>
                      {g.name}{' '}
                      <Text span size="xs" ff="monospace">
                        ({g.code})
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {plan.name}{' '}
                      <Text span size="xs" ff="monospace">
                        ({plan.code})
                      </Text>
                    </Table.Td>
                    <Table.Td>{plan.conditions.join(', ').toLowerCase()}</Table.Td>
                    <Table.Td ff="monospace">{plan.formNumber}</Table.Td>
                    <Table.Td>
                      {plan.terms
                        .map((t) => `${t.months} mo / ${t.miles === 0 ? 'unlimited' : `${count(t.miles)} mi`}`)
                        .join('; ')}
                    </Table.Td>
                    <Table.Td style={numeric}>{p.deductibles.length}</Table.Td>
                    <Table.Td style={numeric}>{p.options?.length ?? 0}</Table.Td>
                  </Table.Tr>
                )),
              ),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="start" grow>
        <Stack gap="xs">
          <Title order={3} size="h5">
            Disbursement codes
          </Title>
          <Table withTableBorder aria-label="Disbursement codes">
            <ColumnHeads columns={['Code', 'Label', 'Group', 'Payee']} />
            <Table.Tbody>
              {book.disbursementCodes.map((d) => (
                <Table.Tr key={d.code}>
                  <Table.Td ff="monospace">{d.code}</Table.Td>
                  <Table.Td>{d.label}</Table.Td>
                  <Table.Td>{d.group}</Table.Td>
                  <Table.Td>
                    {d.payee?.role ?? 'ADMINISTRATOR'}
                    {d.payee?.businessKey ? ` ${d.payee.kind} ${d.payee.businessKey}` : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
        <Stack gap="xs">
          <Title order={3} size="h5">
            Vehicle classes
          </Title>
          <Table withTableBorder aria-label="Vehicle classes">
            <ColumnHeads columns={['Class', 'Description', { numeric: 'Vehicle entries' }]} />
            <Table.Tbody>
              {book.vehicleClasses.map((c) => (
                <Table.Tr key={c.code}>
                  <Table.Td ff="monospace">
                    {c.code}
                    {book.defaultVehicleClass === c.code ? ' (default)' : ''}
                  </Table.Td>
                  <Table.Td>{c.description ?? '—'}</Table.Td>
                  <Table.Td style={numeric}>{book.vehicles.filter((v) => v.vehicleClass === c.code).length}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Group>
    </Stack>
  )
}

export default function RateBookVersion({ version }: { version: number }) {
  const head = useApi(`ratebook-${version}`, async () =>
    unwrap(await api.GET('/api/Rates/ratebooks/{version}', { params: { path: { version } } })),
  )
  const book = useApi(
    `ratebook-${version}-document`,
    async () =>
      unwrap(await api.GET('/api/Rates/ratebooks/{version}/document', { params: { path: { version } } })) as Book,
  )
  if (head.problem)
    return (
      <RecordProblem
        title={`Rate book version ${version}`}
        problem={head.problem}
        back="/rating"
        backLabel="Back to the rate books"
      />
    )
  const current = head.data
  return (
    <Stack data-testid="ratebook-version" data-ready={current && !book.loading ? 'true' : undefined}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Rate book version {version}{' '}
          {current?.inForce && (
            <Badge color="green.9" variant="dot">
              in force
            </Badge>
          )}
        </Title>
        <Group>
          <Text size="sm">
            <Link to="/rating">All versions</Link>
          </Text>
          <ExportButton version={version} label="Export (JSON)" />
        </Group>
      </Group>
      <Panel title="The version" state={head}>
        {(v) => (
          <Facts
            label="The version"
            rows={[
              ['Version', `${v.version} (id ${v.id})`],
              ['In force today', v.inForce ? 'yes' : 'no'],
              ['Effective from', day(v.effectiveDate)],
              ['Description', v.description ?? '—'],
              ['Imported', `${dateTime(v.importedAt)} by ${v.importedBy}`],
              [
                'Checksum',
                <Text key="c" span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
                  {v.checksum}
                </Text>,
              ],
              [
                'Holds',
                `${count(v.summary.products)} products, ${count(v.summary.programs)} programs, ${count(v.summary.plans)} plans, ${count(v.summary.terms)} terms, ${count(v.summary.rates)} rates, ${count(v.summary.vehicles)} vehicle entries, ${count(v.summary.factorTables)} factor tables, ${count(v.summary.disbursementCodes)} disbursement codes`,
              ],
            ]}
          />
        )}
      </Panel>
      <Panel title="What it holds" state={book}>
        {(b) => <Contents book={b} />}
      </Panel>
    </Stack>
  )
}
