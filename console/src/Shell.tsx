// The frame of every signed-in screen: the header (who is signed in, the time zone dates are shown
// in, sign-out), the navigation, and the screen the path names.
import { Alert, AppShell, Button, Center, Group, Loader, NavLink, Stack, Text, Title } from '@mantine/core'
import { lazy, Suspense } from 'react'
import { setTenantTimeZone, timeZone } from './format.ts'
import { Link, navigate, useLocation } from './router.tsx'
import { signOut, useSession } from './session.ts'

const Dashboard = lazy(() => import('./screens/Dashboard.tsx'))
const Contracts = lazy(() => import('./screens/Contracts.tsx'))
const ContractPage = lazy(() => import('./screens/ContractPage.tsx'))
const Claims = lazy(() => import('./screens/Claims.tsx'))
const ClaimPage = lazy(() => import('./screens/ClaimPage.tsx'))
const AccountHolderScreens = lazy(() => import('./screens/AccountHolderScreens.tsx'))
const Users = lazy(() => import('./screens/Users.tsx'))
const UserPage = lazy(() => import('./screens/UserPage.tsx'))
const NewUser = lazy(() => import('./screens/UserPage.tsx').then((m) => ({ default: m.NewUser })))
const Roles = lazy(() => import('./screens/Roles.tsx'))

const NAV = [
  { to: '/', label: 'Dashboard', match: (p: string) => p === '/' },
  { to: '/contracts', label: 'Contracts', match: (p: string) => p.startsWith('/contracts') },
  { to: '/claims', label: 'Claims', match: (p: string) => p.startsWith('/claims') },
  { to: '/accountholders/dealers', label: 'Account holders', match: (p: string) => p.startsWith('/accountholders') },
  { to: '/users', label: 'Users and roles', match: (p: string) => p.startsWith('/users') || p === '/roles' },
]

function Screen({ path }: { path: string }) {
  if (path === '/') return <Dashboard />
  if (path === '/contracts') return <Contracts />
  const contract = /^\/contracts\/(\d{1,15})$/.exec(path)
  if (contract) return <ContractPage id={Number(contract[1])} />
  if (path === '/claims') return <Claims />
  const claim = /^\/claims\/(\d{1,15})$/.exec(path)
  if (claim) return <ClaimPage id={Number(claim[1])} />
  const holders = /^\/accountholders(?:\/([a-z]+)(?:\/(new|\d{1,15})(\/edit)?)?)?$/.exec(path)
  if (holders) return <AccountHolderScreens key={path} slug={holders[1]} id={holders[2]} edit={!!holders[3]} />
  if (path === '/users') return <Users />
  if (path === '/users/new') return <NewUser />
  const user = /^\/users\/(\d{1,15})(\/edit)?$/.exec(path)
  if (user) return <UserPage key={path} id={Number(user[1])} edit={!!user[2]} />
  if (path === '/roles') return <Roles />
  return (
    <Stack>
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Alert color="yellow">
        There is no console page at this address. <Link to="/">Go to the dashboard</Link>.
      </Alert>
    </Stack>
  )
}

export default function Shell() {
  const session = useSession()
  const { path } = useLocation()
  // Dates are shown in the tenant's zone, read at sign-in; a user without settings:read sees the
  // browser's zone, and the header says which.
  setTenantTimeZone(session?.timeZone ?? undefined)
  const zone = timeZone()

  return (
    <AppShell header={{ height: 52 }} navbar={{ width: 200, breakpoint: 'xs' }} padding="md">
      <a href="#content" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Text fw={700} component={Link} to="/" c="inherit" td="none">
            Protection administration
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Text size="xs" c="dimmed" title={zone.tenants ? "The tenant's time zone" : "Your browser's time zone"}>
              Times in {zone.zone}
              {zone.tenants ? '' : ' (browser)'}
            </Text>
            <Text size="sm" data-testid="signed-in-as">
              {session?.email}
            </Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                navigate('/signin', { replace: true })
                signOut()
              }}
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Console">
        {NAV.map((n) => (
          <NavLink
            key={n.to}
            label={n.label}
            component={Link}
            to={n.to}
            active={n.match(path)}
            aria-current={n.match(path) ? 'page' : undefined}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="content" tabIndex={-1}>
        <Suspense
          fallback={
            <Center p="xl">
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <Screen path={path} />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  )
}
