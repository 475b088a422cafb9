import { request } from "./api.ts"
import type { EventRow, Page } from "./types.ts"

/** The event types of the catalogue (engine/schema/eventCatalogue.ts). */
export const EVENT_TYPES = [
  "booking.attendance_cleared",
  "booking.called_off",
  "booking.cancelled",
  "booking.checked_in",
  "booking.confirmed",
  "booking.held",
  "booking.moved",
  "booking.no_show",
  "booking.nudged",
  "booking.paid",
  "booking.refund_failed",
  "booking.refunded",
  "booking.session_cancelled",
  "booking.unpaid",
  "closure.created",
  "closure.deleted",
  "customer.deleted",
  "customer.updated",
  "customers.imported",
  "gift_card.adjusted",
  "gift_card.issued",
  "gift_card.purchased",
  "gift_card.refunded",
  "member.invite_revoked",
  "member.invited",
  "member.joined",
  "member.removed",
  "member.updated",
  "message.drafted",
  "message.received",
  "message.sent",
  "offering.calendar_updated",
  "offering.created",
  "offering.deleted",
  "offering.hours_updated",
  "offering.updated",
  "org.updated",
  "promo_code.created",
  "promo_code.deleted",
  "promo_code.updated",
  "session.cancelled",
  "session.created",
  "waitlist.joined",
  "waitlist.left",
  "waitlist.opened",
  "waiver.signed",
  "waiver.updated"
]

/**
 * The org's events over Server-Sent Events (GET /api/v1/events/stream, with the session cookie), from the newest
 * event on: each change calls back (at most every 300 ms), so screens reload what they show. EventSource reconnects
 * by itself with Last-Event-ID; if the stream refuses at once, the feed is polled instead.
 */
export const listen = (changed: () => void): (() => void) => {
  let source: EventSource | undefined
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const poke = () => {
    if (timer !== undefined) return
    timer = setTimeout(() => {
      timer = undefined
      changed()
    }, 300)
  }
  let after = 0
  /** Without the stream (a server that does not take a session there), the feed is read every 3 seconds. */
  const poll = async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 3000))
      if (stopped) return
      const page = await request<Page<EventRow>>("GET", `/api/v1/events?after=${after}&limit=200`).catch(
        () => undefined
      )
      if (page === undefined) continue
      if (page.data.length > 0) poke()
      after = Number(page.next_after ?? after)
    }
  }
  request<Page<EventRow>>("GET", "/api/v1/events?order=desc&limit=1")
    .then((page) => page.data[0]?.id ?? 0)
    .catch(() => 0)
    .then((newest) => {
      if (stopped) return
      after = newest
      let opened = false
      source = new EventSource(`/api/v1/events/stream?after=${newest}`)
      source.onopen = () => {
        opened = true
      }
      source.onerror = () => {
        if (opened || source === undefined) return
        source.close()
        source = undefined
        void poll()
      }
      source.onmessage = poke
      // Each event carries its type as the SSE event's name.
      for (const type of EVENT_TYPES) source.addEventListener(type, poke)
    })
  return () => {
    stopped = true
    source?.close()
    if (timer !== undefined) clearTimeout(timer)
  }
}
