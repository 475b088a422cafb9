import { Effect, Option } from "effect"
import type { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import { ACCESS_TOKEN_PREFIX, type Orgs } from "../../engine/services/Orgs.ts"
import { safeEqual } from "./safeEqual.ts"

/**
 * Authentication, once: who a request's credential says is calling, and whether that caller may use the door it
 * knocked on. Every surface asks here (REST through the dispatcher, photo uploads included, MCP, the event stream,
 * OCTO, admin, metrics); a new kind of credential (a browser session's cookie, say) is added to `Caller` and to `admit` here.
 *
 * The documented answers (docs/architecture.md, the README's keys section):
 * - secret key (bk_live_…): REST, the public surface, MCP, the event stream; 403 on OCTO.
 * - session cookie (transports/auth/apiSession.ts): /api/v1 and the event stream (sse.ts), when no Bearer is sent.
 * - publishable key (pk_live_…): the public surface only; 401 elsewhere, 403 on OCTO.
 * - reseller key (rk_live_…): OCTO only; 401 elsewhere.
 * - OAuth access token (mcp_at_…): MCP only; 401 elsewhere, 403 on OCTO when it is valid.
 * - admin token (ADMIN_TOKEN): /admin/v1 and /metrics only; elsewhere it is a string no key matches.
 * - none, unknown or revoked: 401.
 */
export type Door = "api" | "public" | "mcp" | "stream" | "octo"

export type Org = CurrentOrg["Type"]

export type Admission =
  | { readonly ok: true; readonly org: Org }
  | { readonly ok: false; readonly status: 401 | 403; readonly message: string }

const refuse = (message: string, status: 401 | 403 = 401): Admission => ({ ok: false, status, message })

const ASK: Record<Door, string> = {
  api: "send Authorization: Bearer <API_KEY>",
  public: "send Authorization: Bearer <API_KEY>",
  mcp: "send Authorization: Bearer <API_KEY or OAuth access token>",
  stream: "send Authorization: Bearer <API_KEY> (a secret key)",
  octo: "send Authorization: Bearer <reseller API key>"
}

/** The Bearer credential of an Authorization header ("" when there is none or another scheme). */
export const bearerFrom = (authorization: string | undefined) =>
  authorization !== undefined && /^Bearer /i.test(authorization) ? authorization.slice(7) : ""

/** Whether a kind of caller may use a door; the refusal words what the door takes. */
export const admit = (door: Door, org: Org, oauth: boolean): Admission => {
  const kind = org.keyKind ?? "secret"
  switch (door) {
    case "octo":
      return kind === "reseller"
        ? { ok: true, org }
        : refuse("the OCTO API takes a reseller key (kind reseller, rk_live_…)", 403)
    case "mcp":
      return kind === "secret" ? { ok: true, org } : refuse(ASK.mcp)
    case "stream":
      return kind === "secret" && !oauth ? { ok: true, org } : refuse(ASK[door])
    case "api":
    case "public":
      if (kind === "reseller") return refuse("a reseller key reaches only the OCTO API at /api/octo")
      if (door === "api" && kind === "publishable")
        return refuse("a publishable key reaches only /api/v1/public: use a secret key here")
      return { ok: true, org }
  }
}

export const makeCredentials = (orgs: Orgs, adminToken: Option.Option<string>) => {
  /** The caller a Bearer credential names, admitted or refused at a door; fails (dies) only when the database does. */
  const authenticate = (door: Door, bearer: string): Effect.Effect<Admission> => {
    if (bearer === "") return Effect.succeed(refuse(ASK[door]))
    const oauth = bearer.startsWith(ACCESS_TOKEN_PREFIX)
    // An OAuth access token was approved for a connector at /mcp, and reaches nothing else (not even looked up).
    if (oauth && (door === "api" || door === "public"))
      return Effect.succeed(refuse("an OAuth access token reaches only the MCP server at /mcp: use an API key here"))
    if (oauth && door === "stream") return Effect.succeed(refuse(ASK[door]))
    return Effect.map(
      orgs.authenticate(bearer),
      Option.match({
        onNone: () => refuse(door === "mcp" ? ASK.mcp : "the API key is unknown or revoked"),
        onSome: (org) => admit(door, org, oauth)
      })
    )
  }
  /** The platform's admin token (/admin/v1, /metrics): refused when ADMIN_TOKEN is unset. */
  const admin = (bearer: string): Admission | { readonly ok: true; readonly org?: undefined } =>
    Option.match(adminToken, {
      onNone: () => refuse("the admin API is disabled: set ADMIN_TOKEN"),
      onSome: (expected) => (bearer !== "" && safeEqual(bearer, expected) ? { ok: true } : refuse("bad admin token"))
    })
  /** Whether the credential is the admin token (never limited). */
  const isAdmin = (bearer: string | undefined) =>
    bearer !== undefined && bearer !== "" && Option.isSome(adminToken) && safeEqual(bearer, adminToken.value)
  return { authenticate, admin, isAdmin }
}

export type Credentials = ReturnType<typeof makeCredentials>
