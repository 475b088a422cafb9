import { Schema } from "effect"
import { described, Int, LocalDate, MAX_TOTAL_CENTS, strict } from "./common.ts"

/** 3 to 40 of A-Z, 0-9, - and _; matched in any case. */
export const PromoCodeText = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{3,40}$/, { message: () => "a promo code is 3 to 40 of A-Z, 0-9, - and _" })
).annotations({ description: "3 to 40 of A-Z, 0-9, - and _; matched in any case" })

/** What a promo code's fields mean, in and out. */
const meaning = {
  code: "3 to 40 of A-Z, 0-9, - and _; unique in the org and matched in any case",
  percent_off: "Percent taken off a booking's total (1 to 100), rounded half up to a minor unit; or amount_off_cents",
  amount_off_cents: "Minor units taken off a booking's total (never below 0); or percent_off",
  uses: "Bookings that used it",
  starts_on: "First local date (the org's time zone) it applies; null: from now",
  ends_on: "Last local date it applies, inclusive; null: no end",
  active: "false switches it off (promo_code_inactive)"
}

export const PromoCode = Schema.Struct(
  described(meaning, {
    id: Schema.String,
    code: Schema.String,
    percent_off: Schema.NullOr(Schema.Int),
    amount_off_cents: Schema.NullOr(Schema.Int),
    max_uses: Schema.NullOr(Schema.Int),
    uses: Schema.Int,
    starts_on: Schema.NullOr(Schema.String),
    ends_on: Schema.NullOr(Schema.String),
    offering_ids: Schema.NullOr(Schema.Array(Schema.String)),
    active: Schema.Boolean,
    created_at: Schema.String,
    updated_at: Schema.NullOr(Schema.String)
  })
).annotations({ identifier: "PromoCode" })
export type PromoCode = typeof PromoCode.Type

const OfferingIds = Schema.NullOr(Schema.Array(Schema.UUID).pipe(Schema.minItems(1), Schema.maxItems(200))).annotations(
  {
    description: "The offerings it applies to; null: all"
  }
)
const MaxUses = Schema.NullOr(Int(1, 1_000_000)).annotations({
  description: "How many bookings may use it; null: unlimited"
})

export const PromoCodeCreate = Schema.Struct(
  described(meaning, {
    code: PromoCodeText,
    percent_off: Schema.optional(Int(1, 100)),
    amount_off_cents: Schema.optional(Int(1, MAX_TOTAL_CENTS)),
    max_uses: Schema.optional(MaxUses),
    starts_on: Schema.optional(Schema.NullOr(LocalDate)),
    ends_on: Schema.optional(Schema.NullOr(LocalDate)),
    offering_ids: Schema.optional(OfferingIds),
    active: Schema.optional(Schema.Boolean)
  })
).annotations({
  ...strict,
  identifier: "PromoCodeCreate",
  description: "Exactly one of percent_off and amount_off_cents",
  examples: [
    { code: "SUMMER10", percent_off: 10, max_uses: 100, ends_on: "2026-08-31" },
    { code: "WELCOME5", amount_off_cents: 500, offering_ids: ["6f1c2f0e-8a51-4a39-9a57-1f4d2b7c9e10"] }
  ]
})
export type PromoCodeCreate = typeof PromoCodeCreate.Type

/** Switch it on or off, change its limit, dates or offerings; the code and its discount stay as made. */
export const PromoCodeUpdate = Schema.Struct(
  described(meaning, {
    max_uses: Schema.optional(MaxUses),
    starts_on: Schema.optional(Schema.NullOr(LocalDate)),
    ends_on: Schema.optional(Schema.NullOr(LocalDate)),
    offering_ids: Schema.optional(OfferingIds),
    active: Schema.optional(Schema.Boolean)
  })
).annotations({ ...strict, identifier: "PromoCodeUpdate", examples: [{ active: false }] })
export type PromoCodeUpdate = typeof PromoCodeUpdate.Type

export const PromoCodePage = Schema.Struct({ data: Schema.Array(PromoCode) })
