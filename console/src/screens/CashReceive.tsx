// Receiving cash (docs/cash.md "Receiving cash"): POST /api/cashtransactions from an account holder
// (a dealer's remittance…), with what to apply it to: the payer's open receivable items oldest first
// (the API's choice when no applications are sent), the items chosen here with their amounts
// (GET /api/ledgers/unpaidLedgersProducts?dealerId=), or nothing now. The API's errors are shown at
// the field they name (`amount`, `reference`, an item's `applications[i].amount`…); once stored, the
// receipt's page opens.
import { Button, Group, NativeSelect, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api, unwrap } from '../api/client.ts'
import { fieldErrors } from '../api/problem.ts'
import { today } from '../format.ts'
import { Link, navigate, useLocation } from '../router.tsx'
import { bindField, numeric, Outcome, Panel, useAction } from '../ui.tsx'
import {
  applicationsOf,
  errorAt,
  HOLDER_KINDS,
  HolderSelect,
  ItemPicker,
  useUnpaid,
  words,
  type Chosen,
} from './finance.tsx'

const FIELDS = ['payerId', 'paymentMethod', 'amount', 'reference', 'receivedDate', 'memo'] as const

export default function CashReceive() {
  const { query } = useLocation()
  const [kind, setKind] = useState('DEALER')
  const [form, setForm] = useState({
    payerId: query.get('payerId') ?? '',
    paymentMethod: 'CHECK',
    amount: '',
    reference: '',
    receivedDate: today(),
    memo: '',
  })
  const [mode, setMode] = useState<'OLDEST' | 'CHOSEN' | 'NONE'>('OLDEST')
  const [chosen, setChosen] = useState<Chosen>({})
  const unpaid = useUnpaid(form.payerId)
  const a = useAction()
  const errors = fieldErrors(a.problem)
  const field = bindField(form, setForm, errors)
  const items = unpaid.data?.items ?? []

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(async () => {
      const applications =
        mode === 'NONE' ? [] : mode === 'CHOSEN' ? applicationsOf(items, chosen).applications : undefined
      const c = unwrap(
        await api.POST('/api/cashtransactions', {
          body: {
            payerId: (form.payerId === '' ? undefined : Number(form.payerId)) as number,
            paymentMethod: form.paymentMethod as 'CHECK' | 'ACH' | 'WIRE',
            amount: form.amount,
            reference: form.reference,
            receivedDate: form.receivedDate,
            memo: form.memo || null,
            ...(applications === undefined ? {} : { applications }),
          },
        }),
      )
      navigate(`/cash/${c.id}?received=1`)
      return `Receipt ${c.id} stored.`
    })
  }

  return (
    <Stack>
      <Title order={1} size="h2">
        Receive cash
      </Title>
      <Text size="sm">
        <Link to="/cash">All cash</Link>
      </Text>
      <form onSubmit={submit} aria-label="Receive cash" noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <NativeSelect
              label="Payer kind"
              name="payerKind"
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value)
                setForm({ ...form, payerId: '' })
                setChosen({})
              }}
              data={HOLDER_KINDS.map((k) => ({ value: k, label: words(k) }))}
            />
            <HolderSelect
              kind={kind}
              label="Payer"
              name="payerId"
              value={form.payerId}
              error={errors.payerId}
              onChange={(v) => {
                setForm({ ...form, payerId: v })
                setChosen({})
              }}
            />
            <NativeSelect
              label="Method"
              name="paymentMethod"
              data={['CHECK', 'ACH', 'WIRE']}
              {...field('paymentMethod')}
            />
            <TextInput
              label="Amount"
              name="amount"
              inputMode="decimal"
              maxLength={16}
              styles={{ input: numeric }}
              {...field('amount')}
            />
            <TextInput
              label="Reference (check number, trace id)"
              name="reference"
              maxLength={100}
              {...field('reference')}
            />
            <TextInput label="Received on" type="date" name="receivedDate" {...field('receivedDate')} />
            <TextInput label="Memo" name="memo" maxLength={1000} {...field('memo')} />
          </SimpleGrid>
          <Radio.Group
            label="Apply it to"
            name="apply"
            value={mode}
            onChange={(v) => setMode(v as typeof mode)}
            error={mode === 'CHOSEN' ? errors.applications : undefined}
          >
            <Group mt={4}>
              <Radio value="OLDEST" label="the payer's open items, oldest first" />
              <Radio value="CHOSEN" label="the items chosen below" />
              <Radio value="NONE" label="nothing now (kept unapplied)" />
            </Group>
          </Radio.Group>
          {mode === 'CHOSEN' && form.payerId && (
            <Panel title="The payer's open items" state={unpaid} testId="open-items">
              {(page) =>
                page && (
                  <Stack gap="xs">
                    <ItemPicker
                      items={page.items}
                      chosen={chosen}
                      setChosen={setChosen}
                      errors={errors}
                      label="Open items to apply to"
                    />
                    {page.totalCount > page.items.length && (
                      <Text size="xs">
                        The {page.items.length} oldest of {page.totalCount} items are listed.
                      </Text>
                    )}
                  </Stack>
                )
              }
            </Panel>
          )}
          <Group>
            <Button type="submit" loading={a.busy}>
              Receive
            </Button>
          </Group>
          <Outcome
            problem={a.problem}
            done={a.done}
            fields={[
              ...FIELDS,
              ...(mode === 'CHOSEN'
                ? (a.problem?.errors ?? []).map((e) => e.field).filter((f) => errorAt({ [f]: 'x' }, 'applications'))
                : []),
            ]}
          />
        </Stack>
      </form>
    </Stack>
  )
}
