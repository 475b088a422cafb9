import { Schema } from "effect"
import { isValidZone } from "../time/local.ts"
import { QueryInt, strict, Text } from "./common.ts"
import { isCurrency } from "./currency.ts"
import { Email } from "./customer.ts"
import { MAIL_KINDS } from "./mailKinds.ts"
import { OrgTextFields, OrgTextUpdate } from "./texting.ts"

export { minorUnits } from "./currency.ts"

/** An IANA zone name (Region/City, or UTC); abbreviations such as EST are refused. */
export const isTimeZone = (zone: string) => (zone.includes("/") || zone === "UTC") && isValidZone(zone)

export const TimeZone = Schema.String.pipe(
  Schema.filter(isTimeZone, { message: () => "must be an IANA time zone such as Europe/Amsterdam" })
).annotations({ description: "An IANA time zone such as Europe/Amsterdam", jsonSchema: {} })
export const Currency = Schema.String.pipe(
  Schema.filter(isCurrency, { message: () => "must be an ISO 4217 code in use, such as EUR" })
).annotations({ description: "An ISO 4217 currency code in use, such as EUR", jsonSchema: {} })
export const PlanName = Schema.Literal("free", "pro", "growth", "scale")
/** online: a priced booking is held with a checkout_url and confirmed when the payment lands; offline: held, confirmed and marked paid by hand. */
export const PaymentsMode = Schema.Literal("online", "offline").annotations({
  description:
    "online: a priced booking is held with a checkout_url and confirmed when the payment lands; offline: held, confirmed and marked paid by hand"
})

const isLocale = (s: string) => {
  try {
    return s.length <= 35 && Intl.getCanonicalLocales(s).length === 1
  } catch {
    return false
  }
}
/** A BCP 47 language tag (en, nl, de-CH...): the language and date format of guest mail. */
export const Locale = Schema.String.pipe(
  Schema.filter(isLocale, {
    message: () => "must be a BCP 47 language tag such as en, nl or de-CH",
    description: "A BCP 47 language tag such as en, nl or de-CH"
  })
).annotations({ description: "A BCP 47 language tag such as en, nl or de-CH", jsonSchema: {} })
export const MailTemplate = Schema.Struct({
  subject: Schema.optional(Text(1, 200)),
  text: Schema.optional(Text(1, 10_000)),
  html: Schema.optional(Text(1, 20_000))
}).annotations({
  ...strict,
  identifier: "MailTemplate",
  description:
    "Replaces the built-in wording of one guest mail. Placeholders: {{reference}}, {{offering}}, {{when}}, {{page_url}}, {{waiver_url}}, {{pay_url}}, {{note}} (escaped in html)."
})
export const MailTemplates = Schema.Record({ key: Schema.String, value: MailTemplate })
  .pipe(
    Schema.filter((r) => Object.keys(r).every((k) => (MAIL_KINDS as ReadonlyArray<string>).includes(k)), {
      message: () => `keys must be mail kinds: ${MAIL_KINDS.join(", ")}`
    })
  )
  .annotations({
    description: `The org's own guest mail wording, by kind (${MAIL_KINDS.join(", ")}); a kind not set uses the built-in wording in the org's locale.`,
    jsonSchema: {}
  })

export const Org = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  timezone: Schema.String,
  currency: Schema.String,
  currency_minor_units: Schema.Int,
  plan: PlanName,
  locale: Schema.String,
  mail_templates: Schema.Record({ key: Schema.String, value: MailTemplate }),
  payments: PaymentsMode,
  auto_acknowledge: Schema.Boolean.annotations({
    description: "Answer each guest who writes with a short system message"
  }),
  reply_to_domain: Schema.NullOr(Schema.String).annotations({
    description: "The domain of the reply addresses of guest messages (reply+…@domain); null: the engine's MAIL_DOMAIN"
  }),
  allowed_origins: Schema.Array(Schema.String).annotations({
    description: "Web origins allowed to call /api/v1/public with a publishable key (CORS)"
  }),
  slug: Schema.NullOr(Schema.String).annotations({
    description: "The org's public name in addresses: its assistant booking channel is /api/mcp/book/{slug}; null: none"
  }),
  guest_cancel_hours: Schema.NullOr(Schema.Int).annotations({
    description:
      "Guests may cancel or move on their page until this many hours before the start (default 24); null: only the business can. Each booking keeps the rule of when it was made, or this one if kinder"
  }),
  max_guest_holds: Schema.NullOr(Schema.Int).annotations({
    description:
      "Unpaid holds one guest may have at once through the widget, the hosted page or the assistant channel (default 3); null: no cap. More is 409 too_many_holds"
  }),
  max_held_percent: Schema.NullOr(Schema.Int).annotations({
    description:
      "Percent of a time's places that guests' own unpaid holds (widget, hosted page, assistant channel) may take at once (default 50), unless a hold is the only one there; null: no cap. More is 409 places_on_hold"
  }),
  ...OrgTextFields,
  created_at: Schema.String,
  updated_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Org" })
export type Org = typeof Org.Type

export const OrgCreate = Schema.Struct({
  name: Text(1, 120),
  timezone: TimeZone,
  currency: Currency,
  plan: Schema.optional(PlanName),
  locale: Schema.optional(Locale),
  /** The org's owner: joins the team at once and is mailed a link that signs them in (docs/auth.md). */
  owner_email: Schema.optional(Email)
}).annotations(strict)

export const OrgsWithoutOwner = Schema.Struct({
  data: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, created_at: Schema.String }))
})

export const OrgUpdate = Schema.Struct({
  name: Schema.optional(Text(1, 120)),
  timezone: Schema.optional(TimeZone),
  currency: Schema.optional(Currency),
  locale: Schema.optional(Locale),
  mail_templates: Schema.optional(MailTemplates),
  payments: Schema.optional(PaymentsMode),
  auto_acknowledge: Schema.optional(Schema.Boolean).annotations({
    description: "Answer each guest who writes with a short system message"
  }),
  allowed_origins: Schema.optional(
    Schema.Array(
      Schema.String.pipe(
        Schema.pattern(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, {
          message: () => "allowed_origins: an origin such as https://shop.example.com (scheme, host, port; no path)"
        })
      )
    ).pipe(Schema.maxItems(50))
  ),
  reply_to_domain: Schema.optional(
    Schema.NullOr(
      Schema.String.pipe(
        Schema.pattern(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, {
          message: () => "reply_to_domain: a domain name such as mail.example.com"
        })
      )
    )
  ),
  slug: Schema.optional(
    Schema.NullOr(
      Schema.String.pipe(
        Schema.pattern(/^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/, {
          message: () =>
            "slug: 3 to 40 lowercase letters, digits and hyphens, starting and ending with a letter or digit"
        })
      )
    )
  ),
  guest_cancel_hours: Schema.optional(
    Schema.NullOr(
      Schema.Int.pipe(
        Schema.between(0, 8760, {
          message: () => "guest_cancel_hours: a whole number of hours from 0 to 8760, or null"
        })
      )
    )
  ),
  max_guest_holds: Schema.optional(
    Schema.NullOr(
      Schema.Int.pipe(
        Schema.between(1, 1000, { message: () => "max_guest_holds: a whole number from 1 to 1000, or null for no cap" })
      )
    )
  ),
  max_held_percent: Schema.optional(
    Schema.NullOr(
      Schema.Int.pipe(
        Schema.between(1, 100, { message: () => "max_held_percent: a whole number from 1 to 100, or null for no cap" })
      )
    )
  ),
  ...OrgTextUpdate
}).annotations({
  ...strict,
  examples: [
    {
      name: "Harbour Yoga",
      timezone: "Europe/London",
      allowed_origins: ["https://harbouryoga.example"],
      guest_cancel_hours: 12
    }
  ]
})

export const Role = Schema.Literal("owner", "staff").annotations({
  description: "The member's role: owner or staff (an operation only owners may use says so)"
})
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

export const Invite = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  role: Role,
  invited_by: Schema.NullOr(Schema.String).annotations({
    description: "The owner who invited (null: an owner key made by the platform)"
  }),
  created_at: Schema.String,
  expires_at: Schema.String
}).annotations({ identifier: "Invite" })
export const TeamPage = Schema.Struct({
  data: Schema.Array(Member),
  invites: Schema.Array(Invite).annotations({ description: "Invites still waiting" })
})
export const InviteCreate = Schema.Struct({ email: Email, role: Role }).annotations({
  ...strict,
  identifier: "InviteCreate",
  examples: [{ email: "sam@example.com", role: "staff" }]
})
export const InviteAccept = Schema.Struct({ name: Schema.optional(Text(1, 120)) }).annotations({
  ...strict,
  identifier: "InviteAccept",
  examples: [{ name: "Sam Teacher" }]
})
export const MemberUpdate = Schema.Struct({
  role: Schema.optional(Role),
  name: Schema.optional(Text(1, 120))
}).annotations({ ...strict, identifier: "MemberUpdate", examples: [{ role: "owner" }] })

/** An API key as listed: never the key itself, which is shown once when made. */
export const ApiKey = Schema.Struct({
  id: Schema.String,
  prefix: Schema.String.annotations({ description: "The key's first 12 characters, to tell keys apart" }),
  name: Schema.NullOr(Schema.String),
  user_id: Schema.NullOr(Schema.String).annotations({
    description: "The member the key belongs to; null for an owner key made by the platform"
  }),
  role: Role,
  kind: Schema.Literal("secret", "publishable", "reseller").annotations({
    description:
      "secret (bk_live_…): the API and MCP; publishable (pk_live_…): only /api/v1/public, safe in a web page; reseller (rk_live_…): only the OCTO API at /api/octo"
  }),
  created_at: Schema.String,
  revoked_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ApiKey" })
export const ApiKeyCreated = Schema.Struct({
  ...ApiKey.fields,
  key: Schema.String.annotations({ description: "The secret key, shown only in this answer" })
}).annotations({ identifier: "ApiKeyCreated" })
export const ApiKeyCreate = Schema.Struct({
  name: Schema.optional(Text(1, 80)),
  kind: Schema.optional(Schema.Literal("secret", "publishable", "reseller")).annotations({
    description:
      "secret (bk_live_…): the whole API and MCP; publishable (pk_live_…): the public booking surface only, safe in a web page; reseller (rk_live_…): the OCTO API only. Default secret"
  }),
  user_id: Schema.optional(
    Schema.UUID.annotations({
      description:
        "A team member; the key carries their role (owner or staff). Without it, the key is the caller's own kind: an owner key"
    })
  )
}).annotations({
  ...strict,
  identifier: "ApiKeyCreate",
  examples: [
    { name: "Website widget", kind: "publishable" },
    { name: "Front desk", user_id: "3c8e2a7d-1f4b-4d6e-9a2c-8b5f7e1d3a90" }
  ]
})
export const ApiKeyPage = Schema.Struct({ data: Schema.Array(ApiKey) })
/** The org's widget key (keys.widget_key): a publishable key is public by design, so it is answered on every call. */
export const WidgetKey = Schema.Struct({
  id: Schema.String.annotations({ description: "The API key's id, as api_keys lists it" }),
  key: Schema.String.annotations({ description: "The publishable key (pk_live_…): the same on every call" }),
  prefix: ApiKey.fields.prefix,
  created_at: Schema.String
}).annotations({ identifier: "WidgetKey" })
export const OrgPage = Schema.Struct({ data: Schema.Array(Org), next_after: Schema.NullOr(Schema.String) })
export const OrgsQuery = Schema.Struct({
  limit: Schema.optional(QueryInt(1, 500, "At most this many orgs in the page (default 100)")),
  after: Schema.optional(Schema.UUID)
})
/** What the platform may change on an org besides what its owners change themselves. */
export const OrgAdminUpdate = Schema.Struct({
  plan: Schema.optional(PlanName),
  name: Schema.optional(Text(1, 120))
}).annotations(strict)
export const ApiKeyRevoked = Schema.Struct({ id: Schema.String, revoked_at: Schema.String })

export const Waiver = Schema.Struct({ text: Schema.NullOr(Schema.String), version: Schema.Int })
export const WaiverSet = Schema.Struct({ text: Schema.NullOr(Text(1, 20000)) }).annotations({
  ...strict,
  examples: [{ text: "I take part at my own risk and follow the instructor's directions." }]
})
