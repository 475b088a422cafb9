import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

type Headers = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
const one = (headers: Headers, name: string) => {
  const v = headers[name]
  return typeof v === "string" ? v : v?.[0]
}

/** Methods that change nothing; every other request a session makes is checked. */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * Whether a request comes from a page of this origin: its Origin is PUBLIC_URL's, or (a browser that sends no Origin)
 * Sec-Fetch-Site says same-origin. A Sec-Fetch-Site other than same-origin is refused whatever the Origin says.
 * A form posted from an engine page (Referrer-Policy: no-referrer) carries `Origin: null`: browsers serialize the
 * origin so under that policy, and then Sec-Fetch-Site, which no page can set, is what says where it came from.
 */
export const sameOrigin = (headers: Headers, publicUrl: string) => {
  const site = one(headers, "sec-fetch-site")
  if (site !== undefined && site !== "same-origin") return false
  const origin = one(headers, "origin")
  if (origin === "null") return site === "same-origin"
  if (origin !== undefined) return origin === new URL(publicUrl).origin
  return site === "same-origin"
}

const KEY = randomBytes(32)
const digest = (s: string) => createHmac("sha256", KEY).update(s).digest()

/** The session's CSRF token sent back in X-CSRF-Token, compared in constant time. */
export const tokenMatches = (headers: Headers, expected: string) => {
  const sent = one(headers, "x-csrf-token")
  return sent !== undefined && timingSafeEqual(digest(sent), digest(expected))
}

/** Why a state-changing request of a session is refused (403 csrf_failed), or undefined when it passes. */
export const csrfRefusal = (method: string, headers: Headers, publicUrl: string, expected: string) => {
  if (SAFE_METHODS.has(method)) return undefined
  if (!sameOrigin(headers, publicUrl))
    return "the request does not come from this site (Origin or Sec-Fetch-Site): refused to protect your session"
  if (!tokenMatches(headers, expected))
    return "send the session's csrf_token (GET /auth/v1/session) in the X-CSRF-Token header"
  return undefined
}
