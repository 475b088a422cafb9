import { useEffect, useState } from "preact/hooks"
import { api } from "../api.ts"
import { indexOf } from "../fieldErrors.ts"
import { WEEKDAYS } from "../format.ts"
import { useAction, useLoad } from "../state.ts"
import { Alert, Done, FieldError, value } from "../ui.tsx"

interface Hour {
  weekday: number
  start_time: string
  end_time: string
}

/** Weekly opening hours of an hours-based offering (weekday 0 is Sunday, as the API counts). */
export const Hours = ({ offeringId }: { offeringId: string }) => {
  const { data } = useLoad(
    () => api.get<{ data: Hour[] }>(`/offerings/${offeringId}/hours`).then((r) => r.data),
    [offeringId]
  )
  const [rows, setRows] = useState<Hour[]>([])
  const [saved, setSaved] = useState<string | undefined>(undefined)
  const act = useAction(() => setSaved(undefined))
  useEffect(() => data && setRows(data), [data])
  const set = (i: number, h: Partial<Hour>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...h } : r)))
  const save = (e: Event) => {
    e.preventDefault()
    void act.run(
      () => api.put(`/offerings/${offeringId}/hours`, { hours: rows }),
      () => setSaved("Hours saved.")
    )
  }
  return (
    <form onSubmit={save} aria-labelledby="hours">
      <h2 id="hours">Weekly hours</h2>
      {rows.length === 0 ? <p class="muted">No hours yet: guests cannot book until you add some.</p> : null}
      {rows.map((r, i) => (
        <div class="hour" key={i}>
          <select
            aria-label={`Day ${i + 1}`}
            value={String(r.weekday)}
            onChange={(e) => set(i, { weekday: Number(value(e)) })}
          >
            {WEEKDAYS.map((w, n) => (
              <option key={w} value={String(n)}>
                {w}
              </option>
            ))}
          </select>
          <input
            aria-label={`Opens, day ${i + 1}`}
            type="time"
            required
            value={r.start_time}
            onInput={(e) => set(i, { start_time: value(e) })}
          />
          <input
            aria-label={`Closes, day ${i + 1}`}
            type="time"
            required
            value={r.end_time}
            onInput={(e) => set(i, { end_time: value(e) })}
          />
          <button type="button" class="link" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove <span class="visually-hidden">day {i + 1}</span>
          </button>
          <FieldError text={act.at("hours", i) === undefined ? undefined : `Day ${i + 1}: ${act.at("hours", i)}`} />
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => setRows([...rows, { weekday: 1, start_time: "09:00", end_time: "17:00" }])}
      >
        Add hours
      </button>{" "}
      <button type="submit" disabled={act.busy}>
        Save hours
      </button>
      <Alert
        text={act.field === undefined ? act.error : indexOf(act.field.path) === undefined ? act.field.text : undefined}
      />
      <Done text={saved} />
    </form>
  )
}
