import { Effect } from "effect"
import { GiftCards } from "../../../engine/services/gifts/GiftCards.ts"
import { GiftPurchases } from "../../../engine/services/payments/GiftPurchases.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const giftCardsHandlers = defineGroup(Api, "gift_cards", (h) =>
  Effect.map(Effect.all([GiftCards, GiftPurchases]), ([cards, purchases]) =>
    h
      .handle("list", () => cards.list)
      .handle("get", ({ path }) => cards.get(path.id))
      .handle("issue", ({ payload }) => cards.issue(payload))
      .handle("adjust", ({ path, payload }) => cards.adjust(path.id, payload))
      .handle("purchase", ({ payload }) => purchases.purchase(payload))
  )
)
