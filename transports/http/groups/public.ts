import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Availability, AvailabilityQuery } from "../../../engine/schema/calendar.ts"
import { GiftCardPurchase, GiftCardPurchased } from "../../../engine/schema/gift.ts"
import {
  PublicBooked,
  PublicBookingCreate,
  PublicOffering,
  PublicOfferingPage,
  PublicOrg,
  PublicQuestion,
  PublicQuestionAsked,
  PublicQuote,
  PublicQuoteInput,
  PublicWaitlisted
} from "../../../engine/schema/public.ts"
import { WaitlistJoin } from "../../../engine/schema/waitlist.ts"
import { PublicAuth } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

/** The browser's Origin, checked against the org's allowed_origins. */
const OriginHeaders = Schema.Struct({
  origin: Schema.optional(
    Schema.String.annotations({
      description: "Sent by browsers; with a publishable key it must be among the org's allowed_origins"
    })
  )
})
const PostHeaders = Schema.Struct({
  ...OriginHeaders.fields,
  "idempotency-key": IdempotencyHeaders.fields["idempotency-key"]
})

/** For a web page with a publishable key (pk_live_…): what a guest may see and do. */
export const PublicGroup = HttpApiGroup.make("public")
  .annotate(
    OpenApi.Description,
    "The guest-facing booking surface for web pages and the widget, reached with a publishable key (pk_live_…) from the org's allowed origins."
  )
  .add(
    HttpApiEndpoint.get("org", "/public/org")
      .setHeaders(OriginHeaders)
      .addSuccess(PublicOrg)
      .annotate(OpenApi.Summary, "The org's name, zone and currency, for a booking page")
      .annotate(
        OpenApi.Description,
        "The org's name, time zone and currency, for a booking page. With a publishable key, a browser's Origin must be among the org's allowed_origins (403 forbidden). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("offerings", "/public/offerings")
      .setHeaders(OriginHeaders)
      .addSuccess(PublicOfferingPage)
      .annotate(OpenApi.Summary, "The org's active offerings, public fields only")
      .annotate(OpenApi.Description, "The org's active offerings, public fields only. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.get("offering")`/public/offerings/${IdParam}`
      .setHeaders(OriginHeaders)
      .addSuccess(PublicOffering)
      .annotate(OpenApi.Summary, "One active offering, public fields only")
      .annotate(
        OpenApi.Description,
        "One active offering, public fields only; a paused or deleted one is 404. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("availability")`/public/offerings/${IdParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .setHeaders(OriginHeaders)
      .addSuccess(Availability)
      .annotate(
        OpenApi.Summary,
        "An active offering's bookable times, as availability.get (with waitlist_enabled, its full calendar times too, remaining 0)"
      )
      .annotate(
        OpenApi.Description,
        "An active offering's bookable times, as availability.get; with waitlist_enabled its full calendar times too, with remaining 0, so a guest can join their waitlist. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("book", "/public/bookings")
      .setPayload(PublicBookingCreate)
      .setHeaders(PostHeaders)
      .addSuccess(PublicBooked, { status: 201 })
      .annotate(OpenApi.Summary, "Book as the guest (source widget): the confirmation, or the checkout to pay")
      .annotate(
        OpenApi.Description,
        "Books as the guest (source widget), with the rules of bookings.create: the confirmation, or a hold with the checkout_url to pay, and mailed_to, the guest's email masked: the link to the guest's own page is mailed to the guest only and is never in the answer, whoever books. Emits booking.held or booking.confirmed."
      )
  )
  .add(
    HttpApiEndpoint.post("quote", "/public/quote")
      .setPayload(PublicQuoteInput)
      .setHeaders(PostHeaders)
      .addSuccess(PublicQuote)
      .annotate(
        OpenApi.Summary,
        "What a booking would cost with a promo code and gift card; 400 with the code's reason when one is refused"
      )
      .annotate(
        OpenApi.Description,
        "What a booking would cost (minor units): price, discount of a promo code, gift card part and what is due; a refused code or card is 400 with its reason. Changes nothing; emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("wait", "/public/waitlist")
      .setPayload(WaitlistJoin)
      .setHeaders(PostHeaders)
      .addSuccess(PublicWaitlisted, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Join the waitlist of a full time (offerings with waitlist_enabled); the guest is emailed when a place opens"
      )
      .annotate(
        OpenApi.Description,
        "Joins the waitlist of a full time as the guest, with the rules of waitlist.join; the guest is emailed when a place opens. Emits waitlist.joined."
      )
  )
  .add(
    HttpApiEndpoint.post("ask", "/public/questions")
      .setPayload(PublicQuestion)
      .setHeaders(PostHeaders)
      .addSuccess(PublicQuestionAsked, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Ask the business a question before booking (name, email, question); the answer comes by email"
      )
      .annotate(
        OpenApi.Description,
        "A visitor's question from the org's booking page or the widget, without booking and without an account: the guest is found or added by email, and the question starts (or joins) a thread on the guest alone, which the business answers with messages.send (by email). At most 5 questions from one email address an hour (429 too_many_questions). Emits message.received with channel page and no booking_id."
      )
  )
  .add(
    HttpApiEndpoint.post("buy_gift_card", "/public/gift_cards")
      .setPayload(GiftCardPurchase)
      .setHeaders(PostHeaders)
      .addSuccess(GiftCardPurchased, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Buy a gift card as the guest (source widget), as gift_cards.purchase: the checkout to pay; the code is emailed to for_email once paid"
      )
      .annotate(
        OpenApi.Description,
        "The guest's side of gift_cards.purchase, with a publishable key from an allowed origin: opens a checkout for a gift card of amount_cents (at least one whole unit of the org's currency). Once paid the card is issued once and the code is emailed to for_email. Emits gift_card.purchased (never the code) once paid. 409 not_paid_online when the org takes payments offline, checkout_unavailable when the processor cannot open a checkout."
      )
  )
  .middleware(PublicAuth)
  .prefix("/api/v1")
