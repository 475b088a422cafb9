import { useEffect, useState } from "preact/hooks"
import { whenForbidden, whenSignedOut } from "./api.ts"
import { loadSession, signOut, switchOrg } from "./auth.ts"
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
  const refreshSession = async () => {
    let s = await loadSession()
    // Off the team of the session's org (left, or removed) but still on another: go on in that one.
    if (s !== undefined && s.org === null && s.memberships.length > 0) {
      await switchOrg(s.memberships[0].org_id).catch(() => undefined)
      s = await loadSession()
    }
    setSession(s ?? null)
  }
  useEffect(() => {
    whenSignedOut(() => setSession(null))
    // A 403 may mean the session changed elsewhere (a role, the team): read it again, at most once a second.
    let last = 0
    whenForbidden(() => {
      if (Date.now() - last < 1000) return
      last = Date.now()
      void refreshSession()
    })
    void refreshSession()
  }, [])
  const orgId = session?.org?.id
  useEffect(() => (orgId === undefined ? undefined : listen(() => setLive((n) => n + 1))), [orgId])
  if (session === undefined) return <p class="muted">Loading…</p>
  if (session === null) return <SignIn signedIn={refreshSession} />
  if (session.org === null)
    return (
      <main class="signin">
        <h1>Not on a team</h1>
        <p>
          You are signed in as {session.user.email}, but you are not on any organisation's team now. Ask an owner to
          invite you.
        </p>
        <button type="button" class="secondary" onClick={() => signOut().finally(() => setSession(null))}>
          Sign out
        </button>
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
