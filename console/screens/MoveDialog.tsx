import { useEffect, useRef, useState } from "preact/hooks"
import type { AgendaItem } from "../agenda.ts"
import { api } from "../api.ts"
import { blockLabel } from "../calendarGrid.ts"
import { guestOf, moveBooking, moveRefusal, moveTime } from "../calendarMoves.ts"
import { dateIn, time, zonedToUtc } from "../format.ts"
import { useAction, useLoad } from "../state.ts"
import type { Booking } from "../types.ts"
import { Alert, Field, value } from "../ui.tsx"
import type { Slot } from "./Slots.tsx"

/** What the Move dialog moves: one booking (of a time or on weekly hours), or a time nobody booked. */
export type Moving =
  | { readonly kind: "booking"; readonly booking: Booking; readonly item: AgendaItem }
  | { readonly kind: "time"; readonly item: AgendaItem }

/**
 * Moving by keyboard, the same as a drag: a date and a start, and for a booking the free times of that date (from
 * availability) to pick from. A booking of a class goes to one of its times; one on weekly hours to any free start.
 */
export const MoveDialog = ({
  moving,
  zone,
  moved,
  close
}: {
  moving: Moving
  zone: string
  moved: (said: string) => void
  close: () => void
}) => {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = ref.current
    if (d !== null && !d.open) d.showModal()
  }, [])
  const { item } = moving
  const booking = moving.kind === "booking" ? moving.booking : undefined
  const [date, setDate] = useState(dateIn(new Date(item.starts_at), zone))
  const [at, setAt] = useState(time(item.starts_at, zone))
  const act = useAction()
  const free = useLoad(
    () =>
      booking === undefined || date === ""
        ? Promise.resolve([] as Slot[])
        : api
            .get<{ data: Slot[] }>(`/offerings/${item.offeringId}/availability`, { from: date, to: date })
            .then((r) => r.data.filter((s) => s.remaining > 0 && dateIn(new Date(s.starts_at), zone) === date)),
    [date, item.offeringId, booking?.id]
  )
  const what = booking === undefined ? `${item.offering}` : `${guestOf(booking)}'s booking`
  const submit = (e: Event) => {
    e.preventDefault()
    if (date === "" || at === "") return act.setError("Pick a date and a start time.")
    const starts = zonedToUtc(date, at, zone)
    if (booking === undefined) return void act.run(() => moveTime(item, starts, zone), done)
    if (booking.session_id === null)
      return void act.run(() => moveBooking(booking, { starts_at: starts.toISOString() }, zone), done)
    const slot = free.data?.find((s) => s.session_id !== undefined && time(s.starts_at, zone) === at)
    if (slot?.session_id === undefined)
      return act.setError(`No free time of ${item.offering} starts at ${at} that day: pick one of the free times.`)
    void act.run(() => moveBooking(booking, { session_id: slot.session_id as string }, zone), done)
  }
  const done = (said: string) => {
    ref.current?.close()
    moved(said)
  }
  return (
    <dialog ref={ref} class="panel" aria-labelledby="move-title" onClose={close}>
      <form onSubmit={submit}>
        <h2 id="move-title">Move {what}</h2>
        <p class="muted">Now: {blockLabel(item, zone)}</p>
        <Field label="New date">
          <input type="date" required value={date} onInput={(e) => setDate(value(e))} />
        </Field>
        <Field label="New start" hint="In quarter hours, the org's time">
          <input type="time" required step={900} value={at} onInput={(e) => setAt(value(e))} />
        </Field>
        {booking === undefined ? null : (
          <fieldset>
            <legend>Free times that day</legend>
            {free.data === undefined ? (
              <p class="muted">{free.error ?? "Loading times…"}</p>
            ) : free.data.length === 0 ? (
              <p class="muted">No free times on that day: pick another date.</p>
            ) : (
              free.data.map((s) => (
                <label class="choice" key={s.session_id ?? s.starts_at}>
                  <input
                    type="radio"
                    name="free"
                    checked={time(s.starts_at, zone) === at}
                    onChange={() => setAt(time(s.starts_at, zone))}
                  />{" "}
                  {time(s.starts_at, zone)}–{time(s.ends_at, zone)} ({s.remaining} left)
                </label>
              ))
            )}
          </fieldset>
        )}
        <Alert text={act.error === undefined ? undefined : moveRefusal(act.code, act.error)} />
        <div class="actions wrap">
          <button type="submit" disabled={act.busy}>
            Move here
          </button>
          <button type="button" class="secondary" onClick={() => ref.current?.close()}>
            Keep it
          </button>
        </div>
      </form>
    </dialog>
  )
}
