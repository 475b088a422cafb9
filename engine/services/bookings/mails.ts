import type { NewMail } from "../mail/Mail.ts"
import { guestPage, payAgainPage, waiverPage } from "../Links.ts"
import type { BookingRow } from "./row.ts"

export type BookingMailKind = "confirmed" | "held" | "cancelled" | "nudged" | "called_off" | "moved" | "resend" | "time_cancelled"

const subjects: Record<BookingMailKind, (ref: string, name: string) => string> = {
  confirmed: (ref, name) => `Booked: ${name} (${ref})`,
  held: (ref, name) => `We are holding your place: ${name} (${ref})`,
  cancelled: (ref, name) => `Cancelled: ${name} (${ref})`,
  nudged: (ref, name) => `Finish booking ${name} (${ref})`,
  called_off: (ref, name) => `Your time for ${name} was called off: pick another (${ref})`,
  moved: (ref, name) => `New time: ${name} (${ref})`,
  resend: (ref, name) => `Your booking: ${name} (${ref})`,
  time_cancelled: (ref, name) => `One time of ${name} is cancelled (${ref})`
}

/** A mail to the guest about their booking; the only place the guest page handle ever goes. */
export const bookingMail = (
  kind: BookingMailKind,
  b: Pick<BookingRow, "id" | "reference" | "handle" | "starts_at" | "waiver_token"> & { readonly checkout_url?: string | null },
  to: string,
  offeringName: string,
  publicUrl: string,
  note?: string | null
): NewMail => {
  const lines = [
    `${subjects[kind](b.reference, offeringName)}.`,
    `When: ${b.starts_at.toISOString()}`,
    `Your booking page: ${guestPage(publicUrl, b.handle)}`,
    ...(b.waiver_token && (kind === "confirmed" || kind === "held") ? [`Please sign the waiver: ${waiverPage(publicUrl, b.waiver_token)}`] : []),
    ...(kind === "nudged" && b.checkout_url ? [`Finish paying here (a fresh checkout): ${payAgainPage(publicUrl, b.handle)}`] : []),
    ...(note ? [`Note: ${note}`] : [])
  ]
  return { to, subject: subjects[kind](b.reference, offeringName), text: lines.join("\n"), kind: `booking.${kind}`, bookingId: b.id }
}
