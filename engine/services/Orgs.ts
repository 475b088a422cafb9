import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { conflict, notFound } from "../schema/errors.ts"
import { minorUnits, type Org } from "../schema/org.ts"
import { EngineClock } from "./Clock.ts"
import { CurrentOrg, type Plan } from "./CurrentOrg.ts"
import { Events } from "./Events.ts"
import { switchOffForKey } from "./webhooks/revoke.ts"

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex")
const newKey = () => `bk_live_${randomBytes(24).toString("base64url")}`

interface OrgRow {
  readonly id: string
  readonly name: string
  readonly timezone: string
  readonly currency: string
  readonly plan: Plan
  readonly payments: "online" | "offline"
  readonly created_at: Date
  readonly updated_at: Date | null
}

export const toOrg = (r: OrgRow): Org => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  currency: r.currency,
  currency_minor_units: minorUnits(r.currency),
  plan: r.plan,
  payments: r.payments,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null
})

export const canonicalZone = (zone: string) => new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone

export class Orgs extends Effect.Service<Orgs>()("Orgs", {
  dependencies: [Events.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events

    const findRow = (id: string) =>
      sql<OrgRow>`select * from orgs where id = ${id}`.pipe(Effect.orDie, Effect.map((r) => Option.fromNullable(r[0])))

    const createKey = Effect.fn("Orgs.createKey")(function*(orgId: string) {
      const found = yield* findRow(orgId)
      if (Option.isNone(found)) return yield* notFound("org")
      const key = newKey()
      const id = randomUUID()
      yield* sql`insert into api_keys ${
        sql.insert({ id, org_id: orgId, prefix: key.slice(0, 12), hash: hashKey(key), created_at: yield* clock.now })
      }`.pipe(Effect.orDie)
      return { id, key }
    })

    const create = Effect.fn("Orgs.create")(function*(input: {
      name: string
      timezone: string
      currency: string
      plan?: Plan | undefined
    }) {
      const id = randomUUID()
      const row = { id, name: input.name, timezone: canonicalZone(input.timezone), currency: input.currency, plan: input.plan ?? "free", created_at: yield* clock.now }
      const result = yield* Effect.gen(function*() {
        yield* sql`insert into orgs ${sql.insert(row)}`
        return yield* createKey(id)
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die))
      return { org: toOrg({ ...row, payments: "online", updated_at: null }), api_key: result }
    })

    const revokeKey = Effect.fn("Orgs.revokeKey")(function*(id: string) {
      const at = yield* clock.now
      const rows = yield* sql<{ id: string; revoked_at: Date }>`
        update api_keys set revoked_at = coalesce(revoked_at, ${at}) where id = ${id} returning id, revoked_at`.pipe(Effect.tap(() => switchOffForKey(sql, id, at)), sql.withTransaction, Effect.orDie)
      if (rows.length === 0) return yield* notFound("api key")
      return { id: rows[0].id, revoked_at: rows[0].revoked_at.toISOString() }
    })

    /** Resolves a presented key to its org; revoked keys resolve to nothing at once. */
    const authenticate = (key: string) =>
      sql<OrgRow & { key_id: string }>`
        select o.*, k.id as key_id from api_keys k join orgs o on o.id = k.org_id
        where k.hash = ${hashKey(key)} and k.revoked_at is null`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => ({ id: r.id, timezone: r.timezone, currency: r.currency, plan: r.plan, apiKeyId: r.key_id })))
      )

    const addMember = Effect.fn("Orgs.addMember")(function*(orgId: string, input: { email: string; name?: string | undefined; role: "owner" | "staff" }) {
      if (Option.isNone(yield* findRow(orgId))) return yield* notFound("org")
      const member = { user_id: randomUUID(), org_id: orgId, email: input.email.toLowerCase(), name: input.name ?? null, role: input.role, created_at: yield* clock.now }
      const inserted = yield* sql`insert into members ${sql.insert(member)} on conflict do nothing returning user_id`.pipe(Effect.orDie)
      if (inserted.length === 0) return yield* conflict("member_exists", `${member.email} is already on the team`)
      yield* events.append(orgId, [{ type: "member.joined", data: { user_id: member.user_id, email: member.email, role: member.role, invite_id: null } }])
      return { user_id: member.user_id, email: member.email, name: member.name, role: member.role }
    })

    const get = Effect.gen(function*() {
      const org = yield* CurrentOrg
      return toOrg(Option.getOrThrow(yield* findRow(org.id)))
    }).pipe(Effect.withSpan("Orgs.get"))

    const update = Effect.fn("Orgs.update")(function*(patch: { name?: string | undefined; timezone?: string | undefined; currency?: string | undefined; payments?: "online" | "offline" | undefined }) {
      const org = yield* CurrentOrg
      const changes = Object.fromEntries(Object.entries({ ...patch, timezone: patch.timezone && canonicalZone(patch.timezone) }).filter(([, v]) => v !== undefined))
      return yield* Effect.gen(function*() {
        const rows = yield* sql<OrgRow>`update orgs set ${sql.update({ ...changes, updated_at: yield* clock.now })} where id = ${org.id} returning *`
        const updated = toOrg(rows[0])
        yield* events.append(org.id, [{ type: "org.updated", data: updated }])
        return updated
      }).pipe(sql.withTransaction, Effect.orDie)
    })

    const team = Effect.gen(function*() {
      const org = yield* CurrentOrg
      const rows = yield* sql<{ user_id: string; email: string; name: string | null; role: "owner" | "staff" }>`
        select user_id, email, name, role from members where org_id = ${org.id} order by created_at`.pipe(Effect.orDie)
      return { data: rows }
    }).pipe(Effect.withSpan("Orgs.team"))

    /** A team member by user id, or nothing: the check behind not_a_member. */
    const member = (orgId: string, userId: string) =>
      sql<{ user_id: string; email: string; name: string | null }>`
        select user_id, email, name from members where org_id = ${orgId} and user_id = ${userId}::uuid`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.fromNullable(r[0]))
      )

    const waiver = Effect.gen(function*() {
      const org = yield* CurrentOrg
      const rows = yield* sql<{ waiver_text: string | null; waiver_version: number }>`
        select waiver_text, waiver_version from orgs where id = ${org.id}`.pipe(Effect.orDie)
      return { text: rows[0].waiver_text, version: rows[0].waiver_version }
    })

    const setWaiver = Effect.fn("Orgs.setWaiver")(function*(text: string | null) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function*() {
        const rows = yield* sql<{ waiver_version: number }>`
          update orgs set waiver_text = ${text}, waiver_version = waiver_version + 1 where id = ${org.id} returning waiver_version`
        const result = { text, version: rows[0].waiver_version }
        yield* events.append(org.id, [{ type: "waiver.updated", data: { version: result.version, body: text } }])
        return result
      }).pipe(sql.withTransaction, Effect.orDie)
    })

    return { create, createKey, revokeKey, authenticate, addMember, get, update, team, member, waiver, setWaiver } as const
  })
}) {}
