import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { addDays, dateTime, money, zonedToUtc } from "../format.ts"
import { BASE, navigate } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Booking, Offering } from "../types.ts"
import { Alert, Badge, Empty, Field, Loading, statusTone, Title, value } from "../ui.tsx"

const FILTERS = ["status", "offering_id", "date", "q", "reference"] as const
/** Bookings a page; the next page is read from the API's cursor (next_after). */
const PAGE = 100
/** The API's longest guest search (bookings.list q). */
const SEARCH_MAX = 80

/** Bookings, newest first, filtered by status, offering, day, guest (name or email) and reference. */
export const Bookings = ({ search }: { search: string }) => {
  const { zone, currency } = useConsole()
  const params = new URLSearchParams(search)
  const [form, setForm] = useState(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""])))
  const date = params.get("date") ?? ""
  const query = {
    status: params.get("status") ?? undefined,
    offering_id: params.get("offering_id") ?? undefined,
    q: params.get("q") ?? undefined,
    reference: params.get("reference") ?? undefined,
    from: date === "" ? undefined : zonedToUtc(date, "00:00", zone).toISOString(),
    to: date === "" ? undefined : zonedToUtc(addDays(date, 1), "00:00", zone).toISOString(),
    order: "desc",
    limit: String(PAGE),
    after: params.get("after") ?? undefined
  }
  const { data, error } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Booking[]; next_after: string | null }>("/bookings", query),
        api.get<{ data: Offering[] }>("/offerings").then((r) => r.data)
      ]),
    [search]
  )
  const tooLong = form.q.trim().length > SEARCH_MAX
  const pageAt = (after: string | undefined) => {
    const p = new URLSearchParams(search)
    if (after === undefined) p.delete("after")
    else p.set("after", after)
    return `${BASE}/bookings${p.size > 0 ? `?${p}` : ""}`
  }
  const apply = (e: Event) => {
    e.preventDefault()
    if (tooLong) return
    const p = new URLSearchParams()
    for (const f of FILTERS) if (form[f] !== "") p.set(f, form[f].trim())
    navigate(`${BASE}/bookings${p.size > 0 ? `?${p}` : ""}`)
  }
  const set = (k: string) => (e: Event) => setForm({ ...form, [k]: value(e) })
  return (
    <section>
      <Title
        actions={
          <a class="button" href={`${BASE}/bookings/new`}>
            Book for a guest
          </a>
        }
      >
        Bookings
      </Title>
      <form class="filters" onSubmit={apply} aria-label="Find bookings">
        <Field label="Guest">
          <input type="search" value={form.q} onInput={set("q")} placeholder="Name or email" aria-invalid={tooLong} />
        </Field>
        {tooLong ? (
          <small class="error" role="alert">
            Search by at most {SEARCH_MAX} characters ({form.q.trim().length} typed).
          </small>
        ) : null}
        <Field label="Reference">
          <input value={form.reference} onInput={set("reference")} />
        </Field>
        <Field label="Status">
          <select value={form.status} onChange={set("status")}>
            <option value="">Any</option>
            <option value="confirmed">Confirmed</option>
            <option value="held">Held</option>
            <option value="cancelled">Cancelled</option>
          </select>
        </Field>
        <Field label="Offering">
          <select value={form.offering_id} onChange={set("offering_id")}>
            <option value="">Any</option>
            {data?.[1].map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Day">
          <input type="date" value={form.date} onInput={set("date")} />
        </Field>
        <button type="submit">Find</button>
      </form>
      {data !== undefined && error !== undefined ? <Alert text={error} /> : null}
      {data === undefined ? (
        <Loading error={error} />
      ) : data[0].data.length === 0 ? (
        <Empty>
          <p>No bookings{search === "" ? " yet" : " match"}.</p>
          <p>
            <a href={`${BASE}/bookings/new`}>Book a guest</a>
          </p>
        </Empty>
      ) : (
        <table class="list">
          <caption class="visually-hidden">Bookings</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Guest</th>
              <th scope="col">Offering</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {data[0].data.map((b) => (
              <tr key={b.id}>
                <td>{dateTime(b.starts_at, zone)}</td>
                <td>
                  <a href={`${BASE}/bookings/${b.id}`}>{b.customer?.name ?? b.customer?.email ?? b.reference}</a>
                  <div class="muted">{b.reference}</div>
                </td>
                <td>{b.offering?.name}</td>
                <td>{money(b.total_cents, currency)}</td>
                <td>
                  <Badge tone={statusTone(b.status)}>{b.status}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data === undefined ? null : (
        <p class="actions wrap">
          {params.has("after") ? <a href={pageAt(undefined)}>Newest bookings</a> : null}
          {data[0].next_after !== null && data[0].data.length === PAGE ? (
            <a href={pageAt(data[0].next_after)}>Older bookings</a>
          ) : null}
        </p>
      )}
    </section>
  )
}
