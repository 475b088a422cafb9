import { Schema } from "effect"
import { BookingCreate } from "./booking.ts"
import { Int, strict, Text } from "./common.ts"
import { Email } from "./customer.ts"
import { GiftCardCode } from "./gift.ts"
import { Offering } from "./offering.ts"
import { PromoCodeText } from "./promo.ts"

/** An offering as a guest may see it: no org_id, metadata or bookkeeping. */
export const PublicOffering = Offering.pipe(
  Schema.omit("org_id", "metadata", "created_at", "updated_at", "active", "gauge_site")
).annotations({ identifier: "PublicOffering" })
export const PublicOfferingPage = Schema.Struct({ data: Schema.Array(PublicOffering) })

export const PublicBookingCreate = BookingCreate.pipe(Schema.omit("metadata", "hold_minutes", "payment")).annotations({
  parseOptions: { onExcessProperty: "error" },
  identifier: "PublicBookingCreate",
  examples: [
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      session_id: "0b7e6c1a-3d2f-4c5e-9a8b-7c6d5e4f3a21",
      quantity: 1,
      customer: { email: "ada@example.com", name: "Ada Lovelace" }
    }
  ]
})

export const PublicBooked = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  status: Schema.String,
  offering_id: Schema.String,
  session_id: Schema.NullOr(Schema.String),
  starts_at: Schema.String,
  ends_at: Schema.String,
  quantity: Schema.Int,
  total_cents: Schema.Int,
  discount_cents: Schema.Int,
  gift_cents: Schema.Int,
  expires_at: Schema.NullOr(Schema.String),
  checkout_url: Schema.NullOr(Schema.String).annotations({ description: "Where the guest pays, when payment is due" }),
  mailed_to: Schema.String.annotations({
    description:
      "The guest's email, masked (a…@example.com): where the link to the guest's own page was mailed. The page's link is never in the answer, whoever books"
  })
}).annotations({ identifier: "PublicBooked" })

export const PublicOrg = Schema.Struct({
  name: Schema.String,
  timezone: Schema.String,
  currency: Schema.String,
  currency_minor_units: Schema.Int,
  locale: Schema.String,
  waiver_text: Schema.NullOr(Schema.String).annotations({
    description: "The waiver guests accept as they book offerings with waiver_required"
  }),
  waiver_version: Schema.Int,
  today: Schema.String.annotations({
    description:
      "Today's date (YYYY-MM-DD) in the org's time zone, by the engine's clock: where a calendar of times starts"
  })
}).annotations({ identifier: "PublicOrg" })

/** What a booking would cost, with a promo code and gift card applied: the widget's price as the guest types. */
export const PublicQuoteInput = Schema.Struct({
  offering_id: Schema.UUID,
  quantity: Schema.optional(Int(1, 10000)),
  periods: Schema.optional(Int(1, 60)),
  promo_code: Schema.optional(PromoCodeText),
  gift_card_code: Schema.optional(GiftCardCode)
}).annotations({
  parseOptions: { onExcessProperty: "error" },
  identifier: "PublicQuoteInput",
  examples: [
    {
      offering_id: "6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10",
      quantity: 2,
      promo_code: "SUMMER10",
      gift_card_code: "GIFT-7Q2M-XK4P"
    }
  ]
})
export const PublicQuote = Schema.Struct({
  price_cents: Schema.Int.annotations({ description: "Before any code" }),
  discount_cents: Schema.Int,
  total_cents: Schema.Int.annotations({ description: "After the promo code" }),
  gift_cents: Schema.Int.annotations({ description: "What the gift card would pay of the total" }),
  due_cents: Schema.Int.annotations({
    description:
      "What booking takes now, at the checkout: the offering's deposit where guests pay online, otherwise all that is left after the gift card"
  }),
  due_at_start_cents: Schema.Int.annotations({
    description: "The rest after a deposit, due at the start; 0 without one"
  }),
  currency: Schema.String
}).annotations({ identifier: "PublicQuote" })
export const PublicWaitlisted = Schema.Struct({
  starts_at: Schema.String,
  places: Schema.Int,
  created_at: Schema.String
}).annotations({ identifier: "PublicWaitlisted" })

/** A visitor's question on the org's booking page, before booking: no account, the answer comes by email. */
export const PublicQuestion = Schema.Struct({
  name: Text(1, 120).annotations({ description: "The visitor's name" }),
  email: Email.annotations({ description: "Where the business's answer is emailed" }),
  question: Text(1, 2000).annotations({ description: "The question, up to 2000 characters" })
}).annotations({
  ...strict,
  identifier: "PublicQuestion",
  examples: [{ name: "Ada Lovelace", email: "ada@example.com", question: "Can I bring my own board?" }]
})
export const PublicQuestionAsked = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String
}).annotations({ identifier: "PublicQuestionAsked" })
