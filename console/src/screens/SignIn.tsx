// Sign-in: the tenant's API key (typed, or given in the link the service prints at start-up:
// /console/#apiKey=…&email=…), email and password, exchanged at POST /api/auth/token. After an
// expired session the page the user was on is in `next` and they land back there.
import { Alert, Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { api } from '../api/client.ts'
import { fieldErrors, otherErrors, toProblem } from '../api/problem.ts'
import type { Problem } from '../api/types.ts'
import { navigate, useLocation } from '../router.tsx'
import { getSession, startSession, takeNotice } from '../session.ts'

/** Values given in the link's fragment (never sent to the server), read once. */
function fromFragment(): { apiKey?: string; email?: string } {
  const hash = new URLSearchParams(window.location.hash.slice(1))
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search)
  return { apiKey: hash.get('apiKey') ?? undefined, email: hash.get('email') ?? undefined }
}

const initial = fromFragment()

/** Which form field a problem names: the API's field names, and the codes that concern one field. */
function byField(problem: Problem | undefined): Record<'apiKey' | 'email' | 'password', string | undefined> {
  const fields = fieldErrors(problem)
  return {
    apiKey: problem?.code === 'invalid_api_key' ? problem.detail : undefined,
    email: fields.username,
    password: fields.password ?? (problem?.code === 'invalid_grant' && !fields.username ? problem.detail : undefined),
  }
}

export function SignIn() {
  const { query } = useLocation()
  const next = query.get('next')
  const previous = getSession()
  const [notice] = useState(() => takeNotice())
  const [apiKey, setApiKey] = useState(initial.apiKey ?? previous?.apiKey ?? '')
  const [email, setEmail] = useState(initial.email ?? previous?.email ?? '')
  const [password, setPassword] = useState('')
  const [problem, setProblem] = useState<Problem>()
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      const key = apiKey.trim()
      if (!key) {
        setProblem({
          ...toProblem(new Error('Enter the API key of your tenant')),
          code: 'invalid_api_key',
          detail: 'Enter the API key of your tenant',
        })
        return
      }
      const { data, error, response } = await api.POST('/api/auth/token', {
        headers: { 'X-Api-Key': key },
        body: { grant_type: 'password', username: email.trim(), password },
      })
      if (!data) {
        setProblem(toProblem(error, response))
        return
      }
      // The tenant's time zone, read once here so that no screen waits for it.
      const zone = await api
        .GET('/api/generalsettings/{generalSettingId}', {
          params: { path: { generalSettingId: 'timeZone' } },
          headers: { 'X-Api-Key': key, Authorization: `Bearer ${data.access_token}` },
        })
        .then((r) => (typeof r.data?.value === 'string' ? r.data.value : null))
        .catch(() => null)
      startSession(key, email.trim(), data.access_token, data.expires_in, zone)
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true })
    } catch (err) {
      setProblem(toProblem(err))
    } finally {
      setBusy(false)
    }
  }

  const errors = byField(problem)
  const unplaced = problem && !errors.apiKey && !errors.email && !errors.password
  const extra = otherErrors(problem, ['username', 'password'])
  return (
    <Box component="main" mih="100vh">
      <Center mih="100vh" p="md">
        <Paper component="section" withBorder shadow="sm" p="xl" w={420} aria-labelledby="signin-title">
          <form onSubmit={submit} noValidate>
            <Stack>
              <Title order={1} size="h3" id="signin-title">
                Sign in to the console
              </Title>
              {notice && (
                <Alert color="blue" role="status">
                  {notice}
                </Alert>
              )}
              {unplaced && (
                <Alert color="red" role="alert" title={problem.title}>
                  {problem.detail}
                  {extra.map((x) => (
                    <Text key={x.field} size="sm">
                      {x.field}: {x.message}
                    </Text>
                  ))}
                </Alert>
              )}
              <PasswordInput
                label="Tenant API key"
                description="Names your tenant; the demo tenant's is in the link the service prints when it starts."
                value={apiKey}
                onChange={(e) => setApiKey(e.currentTarget.value)}
                error={errors.apiKey}
                autoComplete="off"
                spellCheck={false}
                required
              />
              <TextInput
                label="Email"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.email}
                autoComplete="username"
                required
              />
              <PasswordInput
                label="Password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
                autoComplete="current-password"
                required
              />
              <Button type="submit" loading={busy}>
                Sign in
              </Button>
              <Text size="xs" c="dimmed">
                The console calls the same public API as every other client (
                <Anchor href="/docs" size="xs">
                  API reference
                </Anchor>
                ).
              </Text>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  )
}
