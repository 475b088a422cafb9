import { Schema } from "effect"
import { Instant as InstantInput, strict, Text } from "./common.ts"

const Instant = Schema.String
const NullableInstant = Schema.NullOr(Schema.String)

/** A booking as its guest sees it on their page: no internal ids beyond the offering's, no notes or metadata. */
export const GuestView = Schema.Struct({
  reference: Schema.String,
  status: Schema.Literal("held", "confirmed", "cancelled"),
  offering: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    kind: Schema.Literal("class", "appointment", "rental"),
    location: Schema.String,
    map_url: Schema.NullOr(Schema.String).annotations({
      description: "Opens the meeting point on a map (from place_id, else lat/lon)"
    }),
    lat: Schema.NullOr(Schema.Number),
    lon: Schema.NullOr(Schema.Number),
    gauge_site: Schema.NullOr(Schema.String)
  }),
  org: Schema.Struct({
    name: Schema.String,
    timezone: Schema.String,
    currency: Schema.String,
    currency_minor_units: Schema.Int,
    locale: Schema.String
  }),
  guest: Schema.Struct({ name: Schema.NullOr(Schema.String), email: Schema.NullOr(Schema.String) }),
  starts_at: Instant,
  ends_at: Instant,
  quantity: Schema.Int,
  total_cents: Schema.Int,
  discount_cents: Schema.Int,
  gift_cents: Schema.Int,
  paid_cents: Schema.Int.annotations({ description: "Paid so far, online, by hand or by gift card" }),
  due_cents: Schema.Int.annotations({ description: "What is left to pay (a deposit's rest is due at the start)" }),
  expires_at: NullableInstant,
  choose_by: NullableInstant.annotations({
    description: "Set when the time was called off: pick another time or cancel before it"
  }),
  cancelled_at: NullableInstant,
  refund_cents: Schema.NullOr(Schema.Int).annotations({
    description: "Once cancelled: what goes back of what was paid online"
  }),
  refunded_at: NullableInstant,
  waiver: Schema.NullOr(Schema.Struct({ needed: Schema.Int, signed: Schema.Int, url: Schema.String })),
  actions: Schema.Struct({
    cancel_until: NullableInstant.annotations({ description: "The guest may cancel here until then; null: not now" }),
    move_until: NullableInstant.annotations({
      description: "The guest may move to another time here until then; null: not now"
    }),
    cancel_refunds_cents: Schema.Int.annotations({
      description: "What cancelling now gives back of what was paid online"
    }),
    pay_url: Schema.NullOr(Schema.String).annotations({ description: "Pay for the hold (a fresh checkout)" }),
    pay_cents: Schema.Int.annotations({
      description:
        "What paying at pay_url takes now: the offering's deposit, or all that is left; after a deposit the rest is due at the start. 0 without pay_url"
    }),
    can_confirm: Schema.Boolean.annotations({
      description: "The hold waits for the guest to confirm it (an assistant made it; nothing to pay)"
    }),
    why_not: Schema.NullOr(Schema.String).annotations({
      description: "Why cancel and move are not offered, in words for the guest"
    })
  }),
  page_url: Schema.String,
  calendar_url: Schema.String.annotations({ description: "The booking as an .ics file" })
}).annotations({ identifier: "GuestView" })
export type GuestView = typeof GuestView.Type

export const GuestMove = Schema.Struct({
  starts_at: Schema.optional(InstantInput),
  session_id: Schema.optional(Schema.UUID.annotations({ description: "A class's other session" }))
}).annotations({
  ...strict,
  identifier: "GuestMove",
  examples: [{ session_id: "0b7e6c1a-3d2f-4c5e-9a8b-7c6d5e4f3a21" }]
})

export const GuestMessage = Schema.Struct({
  id: Schema.String,
  from: Schema.Literal("guest", "business"),
  body: Schema.String,
  created_at: Schema.String
}).annotations({ identifier: "GuestMessage" })
export const GuestThread = Schema.Struct({ data: Schema.Array(GuestMessage) })
export const GuestWrite = Schema.Struct({ body: Text(1, 5000) }).annotations({
  ...strict,
  identifier: "GuestWrite",
  examples: [{ body: "Can I bring my own mat?" }]
})
