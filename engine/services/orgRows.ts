import { hash, randomBytes } from "node:crypto"
import { minorUnits, type Org } from "../schema/org.ts"
import type { TextKind } from "../schema/texting.ts"
import type { KeyKind, Plan, Role } from "./CurrentOrg.ts"

// crypto.hash: the one-shot digest, a third of createHash's cost (every request hashes its key).
export const hashKey = (key: string) => hash("sha256", key, "hex")
export const newKey = () => `bk_live_${randomBytes(24).toString("base64url")}`

export interface OrgRow {
  readonly id: string
  readonly name: string
  readonly timezone: string
  readonly currency: string
  readonly plan: Plan
  readonly locale: string
  readonly mail_templates: Org["mail_templates"] | string
  readonly payments: "online" | "offline"
  readonly auto_acknowledge?: boolean
  readonly reply_to_domain?: string | null
  readonly allowed_origins?: ReadonlyArray<string>
  readonly guest_cancel_hours?: number | null
  readonly max_guest_holds?: number | null
  readonly max_held_percent?: number | null
  readonly slug?: string | null
  readonly phone?: string | null
  readonly preferred_channel?: "email" | "text"
  readonly text_kinds?: ReadonlyArray<TextKind>
  readonly reminder_hours?: number
  readonly created_at: Date
  readonly updated_at: Date | null
}

export interface KeyRow {
  readonly id: string
  readonly prefix: string
  readonly name: string | null
  readonly user_id: string | null
  readonly role: Role
  readonly kind: KeyKind
  readonly created_at: Date
  readonly revoked_at: Date | null
}

export const toKey = (r: KeyRow) => ({
  id: r.id,
  prefix: r.prefix,
  name: r.name,
  user_id: r.user_id,
  role: r.role,
  kind: r.kind,
  created_at: r.created_at.toISOString(),
  revoked_at: r.revoked_at?.toISOString() ?? null
})

export const toOrg = (r: OrgRow): Org => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  currency: r.currency,
  currency_minor_units: minorUnits(r.currency),
  plan: r.plan,
  locale: r.locale,
  mail_templates: typeof r.mail_templates === "string" ? JSON.parse(r.mail_templates) : r.mail_templates,
  payments: r.payments,
  auto_acknowledge: r.auto_acknowledge ?? false,
  reply_to_domain: r.reply_to_domain ?? null,
  allowed_origins: [...(r.allowed_origins ?? [])],
  slug: r.slug ?? null,
  guest_cancel_hours: r.guest_cancel_hours === undefined ? 24 : r.guest_cancel_hours,
  max_guest_holds: r.max_guest_holds === undefined ? 3 : r.max_guest_holds,
  max_held_percent: r.max_held_percent === undefined ? 50 : r.max_held_percent,
  phone: r.phone ?? null,
  preferred_channel: r.preferred_channel ?? "email",
  text_kinds: [...(r.text_kinds ?? [])],
  reminder_hours: r.reminder_hours ?? 24,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null
})

export const canonicalLocale = (locale: string) => Intl.getCanonicalLocales(locale)[0]

/**
 * A key's org is remembered at most this long per instance (a bound for what no notice covers); a revocation reaches the
 * other instances through the database's notice of its commit (rules/keys.sql, Signals) within milliseconds.
 */
export const KEY_CACHE_MS = 5_000
export const KEY_CACHE_MAX = 10_000
/** Payload "key:<api key id>" drops that key, "org:<org id>" every key of the org (its settings or team changed), "app:<oauth app id>" that app's tokens. */
export const KEYS_CHANNEL = "api_keys_changed"

export type Authenticated = {
  id: string
  timezone: string
  currency: string
  plan: Plan
  apiKeyId: string
  role: Role
  userId: string | null
  keyKind: KeyKind
  allowedOrigins: ReadonlyArray<string>
  /** For an OAuth access token (mcp_at_…): its app (the org's approval of a client) and when it expires. */
  appId?: string
  expiresAt?: number
}

/** OAuth access tokens for MCP connector clients; they reach only /mcp. */
export const ACCESS_TOKEN_PREFIX = "mcp_at_"

export const canonicalZone = (zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone
