import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import type { MailKind } from "../../schema/mailKinds.ts"
import { toE164 } from "../../schema/phone.ts"
import type { TextKind } from "../../schema/texting.ts"
import { textStore } from "../../store/texts.ts"
import { formatWhen, type MailVars, renderMail } from "./render.ts"

/** The booking mails that go as texts too, for an org that turned them on (org text_kinds). */
export const TEXTED: Partial<Record<MailKind, TextKind>> = { confirmed: "confirmed", called_off: "called_off" }

/** What of a mail decides its text: its facts, the text kind it asks for, its booking. */
export interface TextableMail {
  readonly vars?: MailVars | undefined
  readonly textAs?: TextKind | undefined
  readonly bookingId?: string | null | undefined
}

interface TextOrg {
  readonly name: string
  readonly timezone: string
  readonly locale: string
}

/**
 * A booking's text: short (one or two segments), in the org's language and zone: who sends it, what happened, when,
 * and the guest's page. A reminder says so.
 */
export const bookingText = (kind: TextKind, vars: MailVars, org: TextOrg) => {
  const when = vars.starts_at === null ? "" : formatWhen(new Date(vars.starts_at), org.timezone, org.locale)
  const what =
    kind === "reminder"
      ? `Reminder: ${vars.offering} (${vars.reference})`
      : renderMail(vars, { timezone: org.timezone, locale: org.locale, templates: {} }).subject
  return [`${org.name}: ${what}`, when, vars.page_url].filter((s) => s !== "").join("\n")
}

/**
 * The texts that go with booking mails: for a mail of a kind the org turned on, to a guest with a phone, a text in
 * the same transaction (refused at once, with why, when the number replied STOP). One read when the org has it off.
 */
export const bookingTexts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const store = yield* textStore
  const alongside = (orgId: string, mail: TextableMail) =>
    Effect.gen(function* () {
      const kind = mail.vars === undefined ? undefined : (mail.textAs ?? TEXTED[mail.vars.kind])
      if (kind === undefined || mail.vars === undefined || !mail.bookingId) return
      const [r] = yield* sql<TextOrg & { readonly phone: string }>`
        select g.name, g.timezone, g.locale, c.phone from orgs g
        join bookings b on b.org_id = g.id join customers c on c.id = b.customer_id
        where g.id = ${orgId} and b.id = ${mail.bookingId} and ${kind} = any(g.text_kinds)
          and c.phone is not null and c.erased_at is null`
      const to = r === undefined ? undefined : toE164(r.phone)
      if (to === undefined) return
      const body = bookingText(kind, mail.vars, r)
      yield* store.enqueue({ orgId, to, body, kind: `booking.${kind}`, bookingId: mail.bookingId }, yield* clock.now)
    }).pipe(Effect.orDie)
  return { alongside } as const
})
