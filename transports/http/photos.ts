import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Either, Option, Runtime } from "effect"
import { PHOTO_MAX_BYTES, Photos } from "../../engine/services/offerings/Photos.ts"
import { JSON_TYPE, readBytes, readText } from "../shared/body.ts"
import { refusalReply } from "../shared/failure.ts"
import { type Dispatch, errorReply, type Reply } from "../shared/reply.ts"

/** GET /photos/{id}.jpg: an offering's photo, served with no key (photo_url is public). */
export const SERVED_PHOTO_PATH = /^\/photos\/([^/]+)\.jpg$/
/** offerings.set_photo's path: its PUT is read here (a JPEG as bytes, or JSON), then dispatched as any operation. */
export const PHOTO_UPLOAD_PATH = /^\/api\/v1\/offerings\/[^/]+\/photo$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const JPEG_TYPE = /^image\/jpeg\s*(;.*)?$/i
const EXPECT = "the JPEG as the body with Content-Type: image/jpeg, or JSON (application/json) with url or base64"

/**
 * The photos' HTTP side. PUT /api/v1/offerings/{id}/photo is the contract's offerings.set_photo: its body is read here,
 * because it may be a JPEG (up to PHOTO_MAX_BYTES, as bytes) as well as JSON (up to the JSON surfaces' limit), and
 * then it goes through the dispatcher like every operation (credentials, the owner role, decoding, errors). Its DELETE
 * (offerings.delete_photo) is an ordinary JSON operation, served by the JSON surfaces.
 */
export const photoRoutes = (
  runtime: Runtime.Runtime<Photos>,
  write: (res: ServerResponse, reply: Reply, close?: boolean) => void,
  dispatch: Dispatch,
  bodyLimit: number
) => {
  const serve = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    if (req.method !== "GET" && req.method !== "HEAD")
      return write(res, errorReply(405, "method_not_allowed", "GET only", { allow: "GET" }))
    const found = UUID.test(id)
      ? await Runtime.runPromise(runtime)(Effect.either(Effect.flatMap(Photos, (p) => p.get(id))))
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

  const upload = async (req: IncomingMessage, res: ServerResponse) => {
    const type = String(req.headers["content-type"] ?? "").trim()
    const jpeg = JPEG_TYPE.test(type)
    const read = jpeg
      ? await readBytes(req, { limit: PHOTO_MAX_BYTES, what: "a photo" })
      : await readText(req, { limit: bodyLimit, type: JSON_TYPE, expect: EXPECT })
    if (!read.ok) return write(res, refusalReply(read.refusal), true)
    const reply = await dispatch({
      method: "PUT",
      url: req.url ?? "/",
      headers: req.headers,
      ...(jpeg
        ? { body: undefined, bytes: (read.value as Buffer | undefined) ?? new Uint8Array() }
        : { body: read.value as string | undefined }),
      surface: "api"
    })
    return write(res, reply)
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]
    const served = SERVED_PHOTO_PATH.exec(path)
    return served !== null ? serve(req, res, served[1]) : upload(req, res)
  }
}
