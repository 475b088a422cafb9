import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/** Header value for `Service-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const sign = (secret: string, body: string, t: number): string => `t=${t},v1=${digest(secret, t, body)}`

/** A fresh signing secret: `whsec_` + 32 random bytes, base64url. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`

export type VerifyResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "malformed" | "too_old" | "too_new" | "mismatch" }

export interface VerifyInput {
  readonly header: string | null | undefined
  readonly rawBody: string
  readonly secrets: string | ReadonlyArray<string>
  /** Unix seconds; defaults to the current time. */
  readonly now?: number
  readonly toleranceSeconds?: number
}

export const verifySignature = (input: VerifyInput): VerifyResult => {
  const parsed = parseHeader(input.header)
  if (parsed === null) return { ok: false, reason: "malformed" }
  const now = input.now ?? Math.floor(Date.now() / 1000)
  const tolerance = input.toleranceSeconds ?? 300
  if (now - parsed.t > tolerance) return { ok: false, reason: "too_old" }
  if (parsed.t - now > tolerance) return { ok: false, reason: "too_new" }
  const secrets = typeof input.secrets === "string" ? [input.secrets] : input.secrets
  let matched = false
  for (const secret of secrets) {
    const expected = Buffer.from(digest(secret, parsed.t, input.rawBody), "hex")
    for (const candidate of parsed.signatures) {
      // no early exit: every pair is compared so timing does not reveal which one matched
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true
    }
  }
  return matched ? { ok: true } : { ok: false, reason: "mismatch" }
}

const digest = (secret: string, t: number, body: string): string =>
  createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest("hex")

const parseHeader = (header: string | null | undefined) => {
  if (!header) return null
  let t: number | null = null
  const signatures: Array<Buffer> = []
  for (const part of header.split(",")) {
    const eq = part.indexOf("=")
    if (eq <= 0) return null
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === "t") {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null
      t = Number(value)
    } else if (key === "v1") {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null
      signatures.push(Buffer.from(value, "hex"))
    }
    // other schemes (v0, future v2) are ignored
  }
  return t === null || signatures.length === 0 ? null : { t, signatures }
}
