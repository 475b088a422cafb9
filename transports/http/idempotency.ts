import { HttpApiBuilder, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { badRequest } from "../../engine/schema/errors.ts"
import { Idempotency } from "../../engine/services/Idempotency.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { Api } from "./Api.ts"

const decoder = new TextDecoder()

const bodyText = (res: HttpServerResponse.HttpServerResponse) => {
  switch (res.body._tag) {
    case "Uint8Array":
      return Option.some(decoder.decode(res.body.body))
    case "Empty":
      return Option.some("")
    default:
      return Option.none()
  }
}

/** Applies Idempotency-Key to every authenticated POST (REST and MCP alike, since MCP calls run through here). */
export const IdempotencyLive = HttpApiBuilder.middleware(
  Api,
  Effect.gen(function*() {
    const idempotency = yield* Idempotency
    const orgs = yield* Orgs
    return (app: HttpApp.Default) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers["idempotency-key"]
        const bearer = /^Bearer (.+)$/i.exec(request.headers["authorization"] ?? "")?.[1]
        if (request.method !== "POST" || key === undefined || bearer === undefined || !request.url.startsWith("/api/")) return yield* app
        if (key.length === 0 || key.length > 255) return yield* badRequest("invalid_idempotency_key", "Idempotency-Key must be 1 to 255 characters")
        const org = yield* orgs.authenticate(bearer)
        if (Option.isNone(org)) return yield* app
        const body = yield* Effect.orElseSucceed(request.text, () => "")
        const hash = createHash("sha256").update(`${request.method} ${request.url}\n${body}`).digest("hex")
        const result = yield* idempotency.run(
          org.value.id,
          key,
          hash,
          Effect.map(app, (res) => {
            const text = bodyText(res)
            return {
              status: res.status,
              contentType: res.headers["content-type"] ?? "application/json",
              body: Option.getOrElse(text, () => ""),
              store: Option.isSome(text) && res.status < 300,
              response: res
            }
          })
        )
        if (!result.replayed && "response" in result) return result.response as HttpServerResponse.HttpServerResponse
        return HttpServerResponse.text(result.body, { status: result.status, contentType: result.contentType, headers: { "idempotent-replayed": "true" } })
      })
  })
)
