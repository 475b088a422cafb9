import * as Context from "effect/Context"

export type Role = "owner" | "staff"

export type KeyKind = "secret" | "publishable" | "reseller"

export type Plan = "free" | "pro" | "growth" | "scale"

/** The org a call acts for, resolved from its API key by the transport. Every query is scoped by it. */
export class CurrentOrg extends Context.Tag("CurrentOrg")<
  CurrentOrg,
  {
    readonly id: string
    readonly timezone: string
    readonly currency: string
    readonly plan: Plan
    readonly apiKeyId: string
    /** The role of the key's member: owner for keys made by the admin API. */
    readonly role: Role
    /** The team member the key belongs to; null for an owner key made by the platform. */
    readonly userId?: string | null
    /** secret keys reach the API and MCP; publishable ones only the public booking surface; reseller ones only /api/octo. */
    readonly keyKind?: KeyKind
    /** Web origins the org allows on the public surface. */
    readonly allowedOrigins?: ReadonlyArray<string>
    /** A person's browser session (transports/auth) instead of a key: it has no API key of its own. */
    readonly sessionId?: string
  }
>() {}

export type Surface = "api" | "mcp" | "dashboard" | "widget" | "octo" | "assistant"

/** Which surface a call came through (stored as a booking's source). */
export class RequestSurface extends Context.Reference<RequestSurface>()("RequestSurface", {
  defaultValue: (): Surface => "api"
}) {}
