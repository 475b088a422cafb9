import { Schema } from "effect"
import { Int, MAX_TOTAL_CENTS, strict, Text } from "./common.ts"
import { Email } from "./customer.ts"

/** A gift card as listed: never its code, which is shown once when issued (last4 tells cards apart). */
export const GiftCard = Schema.Struct({
  id: Schema.String,
  last4: Schema.String,
  amount_cents: Schema.Int.annotations({ description: "What it was issued for, in minor units of currency" }),
  balance_cents: Schema.Int.annotations({ description: "What is left to spend, in minor units of currency" }),
  currency: Schema.String,
  for_email: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "GiftCard" })
export type GiftCard = typeof GiftCard.Type

export const GiftCardIssued = Schema.Struct({
  ...GiftCard.fields,
  code: Schema.String.annotations({ description: "The code the guest types, shown only in this answer; stored as a hash" })
}).annotations({ identifier: "GiftCardIssued" })

export const GiftCardIssue = Schema.Struct({
  amount_cents: Int(1, MAX_TOTAL_CENTS).annotations({ description: "Minor units of the org's currency" }),
  for_email: Schema.optional(Email),
  note: Schema.optional(Text(0, 500))
}).annotations({ ...strict, identifier: "GiftCardIssue", examples: [{ amount_cents: 5000, for_email: "ada@example.com", note: "Birthday" }] })

export const GiftCardAdjust = Schema.Struct({
  cents: Int(-MAX_TOTAL_CENTS, MAX_TOTAL_CENTS).pipe(Schema.filter((n) => n !== 0, { message: () => "cents: a change, not 0" }))
    .annotations({ description: "Added to the balance (negative takes off); the balance never goes below zero" }),
  note: Text(1, 500)
}).annotations({ ...strict, identifier: "GiftCardAdjust", examples: [{ cents: -1000, note: "Paid part of a class at the door" }] })

export const GiftCardPage = Schema.Struct({ data: Schema.Array(GiftCard) })

/** As a guest types it: letters, digits, dashes and spaces, any case. */
export const GiftCardCode = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9 -]{4,40}$/, { message: () => "a gift card code is 4 to 40 letters, digits, dashes or spaces" })
)
