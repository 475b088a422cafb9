import { Schema } from "effect"
import { Text, strict } from "./common.ts"
import { Email } from "./customer.ts"
import { isValidZone } from "../time/local.ts"

const ZERO_DECIMAL = new Set([
  "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"
])
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"))

/** Minor units per major unit: 1 for zero-decimal currencies (JPY), 100 otherwise. */
export const minorUnits = (currency: string) => (ZERO_DECIMAL.has(currency) ? 1 : 100)

/** An IANA zone name (Region/City, or UTC); abbreviations such as EST are refused. */
export const isTimeZone = (zone: string) => (zone.includes("/") || zone === "UTC") && isValidZone(zone)

export const TimeZone = Schema.String.pipe(
  Schema.filter(isTimeZone, { message: () => "must be an IANA time zone such as Europe/Amsterdam" })
)
export const Currency = Schema.String.pipe(
  Schema.filter((c) => /^[A-Z]{3}$/.test(c) && CURRENCIES.has(c), { message: () => "must be an ISO 4217 code such as EUR" })
)
export const PlanName = Schema.Literal("free", "pro", "growth", "scale")

export const Org = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  timezone: Schema.String,
  currency: Schema.String,
  currency_minor_units: Schema.Int,
  plan: PlanName,
  created_at: Schema.String,
  updated_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Org" })
export type Org = typeof Org.Type

export const OrgCreate = Schema.Struct({
  name: Text(1, 120),
  timezone: TimeZone,
  currency: Currency,
  plan: Schema.optional(PlanName)
}).annotations(strict)

export const OrgUpdate = Schema.Struct({
  name: Schema.optional(Text(1, 120)),
  timezone: Schema.optional(TimeZone),
  currency: Schema.optional(Currency)
}).annotations(strict)

export const Role = Schema.Literal("owner", "staff")
export const MemberCreate = Schema.Struct({
  email: Email,
  name: Schema.optional(Text(1, 120)),
  role: Role
}).annotations(strict)
export const Member = Schema.Struct({
  user_id: Schema.String,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  role: Role
}).annotations({ identifier: "Member" })

export const ApiKeyCreated = Schema.Struct({ id: Schema.String, key: Schema.String })
export const ApiKeyRevoked = Schema.Struct({ id: Schema.String, revoked_at: Schema.String })

export const Waiver = Schema.Struct({ text: Schema.NullOr(Schema.String), version: Schema.Int })
export const WaiverSet = Schema.Struct({ text: Schema.NullOr(Text(1, 20000)) }).annotations(strict)
