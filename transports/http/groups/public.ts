import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Availability, AvailabilityQuery } from "../../../engine/schema/calendar.ts"
import { PublicBooked, PublicBookingCreate, PublicOffering, PublicOfferingPage, PublicOrg, PublicQuote, PublicQuoteInput, PublicWaitlisted } from "../../../engine/schema/public.ts"
import { WaitlistJoin } from "../../../engine/schema/waitlist.ts"
import { GiftCardPurchase, GiftCardPurchased } from "../../../engine/schema/gift.ts"
import { PublicAuth } from "../security.ts"
import { IdParam } from "./common.ts"

/** The browser's Origin, checked against the org's allowed_origins. */
const OriginHeaders = Schema.Struct({ origin: Schema.optional(Schema.String) })
const PostHeaders = Schema.Struct({
  origin: Schema.optional(Schema.String),
  "idempotency-key": Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)))
})

/** For a web page with a publishable key (pk_live_…): what a guest may see and do. */
export const PublicGroup = HttpApiGroup.make("public")
  .add(HttpApiEndpoint.get("org", "/public/org").setHeaders(OriginHeaders).addSuccess(PublicOrg).annotate(OpenApi.Summary, "The org's name, zone and currency, for a booking page"))
  .add(HttpApiEndpoint.get("offerings", "/public/offerings").setHeaders(OriginHeaders).addSuccess(PublicOfferingPage).annotate(OpenApi.Summary, "The org's active offerings, public fields only"))
  .add(HttpApiEndpoint.get("offering")`/public/offerings/${IdParam}`.setHeaders(OriginHeaders).addSuccess(PublicOffering).annotate(OpenApi.Summary, "One active offering, public fields only"))
  .add(
    HttpApiEndpoint.get("availability")`/public/offerings/${IdParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .setHeaders(OriginHeaders)
      .addSuccess(Availability)
      .annotate(OpenApi.Summary, "An active offering's bookable times, as availability.get (with waitlist_enabled, its full calendar times too, remaining 0)")
  )
  .add(
    HttpApiEndpoint.post("book", "/public/bookings")
      .setPayload(PublicBookingCreate)
      .setHeaders(PostHeaders)
      .addSuccess(PublicBooked, { status: 201 })
      .annotate(OpenApi.Summary, "Book as the guest (source widget): the confirmation, or the checkout to pay, and the guest's page")
  )
  .add(
    HttpApiEndpoint.post("quote", "/public/quote")
      .setPayload(PublicQuoteInput)
      .setHeaders(PostHeaders)
      .addSuccess(PublicQuote)
      .annotate(OpenApi.Summary, "What a booking would cost with a promo code and gift card; 400 with the code's reason when one is refused")
  )
  .add(
    HttpApiEndpoint.post("wait", "/public/waitlist")
      .setPayload(WaitlistJoin)
      .setHeaders(PostHeaders)
      .addSuccess(PublicWaitlisted, { status: 201 })
      .annotate(OpenApi.Summary, "Join the waitlist of a full time (offerings with waitlist_enabled); the guest is emailed when a place opens")
  )
  .add(
    HttpApiEndpoint.post("buy_gift_card", "/public/gift_cards")
      .setPayload(GiftCardPurchase)
      .setHeaders(PostHeaders)
      .addSuccess(GiftCardPurchased, { status: 201 })
      .annotate(OpenApi.Summary, "Buy a gift card as the guest (source widget), as gift_cards.purchase: the checkout to pay; the code is emailed to for_email once paid")
  )
  .middleware(PublicAuth)
  .prefix("/api/v1")
