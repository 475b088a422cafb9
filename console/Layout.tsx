import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { describe } from "./api.ts"
import { signOut, switchOrg } from "./auth.ts"
import { BASE, navigate } from "./router.ts"
import { useUnanswered } from "./screens/Inbox.tsx"
import { useConsole } from "./state.ts"
import { Alert } from "./ui.tsx"

/** The screens in the menu; owner screens are not shown to staff (the server refuses their operations anyway). */
export const SCREENS: ReadonlyArray<{ path: string; label: string; owner?: boolean }> = [
  { path: "", label: "Today" },
  { path: "/week", label: "Week" },
  { path: "/calendar", label: "Calendar" },
  { path: "/bookings", label: "Bookings" },
  { path: "/offerings", label: "Offerings" },
  { path: "/guests", label: "Guests" },
  { path: "/messages", label: "Messages" },
  { path: "/money", label: "Money", owner: true },
  { path: "/reports", label: "Reports", owner: true },
  { path: "/team", label: "Team", owner: true },
  { path: "/settings", label: "Settings", owner: true },
  { path: "/developers", label: "Developers", owner: true }
]

const current = (path: string, screen: string) =>
  screen === "" ? path === BASE || path === `${BASE}/` : path === BASE + screen || path.startsWith(`${BASE + screen}/`)

export const Layout = ({
  path,
  children,
  signedOut
}: {
  path: string
  children: ComponentChildren
  signedOut: () => void
}) => {
  const c = useConsole()
  const [open, setOpen] = useState(false)
  const unanswered = useUnanswered(path)
  const [error, setError] = useState<string | undefined>(undefined)
  const change = async (e: Event) => {
    const id = (e.currentTarget as HTMLSelectElement).value
    if (id === c.session.org?.id) return
    try {
      await switchOrg(id)
      await c.refreshSession()
      navigate(BASE)
    } catch (err) {
      setError(describe(err))
    }
  }
  const out = async () => {
    await signOut().catch(() => undefined)
    signedOut()
  }
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <button type="button" class="menu" aria-expanded={open} aria-controls="nav" onClick={() => setOpen(!open)}>
          Menu
        </button>
        {c.session.memberships.length > 1 ? (
          <label class="org">
            <span class="visually-hidden">Organisation</span>
            <select value={c.session.org?.id} onChange={change}>
              {c.session.memberships.map((m) => (
                <option key={m.org_id} value={m.org_id}>
                  {m.org_name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <strong class="org">{c.session.org?.name}</strong>
        )}
        <span class="who">
          <a href={`${BASE}/account`}>{c.session.user.name ?? c.session.user.email}</a>{" "}
          <span class="muted">({c.session.role})</span>
        </span>
        <button type="button" class="secondary" onClick={out}>
          Sign out
        </button>
      </header>
      <nav id="nav" class={open ? "open" : ""} aria-label="Console">
        <ul>
          {SCREENS.filter((s) => !s.owner || c.owner).map((s) => (
            <li key={s.path}>
              <a
                href={BASE + s.path}
                aria-current={current(path, s.path) ? "page" : undefined}
                onClick={() => setOpen(false)}
              >
                {s.label}
                {s.path === "/messages" && unanswered > 0 ? (
                  <>
                    {" "}
                    <span class="badge warn">
                      {unanswered}
                      <span class="visually-hidden"> unanswered</span>
                    </span>
                  </>
                ) : null}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Alert text={error} />
        {children}
      </main>
    </div>
  )
}
