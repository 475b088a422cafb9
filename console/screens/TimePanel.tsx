import { useEffect, useRef } from "preact/hooks"
import type { AgendaItem } from "../agenda.ts"
import { blockLabel } from "../calendarGrid.ts"
import { guestOf } from "../calendarMoves.ts"
import { BASE } from "../router.ts"
import type { Booking } from "../types.ts"
import { Badge, statusTone } from "../ui.tsx"
import type { Moving } from "./MoveDialog.tsx"

/**
 * A block opened: a time's roster (each guest dragged onto another time, or moved by its Move… button) or an
 * appointment's booking, with links to the full pages.
 */
export const TimePanel = ({
  item,
  roster,
  zone,
  press,
  move,
  close
}: {
  item: AgendaItem
  roster: ReadonlyArray<Booking>
  zone: string
  press: (e: PointerEvent, what: Moving) => void
  move: (what: Moving) => void
  close: () => void
}) => {
  const h = useRef<HTMLHeadingElement>(null)
  useEffect(() => h.current?.focus(), [item.key])
  const s = item.session
  const people = s === undefined ? (item.booking === undefined ? [] : [item.booking]) : roster
  return (
    <section class="panel cal-panel" aria-labelledby="cal-panel-title">
      <h2 id="cal-panel-title" tabIndex={-1} ref={h}>
        {blockLabel(item, zone)}
      </h2>
      <p>
        {s === undefined ? (
          <a href={`${BASE}/bookings/${item.booking?.id}`}>Open the booking</a>
        ) : (
          <a
            href={`${BASE}/times/${s.id}?offering=${encodeURIComponent(item.offeringId)}&at=${encodeURIComponent(item.starts_at)}`}
          >
            Open the time
          </a>
        )}
      </p>
      {s !== undefined && people.length === 0 ? (
        <>
          <p class="muted">Nobody is booked: drag the time to another start, or move it here.</p>
          <button type="button" class="secondary" onClick={() => move({ kind: "time", item })}>
            Move this time…
          </button>
        </>
      ) : null}
      {s !== undefined && people.length > 0 ? (
        <p class="muted">Booked, so the time stays: drag a guest onto another time of {item.offering}, or use Move….</p>
      ) : null}
      {people.length === 0 ? null : (
        <ul class="roster" aria-label="Guests">
          {people.map((b) => (
            <li key={b.id} class="cal-guest" onPointerDown={(e) => press(e, { kind: "booking", booking: b, item })}>
              <span>
                {guestOf(b)}
                {b.quantity > 1 ? ` (${b.quantity})` : ""}
              </span>
              <Badge tone={statusTone(b.status)}>{b.status}</Badge>
              <button
                type="button"
                class="link"
                aria-label={`Move ${guestOf(b)}'s booking…`}
                onClick={() => move({ kind: "booking", booking: b, item })}
              >
                Move…
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="secondary" onClick={close}>
        Close
      </button>
    </section>
  )
}
