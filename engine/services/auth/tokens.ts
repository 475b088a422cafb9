import { createHash, randomBytes } from "node:crypto"

/** A mailed sign-in link works this long, once. */
export const LINK_MINUTES = 15
/** A session ends after this long without a request (idle expiry)... */
export const IDLE_HOURS = 12
/** ...and this long after sign-in whatever happens (absolute expiry). */
export const ABSOLUTE_DAYS = 14
/** last_seen_at is written at most this often per session. */
export const SEEN_EVERY_MS = 60_000
/** A WebAuthn challenge is answered within this long, once. */
export const CHALLENGE_MINUTES = 5

export const HOUR_MS = 3_600_000
export const IDLE_MS = IDLE_HOURS * HOUR_MS

export const secret = (prefix = "") => `${prefix}${randomBytes(32).toString("base64url")}`
export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

/** An email as people type it: trimmed; one @ with something either side, no spaces, at most 254 characters. */
export const normalEmail = (input: string) => {
  const email = input.trim().toLowerCase()
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined
}
