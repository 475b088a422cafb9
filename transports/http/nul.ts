import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { BadRequest } from "../../engine/schema/errors.ts"

const NUL = "\u0000"

/** The path of the first string (or key) holding a NUL character, which Postgres text cannot store. */
const nulPath = (u: unknown, path: ReadonlyArray<string | number> = []): ReadonlyArray<string | number> | null => {
  if (typeof u === "string") return u.includes(NUL) ? path : null
  if (Array.isArray(u)) {
    for (const [i, v] of u.entries()) {
      const found = nulPath(v, [...path, i])
      if (found) return found
    }
    return null
  }
  if (typeof u === "object" && u !== null) {
    for (const [k, v] of Object.entries(u)) {
      const found = k.includes(NUL) ? [...path, k] : nulPath(v, [...path, k])
      if (found) return found
    }
  }
  return null
}

const refuse = (path: ReadonlyArray<string | number>) =>
  new BadRequest({
    code: path.length === 0 ? "invalid_body" : `invalid_${path[0]}`,
    message: `${path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(".").replace(/\.\[/g, "[") || "body"}: must not contain NUL characters`
  })

/**
 * One check for every operation: a NUL character anywhere in the query or the JSON body is 400 naming the
 * field, before any handler or SQL sees it.
 */
export const refuseNul = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = new URL(request.url, "http://local").searchParams
  for (const [k, v] of query) if (k.includes(NUL) || v.includes(NUL)) return Option.some(refuse([k]))
  if (request.method === "GET" || request.method === "DELETE") return Option.none()
  const text = yield* Effect.orElseSucceed(request.text, () => "")
  if (!text.includes("\\u0000") && !text.includes(NUL)) return Option.none()
  const parsed = yield* Effect.try(() => JSON.parse(text) as unknown).pipe(Effect.orElseSucceed(() => undefined))
  return Option.map(Option.fromNullable(nulPath(parsed)), refuse)
})
