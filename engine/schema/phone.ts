import { ParseResult, Schema } from "effect"
import { parsePhoneNumberFromString } from "libphonenumber-js"

export const PHONE_MESSAGE =
  "must be a phone number in international form, with + and the country code, such as +31 6 1234 5678"

/**
 * A phone number as people type it (spaces, dots, dashes, brackets; 00 for +) in E.164 (+31612345678), or undefined
 * when it is not a number that exists: libphonenumber-js's metadata decides (length and number ranges by country).
 * Without + or 00 the country is unknown, so a national number (06 1234 5678) is not one.
 */
export const toE164 = (typed: string): string | undefined => {
  const s = typed.trim().replace(/^00/, "+")
  if (!s.startsWith("+") || s.length > 40) return undefined
  const parsed = parsePhoneNumberFromString(s)
  return parsed?.isValid() ? parsed.number : undefined
}

/** A phone number in, E.164 out (what is stored and texted); anything else is refused with PHONE_MESSAGE. */
export const Phone = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (s, _, ast) => {
    const e164 = toE164(s)
    return e164 === undefined
      ? ParseResult.fail(new ParseResult.Type(ast, s, PHONE_MESSAGE))
      : ParseResult.succeed(e164)
  },
  encode: ParseResult.succeed
}).annotations({
  identifier: "Phone",
  description: "A phone number with its country code (+31 6 1234 5678, 0031 6...); stored and answered in E.164",
  examples: ["+31612345678"]
})
