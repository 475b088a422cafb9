import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { InvalidPhoto, InvalidUrl, notFound, PhotoTooLarge, PhotoUnreachable } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { PhotoFetcher } from "../../ports/PhotoFetcher.ts"
import { PHOTO_FETCH_TIMEOUT_MS, PHOTO_MAX_BYTES, type PhotoSource } from "../../schema/photo.ts"
import { offeringStore } from "../../store/offerings.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { jpegSize } from "./jpeg.ts"
import { OfferingReads } from "./reads.ts"
import { type OfferingRow, toOffering } from "./row.ts"

export { PHOTO_MAX_BYTES }

/** Sides larger than this are refused (the decoder of whoever shows it would have to hold it). */
const MAX_SIDE = 10_000

/**
 * offerings.photo: an offering's JPEG, kept in Postgres and served at `photo_url` (PUBLIC_URL/photos/{id}.jpg?v=…,
 * the version changing with each upload, so it can be cached for good). Replacing or removing it is offering.updated.
 * The JPEG comes as bytes (REST's image/jpeg body), as base64 or from a URL read through the PhotoFetcher port (the
 * JSON body of REST and MCP); each goes through the same checks in `put`.
 */
export class Photos extends Effect.Service<Photos>()("Photos", {
  dependencies: [Events.Default, OfferingReads.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const links = yield* Links
    const fetcher = yield* PhotoFetcher
    const store = offeringStore(sql)
    const reads = yield* OfferingReads

    const offeringOf = (orgId: string, id: string) =>
      Effect.flatMap(
        sql<OfferingRow>`select * from offerings where id = ${id}::uuid and org_id = ${orgId} and deleted_at is null for update`,
        (rows) => (rows[0] === undefined ? Effect.fail(notFound("offering")) : Effect.succeed(rows[0]))
      )

    const put = fn("Photos.put")(function* (id: string, bytes: Uint8Array) {
      const org = yield* CurrentOrg
      if (bytes.length === 0)
        return yield* new InvalidPhoto({
          message: "the photo is empty: send the JPEG as the body (Content-Type: image/jpeg), as base64 or by url"
        })
      if (bytes.length > PHOTO_MAX_BYTES)
        return yield* new PhotoTooLarge({ message: `a photo is at most ${PHOTO_MAX_BYTES / 1024 / 1024} MiB` })
      const size = jpegSize(bytes)
      if (size === undefined) return yield* new InvalidPhoto({ message: "the photo is not a JPEG image" })
      if (size.width > MAX_SIDE || size.height > MAX_SIDE)
        return yield* new InvalidPhoto({ message: `a photo is at most ${MAX_SIDE} pixels on a side` })
      const etag = createHash("sha256").update(bytes).digest("base64url").slice(0, 16)
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        yield* offeringOf(org.id, id)
        yield* store.putPhoto({
          offering_id: id,
          org_id: org.id,
          bytes: Buffer.from(bytes),
          width: size.width,
          height: size.height,
          etag,
          updated_at: now
        })
        const offering = toOffering(
          yield* store.update(id, { photo_url: `${links.publicUrl}/photos/${id}.jpg?v=${etag}` }, now)
        )
        yield* events.append(org.id, [{ type: "offering.updated", data: offering }])
        return offering
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die), Effect.ensuring(reads.forget(id)))
    })

    /** The photo's bytes from a URL or base64 (PhotoSource holds exactly one), then `put`. */
    const set = fn("Photos.set")(function* (id: string, source: PhotoSource) {
      if (source.base64 !== undefined) return yield* put(id, Buffer.from(source.base64, "base64"))
      // The offering first: no URL is read for an offering the caller cannot change.
      const org = yield* CurrentOrg
      const found =
        yield* sql`select 1 from offerings where id = ${id}::uuid and org_id = ${org.id} and deleted_at is null`.pipe(
          Effect.orDie
        )
      if (found.length === 0) return yield* notFound("offering")
      const fetched = yield* fetcher.get(source.url ?? "", {
        limit: PHOTO_MAX_BYTES,
        timeoutMs: PHOTO_FETCH_TIMEOUT_MS
      })
      if (fetched.ok) return yield* put(id, fetched.bytes)
      const message = fetched.message
      switch (fetched.reason) {
        case "refused":
          return yield* new InvalidUrl({ message })
        case "too_large":
          return yield* new PhotoTooLarge({ message })
        case "unreachable":
          return yield* new PhotoUnreachable({ message })
      }
    })

    const remove = fn("Photos.remove")(function* (id: string) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const current = yield* offeringOf(org.id, id)
        yield* store.deletePhoto(id)
        if (current.photo_url === null) return toOffering(current)
        const offering = toOffering(yield* store.update(id, { photo_url: null }, now))
        yield* events.append(org.id, [{ type: "offering.updated", data: offering }])
        return offering
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die), Effect.ensuring(reads.forget(id)))
    })

    /** The photo's bytes for GET /photos/{id}.jpg (no key: photo_url is public, like the offering's public fields). */
    const get = (id: string) =>
      Effect.map(
        sql<{
          bytes: Uint8Array
          etag: string
        }>`select bytes, etag from offering_photos where offering_id = ${id}::uuid`.pipe(Effect.orDie),
        (rows) => Option.fromNullable(rows[0])
      )

    return { put, set, remove, get } as const
  })
}) {}
