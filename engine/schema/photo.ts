import { Schema } from "effect"
import { described, strict, Text } from "./common.ts"

/** The largest photo accepted (5 MiB), however it comes: a JPEG body, base64 or a URL's answer. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024
/** Base64 of the largest photo (4 characters per 3 bytes). */
export const PHOTO_BASE64_MAX = Math.ceil(PHOTO_MAX_BYTES / 3) * 4
/** How long reading a photo's URL may take, from connecting to the last byte. */
export const PHOTO_FETCH_TIMEOUT_MS = 10_000

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const MiB = PHOTO_MAX_BYTES / 1024 / 1024

const meaning = {
  url: `An https URL of the JPEG, which the server reads once (no redirects, at most ${MiB} MiB, ${PHOTO_FETCH_TIMEOUT_MS / 1000} s): a private, loopback or reserved address is refused (400 invalid_url), a URL that does not answer 2xx is 400 photo_unreachable; or base64`,
  base64: `The JPEG's bytes in standard base64 (RFC 4648, no line breaks), at most ${MiB} MiB once decoded and within the request body limit (BODY_LIMIT, 2 MiB by default: about 1.5 MiB of JPEG); or url`
}

/**
 * offerings.set_photo's JSON body: the photo by URL or as base64, exactly one of them. The same operation takes the
 * JPEG itself as the body (Content-Type: image/jpeg).
 */
export const PhotoSource = Schema.Struct(
  described(meaning, {
    url: Schema.optional(Text(1, 2048)),
    base64: Schema.optional(
      Schema.String.pipe(
        Schema.filter((s) => s.length >= 4 && s.length <= PHOTO_BASE64_MAX && BASE64.test(s), {
          message: () =>
            `must be standard base64 (A-Z, a-z, 0-9, +, /, = at the end), 4 to ${PHOTO_BASE64_MAX} characters`,
          jsonSchema: { minLength: 4, maxLength: PHOTO_BASE64_MAX, pattern: BASE64.source }
        })
      )
    )
  })
)
  .annotations({
    ...strict,
    identifier: "PhotoSource",
    description: "Exactly one of url and base64",
    examples: [{ url: "https://images.example.com/kayak.jpg" }, { base64: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA==" }]
  })
  .pipe(
    Schema.filter((s) => (s.url === undefined) !== (s.base64 === undefined), {
      message: () => "send exactly one of url and base64"
    })
  )
export type PhotoSource = typeof PhotoSource.Type
