import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { BASE, navigate } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Customer, Waiting } from "../types.ts"
import { Alert, Done, Empty, Field, Loading, Title, value } from "../ui.tsx"

interface Imported {
  created: number
  updated: number
  skipped: number
  batches: number
}

/** Guests: search, a CSV import with its result, erasing a guest; and who is waiting for a full time. */
export const Guests = ({ search }: { search: string }) => {
  const { zone } = useConsole()
  const q = new URLSearchParams(search).get("q") ?? ""
  const [typed, setTyped] = useState(q)
  const { data, error, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Customer[] }>("/customers", { q, limit: "100" }).then((r) => r.data),
        api.get<{ data: Waiting[] }>("/waitlist").then((r) => r.data.filter((w) => w.ended_at === null))
      ]),
    [q]
  )
  const [result, setResult] = useState<string | undefined>(undefined)
  const [erasing, setErasing] = useState<Customer | undefined>(undefined)
  const act = useAction()
  const importCsv = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0]
    if (file === undefined) return
    void act.run(
      async () => api.post<Imported>("/customers/import", { csv: await file.text() }),
      (r) => (
        setResult(`Imported: ${r.created} new, ${r.updated} updated, ${r.skipped} skipped (${r.batches} batches).`),
        reload()
      )
    )
  }
  return (
    <section>
      <Title>Guests</Title>
      <form
        class="filters"
        aria-label="Find guests"
        onSubmit={(e) => {
          e.preventDefault()
          navigate(`${BASE}/guests${typed.trim() === "" ? "" : `?q=${encodeURIComponent(typed.trim())}`}`)
        }}
      >
        <Field label="Name, email or phone">
          <input type="search" value={typed} onInput={(e) => setTyped(value(e))} />
        </Field>
        <button type="submit">Find</button>
      </form>
      <Alert text={act.error} />
      <Done text={result} />
      {data === undefined ? (
        <Loading error={error} />
      ) : data[0].length === 0 ? (
        <Empty>
          <p>{q === "" ? "No guests yet: they appear here when they book, or import a list." : "No guest matches."}</p>
        </Empty>
      ) : (
        <table class="list">
          <caption class="visually-hidden">Guests</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Phone</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data[0].map((c) => (
              <tr key={c.id}>
                <td>
                  <a href={`${BASE}/guests/${c.id}`}>{c.erased ? "(erased)" : (c.name ?? "—")}</a>
                </td>
                <td>{c.email}</td>
                <td>{c.phone}</td>
                <td>
                  {c.erased ? null : (
                    <button type="button" class="link" onClick={() => setErasing(c)}>
                      Erase <span class="visually-hidden">{c.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {erasing === undefined ? null : (
        <section class="panel" aria-label="Erase a guest">
          <p>
            Erase {erasing.name ?? erasing.email}? Their name, email, phone and answers are removed for good; their
            bookings stay, without who made them.
          </p>
          <button
            type="button"
            class="danger"
            disabled={act.busy}
            onClick={() =>
              act.run(
                () => api.del(`/customers/${erasing.id}`),
                () => (setErasing(undefined), reload())
              )
            }
          >
            Erase for good
          </button>{" "}
          <button type="button" class="secondary" onClick={() => setErasing(undefined)}>
            Keep
          </button>
        </section>
      )}
      <h2>Import guests</h2>
      <p class="muted">A CSV file with a header row: name, email, phone.</p>
      <label class="field">
        <span>CSV file</span>
        <input type="file" accept=".csv,text/csv" onChange={importCsv} />
      </label>
      <h2>Waitlist</h2>
      {data === undefined ? null : data[1].length === 0 ? (
        <p class="muted">No one is waiting.</p>
      ) : (
        <ul>
          {data[1].map((w) => (
            <li key={w.id}>
              {w.customer.name ?? w.customer.email}, {w.places} {w.places === 1 ? "place" : "places"} for{" "}
              <a href={`${BASE}/times/${w.session_id}?offering=${w.offering_id}&at=${encodeURIComponent(w.starts_at)}`}>
                {dateTime(w.starts_at, zone)}
              </a>{" "}
              <button type="button" class="link" onClick={() => act.run(() => api.del(`/waitlist/${w.id}`), reload)}>
                Remove <span class="visually-hidden">{w.customer.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
