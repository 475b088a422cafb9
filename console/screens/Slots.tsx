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

/** The next two weeks' bookable times of an offering, to pick one from (a select: works by keyboard and at 375 px). */
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
  const from = dateIn(new Date(), zone)
  const { data, error } = useLoad(
    () =>
      api
        .get<{ data: Slot[] }>(`/offerings/${offeringId}/availability`, { from, to: addDays(from, 14) })
        .then((r) => r.data.filter((s) => s.remaining > 0)),
    [offeringId, from]
  )
  const key = (s: Slot) => s.session_id ?? s.series_id ?? s.starts_at
  if (error !== undefined) return <p class="error">{error}</p>
  if (data === undefined) return <p class="muted">Loading times…</p>
  if (data.length === 0) return <p class="muted">No free times in the next two weeks.</p>
  return (
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
  )
}
