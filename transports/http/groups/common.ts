import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

export const IdParam = HttpApiSchema.param("id", Schema.UUID)

const IDEMPOTENCY =
  "1 to 255 characters, per org, kept 48 hours: a retry with the same key and body replays the first 2xx answer " +
  "(Idempotent-Replayed: true); the same key with another body is 422 idempotency_key_reused; while the first still runs, 409 idempotency_in_progress"

/** Documented on every POST; the idempotency middleware reads it. */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations({ description: IDEMPOTENCY })
  )
})

export const BooleanFromString = Schema.Literal("true", "false").pipe(
  Schema.transform(Schema.Boolean, { strict: true, decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") })
)
/** cancel_bookings=true of the deletes that cancel what is booked. */
export const CancelBookings = BooleanFromString.annotations({
  description:
    "true to cancel the upcoming bookings (guests emailed, online payments refunded); needed when there are any"
})
