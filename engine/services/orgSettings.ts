import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { CurrencyLocked, SlugTaken } from "../errors/index.ts"
import { EngineClock } from "../ports/Clock.ts"
import type { Org } from "../schema/org.ts"
import type { TextKind } from "../schema/texting.ts"
import { isEmailTaken as isUniqueViolation } from "../store/customerRow.ts"
import { lockCurrency, setWaiverText, slugTaken, updateOrg, waiverOf } from "../store/orgs.ts"
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
          if (yield* slugTaken(sql, patch.slug, org.id))
            return yield* new SlugTaken({ message: `the slug ${patch.slug} belongs to another org` })
        }
        if (patch.currency !== undefined) {
          // Amounts are stored in the org's minor units: once money has moved, they would change meaning.
          const current = yield* lockCurrency(sql, org.id)
          if (current.currency !== patch.currency && current.moved) {
            return yield* new CurrencyLocked({
              message: `money has moved in ${current.currency} (priced bookings, payments or gift cards): the currency can no longer change`
            })
          }
        }
        const updated = toOrg((yield* updateOrg<OrgRow>(sql, org.id, changes, yield* clock.now)) as OrgRow)
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
      const row = yield* waiverOf(sql, org.id).pipe(Effect.orDie)
      return { text: row.waiver_text, version: row.waiver_version }
    })

    const setWaiver = fn("Orgs.setWaiver")(function* (text: string | null) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const result = { text, version: yield* setWaiverText(sql, org.id, text) }
        yield* events.append(org.id, [{ type: "waiver.updated", data: { version: result.version, body: text } }])
        return result
      }).pipe(transaction(sql), Effect.orDie)
    })

    return { update, waiver, setWaiver } as const
  })
