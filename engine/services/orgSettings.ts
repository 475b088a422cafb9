import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { CurrencyLocked, SlugTaken } from "../errors/index.ts"
import { EngineClock } from "../ports/Clock.ts"
import type { Org } from "../schema/org.ts"
import type { TextKind } from "../schema/texting.ts"
import { isEmailTaken as isUniqueViolation } from "../store/customerRow.ts"
import { transaction } from "../store/transaction.ts"
import { fn } from "../tracing.ts"
import { CurrentOrg } from "./CurrentOrg.ts"
import { Events } from "./Events.ts"
import type { orgKeyCache } from "./orgKeyCache.ts"
import { canonicalLocale, canonicalZone, type OrgRow, toOrg } from "./orgRows.ts"

export {
  ACCESS_TOKEN_PREFIX,
  canonicalLocale,
  canonicalZone,
  hashKey,
  KEY_CACHE_MS,
  KEYS_CHANNEL,
  toOrg
} from "./orgRows.ts"

/** The org's own settings (org.update) and its waiver text, for the org's key. */
export const orgSettings = (changed: Effect.Effect.Success<typeof orgKeyCache>["changed"]) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events

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

    return { update, waiver, setWaiver } as const
  })
