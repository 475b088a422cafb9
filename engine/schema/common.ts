import { Schema } from "effect"
import { isValidLocalDate } from "../time/local.ts"

export const OrgId = Schema.UUID.pipe(Schema.brand("OrgId"))
export type OrgId = typeof OrgId.Type

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/

/** A real ISO 8601 instant with its offset: no rolled-over dates (31 February), no bare numbers. */
export const isInstant = (s: string) => {
  const m = ISO_INSTANT.exec(s)
  if (m === null) return false
  const [y, mo, d, h, mi, se = "0", oh = "0", om = "0"] = m.slice(1)
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  return (
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) <= 23 &&
    Number(mi) <= 59 &&
    Number(se) <= 59 &&
    Number(oh) <= 23 &&
    Number(om) <= 59
  )
}

/** ISO 8601 instant in, Date out; always encoded back as UTC with Z. */
export const Instant = Schema.String.pipe(
  Schema.filter(isInstant, {
    message: () => "must be an ISO 8601 instant with its offset, such as 2026-05-01T09:00:00Z"
  }),
  Schema.compose(Schema.Date)
).annotations({ description: "ISO 8601 instant (UTC)" })
export const Timestamp = Schema.String.annotations({ description: "ISO 8601 UTC timestamp" })
/** Local dates that enter the API lie in these years: every loop over dates stays in four-digit years. */
export const FIRST_YEAR = 1900
export const LAST_YEAR = 2999

export const LocalDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.filter((s) => isValidLocalDate(s), { message: () => "must be a real date YYYY-MM-DD" }),
  Schema.filter((s) => Number(s.slice(0, 4)) >= FIRST_YEAR && Number(s.slice(0, 4)) <= LAST_YEAR, {
    message: () => `must be a date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31`
  })
).annotations({ description: "Local date YYYY-MM-DD in the org's time zone" })

export const Int = (min: number, max?: number) =>
  max === undefined ? Schema.Int.pipe(Schema.greaterThanOrEqualTo(min)) : Schema.Int.pipe(Schema.between(min, max))

/**
 * A whole number in a query string, from min (to max): decoded from its text, and described to OpenAPI and MCP as the
 * integer it is, bounds kept (an MCP argument may be the number itself; it is sent as its text).
 */
export const QueryInt = (min: number, max: number | undefined, description: string) =>
  Schema.NumberFromString.pipe(Schema.compose(Int(min, max))).annotations({
    description,
    jsonSchema: { type: "integer", minimum: min, ...(max === undefined ? {} : { maximum: max }), description }
  })

/**
 * Characters as the spec counts "chars": Unicode code points, so an emoji or a CJK extension character is one
 * character, not the two UTF-16 code units of String.length. JSON Schema's minLength and maxLength count the same.
 */
export const charCount = (s: string): number => {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) n--, i++
    }
  }
  return n
}

/** Whether a string has `min` to `max` characters (code points); counts only when its UTF-16 length cannot tell. */
export const charsWithin = (s: string, min: number, max: number): boolean => {
  // A string has at most s.length and at least s.length / 2 code points.
  if (s.length < min || s.length > 2 * max) return false
  if (s.length <= max && s.length >= 2 * min) return true
  const n = charCount(s)
  return n >= min && n <= max
}

/** The first `max` characters (code points) of a string: never half of a surrogate pair. */
export const truncateChars = (s: string, max: number): string => {
  if (s.length <= max) return s
  let units = 0
  for (let n = 0; n < max && units < s.length; n++) units += (s.codePointAt(units) ?? 0) > 0xffff ? 2 : 1
  return s.slice(0, units)
}

/** A string of `min` to `max` characters (code points), with the same bounds in its JSON Schema. */
export const Text = (min: number, max: number) => {
  const says = min === 0 ? `at most ${max} characters` : `${min} to ${max} characters`
  return Schema.String.pipe(
    Schema.filter((s) => charsWithin(s, min, max), {
      message: () => `must be ${says}`,
      description: `${says} (Unicode code points)`,
      jsonSchema: min === 0 ? { maxLength: max } : { minLength: min, maxLength: max }
    })
  )
}

/**
 * The most one booking may cost, in minor units: what a payment processor takes in one charge (Stripe: 99,999,999
 * for most currencies, 999,999.99 EUR), and far inside the integer columns that store totals and payments.
 */
export const MAX_TOTAL_CENTS = 99_999_999

/** Request bodies refuse fields they do not know. */
export const strict = { parseOptions: { onExcessProperty: "error" } } as const

/** Any JSON value. Its JSON Schema is spelled out: Schema.Unknown's fixed `$id`, repeated, makes an OpenAPI document invalid. */
export const JsonValue = Schema.Unknown.annotations({
  jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"] }
})
export const JsonObject = Schema.Record({ key: Schema.String, value: JsonValue }).annotations({
  description: "Free-form JSON object"
})

/** Most bytes of metadata (as JSON, UTF-8) one resource keeps: events carry it, so it is bounded where it enters. */
export const METADATA_MAX_BYTES = 16_384
/** Deepest nesting of objects and arrays accepted in metadata. */
export const METADATA_MAX_DEPTH = 32

const depthOf = (u: unknown, limit: number): number => {
  // Iterative, so an input nested beyond any stack cannot throw here.
  let deepest = 0
  const stack: Array<[unknown, number]> = [[u, 0]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (typeof v !== "object" || v === null) continue
    if (d + 1 > deepest) deepest = d + 1
    if (deepest > limit) return deepest
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1])
  }
  return deepest
}

/** Metadata as sent: a JSON object of at most METADATA_MAX_BYTES, nested at most METADATA_MAX_DEPTH deep. */
export const MetadataInput = JsonObject.pipe(
  Schema.filter((o) => depthOf(o, METADATA_MAX_DEPTH) <= METADATA_MAX_DEPTH, {
    message: () => `must be nested at most ${METADATA_MAX_DEPTH} deep`
  }),
  Schema.filter((o) => Buffer.byteLength(JSON.stringify(o)) <= METADATA_MAX_BYTES, {
    message: () => `must be at most ${METADATA_MAX_BYTES} bytes as JSON`
  })
).annotations({
  description: `Free-form JSON object, at most ${METADATA_MAX_BYTES} bytes as JSON and ${METADATA_MAX_DEPTH} levels deep`
})

export const ListOf = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ data: Schema.Array(item) })

/**
 * Fields with what they mean: each named in `meaning` gets it as its description (OpenAPI, MCP tool schemas), on the
 * property, so a field's bounds keep their own JSON Schema keywords.
 */
export const described = <F extends Schema.Struct.Fields>(meaning: Readonly<Record<string, string>>, fields: F): F =>
  Object.fromEntries(
    Object.entries(fields).map(([k, s]) => [
      k,
      meaning[k] === undefined
        ? s
        : Schema.isPropertySignature(s)
          ? s.annotations({ description: meaning[k] })
          : Schema.propertySignature(s).annotations({ description: meaning[k] })
    ])
  ) as F
