import { Effect } from "effect"
import { Links } from "../../ports/Links.ts"
import type { TextKind } from "../../schema/texting.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { type BookingMailKind, bookingMail } from "./bookingMails.ts"
import { Mail } from "./Mail.ts"

/**
 * A booking's mail to its guest, in the caller's transaction, when the booking has an address (an erased guest has
 * none): the one way a change of a booking mails its guest. `note` is the business's words to the guest; `textAs`
 * sends it as a text of that kind too, where the org wants those texted.
 */
export const guestMail = Effect.gen(function* () {
  const mail = yield* Mail
  const links = yield* Links
  return (
    kind: BookingMailKind,
    b: BookingRow & { c_email?: string | null; o_name?: string },
    options: { readonly note?: string | null | undefined; readonly textAs?: TextKind } = {}
  ) =>
    b.c_email
      ? mail
          .enqueue(b.org_id, {
            ...bookingMail(kind, b, b.c_email, b.o_name ?? "your booking", links.publicUrl, options.note),
            ...(options.textAs === undefined ? {} : { textAs: options.textAs })
          })
          .pipe(Effect.asVoid)
      : Effect.void
})
