import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  GiftCard,
  GiftCardAdjust,
  GiftCardIssue,
  GiftCardIssued,
  GiftCardPage,
  GiftCardPurchase,
  GiftCardPurchased
} from "../../../engine/schema/gift.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const GiftCardsGroup = HttpApiGroup.make("gift_cards")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "Prepaid balances in the org's currency that pay part of a booking.")
  .add(
    HttpApiEndpoint.get("list", "/gift_cards")
      .addSuccess(GiftCardPage)
      .annotate(OpenApi.Summary, "The org's gift cards with their balances (never the codes)")
      .annotate(
        OpenApi.Description,
        "The org's gift cards with their balances (minor units); never the codes. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/gift_cards/${IdParam}`
      .addSuccess(GiftCard)
      .annotate(OpenApi.Summary, "Get a gift card")
      .annotate(OpenApi.Description, "One gift card with its balance. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.post("issue", "/gift_cards")
      .setPayload(GiftCardIssue)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCardIssued, { status: 201 })
      .annotate(OpenApi.Summary, "Issue a gift card in the org's currency; its code is in this answer only")
      .annotate(
        OpenApi.Description,
        "Issues a gift card for amount_cents in the org's currency; its code is in this answer only (stored hashed). Emits gift_card.issued."
      )
  )
  .add(
    HttpApiEndpoint.post("adjust")`/gift_cards/${IdParam}/adjust`
      .setPayload(GiftCardAdjust)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCard)
      .annotate(OpenApi.Summary, "Add to or take from a card's balance (never below zero), with a note")
      .annotate(
        OpenApi.Description,
        "Adds to (cents positive) or takes from (negative) a card's balance with a note; never below zero (409 balance_below_zero). Emits gift_card.adjusted."
      )
  )
  .add(
    HttpApiEndpoint.post("purchase", "/gift_cards/purchase")
      .setPayload(GiftCardPurchase)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCardPurchased, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Sell a gift card through a checkout of the processor: answers checkout_url; once paid the card is issued and its code emailed to for_email"
      )
      .annotate(
        OpenApi.Description,
        "Opens a checkout of the processor for a gift card of amount_cents in the org's currency (at least one whole unit), open for 60 minutes. Nothing is issued until it is paid: then the card is issued once and the code is emailed to for_email with the message. Emits gift_card.purchased (never the code) once paid. Needs payments online (409 not_paid_online); a processor that cannot open a checkout is 409 checkout_unavailable and charges nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
