import { Effect } from "effect"
import { ClockNotTest, InvalidTo } from "../../../engine/errors/index.ts"
import { EngineClock } from "../../../engine/ports/Clock.ts"
import { PHONE_MESSAGE, toE164 } from "../../../engine/schema/phone.ts"
import { Owners } from "../../../engine/services/auth/Owners.ts"
import { Jobs } from "../../../engine/services/Jobs.ts"
import { Mail } from "../../../engine/services/mail/Mail.ts"
import { Orgs } from "../../../engine/services/Orgs.ts"
import { Texts } from "../../../engine/services/texts/Texts.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const adminHandlers = defineGroup(Api, "admin", (h) =>
  Effect.gen(function* () {
    const orgs = yield* Orgs
    const clock = yield* EngineClock
    const jobs = yield* Jobs
    const mail = yield* Mail
    const texts = yield* Texts
    const owners = yield* Owners
    return h
      .handle("create_org", ({ payload }) => owners.create(payload))
      .handle("orgs_without_owner", () => owners.withoutOwner)
      .handle("list_orgs", ({ urlParams }) => orgs.listOrgs(urlParams))
      .handle("get_org", ({ path }) => orgs.adminGet(path.org_id))
      .handle("update_org", ({ path, payload }) => orgs.adminUpdate(path.org_id, payload))
      .handle("list_keys", ({ path }) => orgs.listKeys(path.org_id))
      .handle("create_key", ({ path, payload }) => orgs.createKey(path.org_id, payload))
      .handle("revoke_key", ({ path }) => orgs.revokeKey(path.id))
      .handle("add_member", ({ path, payload }) => orgs.addMember(path.org_id, payload))
      .handle("mail", ({ urlParams }) => mail.sentTo(urlParams.to))
      .handle("texts", ({ urlParams }) => {
        // A + in a query string arrives as a space when not %-encoded: digits alone are taken as international.
        const typed = urlParams.to.trim()
        const phone = toE164(/^\d/.test(typed) ? `+${typed}` : typed)
        return phone === undefined
          ? Effect.fail(new InvalidTo({ message: `to: ${PHONE_MESSAGE}` }))
          : texts.sentTo(phone)
      })
      .handle("get_clock", () => Effect.map(clock.now, (d) => ({ now: d.toISOString() })))
      .handle("advance_clock", ({ payload }) =>
        clock.advance(payload.advance_seconds).pipe(
          Effect.mapError((message) => new ClockNotTest({ message })),
          Effect.tap(() => jobs.runDue),
          Effect.map((d) => ({ now: d.toISOString() }))
        )
      )
  })
)
