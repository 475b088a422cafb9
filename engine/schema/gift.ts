import { Schema } from "effect"
import { Int, MAX_TOTAL_CENTS, strict, Text } from "./common.ts"
import { Email } from "./customer.ts"

/** A gift card as listed: never its code, which is shown once when issued (last4 tells cards apart). */
export const GiftCard = Schema.Struct({
  id: Schema.String,
  last4: Schema.String,
  amount_cents: Schema.Int.annotations({ description: "What it was issued for, in minor units of currency" }),
  balance_cents: Schema.Int.annotations({
    description:
      "What is left on the card, in minor units of currency; a confirmed booking's part is taken off it, a cancelled one's given back"
  }),
  reserved_cents: Schema.Int.annotations({
    description:
      "Of the balance, what held bookings have reserved: taken when they are confirmed, released if they lapse or are cancelled; only the rest can be spent"
  }),
  currency: Schema.String,
  for_email: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "GiftCard" })
export type GiftCard = typeof GiftCard.Type

export const GiftCardIssued = Schema.Struct({
  ...GiftCard.fields,
  code: Schema.String.annotations({
    description: "The code the guest types, shown only in this answer; stored as a hash"
  })
}).annotations({ identifier: "GiftCardIssued" })

export const GiftCardIssue = Schema.Struct({
  amount_cents: Int(1, MAX_TOTAL_CENTS).annotations({ description: "Minor units of the org's currency" }),
  for_email: Schema.optional(Email),
  note: Schema.optional(Text(0, 500))
}).annotations({
  ...strict,
  identifier: "GiftCardIssue",
  examples: [{ amount_cents: 5000, for_email: "ada@example.com", note: "Birthday" }]
})

export const GiftCardAdjust = Schema.Struct({
  cents: Int(-MAX_TOTAL_CENTS, MAX_TOTAL_CENTS)
    .pipe(Schema.filter((n) => n !== 0, { message: () => "cents: a change, not 0" }))
    .annotations({ description: "Added to the balance (negative takes off); the balance never goes below zero" }),
  note: Text(1, 500)
}).annotations({
  ...strict,
  identifier: "GiftCardAdjust",
  examples: [{ cents: -1000, note: "Paid part of a class at the door" }]
})

export const GiftCardPage = Schema.Struct({ data: Schema.Array(GiftCard) })

/** As a guest types it: letters, digits, dashes and spaces, any case. */
export const GiftCardCode = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9 -]{4,40}$/, {
    message: () => "a gift card code is 4 to 40 letters, digits, dashes or spaces"
  })
)

/** gift_cards.purchase: a card a guest buys through a checkout of the processor, for someone (or themselves). */
export const GiftCardPurchase = Schema.Struct({
  amount_cents: Int(1, MAX_TOTAL_CENTS).annotations({
    description: "In the org currency's minor units; at least one whole unit (100 for EUR, 1 for JPY)"
  }),
  for_email: Email.annotations({ description: "Who gets the card: the code is emailed there once the payment lands" }),
  message: Schema.optional(Text(0, 1000).annotations({ description: "Sent with the code" })),
  buyer_email: Schema.optional(
    Email.annotations({ description: "The buyer's own address, given to the processor for its receipt" })
  ),
  buyer_name: Schema.optional(Text(1, 200).annotations({ description: "Named in the mail as the sender" }))
}).annotations({
  ...strict,
  identifier: "GiftCardPurchase",
  examples: [
    {
      amount_cents: 5000,
      for_email: "sam@example.com",
      message: "Happy birthday! A surf lesson on us.",
      buyer_email: "ana@example.com",
      buyer_name: "Ana"
    }
  ]
})
export type GiftCardPurchase = typeof GiftCardPurchase.Type

export const GiftCardPurchased = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("open", "paid", "expired", "failed"),
  amount_cents: Schema.Int,
  currency: Schema.String,
  for_email: Schema.String,
  checkout_url: Schema.NullOr(Schema.String).annotations({
    description: "Where the buyer pays; the card is issued and mailed when the payment lands"
  }),
  expires_at: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotations({ identifier: "GiftCardPurchased" })
export type GiftCardPurchased = typeof GiftCardPurchased.Type
