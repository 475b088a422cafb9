import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { useAction } from "../state.ts"
import type { Booking } from "../types.ts"
import { Alert } from "../ui.tsx"
import { type Slot, Slots } from "./Slots.tsx"

/** Moving a booking to another free time of its offering. */
export const Move = ({ booking, moved }: { booking: Booking; moved: () => void }) => {
  const [open, setOpen] = useState(false)
  const [slot, setSlot] = useState<Slot | undefined>(undefined)
  const act = useAction()
  if (!open)
    return (
      <p>
        <button type="button" class="secondary" onClick={() => setOpen(true)}>
          Move to another time…
        </button>
      </p>
    )
  const submit = (e: Event) => {
    e.preventDefault()
    if (slot === undefined) return
    void act.run(
      () =>
        api.post(
          `/bookings/${booking.id}/move`,
          slot.session_id !== undefined ? { session_id: slot.session_id } : { starts_at: slot.starts_at }
        ),
      () => (setOpen(false), moved())
    )
  }
  return (
    <form class="panel" onSubmit={submit}>
      <h2>Move this booking</h2>
      <Slots offeringId={booking.offering_id} label="New time" chosen={slot} choose={setSlot} />
      <Alert text={act.error} />
      <button type="submit" disabled={act.busy || slot === undefined}>
        Move
      </button>{" "}
      <button type="button" class="secondary" onClick={() => setOpen(false)}>
        Keep the time
      </button>
    </form>
  )
}
