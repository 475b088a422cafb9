import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { strict, Text } from "../../../engine/schema/common.ts"
import { IdempotencyHeaders } from "./common.ts"

const TokenParam = HttpApiSchema.param("waiver_token", Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{16,64}$/)))

const WaiverView = Schema.Struct({
  offering: Schema.String,
  reference: Schema.String,
  starts_at: Schema.String,
  timezone: Schema.String,
  text: Schema.NullOr(Schema.String),
  version: Schema.Int,
  open: Schema.Boolean.annotations({ description: "false once the booking is cancelled or its hold lapsed" }),
  needed: Schema.Int,
  signed: Schema.Int,
  signatures: Schema.Array(Schema.Struct({ name: Schema.String, signed_at: Schema.String }))
}).annotations({ identifier: "WaiverView" })

const SignatureCreate = Schema.Struct({
  name: Text(1, 120),
  accept: Schema.Literal(true).annotations({ description: "Must be true: the person accepts the waiver's text" })
}).annotations({
  ...strict,
  identifier: "SignatureCreate",
  examples: [{ name: "Ada Lovelace", accept: true }]
})
const Signature = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  for: Schema.Literal("booker", "child", "guest"),
  version: Schema.Int.annotations({ description: "The waiver version accepted" }),
  signed_at: Schema.String,
  signed: Schema.Int,
  needed: Schema.Int
}).annotations({ identifier: "Signature" })

/** The waiver signing link's API: the waiver token is the credential, no API key. */
export const WaiversGroup = HttpApiGroup.make("waivers")
  .annotate(OpenApi.Description, "A booking's waiver signing link: the waiver token is the credential.")
  .add(
    HttpApiEndpoint.get("get")`/waivers/${TokenParam}`
      .addSuccess(WaiverView)
      .annotate(
        OpenApi.Summary,
        "A booking's waiver by its token: the text and version, who has signed, how many are needed"
      )
      .annotate(
        OpenApi.Description,
        "A booking's waiver by the token in its signing link (no API key): the text and version, who signed, how many signatures are needed (one per seat or person, one per rental). open is false once the booking is cancelled or its hold lapsed. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("sign")`/waivers/${TokenParam}/signatures`
      .setPayload(SignatureCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Signature, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Sign a booking's waiver for one person, until every signature needed is in (409 after)"
      )
      .annotate(
        OpenApi.Description,
        "Signs the booking's waiver for one person (no API key), accepting its current version, until every signature needed is in (409 waiver_complete after). Refused on a cancelled booking or lapsed hold (409 waiver_closed) or when the org has no waiver text (409 waiver_missing). Emits waiver.signed."
      )
  )
  .prefix("/api/v1")
