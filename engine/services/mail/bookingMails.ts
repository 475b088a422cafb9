import { guestPage, payAgainPage, waiverPage } from "../../ports/Links.ts"
import type { MailKind } from "../../schema/mailKinds.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import type { NewMail } from "./Mail.ts"
import { type MailVars, renderMail } from "./render.ts"

export type BookingMailKind = MailKind

/**
 * A mail to the guest about their booking; the only place the guest page handle ever goes. It carries the facts
 * (`vars`); the sender renders them in the org's language and zone. subject and text are the plain English, UTC
 * rendering kept on the row for support. A nudge about a hold with a checkout links to a fresh checkout.
 */
/** Whether someone on the booking still has to sign: a mail never asks for a waiver that is signed. */
const unsigned = (b: Pick<BookingRow, "waiver_needed" | "waiver_signed">) =>
  b.waiver_needed !== null && b.waiver_signed < b.waiver_needed

/** An assistant's hold is the guest's to confirm: its mail says by when, and how long the hold is. */
const confirmBy = (kind: BookingMailKind, b: Pick<BookingRow, "source" | "expires_at" | "created_at">) =>
  kind === "held" && b.source === "assistant" && b.expires_at && b.created_at
    ? {
        confirm_by: b.expires_at.toISOString(),
        confirm_minutes: Math.round((b.expires_at.getTime() - b.created_at.getTime()) / 60_000)
      }
    : {}

export const bookingMail = (
  kind: BookingMailKind,
  b: Pick<
    BookingRow,
    | "id"
    | "reference"
    | "handle"
    | "starts_at"
    | "waiver_token"
    | "waiver_needed"
    | "waiver_signed"
    | "source"
    | "expires_at"
    | "created_at"
  > & {
    readonly checkout_url?: string | null
  },
  to: string,
  offeringName: string,
  publicUrl: string,
  note?: string | null
): NewMail & { readonly vars: MailVars } => {
  const vars: MailVars = {
    kind,
    reference: b.reference,
    offering: offeringName,
    starts_at: b.starts_at ? b.starts_at.toISOString() : null,
    page_url: guestPage(publicUrl, b.handle),
    waiver_url:
      b.waiver_token && (kind === "confirmed" || kind === "held" || kind === "resend") && unsigned(b)
        ? waiverPage(publicUrl, b.waiver_token)
        : null,
    note: note ?? null,
    pay_url: kind === "nudged" && b.checkout_url ? payAgainPage(publicUrl, b.handle) : null,
    ...confirmBy(kind, b)
  }
  const plain = renderMail(vars, { timezone: "UTC", locale: "en", templates: {} })
  return { to, subject: plain.subject, text: plain.text, kind: `booking.${kind}`, bookingId: b.id, vars }
}
