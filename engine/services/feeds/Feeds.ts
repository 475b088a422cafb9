import { createHash, randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Forbidden, InvalidBody, InvalidOfferingId, InvalidUserId, NotAMember, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import type { Feed, FeedCreate, FeedCreated, FeedsQuery } from "../../schema/feed.ts"
import { type FeedRow, feedById, feedsOf, insertFeed, openFeedByHash, revokeFeed } from "../../store/calendarFeeds.ts"
import { memberById } from "../../store/team.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Offerings } from "../offerings/Offerings.ts"
import { feedEvents } from "./contents.ts"
import { calendarText, uidHost } from "./ical.ts"

/** A feed's secret: what its URL carries; only its SHA-256 is kept. */
export const FEED_TOKEN = /^cal_[A-Za-z0-9_-]{43}$/
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

/** How often subscribed calendars are asked to fetch again. */
const REFRESH_SECONDS = 3600

const toFeed = (r: FeedRow): Feed => ({
  id: r.id,
  kind: r.kind,
  user_id: r.user_id,
  offering_id: r.offering_id,
  created_at: r.created_at.toISOString(),
  revoked_at: r.revoked_at === null ? null : r.revoked_at.toISOString()
})

/**
 * feeds.*: secret iCalendar URLs per team member or offering, and the public feed behind them. Owners manage every
 * feed of the org; a staff member their own member feeds only.
 */
export class Feeds extends Effect.Service<Feeds>()("Feeds", {
  dependencies: [Offerings.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const offerings = yield* Offerings

    const urlOf = (token: string) => Effect.map(Links, (l) => `${l.publicUrl}/feeds/${token}.ics`)

    /** Whether the caller may see or change a feed: an owner any, a staff member their own member feed. */
    const mayTouch = (org: CurrentOrg["Type"], feed: { kind: string; user_id: string | null }) =>
      org.role === "owner" || (feed.kind === "member" && feed.user_id !== null && feed.user_id === org.userId)

    const staffOnly = (org: CurrentOrg["Type"]) =>
      new Forbidden({
        message:
          org.role === "owner" ? "not allowed" : "a staff member manages their own member feed only (owners manage all)"
      })

    const list = fn("Feeds.list")(function* (query: FeedsQuery) {
      const org = yield* CurrentOrg
      if (query.offering_id !== undefined) yield* offerings.known(query.offering_id)
      // Staff see their own; owners everyone's.
      const mine = org.role === "owner" ? query.user_id : (org.userId ?? "00000000-0000-0000-0000-000000000000")
      if (org.role !== "owner" && query.user_id !== undefined && query.user_id !== org.userId)
        return yield* staffOnly(org)
      const rows = yield* feedsOf(sql, org.id, mine).pipe(Effect.orDie)
      return {
        data: rows.filter((r) => query.offering_id === undefined || r.offering_id === query.offering_id).map(toFeed)
      }
    })

    /** Checks what a new feed would show and that the caller may make it. */
    const target = (input: FeedCreate) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        if (input.kind === "offering") {
          if (input.user_id !== undefined) return yield* new InvalidBody({ message: "user_id is for member feeds" })
          if (input.offering_id === undefined)
            return yield* new InvalidOfferingId({ message: "an offering feed names offering_id" })
          if (org.role !== "owner") return yield* staffOnly(org)
          yield* offerings.known(input.offering_id)
          return { kind: "offering" as const, user_id: null, offering_id: input.offering_id }
        }
        if (input.offering_id !== undefined)
          return yield* new InvalidBody({ message: "offering_id is for offering feeds" })
        const userId = input.user_id ?? org.userId ?? undefined
        if (userId === undefined)
          return yield* new InvalidUserId({
            message: "a member feed names user_id: this key belongs to no team member"
          })
        if (!mayTouch(org, { kind: "member", user_id: userId })) return yield* staffOnly(org)
        const member = yield* memberById(sql, org.id, userId).pipe(Effect.orDie)
        if (member === undefined) return yield* new NotAMember({ message: `user ${userId} is not on the org's team` })
        return { kind: "member" as const, user_id: userId, offering_id: null }
      })

    const made = (orgId: string, what: Pick<FeedRow, "kind" | "user_id" | "offering_id">, now: Date) =>
      Effect.gen(function* () {
        const token = `cal_${randomBytes(32).toString("base64url")}`
        const row: FeedRow = {
          id: randomUUID(),
          org_id: orgId,
          kind: what.kind,
          user_id: what.user_id,
          offering_id: what.offering_id,
          created_at: now,
          revoked_at: null
        }
        yield* insertFeed(sql, { ...row, token_hash: sha256(token) }).pipe(Effect.orDie)
        return { ...toFeed(row), url: yield* urlOf(token) } satisfies FeedCreated
      })

    const create = fn("Feeds.create")(function* (input: FeedCreate) {
      const org = yield* CurrentOrg
      const what = yield* target(input)
      return yield* made(org.id, what, yield* clock.now)
    })

    /** The caller's feed, open or revoked (404 for another org's or one they may not see). */
    const owned = (id: string) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const row = yield* feedById(sql, org.id, id).pipe(Effect.orDie)
        if (row === undefined) return yield* notFound("feed")
        if (!mayTouch(org, row)) return yield* staffOnly(org)
        return row
      })

    const remove = fn("Feeds.remove")(function* (id: string) {
      const org = yield* CurrentOrg
      const row = yield* owned(id)
      if (row.revoked_at !== null) return toFeed(row)
      const revoked = yield* revokeFeed(sql, org.id, id, yield* clock.now).pipe(Effect.orDie)
      return toFeed(revoked ?? row)
    })

    /** Made again: the feed revoked and a new one for the same member or offering, in one transaction. */
    const rotate = fn("Feeds.rotate")(function* (id: string) {
      const org = yield* CurrentOrg
      const row = yield* owned(id)
      if (row.revoked_at !== null) return yield* notFound("feed")
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const revoked = yield* revokeFeed(sql, org.id, id, now).pipe(Effect.orDie)
        if (revoked === undefined) return yield* notFound("feed")
        return yield* made(org.id, row, now)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** The public feed: an iCalendar document, or nothing for a token that opens no feed. */
    const ics = (token: string) =>
      Effect.gen(function* () {
        if (!FEED_TOKEN.test(token)) return undefined
        const feed = yield* openFeedByHash(sql, sha256(token))
        if (feed === undefined) return undefined
        const now = yield* clock.now
        const host = uidHost((yield* Links).publicUrl)
        const events = yield* feedEvents(
          sql,
          feed.kind === "member"
            ? { kind: "member", orgId: feed.org_id, userId: feed.user_id ?? "" }
            : { kind: "offering", orgId: feed.org_id, offeringId: feed.offering_id ?? "" },
          now,
          host
        )
        return calendarText({
          name: `${feed.label ?? "Calendar"} (${feed.org_name})`,
          zone: feed.timezone,
          now,
          events,
          refreshSeconds: REFRESH_SECONDS
        })
      }).pipe(Effect.orDie, Effect.withSpan("Feeds.ics"))

    return { list, create, remove, rotate, ics } as const
  })
}) {}
