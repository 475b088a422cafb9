import { Schema } from "effect"
import { Phone } from "./phone.ts"

/** The booking mails an org may also send as texts to guests with a phone (org `text_kinds`). */
export const TEXT_KINDS = ["confirmed", "reminder", "called_off"] as const
export type TextKind = (typeof TEXT_KINDS)[number]

export const Channel = Schema.Literal("email", "text")

/** The org's texting settings, as the org record shows them. */
export const OrgTextFields = {
  phone: Schema.NullOr(Schema.String).annotations({
    description: "The business's own phone number in E.164 (+31612345678); null: none"
  }),
  preferred_channel: Channel.annotations({
    description:
      "How messages.send reaches a guest when the call names no channel: email, or text (for guests with a phone; others by email)"
  }),
  text_kinds: Schema.Array(Schema.Literal(...TEXT_KINDS)).annotations({
    description:
      "The booking mails also sent as texts to guests with a phone: confirmed, reminder (reminder_hours before the start), called_off"
  }),
  reminder_hours: Schema.Int.annotations({ description: "How long before the start the reminder text goes (1 to 168)" })
}

/** The same settings as org.update takes them. */
export const OrgTextUpdate = {
  phone: Schema.optional(
    Schema.NullOr(Phone).annotations({
      description: "The business's own phone number, with its country code (stored in E.164); null: none"
    })
  ),
  preferred_channel: Schema.optional(
    Channel.annotations({
      description: "How messages.send reaches a guest when the call names no channel: email (default) or text"
    })
  ),
  text_kinds: Schema.optional(
    Schema.Array(Schema.Literal(...TEXT_KINDS))
      .pipe(Schema.maxItems(3))
      .annotations({ description: "The booking mails also sent as texts: any of confirmed, reminder, called_off" })
  ),
  reminder_hours: Schema.optional(
    Schema.Int.pipe(
      Schema.between(1, 168, { message: () => "reminder_hours: a whole number of hours from 1 to 168" })
    ).annotations({ description: "How long before the start the reminder text goes, in hours (1 to 168; 24)" })
  )
}
