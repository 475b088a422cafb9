import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { addDays, dateIn, dateTime, entryEnd, localDate, zonedToUtc } from "../format.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { TimeSlot } from "../types.ts"
import { Alert, Done, Field, value } from "../ui.tsx"
import { RemoveSeries } from "./RemoveSeries.tsx"

interface Series {
  id: string
  starts_on: string
  start_time: string | null
  end_time: string | null
  repeat: string
  ends_on: string | null
}

const REPEAT: Record<string, string> = {
  none: "Once",
  daily: "Every day",
  weekly: "Every week",
  weekdays: "Every weekday",
  monthly: "Every month",
  yearly: "Every year"
}

/** The times of a class or calendar appointment: repeating entries, single times, and the next four weeks. */
export const Calendar = ({ offeringId, duration }: { offeringId: string; duration: number }) => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Series[] }>("/series", { offering_id: offeringId }).then((r) => r.data),
        api
          .get<{ data: TimeSlot[] }>("/sessions", {
            offering_id: offeringId,
            from: new Date().toISOString(),
            to: zonedToUtc(addDays(today, 28), "00:00", zone).toISOString()
          })
          .then((r) => r.data)
      ]),
    [offeringId]
  )
  const [entry, setEntry] = useState({ starts_on: today, start_time: "18:00", repeat: "weekly", ends_on: "" })
  const [single, setSingle] = useState({ date: today, time: "18:00" })
  const act = useAction()

  const addEntry = (e: Event) => {
    e.preventDefault()
    void act.run(
      () =>
        api.post("/series", {
          offering_id: offeringId,
          starts_on: entry.starts_on,
          start_time: entry.start_time,
          ...entryEnd(entry.start_time, duration),
          repeat: entry.repeat,
          ...(entry.ends_on === "" ? {} : { ends_on: entry.ends_on })
        }),
      reload
    )
  }
  const addSingle = (e: Event) => {
    e.preventDefault()
    const starts = zonedToUtc(single.date, single.time, zone)
    if (starts.getTime() <= Date.now()) return act.setError("That time has passed: choose a time still to come.")
    void act.run(() => api.post("/sessions", { offering_id: offeringId, starts_at: starts.toISOString() }), reload)
  }
  const [removing, setRemoving] = useState<Series | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  const label = (s: Series) =>
    `${REPEAT[s.repeat] ?? s.repeat} from ${localDate(s.starts_on)} at ${s.start_time?.slice(0, 5)}${s.ends_on === null ? "" : ` until ${localDate(s.ends_on)}`}`
  return (
    <section aria-labelledby="times">
      <h2 id="times">Times</h2>
      <Alert text={act.error} />
      <h3>Repeating</h3>
      {data?.[0].length === 0 ? <p class="muted">No repeating times yet.</p> : null}
      <ul>
        {data?.[0].map((s) => (
          <li key={s.id}>
            {label(s)}{" "}
            <button type="button" class="link" onClick={() => (setDone(undefined), setRemoving(s))}>
              Remove… <span class="visually-hidden">the times from {localDate(s.starts_on)}</span>
            </button>
          </li>
        ))}
      </ul>
      {removing === undefined ? null : (
        <RemoveSeries
          key={removing.id}
          seriesId={removing.id}
          offeringId={offeringId}
          label={label(removing)}
          removed={(said) => (setRemoving(undefined), setDone(said), reload())}
          keep={() => setRemoving(undefined)}
        />
      )}
      <Done text={done} />
      <form class="inline" onSubmit={addEntry} aria-label="Add repeating times">
        <Field label="First day">
          <input
            type="date"
            required
            value={entry.starts_on}
            onInput={(e) => setEntry({ ...entry, starts_on: value(e) })}
          />
        </Field>
        <Field label="Starts at">
          <input
            type="time"
            required
            value={entry.start_time}
            onInput={(e) => setEntry({ ...entry, start_time: value(e) })}
          />
        </Field>
        <Field label="Repeats">
          <select value={entry.repeat} onChange={(e) => setEntry({ ...entry, repeat: value(e) })}>
            {Object.entries(REPEAT).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Until (optional)">
          <input type="date" value={entry.ends_on} onInput={(e) => setEntry({ ...entry, ends_on: value(e) })} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Add repeating times
        </button>
      </form>
      <form class="inline" onSubmit={addSingle} aria-label="Add a single time">
        <Field label="Day">
          <input type="date" required value={single.date} onInput={(e) => setSingle({ ...single, date: value(e) })} />
        </Field>
        <Field label="At">
          <input type="time" required value={single.time} onInput={(e) => setSingle({ ...single, time: value(e) })} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Add a single time
        </button>
      </form>
      <h3>The next four weeks</h3>
      {data?.[1].length === 0 ? <p class="muted">No times in the next four weeks.</p> : null}
      <ul class="times">
        {data?.[1].map((t) => (
          <li key={t.id}>
            <a href={`${BASE}/times/${t.id}?offering=${offeringId}&at=${encodeURIComponent(t.starts_at)}`}>
              {dateTime(t.starts_at, zone)}
            </a>{" "}
            <span class="muted">{t.status === "cancelled" ? "cancelled" : `${t.booked ?? 0} booked`}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
