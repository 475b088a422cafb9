import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { addDays, dateIn, dateTime } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"

export interface Slot {
  starts_at: string
  ends_at: string
  capacity: number
  remaining: number
  session_id?: string
  series_id?: string
}

/** Two weeks of bookable times of an offering from a day the desk picks, to pick one from (a select: works by keyboard and at 375 px). */
export const Slots = ({
  offeringId,
  label,
  chosen,
  choose
}: {
  offeringId: string
  label: string
  chosen: Slot | undefined
  choose: (s: Slot | undefined) => void
}) => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const [picked, setPicked] = useState(today)
  // Any bookable date: the two weeks from the day picked (today unless the desk picks a later one).
  const from = picked < today ? today : picked
  const { data, error } = useLoad(
    () =>
      api
        .get<{ data: Slot[] }>(`/offerings/${offeringId}/availability`, { from, to: addDays(from, 14) })
        .then((r) => r.data.filter((s) => s.remaining > 0)),
    [offeringId, from]
  )
  const key = (s: Slot) => s.session_id ?? s.series_id ?? s.starts_at
  const day = (
    <label class="field">
      <span>Starting on</span>
      <input
        type="date"
        min={today}
        value={from}
        onInput={(e) => {
          const v = (e.currentTarget as HTMLInputElement).value
          if (v !== "") setPicked(v), choose(undefined)
        }}
      />
    </label>
  )
  if (error !== undefined)
    return (
      <>
        {day}
        <p class="error">{error}</p>
      </>
    )
  if (data === undefined) return <p class="muted">Loading times…</p>
  if (data.length === 0)
    return (
      <>
        {day}
        <p class="muted">No free times in the two weeks from {from}: pick a later day.</p>
      </>
    )
  return (
    <>
      {day}
      <label class="field">
        <span>{label}</span>
        <select
          value={chosen === undefined ? "" : key(chosen)}
          onChange={(e) => choose(data.find((s) => key(s) === (e.currentTarget as HTMLSelectElement).value))}
        >
          <option value="">Choose a time</option>
          {data.map((s) => (
            <option key={key(s)} value={key(s)}>
              {dateTime(s.starts_at, zone)} ({s.remaining} left)
            </option>
          ))}
        </select>
      </label>
    </>
  )
}
