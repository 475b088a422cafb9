import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

export const IdParam = HttpApiSchema.param("id", Schema.UUID)

/** Documented on every POST; the idempotency middleware reads it. */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)))
})

export const BooleanFromString = Schema.Literal("true", "false").pipe(
  Schema.transform(Schema.Boolean, { strict: true, decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") })
)
