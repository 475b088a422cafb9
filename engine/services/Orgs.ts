import { createHash, randomBytes, randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { CurrencyLocked, Forbidden, MemberExists, NotAMember, notFound, SlugTaken } from "../errors/index.ts"
import { Signals } from "../ports/Signals.ts"
import { minorUnits, type Org } from "../schema/org.ts"
import type { TextKind } from "../schema/texting.ts"
import { isEmailTaken as isUniqueViolation } from "../store/customerRow.ts"
import { transaction } from "../store/transaction.ts"
import { webhookStore } from "../store/webhooks.ts"
import { fn, traced } from "../tracing.ts"
import { EngineClock } from "./Clock.ts"
import { CurrentOrg, type KeyKind, type Plan, type Role } from "./CurrentOrg.ts"
import { Events } from "./Events.ts"

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex")
const newKey = () => `bk_live_${randomBytes(24).toString("base64url")}`

interface OrgRow {
  readonly id: string
  readonly name: string
  readonly timezone: string
  readonly currency: string
  readonly plan: Plan
  readonly locale: string
  readonly mail_templates: Org["mail_templates"] | string
  readonly payments: "online" | "offline"
  readonly auto_acknowledge?: boolean
  readonly reply_to_domain?: string | null
  readonly allowed_origins?: ReadonlyArray<string>
  readonly guest_cancel_hours?: number | null
  readonly max_guest_holds?: number | null
  readonly max_held_percent?: number | null
  readonly slug?: string | null
  readonly phone?: string | null
  readonly preferred_channel?: "email" | "text"
  readonly text_kinds?: ReadonlyArray<TextKind>
  readonly reminder_hours?: number
  readonly created_at: Date
  readonly updated_at: Date | null
}

interface KeyRow {
  readonly id: string
  readonly prefix: string
  readonly name: string | null
  readonly user_id: string | null
  readonly role: Role
  readonly kind: KeyKind
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const toKey = (r: KeyRow) => ({
  id: r.id,
  prefix: r.prefix,
  name: r.name,
  user_id: r.user_id,
  role: r.role,
  kind: r.kind,
  created_at: r.created_at.toISOString(),
  revoked_at: r.revoked_at?.toISOString() ?? null
})

export const toOrg = (r: OrgRow): Org => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  currency: r.currency,
  currency_minor_units: minorUnits(r.currency),
  plan: r.plan,
  locale: r.locale,
  mail_templates: typeof r.mail_templates === "string" ? JSON.parse(r.mail_templates) : r.mail_templates,
  payments: r.payments,
  auto_acknowledge: r.auto_acknowledge ?? false,
  reply_to_domain: r.reply_to_domain ?? null,
  allowed_origins: [...(r.allowed_origins ?? [])],
  slug: r.slug ?? null,
  guest_cancel_hours: r.guest_cancel_hours === undefined ? 24 : r.guest_cancel_hours,
  max_guest_holds: r.max_guest_holds === undefined ? 3 : r.max_guest_holds,
  max_held_percent: r.max_held_percent === undefined ? 50 : r.max_held_percent,
  phone: r.phone ?? null,
  preferred_channel: r.preferred_channel ?? "email",
  text_kinds: [...(r.text_kinds ?? [])],
  reminder_hours: r.reminder_hours ?? 24,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null
})

export const canonicalLocale = (locale: string) => Intl.getCanonicalLocales(locale)[0]

/** A key's org is remembered this long per instance; a revocation reaches other instances through Signals (NOTIFY) within milliseconds. */
export const KEY_CACHE_MS = 5_000
const KEY_CACHE_MAX = 10_000
/** Payload "key:<api key id>" drops that key, "org:<org id>" every key of the org (its settings changed), "app:<oauth app id>" that app's tokens. */
export const KEYS_CHANNEL = "api_keys_changed"

type Authenticated = {
  id: string
  timezone: string
  currency: string
  plan: Plan
  apiKeyId: string
  role: Role
  userId: string | null
  keyKind: KeyKind
  allowedOrigins: ReadonlyArray<string>
  /** For an OAuth access token (mcp_at_…): its app (the org's approval of a client) and when it expires. */
  appId?: string
  expiresAt?: number
}

/** OAuth access tokens for MCP connector clients; they reach only /mcp. */
export const ACCESS_TOKEN_PREFIX = "mcp_at_"

export const canonicalZone = (zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone

export class Orgs extends Effect.Service<Orgs>()("Orgs", {
  dependencies: [Events.Default],
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const webhooks = webhookStore(sql)
    const clock = yield* EngineClock
    const events = yield* Events
    const signals = yield* Signals
    const keys = new Map<string, { readonly org: Authenticated; readonly at: number }>()
    // Counts the changes forgotten: a lookup that read its row before a change and returns after it must not put
    // what it read back in the cache (the revoked key would then act for 5 s more).
    let changes = 0
    const forget = (payload: string) => {
      changes++
      const [kind, id] = [payload.slice(0, payload.indexOf(":")), payload.slice(payload.indexOf(":") + 1)]
      for (const [hash, entry] of keys)
        if ((kind === "key" ? entry.org.apiKeyId : kind === "app" ? entry.org.appId : entry.org.id) === id)
          keys.delete(hash)
    }
    yield* signals.listen(KEYS_CHANNEL, {
      onMessage: forget,
      onReset: () => {
        changes++
        keys.clear()
      }
    })
    /** Remembers what a lookup begun at `since` (a count of changes) found, unless a key changed while it read. */
    const remember = (hash: string, org: Authenticated, since: number) => {
      if (since !== changes) return
      if (keys.size >= KEY_CACHE_MAX) keys.clear()
      keys.set(hash, { org, at: Date.now() })
    }
    /** Forgets here at once, then tells every instance. */
    const changed = (payload: string) =>
      Effect.zipRight(
        Effect.sync(() => forget(payload)),
        signals.notify(KEYS_CHANNEL, payload)
      )

    const findRow = (id: string) =>
      sql<OrgRow>`select * from orgs where id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.fromNullable(r[0]))
      )

    /** A team member by user id, or nothing: the check behind not_a_member. */
    const member = (orgId: string, userId: string) =>
      sql<{ user_id: string; email: string; name: string | null; role: Role }>`
        select user_id, email, name, role from members where org_id = ${orgId} and user_id = ${userId}::uuid and removed_at is null`.pipe(
        Effect.orDie,
        Effect.map((r) => Option.fromNullable(r[0]))
      )

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
      yield* sql`insert into api_keys ${sql.insert(row)}`.pipe(Effect.orDie)
      const role: Role = Option.match(owner, { onNone: () => "owner", onSome: (m) => m.role })
      return { ...toKey({ ...row, role, revoked_at: null }), key }
    })

    const keysOf = (orgId: string) =>
      sql<KeyRow>`
        select k.id, k.prefix, k.name, k.user_id, coalesce(m.role, 'owner') as role, k.kind, k.created_at, k.revoked_at
        from api_keys k left join members m on m.user_id = k.user_id
        where k.org_id = ${orgId} order by k.created_at, k.id`.pipe(
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
        yield* sql`insert into orgs ${sql.insert(row)}`
        return yield* createKey(id)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      return { org: toOrg({ ...row, mail_templates: {}, payments: "online", updated_at: null }), api_key: result }
    })

    /** Revokes a key, effective on every instance when this returns; scoped to one org when orgId is given. */
    const revokeKey = fn("Orgs.revokeKey")(function* (id: string, orgId?: string) {
      const at = yield* clock.now
      const rows = yield* sql<{ id: string; revoked_at: Date }>`
        update api_keys set revoked_at = coalesce(revoked_at, ${at})
        where id = ${id} ${orgId === undefined ? sql`` : sql`and org_id = ${orgId}`} returning id, revoked_at`.pipe(
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
      const rows = yield* sql<OrgRow>`
        select * from orgs ${query.after === undefined ? sql`` : sql`where id > ${query.after}`} order by id limit ${limit + 1}`.pipe(
        Effect.orDie
      )
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
        const rows =
          yield* sql<OrgRow>`update orgs set ${sql.update({ ...changes, updated_at: yield* clock.now })} where id = ${orgId} returning *`
        if (rows.length === 0) return Option.none<Org>()
        const org = toOrg(rows[0])
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

    /**
     * Resolves a presented key to its org, remembered for KEY_CACHE_MS; revoked keys resolve to nothing at once, on
     * every instance (the revocation is signalled). Unknown keys are not remembered.
     */
    /**
     * An OAuth access token: an owner's secret key of the org that approved its app, while the token is live, the app
     * not revoked and the key that approved it neither revoked nor (for a member's key) held by someone no longer owner.
     */
    const accessToken = (hash: string) =>
      Effect.flatMap(clock.now, (now) =>
        sql<OrgRow & { key_id: string; user_id: string | null; app_id: string; expires_at: Date }>`
          select o.*, k.id as key_id, k.user_id, a.id as app_id, t.expires_at
          from oauth_tokens t join oauth_apps a on a.id = t.app_id join api_keys k on k.id = a.api_key_id join orgs o on o.id = a.org_id
          left join members m on m.user_id = k.user_id and m.org_id = k.org_id and m.removed_at is null
          where t.hash = ${hash} and t.kind = 'access' and t.revoked_at is null and t.expires_at > ${now}
            and a.revoked_at is null and k.revoked_at is null and (k.user_id is null or m.role = 'owner')`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            Option.map(
              Option.fromNullable(rows[0]),
              (r): Authenticated => ({
                id: r.id,
                timezone: r.timezone,
                currency: r.currency,
                plan: r.plan,
                apiKeyId: r.key_id,
                role: "owner",
                userId: r.user_id,
                keyKind: "secret",
                allowedOrigins: [...(r.allowed_origins ?? [])],
                appId: r.app_id,
                expiresAt: r.expires_at.getTime()
              })
            )
          )
        )
      )

    const authenticate = (key: string): Effect.Effect<Option.Option<Authenticated>> => {
      const hash = hashKey(key)
      const cached = keys.get(hash)
      if (cached !== undefined && Date.now() - cached.at < KEY_CACHE_MS) {
        const expiresAt = cached.org.expiresAt
        if (expiresAt === undefined) return Effect.succeed(Option.some(cached.org))
        // A token's expiry is engine time: checked on every use, the cache never outlives it.
        return Effect.map(clock.now, (now) => {
          if (now.getTime() < expiresAt) return Option.some(cached.org)
          keys.delete(hash)
          return Option.none()
        })
      }
      const since = changes
      if (key.startsWith(ACCESS_TOKEN_PREFIX)) {
        return Effect.tap(
          accessToken(hash),
          Option.match({
            onNone: () => Effect.sync(() => keys.delete(hash)),
            onSome: (org: Authenticated) => Effect.sync(() => remember(hash, org, since))
          })
        )
      }
      // A member's key carries the member's role now; a key whose member left the team reaches nothing.
      return sql<
        OrgRow & { key_id: string; role: Role | null; member_key: boolean; user_id: string | null; key_kind: KeyKind }
      >`
        select o.*, k.id as key_id, m.role, k.user_id is not null as member_key, k.user_id, k.kind as key_kind
        from api_keys k join orgs o on o.id = k.org_id left join members m on m.user_id = k.user_id and m.org_id = k.org_id and m.removed_at is null
        where k.hash = ${hash} and k.revoked_at is null`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          Option.map(
            Option.fromNullable(rows[0]).pipe(Option.filter((r) => !r.member_key || r.role !== null)),
            (r) => ({
              id: r.id,
              timezone: r.timezone,
              currency: r.currency,
              plan: r.plan,
              apiKeyId: r.key_id,
              role: r.role ?? "owner",
              userId: r.user_id,
              keyKind: r.key_kind,
              allowedOrigins: [...(r.allowed_origins ?? [])]
            })
          )
        ),
        Effect.tap(
          Option.match({
            onNone: () => Effect.sync(() => keys.delete(hash)),
            onSome: (org) => Effect.sync(() => remember(hash, org, since))
          })
        )
      )
    }

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
      const inserted =
        yield* sql`insert into members ${sql.insert(member)} on conflict do nothing returning user_id`.pipe(
          Effect.orDie
        )
      if (inserted.length === 0) return yield* new MemberExists({ message: `${member.email} is already on the team` })
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

    const update = fn("Orgs.update")(function* (patch: {
      name?: string | undefined
      timezone?: string | undefined
      currency?: string | undefined
      locale?: string | undefined
      mail_templates?: Org["mail_templates"] | undefined
      payments?: "online" | "offline" | undefined
      auto_acknowledge?: boolean | undefined
      reply_to_domain?: string | null | undefined
      allowed_origins?: ReadonlyArray<string> | undefined
      guest_cancel_hours?: number | null | undefined
      max_guest_holds?: number | null | undefined
      max_held_percent?: number | null | undefined
      slug?: string | null | undefined
      phone?: string | null | undefined
      preferred_channel?: "email" | "text" | undefined
      text_kinds?: ReadonlyArray<TextKind> | undefined
      reminder_hours?: number | undefined
    }) {
      const org = yield* CurrentOrg
      const changes = Object.fromEntries(
        Object.entries({
          ...patch,
          timezone: patch.timezone && canonicalZone(patch.timezone),
          locale: patch.locale && canonicalLocale(patch.locale),
          mail_templates: patch.mail_templates && JSON.stringify(patch.mail_templates),
          reply_to_domain:
            patch.reply_to_domain === undefined ? undefined : (patch.reply_to_domain?.toLowerCase() ?? null),
          allowed_origins:
            patch.allowed_origins === undefined
              ? undefined
              : `{${[...new Set(patch.allowed_origins.map((o) => o.toLowerCase()))].join(",")}}`,
          text_kinds: patch.text_kinds === undefined ? undefined : `{${[...new Set(patch.text_kinds)].join(",")}}`
        }).filter(([, v]) => v !== undefined)
      )
      return yield* Effect.gen(function* () {
        if (patch.slug != null) {
          const [taken] = yield* sql`select 1 from orgs where slug = ${patch.slug} and id <> ${org.id}`
          if (taken !== undefined)
            return yield* new SlugTaken({ message: `the slug ${patch.slug} belongs to another org` })
        }
        if (patch.currency !== undefined) {
          // Amounts are stored in the org's minor units: once money has moved, they would change meaning.
          const [current] = yield* sql<{ currency: string; moved: boolean }>`
            select currency, exists (select 1 from bookings where org_id = ${org.id} and (total_cents > 0 or gift_cents > 0 or paid_cents > 0))
              or exists (select 1 from payments where org_id = ${org.id}) or exists (select 1 from gift_cards where org_id = ${org.id})
              or exists (select 1 from gift_purchases where org_id = ${org.id}) as moved
            from orgs where id = ${org.id} for update`
          if (current.currency !== patch.currency && current.moved) {
            return yield* new CurrencyLocked({
              message: `money has moved in ${current.currency} (priced bookings, payments or gift cards): the currency can no longer change`
            })
          }
        }
        const rows =
          yield* sql<OrgRow>`update orgs set ${sql.update({ ...changes, updated_at: yield* clock.now })} where id = ${org.id} returning *`
        const updated = toOrg(rows[0])
        yield* events.append(org.id, [{ type: "org.updated", data: updated }])
        return updated
      }).pipe(
        transaction(sql),
        // Two orgs taking one slug at once: the unique index refuses the second.
        Effect.catchTag("SqlError", (e) =>
          isUniqueViolation(e)
            ? Effect.fail(new SlugTaken({ message: `the slug ${patch.slug} belongs to another org` }))
            : Effect.die(e)
        ),
        Effect.tap(() => changed(`org:${org.id}`))
      )
    })

    const waiver = Effect.gen(function* () {
      const org = yield* CurrentOrg
      const rows = yield* sql<{ waiver_text: string | null; waiver_version: number }>`
        select waiver_text, waiver_version from orgs where id = ${org.id}`.pipe(Effect.orDie)
      return { text: rows[0].waiver_text, version: rows[0].waiver_version }
    })

    const setWaiver = fn("Orgs.setWaiver")(function* (text: string | null) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const rows = yield* sql<{ waiver_version: number }>`
          update orgs set waiver_text = ${text}, waiver_version = waiver_version + 1 where id = ${org.id} returning waiver_version`
        const result = { text, version: rows[0].waiver_version }
        yield* events.append(org.id, [{ type: "waiver.updated", data: { version: result.version, body: text } }])
        return result
      }).pipe(transaction(sql), Effect.orDie)
    })

    /** Whether this instance resolved the key lately (and it was not revoked since): which rate limit it counts against. */
    const isKnown = (key: string) => keys.has(hashKey(key))

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
      addMember,
      get,
      update,
      member,
      waiver,
      setWaiver
    } as const
  })
}) {}
