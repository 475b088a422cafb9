import { useEffect, useState } from "preact/hooks"
import { whenSignedOut } from "./api.ts"
import { loadSession } from "./auth.ts"
import { Layout } from "./Layout.tsx"
import { listen } from "./live.ts"
import { Routes } from "./Routes.tsx"
import { useLocation } from "./router.ts"
import { SignIn } from "./screens/SignIn.tsx"
import { type Console, ConsoleContext } from "./state.ts"
import type { Session } from "./types.ts"

/** Signed in (with an org) or the sign-in screen; the org's events keep what is shown current. */
export const App = () => {
  const [session, setSession] = useState<Session | undefined | null>(undefined)
  const [live, setLive] = useState(0)
  const where = useLocation()
  const refreshSession = async () => setSession((await loadSession()) ?? null)
  useEffect(() => {
    whenSignedOut(() => setSession(null))
    void refreshSession()
  }, [])
  const orgId = session?.org?.id
  useEffect(() => (orgId === undefined ? undefined : listen(() => setLive((n) => n + 1))), [orgId])
  if (session === undefined) return <p class="muted">Loading…</p>
  if (session === null) return <SignIn signedIn={refreshSession} />
  if (session.org === null)
    return (
      <main class="signin">
        <h1>No organisation yet</h1>
        <p>You are signed in as {session.user.email}, but you are not on any team. Ask an owner to invite you.</p>
      </main>
    )
  const value: Console = {
    session,
    zone: session.org.timezone,
    currency: session.org.currency,
    owner: session.role === "owner",
    live,
    refreshSession
  }
  return (
    <ConsoleContext.Provider value={value}>
      <Layout path={where.path} signedOut={() => setSession(null)}>
        <Routes path={where.path} search={where.search} />
      </Layout>
    </ConsoleContext.Provider>
  )
}
