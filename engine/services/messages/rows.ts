import type { Message } from "../../schema/message.ts"
import type { MessageRow } from "../../store/messages.ts"

export type { MessageRow } from "../../store/messages.ts"
export interface Conversation {
  readonly id: string
  readonly org_id: string
  readonly customer_id: string
  readonly booking_id: string | null
  readonly reply_token: string
  readonly email: string | null
  readonly phone: string | null
  readonly preferred_channel: "email" | "text"
  readonly org_name: string
  readonly reference: string | null
  readonly auto_acknowledge: boolean
  readonly reply_to_domain: string | null
}

export const iso = (d: Date | null) => d?.toISOString() ?? null
export const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  booking_id: r.booking_id,
  customer_id: r.customer_id,
  direction: r.direction,
  channel: r.channel,
  body: r.body,
  created_at: r.created_at.toISOString(),
  delivered_at: iso(r.delivered_at),
  failed_at: iso(r.failed_at),
  failure_reason: r.failure_reason,
  segments: r.segments ?? null
})

/** What became of an inbound mail. */
export type Received = "stored" | "unknown_address" | "foreign_sender" | "erased"

export const ACK = "Thank you for your message. We have received it and will reply as soon as we can."
