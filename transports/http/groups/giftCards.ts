import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { GiftCard, GiftCardAdjust, GiftCardIssue, GiftCardIssued, GiftCardPage, GiftCardPurchase, GiftCardPurchased } from "../../../engine/schema/gift.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const GiftCardsGroup = HttpApiGroup.make("gift_cards")
  .add(HttpApiEndpoint.get("list", "/gift_cards").addSuccess(GiftCardPage).annotate(OpenApi.Summary, "The org's gift cards with their balances (never the codes)"))
  .add(HttpApiEndpoint.get("get")`/gift_cards/${IdParam}`.addSuccess(GiftCard).annotate(OpenApi.Summary, "Get a gift card"))
  .add(
    HttpApiEndpoint.post("issue", "/gift_cards")
      .setPayload(GiftCardIssue)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCardIssued, { status: 201 })
      .annotate(OpenApi.Summary, "Issue a gift card in the org's currency; its code is in this answer only")
  )
  .add(
    HttpApiEndpoint.post("adjust")`/gift_cards/${IdParam}/adjust`
      .setPayload(GiftCardAdjust)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCard)
      .annotate(OpenApi.Summary, "Add to or take from a card's balance (never below zero), with a note")
  )
  .add(
    HttpApiEndpoint.post("purchase", "/gift_cards/purchase")
      .setPayload(GiftCardPurchase)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(GiftCardPurchased, { status: 201 })
      .annotate(OpenApi.Summary, "Sell a gift card through a checkout of the processor: answers checkout_url; once paid the card is issued and its code emailed to for_email")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
