import { createHash, randomBytes } from "node:crypto"
import { Either } from "effect"
import { fieldName, findBadText } from "../../schema/text.ts"
import { type OAuthError, oauthError } from "./errors.ts"

export const CODE_SECONDS = 10 * 60
export const ACCESS_SECONDS = 60 * 60
export const REFRESH_SECONDS = 30 * 24 * 60 * 60

export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")
export const secret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

/** A redirect URI a client may register: absolute, no fragment, https, or http only to this machine (RFC 8252 loopback). */
export const redirectRefusal = (uri: string): string | undefined => {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `${uri.slice(0, 100)} is not an absolute URL`
  }
  if (uri.length > 2000) return "a redirect URI is at most 2000 characters"
  if (url.hash !== "" || uri.includes("#")) return `${uri.slice(0, 100)} has a fragment`
  if (url.username !== "" || url.password !== "") return `${uri.slice(0, 100)} carries credentials`
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return undefined
  return `${uri.slice(0, 100)} must be https (http only on localhost, 127.0.0.1 or [::1])`
}

export type AuthMethod = "none" | "client_secret_post"

export interface ClientMetadata {
  readonly client_name: string
  readonly redirect_uris: ReadonlyArray<string>
  readonly client_uri: string | null
  readonly token_endpoint_auth_method: AuthMethod
  readonly grant_types: ReadonlyArray<string>
  readonly response_types: ReadonlyArray<string>
  readonly scope: string | null
}

const GRANTS = ["authorization_code", "refresh_token"]
const text = (v: unknown, max: number) => typeof v === "string" && v.length > 0 && v.length <= max

/** RFC 7591 client metadata, checked: what this server supports, or invalid_redirect_uri / invalid_client_metadata. */
export const parseClientMetadata = (body: unknown): Either.Either<ClientMetadata, OAuthError> => {
  const bad = (d: string) => Either.left(oauthError("invalid_client_metadata", d))
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return bad("send the client metadata as a JSON object")
  // Text as every surface takes it: no NUL (Postgres refuses it) and no lone surrogate, in any value or key.
  const badText = findBadText(body)
  if (badText !== undefined) {
    const field = fieldName(badText.path).slice(0, 100)
    return Either.left(
      oauthError(
        badText.path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata",
        `${field}: ${badText.problem}`
      )
    )
  }
  const m = body as Record<string, unknown>
  const uris = m.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every((u) => typeof u === "string")) {
    return Either.left(oauthError("invalid_redirect_uri", "redirect_uris: one to ten URLs"))
  }
  for (const u of uris as Array<string>) {
    const refusal = redirectRefusal(u)
    if (refusal !== undefined) return Either.left(oauthError("invalid_redirect_uri", `redirect_uris: ${refusal}`))
  }
  if (m.client_name !== undefined && !text(m.client_name, 200)) return bad("client_name: 1 to 200 characters")
  if (m.client_uri !== undefined && (!text(m.client_uri, 2000) || !/^https?:\/\//.test(m.client_uri as string)))
    return bad("client_uri: an http(s) URL")
  const method = m.token_endpoint_auth_method ?? "none"
  if (method !== "none" && method !== "client_secret_post") {
    return bad(
      `token_endpoint_auth_method: ${String(method).slice(0, 50)} is not supported (none or client_secret_post)`
    )
  }
  const grants = m.grant_types ?? GRANTS
  if (!Array.isArray(grants) || !grants.every((g) => GRANTS.includes(g)))
    return bad("grant_types: authorization_code and refresh_token only")
  const responses = m.response_types ?? ["code"]
  if (!Array.isArray(responses) || !responses.every((r) => r === "code")) return bad("response_types: code only")
  if (m.scope !== undefined && !text(m.scope, 500)) return bad("scope: a string")
  return Either.right({
    client_name: (m.client_name as string | undefined) ?? "MCP client",
    redirect_uris: uris as Array<string>,
    client_uri: (m.client_uri as string | undefined) ?? null,
    token_endpoint_auth_method: method,
    grant_types: grants as Array<string>,
    response_types: responses as Array<string>,
    scope: (m.scope as string | undefined) ?? null
  })
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/

export const validChallenge = (challenge: string) => CHALLENGE.test(challenge)

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) equals the challenge sent to the authorization endpoint. */
export const verifierMatches = (verifier: string, challenge: string) =>
  VERIFIER.test(verifier) && createHash("sha256").update(verifier).digest("base64url") === challenge
