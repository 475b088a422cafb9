import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Option, Runtime } from "effect"
import { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import type { Orgs } from "../../engine/services/Orgs.ts"
import { PHOTO_MAX_BYTES, Photos } from "../../engine/services/offerings/Photos.ts"
import { readBytes } from "../shared/body.ts"
import { bearerFrom, type Credentials } from "../shared/credentials.ts"
import { errorReply, json, type Reply } from "../shared/reply.ts"
import { expectedError } from "./errors.ts"

/** PUT and DELETE /api/v1/offerings/{id}/photo (a JPEG body, read as bytes), GET /photos/{id}.jpg. */
export const PHOTO_PATH = /^\/api\/v1\/offerings\/([^/]+)\/photo$|^\/photos\/([^/]+)\.jpg$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

type Fail = { readonly _tag: string; readonly code: string; readonly message: string }

export const photoRoutes = (
  runtime: Runtime.Runtime<Orgs | Photos>,
  write: (res: ServerResponse, reply: Reply) => void,
  credentials: Credentials
) => {
  const run = <A>(e: Effect.Effect<A, unknown, Orgs | Photos>) =>
    Runtime.runPromise(runtime)(Effect.either(e)) as Promise<Either.Either<A, Fail>>
  return async (req: IncomingMessage, res: ServerResponse) => {
    const m = PHOTO_PATH.exec((req.url ?? "/").split("?")[0])!
    if (m[2] !== undefined) {
      if (req.method !== "GET" && req.method !== "HEAD")
        return write(res, errorReply(405, "method_not_allowed", "GET only", { allow: "GET" }))
      const found = UUID.test(m[2])
        ? await run(Effect.flatMap(Photos, (p) => p.get(m[2])))
        : Either.right(Option.none())
      if (Either.isLeft(found) || Option.isNone(found.right))
        return write(res, errorReply(404, "not_found", "no such photo"))
      const photo = found.right.value
      const headers = {
        "content-type": "image/jpeg",
        "cache-control": "public, max-age=31536000, immutable",
        etag: `"${photo.etag}"`
      }
      if (req.headers["if-none-match"] === `"${photo.etag}"`) return (res.writeHead(304, headers), res.end())
      res.writeHead(200, { ...headers, "content-length": String(photo.bytes.length) })
      return res.end(req.method === "HEAD" ? undefined : Buffer.from(photo.bytes))
    }
    const id = m[1]
    if (req.method !== "PUT" && req.method !== "DELETE")
      return write(res, errorReply(405, "method_not_allowed", "PUT or DELETE", { allow: "PUT, DELETE" }))
    // A secret key only: transports/shared/credentials.ts, door "photos".
    const admitted = await Runtime.runPromise(runtime)(
      credentials.authenticate("photos", bearerFrom(req.headers.authorization))
    )
    if (!admitted.ok) return write(res, errorReply(admitted.status, "unauthorized", admitted.message))
    const org = admitted.org
    if (!UUID.test(id)) return write(res, errorReply(404, "not_found", "no such offering"))
    const asOrg = <A, E>(e: Effect.Effect<A, E, Photos | CurrentOrg>) => Effect.provideService(e, CurrentOrg, org)
    let result: Either.Either<unknown, Fail>
    if (req.method === "PUT") {
      const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase()
      if (type !== "image/jpeg") {
        req.resume()
        return write(
          res,
          errorReply(415, "unsupported_media_type", "send the photo as the body with Content-Type: image/jpeg")
        )
      }
      const read = await readBytes(req, { limit: PHOTO_MAX_BYTES, what: "a photo" })
      if (!read.ok) return write(res, errorReply(read.refusal.status, read.refusal.code, read.refusal.message))
      const bytes = read.value ?? Buffer.alloc(0)
      result = await run(asOrg(Effect.flatMap(Photos, (p) => p.put(id, bytes))))
    } else {
      result = await run(asOrg(Effect.flatMap(Photos, (p) => p.remove(id))))
    }
    if (Either.isRight(result)) return write(res, json(200, result.right))
    const e = result.left
    const known = expectedError(e)
    if (known === undefined) throw e
    return write(res, errorReply(known.status, known.code, known.message))
  }
}
