/**
 * The request field a 400 is about, as `error.param` carries it (as Stripe's errors do), so that a form can show the
 * message beside the field: `duration_minutes`, `hours[1].start_time`, `customer.email`. A decode failure names its
 * path itself; an engine refusal names its field by its message's first words (`quantity: at most 8 in one
 * booking`), by its code (`invalid_<field>`), or by the field its code is always about (`not_a_member`: teacher).
 * Refusals about no one field (`invalid_body`, `invalid_times`, `deposit_conflict`) carry none.
 */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  not_a_member: "teacher",
  capacity_not_supported: "capacity",
  guest_price_not_supported: "guest_price_cents",
  schedule_not_supported: "schedule",
  waitlist_not_supported: "waitlist_enabled",
  too_many_signatures: "waiver",
  waiver_not_asked: "waiver",
  gift_card_empty: "gift_card_code",
  gift_card_unknown: "gift_card_code",
  promo_code_expired: "promo_code",
  promo_code_inactive: "promo_code",
  promo_code_not_for_offering: "promo_code",
  promo_code_not_started: "promo_code",
  promo_code_unknown: "promo_code",
  promo_code_used_up: "promo_code"
}

/** invalid_<x> codes whose x is no request field. */
const NOT_FIELDS = new Set([
  "body",
  "query",
  "json",
  "times",
  "dates",
  "discount",
  "conversation",
  "photo",
  "idempotency_key"
])

const SEGMENT = String.raw`[a-z][a-z0-9_]*(?:\[\d+\])*`
const PREFIX = new RegExp(String.raw`^(${SEGMENT}(?:\.(?:${SEGMENT}|[A-Za-z0-9_-]{1,40}))*): `)

export const paramOf = (status: number, code: string, message: string, param?: string): string | undefined => {
  if (status !== 400) return undefined
  if (param !== undefined && param !== "") return param
  const named = code.startsWith("invalid_") || code in FIELD_OF_CODE
  const prefix = named ? PREFIX.exec(message)?.[1] : undefined
  if (prefix !== undefined) return prefix
  if (code in FIELD_OF_CODE) return FIELD_OF_CODE[code]
  const field = code.startsWith("invalid_") ? code.slice("invalid_".length) : undefined
  return field !== undefined && field !== "" && !NOT_FIELDS.has(field) ? field : undefined
}
