import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { EngineClock } from "../ports/Clock.ts"
import { Signals } from "../ports/Signals.ts"
import type { KeyKind, Role } from "./CurrentOrg.ts"
import {
  ACCESS_TOKEN_PREFIX,
  type Authenticated,
  hashKey,
  KEY_CACHE_MAX,
  KEY_CACHE_MS,
  KEYS_CHANNEL,
  type OrgRow
} from "./orgRows.ts"

/**
 * The keys this instance resolved lately, forgotten on every instance when a key, an app, a member or an org's settings
 * change; and the lookup of a presented key (an API key or an OAuth access token) through it.
 *
 * The notices come from the database (engine/store/rules/keys.sql): the change's own transaction sends them, so every
 * instance listening hears each committed change, in commit order, a notification's trip after the commit. The
 * instance that made the change forgets at once as well (`changed`), before it answers. While this instance does not
 * listen (its listening connection dropped, not yet back), nothing new is remembered, and everything is forgotten when
 * the connection drops and again once it listens anew (notices may have been missed meanwhile).
 */
/** How long a key resolved once counts against its own rate limit (a window of the limiter). */
const SEEN_MS = 60_000

export const orgKeyCache = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const signals = yield* Signals
  const keys = new Map<string, { readonly org: Authenticated; readonly at: number }>()
  // Keys resolved to an org lately (hash -> when), for the rate limit's choice only: kept apart from `keys`, which a
  // listener's reset empties and which nothing refills while the listener is down. Were the choice read from `keys`, a
  // good key's requests would then count against their address's small limit and, once it is spent, never reach a
  // lookup again until the window turns (a run of 429s seen in the http bench).
  const seen = new Map<string, number>()
  const resolved = (hash: string) => {
    if (seen.size >= KEY_CACHE_MAX) seen.clear()
    seen.set(hash, Date.now())
  }
  const unresolved = (hash: string) => {
    keys.delete(hash)
    seen.delete(hash)
  }
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
    if (since !== changes || !signals.listening()) return
    if (keys.size >= KEY_CACHE_MAX) keys.clear()
    keys.set(hash, { org, at: Date.now() })
  }
  /** Forgets here at once, after the change committed: the other instances hear it from the commit itself. */
  const changed = (payload: string) => Effect.sync(() => forget(payload))

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

  /**
   * Resolves a presented key to its org, remembered for at most KEY_CACHE_MS; a revoked key resolves to nothing at once
   * on the instance that revoked it, and on every other as soon as the commit's notice reaches it. Unknown keys are not
   * remembered.
   */
  const authenticate = (key: string): Effect.Effect<Option.Option<Authenticated>> => {
    const hash = hashKey(key)
    const cached = keys.get(hash)
    if (cached !== undefined && Date.now() - cached.at < KEY_CACHE_MS) {
      const expiresAt = cached.org.expiresAt
      if (expiresAt === undefined) return Effect.succeed(Option.some(cached.org))
      // A token's expiry is engine time: checked on every use, the cache never outlives it.
      return Effect.map(clock.now, (now) => {
        if (now.getTime() < expiresAt) return Option.some(cached.org)
        unresolved(hash)
        return Option.none()
      })
    }
    const since = changes
    if (key.startsWith(ACCESS_TOKEN_PREFIX)) {
      return Effect.tap(
        accessToken(hash),
        Option.match({
          onNone: () => Effect.sync(() => unresolved(hash)),
          onSome: (org: Authenticated) =>
            Effect.sync(() => {
              resolved(hash)
              remember(hash, org, since)
            })
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
        Option.map(Option.fromNullable(rows[0]).pipe(Option.filter((r) => !r.member_key || r.role !== null)), (r) => ({
          id: r.id,
          timezone: r.timezone,
          currency: r.currency,
          plan: r.plan,
          apiKeyId: r.key_id,
          role: r.role ?? "owner",
          userId: r.user_id,
          keyKind: r.key_kind,
          allowedOrigins: [...(r.allowed_origins ?? [])]
        }))
      ),
      Effect.tap(
        Option.match({
          onNone: () => Effect.sync(() => unresolved(hash)),
          onSome: (org) =>
            Effect.sync(() => {
              resolved(hash)
              remember(hash, org, since)
            })
        })
      )
    )
  }

  /**
   * Whether this instance resolved the key to an org within the last minute (a lookup since that found nothing
   * forgets it): which rate limit it counts against. Authentication itself never reads this.
   */
  const isKnown = (key: string) => {
    const hash = hashKey(key)
    if (keys.has(hash)) return true
    const at = seen.get(hash)
    return at !== undefined && Date.now() - at < SEEN_MS
  }

  /**
   * What `authenticate` would answer from the cache alone, without a fiber: the org of an API key this instance
   * resolved within KEY_CACHE_MS, else undefined (an OAuth token, whose expiry is engine time, always undefined).
   */
  const cached = (key: string): Authenticated | undefined => {
    const entry = keys.get(hashKey(key))
    if (entry === undefined || Date.now() - entry.at >= KEY_CACHE_MS || entry.org.expiresAt !== undefined)
      return undefined
    return entry.org
  }

  return { changed, authenticate, cached, isKnown } as const
})
