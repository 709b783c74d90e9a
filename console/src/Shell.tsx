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
const ContractWizard = lazy(() => import('./screens/ContractWizard.tsx'))
const Claims = lazy(() => import('./screens/Claims.tsx'))
const ClaimPage = lazy(() => import('./screens/ClaimPage.tsx'))
const ClaimIntake = lazy(() => import('./screens/ClaimIntake.tsx'))
const RateBooks = lazy(() => import('./screens/RateBooks.tsx'))
const RateBookVersion = lazy(() => import('./screens/RateBookVersion.tsx'))
const QuickRater = lazy(() => import('./screens/QuickRater.tsx'))
const CashList = lazy(() => import('./screens/Cash.tsx'))
const CashReceive = lazy(() => import('./screens/CashReceive.tsx'))
const CashPage = lazy(() => import('./screens/CashPage.tsx'))
const Ledgers = lazy(() => import('./screens/Ledgers.tsx'))
const UnpaidItems = lazy(() => import('./screens/UnpaidItems.tsx'))
const HolderLedger = lazy(() => import('./screens/HolderLedger.tsx'))
const Payouts = lazy(() => import('./screens/Payouts.tsx'))
const PayoutPage = lazy(() => import('./screens/PayoutPage.tsx'))
const ProcessRuns = lazy(() => import('./screens/ProcessRuns.tsx'))
const ProcessRunPage = lazy(() => import('./screens/ProcessRunPage.tsx'))
const Webhooks = lazy(() => import('./screens/Webhooks.tsx'))
const WebhookDeliveries = lazy(() => import('./screens/WebhookDeliveries.tsx'))
const AccountHolderScreens = lazy(() => import('./screens/AccountHolderScreens.tsx'))
const Users = lazy(() => import('./screens/Users.tsx'))
const UserPage = lazy(() => import('./screens/UserPage.tsx'))
const NewUser = lazy(() => import('./screens/UserPage.tsx').then((m) => ({ default: m.NewUser })))
const Roles = lazy(() => import('./screens/Roles.tsx'))
const LossRatios = lazy(() => import('./screens/LossRatios.tsx'))
const ReinsuranceStatement = lazy(() => import('./screens/ReinsuranceStatement.tsx'))
const StatementLines = lazy(() => import('./screens/StatementLines.tsx'))
const ReportRuns = lazy(() => import('./screens/ReportRuns.tsx'))
const ReportRunPage = lazy(() => import('./screens/ReportRunPage.tsx'))

const NAV = [
  { to: '/', label: 'Dashboard', match: (p: string) => p === '/' },
  { to: '/contracts', label: 'Contracts', match: (p: string) => p.startsWith('/contracts') && p !== '/contracts/new' },
  { to: '/contracts/new', label: 'New contract', match: (p: string) => p === '/contracts/new' },
  { to: '/claims', label: 'Claims', match: (p: string) => p.startsWith('/claims') },
  { to: '/rating', label: 'Rating', match: (p: string) => p.startsWith('/rating') },
  { to: '/quick-rater', label: 'Quick rater', match: (p: string) => p === '/quick-rater' },
  { to: '/cash', label: 'Cash', match: (p: string) => p.startsWith('/cash') },
  { to: '/ledgers', label: 'Ledgers', match: (p: string) => p.startsWith('/ledgers') },
  { to: '/payouts', label: 'Payout runs', match: (p: string) => p.startsWith('/payouts') },
  { to: '/processes', label: 'Process runs', match: (p: string) => p.startsWith('/processes') },
  { to: '/reports/lossratios', label: 'Reports', match: (p: string) => p.startsWith('/reports') },
  { to: '/webhooks', label: 'Webhooks', match: (p: string) => p.startsWith('/webhooks') },
  { to: '/accountholders/dealers', label: 'Account holders', match: (p: string) => p.startsWith('/accountholders') },
  { to: '/users', label: 'Users and roles', match: (p: string) => p.startsWith('/users') || p === '/roles' },
]

function Screen({ path }: { path: string }) {
  if (path === '/') return <Dashboard />
  if (path === '/contracts') return <Contracts />
  if (path === '/contracts/new') return <ContractWizard />
  const contract = /^\/contracts\/(\d{1,15})$/.exec(path)
  if (contract) return <ContractPage id={Number(contract[1])} />
  if (path === '/claims') return <Claims />
  if (path === '/claims/new') return <ClaimIntake />
  const claim = /^\/claims\/(\d{1,15})$/.exec(path)
  if (claim) return <ClaimPage id={Number(claim[1])} />
  if (path === '/rating') return <RateBooks />
  const rateBook = /^\/rating\/versions\/(\d{1,9})$/.exec(path)
  if (rateBook) return <RateBookVersion version={Number(rateBook[1])} />
  if (path === '/quick-rater') return <QuickRater />
  if (path === '/cash') return <CashList />
  if (path === '/cash/new') return <CashReceive />
  const cash = /^\/cash\/(\d{1,15})$/.exec(path)
  if (cash) return <CashPage id={Number(cash[1])} />
  if (path === '/ledgers') return <Ledgers />
  if (path === '/ledgers/unpaid') return <UnpaidItems />
  const holder = /^\/ledgers\/(\d{1,15})$/.exec(path)
  if (holder) return <HolderLedger key={holder[1]} id={Number(holder[1])} />
  if (path === '/payouts') return <Payouts />
  const payout = /^\/payouts\/(\d{1,15})$/.exec(path)
  if (payout) return <PayoutPage id={Number(payout[1])} />
  if (path === '/processes') return <ProcessRuns />
  const run = /^\/processes\/([0-9a-fA-F-]{1,36})$/.exec(path)
  if (run) return <ProcessRunPage key={run[1]} guid={run[1]!} />
  if (path === '/reports' || path === '/reports/lossratios') return <LossRatios />
  if (path === '/reports/statements') return <ReinsuranceStatement />
  if (path === '/reports/statements/lines') return <StatementLines />
  if (path === '/reports/runs') return <ReportRuns />
  const reportRun = /^\/reports\/runs\/(\d{1,15})$/.exec(path)
  if (reportRun) return <ReportRunPage key={reportRun[1]} id={Number(reportRun[1])} />
  if (path === '/webhooks') return <Webhooks />
  if (path === '/webhooks/deliveries') return <WebhookDeliveries />
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
