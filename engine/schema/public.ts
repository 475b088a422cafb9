import { Schema } from "effect"
import { Offering } from "./offering.ts"
import { BookingCreate } from "./booking.ts"

/** An offering as a guest may see it: no org_id, metadata or bookkeeping. */
export const PublicOffering = Offering.pipe(Schema.omit("org_id", "metadata", "created_at", "updated_at", "active", "gauge_site")).annotations({ identifier: "PublicOffering" })
export const PublicOfferingPage = Schema.Struct({ data: Schema.Array(PublicOffering) })

export const PublicBookingCreate = BookingCreate.pipe(Schema.omit("metadata", "hold_minutes")).annotations({
  parseOptions: { onExcessProperty: "error" },
  identifier: "PublicBookingCreate"
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
  page_url: Schema.String.annotations({ description: "The guest's own page (/b/{handle}); the widget's user is the guest" })
}).annotations({ identifier: "PublicBooked" })

export const PublicOrg = Schema.Struct({
  name: Schema.String,
  timezone: Schema.String,
  currency: Schema.String,
  currency_minor_units: Schema.Int,
  locale: Schema.String
}).annotations({ identifier: "PublicOrg" })
