import { useEffect, useState } from "preact/hooks"

/** The console's pages live under /dashboard; links are ordinary <a href>, followed without a reload. */
export const BASE = "/dashboard"

export const navigate = (to: string) => {
  if (location.pathname + location.search === to) return
  history.pushState(null, "", to)
  dispatchEvent(new PopStateEvent("popstate"))
}

/** Follows same-origin links under /dashboard in place (not with a modifier key, another target or a download). */
export const followLinks = () =>
  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    const a = (e.target as Element).closest?.("a")
    if (a === null || a === undefined || a.target !== "" || a.hasAttribute("download")) return
    const url = new URL(a.href, location.href)
    if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return
    e.preventDefault()
    navigate(url.pathname + url.search)
  })

export const useLocation = () => {
  const [where, setWhere] = useState({ path: location.pathname, search: location.search })
  useEffect(() => {
    const on = () => setWhere({ path: location.pathname, search: location.search })
    addEventListener("popstate", on)
    return () => removeEventListener("popstate", on)
  }, [])
  return where
}

/** Matches "/bookings/:id" against a path below /dashboard; the named parts, or undefined. */
export const match = (pattern: string, path: string): Record<string, string> | undefined => {
  const rest = path.startsWith(BASE) ? path.slice(BASE.length) || "/" : path
  const want = pattern.split("/").filter(Boolean)
  const got = rest.split("/").filter(Boolean)
  if (want.length !== got.length) return undefined
  const out: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) out[want[i].slice(1)] = decodeURIComponent(got[i])
    else if (want[i] !== got[i]) return undefined
  }
  return out
}
