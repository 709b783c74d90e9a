// Small pieces every screen uses: a panel that shows its data, its loading state or the API's
// problem (never a blank screen), and right-aligned money.
import { Alert, Card, Center, Loader, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import type { Loaded } from './api/client.ts'
import type { Problem } from './api/types.ts'
import { money } from './format.ts'

export function ProblemAlert({ problem }: { problem: Problem }) {
  const denied = problem.status === 403
  return (
    <Alert color={denied ? 'gray' : 'red'} title={denied ? 'Not available to your roles' : problem.title} role="alert">
      <Text size="sm">{problem.detail}</Text>
      {(problem.errors ?? []).map((e) => (
        <Text size="sm" key={`${e.field}:${e.code}`}>
          {e.field}: {e.message}
        </Text>
      ))}
      {problem.requestId && (
        <Text size="xs" c="dimmed">
          Request {problem.requestId}
        </Text>
      )}
    </Alert>
  )
}

export function Panel<T>({
  title,
  state,
  children,
  headingLevel = 2,
  testId,
}: {
  title: string
  state: Loaded<T>
  children: (data: T) => ReactNode
  headingLevel?: 2 | 3
  testId?: string
}) {
  return (
    <Card
      withBorder
      component="section"
      aria-label={title}
      data-testid={testId}
      data-loading={state.loading || undefined}
    >
      <Stack gap="sm">
        <Title order={headingLevel} size="h4">
          {title}
        </Title>
        {state.problem ? (
          <ProblemAlert problem={state.problem} />
        ) : state.data === undefined ? (
          <Center p="md">
            <Loader size="sm" aria-label={`Loading ${title}`} />
          </Center>
        ) : (
          children(state.data)
        )}
      </Stack>
    </Card>
  )
}

/** A money cell: right-aligned, tabular figures. */
export function Money({ value }: { value: number | null | undefined }) {
  return <span className="money">{value === null || value === undefined ? '—' : money(value)}</span>
}

export const numeric = { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' as const }
