// The screens by path. Signed-out visitors of any screen are sent to sign-in with the page kept
// in `next`; the screens behind sign-in are loaded on demand (Shell.tsx), so the first screen stays small.
import { useEffect } from 'react'
import { navigate, queryString, useLocation } from './router.tsx'
import { signedIn, useSession } from './session.ts'
import { SignIn } from './screens/SignIn.tsx'
// The frame is in the first bundle (about 13 KiB gzipped): a signed-in reload then waits for one
// chunk, its screen's, before the screen asks the API for its figures.
import Shell from './Shell.tsx'

export function App() {
  const session = useSession()
  const { path, href } = useLocation()
  const isSignIn = path === '/signin'
  const ok = signedIn(session)

  useEffect(() => {
    if (!ok && !isSignIn)
      navigate(`/signin${queryString({ next: href === '/' ? undefined : href })}`, { replace: true })
  }, [ok, isSignIn, href])

  // The dashboard's code is fetched now, not once the frame has rendered.
  if (ok && path === '/') void import('./screens/Dashboard.tsx')
  if (isSignIn) return <SignIn />
  if (!ok) return null
  return <Shell />
}
