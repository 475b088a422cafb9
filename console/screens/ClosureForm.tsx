import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { fieldError } from "../fieldErrors.ts"
import { dateIn, dateTime } from "../format.ts"
import { useAction, useConsole } from "../state.ts"
import type { Offering } from "../types.ts"
import { Alert, Field, FieldError, value } from "../ui.tsx"

interface Preview {
  times: Array<{ session_id: string; offering_id: string; starts_at: string; booked: number }>
  bookings: Array<{ booking_id: string; offering_id: string; starts_at: string; status: string }>
}

/**
 * A new closure: the org or one offering, a date or a range, closed all day or open other hours, a note for guests.
 * What it would do is asked first (closures.preview): the booked times and bookings inside it, and whether their guests
 * are refunded or choose another time, as cancelling a time asks.
 */
export const ClosureForm = ({ offerings, created }: { offerings: Offering[]; created: (said: string) => void }) => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const blank = { offering: "", starts_on: today, ends_on: "", open: false, start: "10:00", end: "14:00", note: "" }
  const [f, setF] = useState(blank)
  const [preview, setPreview] = useState<Preview | undefined>(undefined)
  const [guests, setGuests] = useState<"refund" | "choose">("refund")
  const act = useAction()
  const set = (k: keyof typeof blank) => (e: Event) => (setPreview(undefined), setF({ ...f, [k]: value(e) }))
  const body = () => ({
    ...(f.offering === "" ? {} : { offering_id: f.offering }),
    starts_on: f.starts_on,
    ...(f.ends_on === "" ? {} : { ends_on: f.ends_on }),
    ...(f.open ? { open_hours: [{ start_time: f.start, end_time: f.end }] } : {}),
    ...(f.note.trim() === "" ? {} : { note: f.note.trim() })
  })
  const name = (id: string) => offerings.find((o) => o.id === id)?.name ?? "An offering"
  const check = (e: Event) => {
    e.preventDefault()
    void act.run(() => api.post<Preview>("/closures/preview", body()), setPreview)
  }
  const inside = preview === undefined ? 0 : preview.times.length + preview.bookings.length
  const create = () =>
    void act.run(
      () => api.post("/closures", { ...body(), ...(inside > 0 ? { guests } : {}) }),
      () => {
        const what = f.offering === "" ? "The org" : name(f.offering)
        const dates = f.ends_on === "" || f.ends_on === f.starts_on ? f.starts_on : `${f.starts_on} to ${f.ends_on}`
        const handled =
          inside === 0
            ? ""
            : guests === "refund"
              ? ` ${inside} booked ${inside === 1 ? "time or booking was" : "times or bookings were"} cancelled and refunded.`
              : ` The guests of ${inside} booked ${inside === 1 ? "time or booking were" : "times or bookings were"} asked to choose another time or a refund.`
        created(`${what} is closed on ${dates}${f.open ? ` outside ${f.start}–${f.end}` : ""}.${handled}`)
        setF(blank)
        setPreview(undefined)
      }
    )
  // Refusals put beside their fields: the API's field, or the field its code is about.
  const datesError = act.at("ends_on") ?? (act.code === "invalid_dates" ? act.error : undefined)
  const hoursError =
    act.at("open_hours") ??
    (act.code === "invalid_open_hours" && act.error !== undefined
      ? (fieldError(undefined, act.error)?.text ?? act.error)
      : undefined)
  const beside = [act.at("starts_on"), datesError, hoursError, act.at("note"), act.at("offering_id")]
  return (
    <form class="panel stack" onSubmit={check} aria-labelledby="new-closure">
      <h2 id="new-closure">Close a date or dates</h2>
      <Field label="Applies to" error={act.at("offering_id")}>
        <select value={f.offering} onChange={set("offering")}>
          <option value="">The whole org (every offering)</option>
          {offerings.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </Field>
      <div class="grid">
        <Field label="First date" error={act.at("starts_on")}>
          <input type="date" required value={f.starts_on} onInput={set("starts_on")} />
        </Field>
        <Field label="Last date (optional)" hint="Leave empty for one date" error={datesError}>
          <input type="date" value={f.ends_on} onInput={set("ends_on")} />
        </Field>
      </div>
      <fieldset>
        <legend>Hours on those dates</legend>
        <label class="choice">
          <input
            type="radio"
            name="closure-hours"
            checked={!f.open}
            onChange={() => (setPreview(undefined), setF({ ...f, open: false }))}
          />{" "}
          Closed all day
        </label>
        <label class="choice">
          <input
            type="radio"
            name="closure-hours"
            checked={f.open}
            onChange={() => (setPreview(undefined), setF({ ...f, open: true }))}
          />{" "}
          Open other hours
        </label>
        {f.open ? (
          <div class="grid">
            <Field label="Opens at">
              <input type="time" required value={f.start} onInput={set("start")} />
            </Field>
            <Field label="Closes at">
              <input type="time" required value={f.end} onInput={set("end")} />
            </Field>
          </div>
        ) : null}
        <FieldError text={hoursError} />
      </fieldset>
      <Field
        label="Note for guests (optional)"
        hint="Shown to guests, e.g. Closed for the holidays"
        error={act.at("note")}
      >
        <input maxLength={500} value={f.note} onInput={set("note")} />
      </Field>
      {preview === undefined ? <Alert text={beside.some((b) => b !== undefined) ? undefined : act.error} /> : null}
      {preview === undefined ? (
        <button type="submit" disabled={act.busy}>
          Check what it affects
        </button>
      ) : (
        <section aria-labelledby="closure-inside">
          <h3 id="closure-inside">{inside === 0 ? "Nothing booked is inside" : "Booked inside it"}</h3>
          {inside === 0 ? (
            <p>No guest is affected: times nobody booked stay on the calendar, closed to bookings.</p>
          ) : (
            <>
              <ul>
                {preview.times.map((t) => (
                  <li key={t.session_id}>
                    {name(t.offering_id)}, {dateTime(t.starts_at, zone)}: {t.booked} booked
                  </li>
                ))}
                {preview.bookings.map((b) => (
                  <li key={b.booking_id}>
                    {name(b.offering_id)}, {dateTime(b.starts_at, zone)}: a booking ({b.status})
                  </li>
                ))}
              </ul>
              <fieldset>
                <legend>The guests</legend>
                <label class="choice">
                  <input
                    type="radio"
                    name="closure-guests"
                    checked={guests === "refund"}
                    onChange={() => setGuests("refund")}
                  />{" "}
                  Cancel their bookings and refund what they paid online
                </label>
                <label class="choice">
                  <input
                    type="radio"
                    name="closure-guests"
                    checked={guests === "choose"}
                    onChange={() => setGuests("choose")}
                  />{" "}
                  Let each guest choose another time or a refund
                </label>
              </fieldset>
            </>
          )}
          <Alert text={act.error} />
          <div class="actions wrap">
            <button type="button" class="danger" disabled={act.busy} onClick={create}>
              Close these dates
            </button>
            <button type="button" class="secondary" onClick={() => setPreview(undefined)}>
              Change the closure
            </button>
          </div>
        </section>
      )}
    </form>
  )
}
