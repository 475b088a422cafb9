import type { IncomingMessage } from "node:http"

/**
 * The cookies of signing in. With an https PUBLIC_URL they are `__Host-` cookies (Secure, Path=/, no Domain: only
 * this exact origin ever sees them); over plain http (a laptop) the same names without the prefix, not Secure.
 */
export const cookieNames = (publicUrl: string) => {
  const secure = publicUrl.startsWith("https:")
  const prefix = secure ? "__Host-" : ""
  return {
    secure,
    session: `${prefix}session`,
    signin: `${prefix}signin`,
    passkey: `${prefix}passkey`
  }
}
export type CookieNames = ReturnType<typeof cookieNames>

/** The value of one cookie of the request, if it is there once with a plausible value. */
export const readCookie = (req: Pick<IncomingMessage, "headers">, name: string) => {
  const header = req.headers.cookie
  if (typeof header !== "string") return undefined
  const found: Array<string> = []
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq !== -1 && part.slice(0, eq).trim() === name) found.push(part.slice(eq + 1).trim())
  }
  const value = found.length === 1 ? found[0] : undefined
  return value !== undefined && /^[A-Za-z0-9_-]{16,200}$/.test(value) ? value : undefined
}

/** Set-Cookie for one of ours: HttpOnly, SameSite=Lax, Path=/, Secure with https; maxAge 0 clears it. */
export const setCookie = (names: CookieNames, name: string, value: string, maxAgeSeconds?: number) =>
  [
    `${name}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    ...(names.secure ? ["Secure"] : []),
    ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`])
  ].join("; ")

export const clearCookie = (names: CookieNames, name: string) => setCookie(names, name, "", 0)
