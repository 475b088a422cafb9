import { useState } from "preact/hooks"
import { api } from "../api.ts"
import type { Closure } from "../calendarGrid.ts"
import { dateIn } from "../format.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Offering } from "../types.ts"
import { Alert, Done, Empty, Loading, Title, useConfirm } from "../ui.tsx"
import { ClosureForm } from "./ClosureForm.tsx"

const span = (c: Closure) => (c.ends_on === c.starts_on ? c.starts_on : `${c.starts_on} to ${c.ends_on}`)
const hoursOf = (c: Closure) =>
  c.open_hours.length === 0
    ? "Closed all day"
    : `Open ${c.open_hours.map((h) => `${h.start_time.slice(0, 5)}–${h.end_time.slice(0, 5)}`).join(", ")}`

/** Closures and holidays (owners): the list from today on, a new one (what it affects shown first), delete. */
export const Closures = () => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const { data, error, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Closure[] }>("/closures", { from: today }).then((r) => r.data),
        api.get<{ data: Offering[] }>("/offerings").then((r) => r.data)
      ]),
    [today]
  )
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction(() => setDone(undefined))
  const { panel, ask } = useConfirm(act.busy)
  const name = (id: string | null) =>
    id === null ? "The whole org" : (data?.[1].find((o) => o.id === id)?.name ?? "An offering")
  const remove = (c: Closure) =>
    ask({
      title: `Open ${span(c)} again?`,
      text: (
        <p>
          {name(c.offering_id)} takes bookings again on {span(c)} on its weekly hours and calendar. Times cancelled when
          the closure was made stay cancelled.
        </p>
      ),
      action: "Delete the closure",
      keep: "Keep it closed",
      run: () =>
        act.run(
          () => api.del(`/closures/${c.id}`),
          () => (setDone(`${span(c)} is open again.`), reload())
        )
    })
  return (
    <section>
      <Title>Closures and holidays</Title>
      <p class="muted">
        Dates in {zone}. Guests cannot book a closed date; the note is shown to them. See them greyed on the{" "}
        <a href={`${BASE}/calendar`}>calendar</a>.
      </p>
      <Alert text={act.error} />
      <Done text={done} />
      {panel}
      {data === undefined ? (
        <Loading error={error} />
      ) : data[0].length === 0 ? (
        <Empty>
          <p>No closures from today on.</p>
        </Empty>
      ) : (
        <table class="list">
          <caption class="visually-hidden">Closures from today on</caption>
          <thead>
            <tr>
              <th scope="col">Dates</th>
              <th scope="col">What</th>
              <th scope="col">Hours</th>
              <th scope="col">Note to guests</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data[0].map((c) => (
              <tr key={c.id}>
                <td>{span(c)}</td>
                <td>{name(c.offering_id)}</td>
                <td>{hoursOf(c)}</td>
                <td>{c.note ?? ""}</td>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-label={`Delete the closure of ${span(c)}…`}
                    onClick={() => (setDone(undefined), remove(c))}
                  >
                    Delete…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data === undefined ? null : <ClosureForm offerings={data[1]} created={(said) => (setDone(said), reload())} />}
    </section>
  )
}
