// The account-holder screens under /accountholders/{kind}: the list, a record, its form (new or
// change). One chunk, loaded when first opened; the kinds table stays out of the first screen.
import { Alert, Stack, Title } from '@mantine/core'
import { Link } from '../router.tsx'
import AccountHolderForm from './AccountHolderForm.tsx'
import AccountHolderPage from './AccountHolderPage.tsx'
import AccountHolders from './AccountHolders.tsx'
import { kindBySlug } from './accountHolderKinds.ts'

/** `slug` undefined: every kind; `id` 'new' or a number; `edit`: the record's form. */
export default function AccountHolderScreens({ slug, id, edit }: { slug?: string; id?: string; edit?: boolean }) {
  if (slug === undefined) return <AccountHolders />
  const kind = kindBySlug(slug)
  if (!kind)
    return (
      <Stack>
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Alert color="yellow">
          There is no such kind of account holder. <Link to="/accountholders">See them all</Link>.
        </Alert>
      </Stack>
    )
  if (id === undefined) return <AccountHolders key={kind.kind} kind={kind} />
  if (id === 'new') return <AccountHolderForm key={`${kind.kind}:new`} kind={kind} />
  if (edit) return <AccountHolderForm key={`${kind.kind}:${id}`} kind={kind} id={Number(id)} />
  return <AccountHolderPage key={`${kind.kind}:${id}`} kind={kind} id={Number(id)} />
}
