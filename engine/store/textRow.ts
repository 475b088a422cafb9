import { SegmentedMessage } from "sms-segments-calculator"

/** A text in the outbox (and log): table `texts`. */
export interface TextRow {
  readonly id: string
  readonly org_id: string
  readonly to_phone: string
  readonly body: string
  /** message (a message to a guest), booking.confirmed, booking.reminder, booking.called_off, reply (STOP/HELP...). */
  readonly kind: string
  readonly booking_id: string | null
  readonly segments: number
  readonly encoding: string
  readonly created_at: Date
  readonly next_at: Date | null
  readonly attempts: number
  readonly sent_at: Date | null
  readonly delivered_at: Date | null
  readonly failed_at: Date | null
  readonly failure_reason: string | null
  readonly provider_id: string | null
}

/**
 * How a body travels: GSM-7 when every character is in the GSM 03.38 alphabet (160 characters in one segment, 153
 * each once split; ^{}[]~\|€ take two), else UCS-2 (70, then 67 each; an emoji takes two). Twilio's own calculator.
 */
export const segmentsOf = (body: string): { readonly segments: number; readonly encoding: "GSM-7" | "UCS-2" } => {
  const m = new SegmentedMessage(body, "auto")
  return { segments: m.segmentsCount, encoding: m.getEncodingName() === "GSM-7" ? "GSM-7" : "UCS-2" }
}

/** Why a text to a number that replied STOP was not sent: on the text and on the message, for the business. */
export const optedOutReason = (keyword: string, at: Date) =>
  `not sent: the guest replied ${keyword} on ${at.toISOString().slice(0, 10)} and gets no texts until they reply START`

/** The outbox row as the admin API shows it. */
export const toSentText = (r: TextRow) => ({
  id: r.id,
  org_id: r.org_id,
  to: r.to_phone,
  kind: r.kind,
  body: r.body,
  booking_id: r.booking_id,
  segments: r.segments,
  encoding: r.encoding,
  created_at: r.created_at.toISOString(),
  sent_at: r.sent_at?.toISOString() ?? null,
  delivered_at: r.delivered_at?.toISOString() ?? null,
  failed_at: r.failed_at?.toISOString() ?? null,
  failure_reason: r.failure_reason,
  provider_id: r.provider_id
})
