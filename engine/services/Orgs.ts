import { randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Forbidden, MemberExists, NotAMember, notFound } from "../errors/index.ts"
import { EngineClock } from "../ports/Clock.ts"
import type { Org } from "../schema/org.ts"
import {
  insertKey,
  insertOrg,
  keysOf as keyRowsOf,
  orgById,
  orgsPage,
  revokeKey as revokeKeyRow,
  updateOrg
} from "../store/orgs.ts"
import { insertMember, memberById } from "../store/team.ts"
import { transaction } from "../store/transaction.ts"
import { webhookStore } from "../store/webhooks.ts"
import { fn, traced } from "../tracing.ts"
import { CurrentOrg, type KeyKind, type Plan, type Role } from "./CurrentOrg.ts"
import { Events } from "./Events.ts"
import { orgKeyCache } from "./orgKeyCache.ts"
import { canonicalLocale, canonicalZone, hashKey, type KeyRow, newKey, type OrgRow, toKey, toOrg } from "./orgRows.ts"
import { orgSettings } from "./orgSettings.ts"

export {
  ACCESS_TOKEN_PREFIX,
  canonicalLocale,
  canonicalZone,
  hashKey,
  KEY_CACHE_MS,
  KEYS_CHANNEL,
  toOrg
} from "./orgRows.ts"

export class Orgs extends Effect.Service<Orgs>()("Orgs", {
  dependencies: [Events.Default],
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const webhooks = webhookStore(sql)
    const clock = yield* EngineClock
    const events = yield* Events
    const { changed, authenticate, cached, isKnown } = yield* orgKeyCache
    const { update, waiver, setWaiver } = yield* orgSettings(changed)

    const findRow = (id: string) => orgById<OrgRow>(sql, id).pipe(Effect.orDie, Effect.map(Option.fromNullable))

    /** A team member by user id, or nothing: the check behind not_a_member. */
    const member = (orgId: string, userId: string) =>
      memberById(sql, orgId, userId).pipe(Effect.orDie, Effect.map(Option.fromNullable))

    /** A new key for the org; with a member, the key is theirs and carries their role. */
    const createKey = fn("Orgs.createKey")(function* (
      orgId: string,
      opts: { name?: string | undefined; user_id?: string | undefined; kind?: KeyKind | undefined } = {}
    ) {
      const found = yield* findRow(orgId)
      if (Option.isNone(found)) return yield* notFound("org")
      const owner = opts.user_id === undefined ? Option.none() : yield* member(orgId, opts.user_id)
      if (opts.user_id !== undefined && Option.isNone(owner))
        return yield* new NotAMember({ message: "user_id is not a member of this org's team" })
      const kind = opts.kind ?? "secret"
      const key =
        kind === "secret"
          ? newKey()
          : `${kind === "publishable" ? "pk" : "rk"}_live_${randomBytes(24).toString("base64url")}`
      const row = {
        id: randomUUID(),
        org_id: orgId,
        prefix: key.slice(0, 12),
        hash: hashKey(key),
        name: opts.name ?? null,
        user_id: opts.user_id ?? null,
        kind,
        created_at: yield* clock.now
      }
      yield* insertKey(sql, row).pipe(Effect.orDie)
      const role: Role = Option.match(owner, { onNone: () => "owner", onSome: (m) => m.role })
      return { ...toKey({ ...row, role, revoked_at: null }), key }
    })

    const keysOf = (orgId: string) =>
      keyRowsOf<KeyRow>(sql, orgId).pipe(
        Effect.orDie,
        Effect.map((rows) => ({ data: rows.map(toKey) }))
      )

    /** Every key of an org, revoked ones too (admin API). */
    const listKeys = fn("Orgs.listKeys")(function* (orgId: string) {
      if (Option.isNone(yield* findRow(orgId))) return yield* notFound("org")
      return yield* keysOf(orgId)
    })

    const create = fn("Orgs.create")(function* (input: {
      name: string
      timezone: string
      currency: string
      plan?: Plan | undefined
      locale?: string | undefined
    }) {
      const id = randomUUID()
      const row = {
        id,
        name: input.name,
        timezone: canonicalZone(input.timezone),
        currency: input.currency,
        plan: input.plan ?? "free",
        locale: canonicalLocale(input.locale ?? "en"),
        created_at: yield* clock.now
      }
      const result = yield* Effect.gen(function* () {
        yield* insertOrg(sql, row)
        return yield* createKey(id)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      return { org: toOrg({ ...row, mail_templates: {}, payments: "online", updated_at: null }), api_key: result }
    })

    /** Revokes a key, effective on every instance when this returns; scoped to one org when orgId is given. */
    const revokeKey = fn("Orgs.revokeKey")(function* (id: string, orgId?: string) {
      const at = yield* clock.now
      const rows = yield* revokeKeyRow(sql, id, orgId, at).pipe(
        Effect.tap((rows) => (rows.length === 0 ? Effect.void : webhooks.switchOffForKey(id, at))),
        transaction(sql),
        Effect.orDie
      )
      if (rows.length === 0) return yield* notFound("api key")
      yield* changed(`key:${rows[0].id}`)
      return { id: rows[0].id, revoked_at: rows[0].revoked_at.toISOString() }
    })

    const adminGet = (orgId: string) =>
      Effect.flatMap(
        findRow(orgId),
        Option.match({ onNone: () => Effect.fail(notFound("org")), onSome: (r) => Effect.succeed(toOrg(r)) })
      )

    /** The platform's view: every org, in pages ordered by id. */
    const listOrgs = fn("Orgs.listOrgs")(function* (query: { limit?: number | undefined; after?: string | undefined }) {
      const limit = query.limit ?? 100
      const rows = yield* orgsPage<OrgRow>(sql, query.after, limit).pipe(Effect.orDie)
      const page = rows.slice(0, limit).map(toOrg)
      return { data: page, next_after: rows.length > limit ? page[page.length - 1].id : null }
    })

    /** The platform changes an org's plan (or name); its keys pick up the new plan at once on every instance. */
    const adminUpdate = fn("Orgs.adminUpdate")(function* (
      orgId: string,
      patch: { plan?: Plan | undefined; name?: string | undefined }
    ) {
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
      const updated = yield* Effect.gen(function* () {
        const row = yield* updateOrg<OrgRow>(sql, orgId, changes, yield* clock.now)
        if (row === undefined) return Option.none<Org>()
        const org = toOrg(row)
        yield* events.append(orgId, [{ type: "org.updated", data: org }])
        return Option.some(org)
      }).pipe(transaction(sql), Effect.orDie)
      if (Option.isNone(updated)) return yield* notFound("org")
      yield* changed(`org:${orgId}`)
      return updated.value
    })

    /** The org's own keys, for an owner's key (keys.*): a staff member's key is refused with 403. */
    const ownerOnly = Effect.flatMap(CurrentOrg, (org) =>
      org.role === "owner"
        ? Effect.succeed(org)
        : Effect.fail(new Forbidden({ message: "only an owner's API key may manage the org's API keys" }))
    )
    const ownKeys = Effect.flatMap(ownerOnly, (org) => keysOf(org.id))
    const createOwnKey = (input: { name?: string | undefined; user_id?: string | undefined }) =>
      Effect.flatMap(ownerOnly, (org) => createKey(org.id, input))
    const revokeOwnKey = (id: string) => Effect.flatMap(ownerOnly, (org) => revokeKey(id, org.id))

    const addMember = fn("Orgs.addMember")(function* (
      orgId: string,
      input: { email: string; name?: string | undefined; role: "owner" | "staff" }
    ) {
      if (Option.isNone(yield* findRow(orgId))) return yield* notFound("org")
      const member = {
        user_id: randomUUID(),
        org_id: orgId,
        email: input.email.toLowerCase(),
        name: input.name ?? null,
        role: input.role,
        created_at: yield* clock.now
      }
      if (!(yield* insertMember(sql, member).pipe(Effect.orDie)))
        return yield* new MemberExists({ message: `${member.email} is already on the team` })
      yield* events.append(orgId, [
        {
          type: "member.joined",
          data: { user_id: member.user_id, email: member.email, role: member.role, invite_id: null }
        }
      ])
      return { user_id: member.user_id, email: member.email, name: member.name, role: member.role }
    })

    const get = Effect.gen(function* () {
      const org = yield* CurrentOrg
      return toOrg(Option.getOrThrow(yield* findRow(org.id)))
    }).pipe(traced("Orgs.get"))

    return {
      isKnown,
      keysChanged: changed,
      create,
      createKey,
      revokeKey,
      listKeys,
      listOrgs,
      adminGet,
      adminUpdate,
      ownKeys,
      createOwnKey,
      revokeOwnKey,
      authenticate,
      cached,
      addMember,
      get,
      update,
      member,
      waiver,
      setWaiver
    } as const
  })
}) {}
