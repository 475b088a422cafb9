import { Schema } from "effect"

export const OrgId = Schema.UUID.pipe(Schema.brand("OrgId"))
export type OrgId = typeof OrgId.Type

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/

/** A real ISO 8601 instant with its offset: no rolled-over dates (31 February), no bare numbers. */
export const isInstant = (s: string) => {
  const m = ISO_INSTANT.exec(s)
  if (m === null) return false
  const [y, mo, d, h, mi, se = "0", oh = "0", om = "0"] = m.slice(1)
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  return day.getUTCFullYear() === Number(y) && day.getUTCMonth() === Number(mo) - 1 && day.getUTCDate() === Number(d) &&
    Number(h) <= 23 && Number(mi) <= 59 && Number(se) <= 59 && Number(oh) <= 23 && Number(om) <= 59
}

/** ISO 8601 instant in, Date out; always encoded back as UTC with Z. */
export const Instant = Schema.String.pipe(
  Schema.filter(isInstant, { message: () => "must be an ISO 8601 instant with its offset, such as 2026-05-01T09:00:00Z" }),
  Schema.compose(Schema.Date)
).annotations({ description: "ISO 8601 instant (UTC)" })
export const Timestamp = Schema.String.annotations({ description: "ISO 8601 UTC timestamp" })
export const LocalDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: () => "must be a real date YYYY-MM-DD"
  })
).annotations({ description: "Local date YYYY-MM-DD in the org's time zone" })

export const Int = (min: number, max?: number) =>
  max === undefined ? Schema.Int.pipe(Schema.greaterThanOrEqualTo(min)) : Schema.Int.pipe(Schema.between(min, max))
export const Text = (min: number, max: number) => Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max))

/** Request bodies refuse fields they do not know. */
export const strict = { parseOptions: { onExcessProperty: "error" } } as const

/** Any JSON value. Its JSON Schema is spelled out: Schema.Unknown's fixed `$id`, repeated, makes an OpenAPI document invalid. */
export const JsonValue = Schema.Unknown.annotations({ jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"] } })
export const JsonObject = Schema.Record({ key: Schema.String, value: JsonValue }).annotations({ description: "Free-form JSON object" })

export const ListOf = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ data: Schema.Array(item) })
