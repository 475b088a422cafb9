import { type AgendaItem, agenda } from "../agenda.ts"
import { all, api } from "../api.ts"
import { addDays, dateIn, day, mondayOf, time, zonedToUtc } from "../format.ts"
import { BASE, navigate } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Booking, Offering, TimeSlot, Waiting } from "../types.ts"
import { Badge, Empty, Loading, statusTone, Title } from "../ui.tsx"
import { FirstSteps } from "./FirstSteps.tsx"

/** Today (one day) or the week (Monday to Sunday) of every offering, in the org's zone. */
export const Agenda = ({ week, search }: { week: boolean; search: string }) => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const start = new URLSearchParams(search).get("date") ?? (week ? mondayOf(today) : today)
  const days = week ? 7 : 1
  const from = zonedToUtc(start, "00:00", zone).toISOString()
  const to = zonedToUtc(addDays(start, days), "00:00", zone).toISOString()
  const { data, error } = useLoad(async () => {
    const [offerings, times, bookings, waiting] = await Promise.all([
      api.get<{ data: Offering[] }>("/offerings").then((r) => r.data),
      api.get<{ data: TimeSlot[] }>("/sessions", { from, to, status: "scheduled" }).then((r) => r.data),
      all<Booking>("/bookings", { from, to, order: "asc" }),
      api.get<{ data: Waiting[] }>("/waitlist").then((r) => r.data)
    ])
    return { offerings, list: agenda(zone, offerings, times, bookings, waiting) }
  }, [from, to, zone])
  const go = (n: number) => navigate(`${BASE}${week ? "/week" : ""}?date=${addDays(start, n * days)}`)
  const title = week ? `Week of ${day(from, zone)}` : start === today ? "Today" : day(from, zone)
  return (
    <section>
      <Title
        actions={
          <>
            <button type="button" class="secondary" onClick={() => go(-1)}>
              {week ? "Previous week" : "Previous day"}
            </button>
            <button type="button" class="secondary" onClick={() => go(1)}>
              {week ? "Next week" : "Next day"}
            </button>
            <a class="button" href={`${BASE}/bookings/new`}>
              Book for a guest
            </a>
          </>
        }
      >
        {title}
      </Title>
      <p class="muted">Times are in {zone}.</p>
      {data === undefined ? (
        <Loading error={error} />
      ) : data.offerings.length === 0 ? (
        <FirstSteps />
      ) : data.list.length === 0 ? (
        <Empty>
          <p>Nothing on {week ? "this week" : "this day"}.</p>
          <p>
            <a href={`${BASE}/offerings`}>Add times to an offering</a> or{" "}
            <a href={`${BASE}/bookings/new`}>book a guest</a>.
          </p>
        </Empty>
      ) : (
        data.list.map((d) => (
          <section key={d.date} class="day" aria-label={day(zonedToUtc(d.date, "12:00", zone).toISOString(), zone)}>
            {week ? <h2>{day(zonedToUtc(d.date, "12:00", zone).toISOString(), zone)}</h2> : null}
            <ul class="agenda">
              {d.items.map((i) => (
                <Item key={i.key} item={i} zone={zone} />
              ))}
            </ul>
          </section>
        ))
      )}
    </section>
  )
}

const Item = ({ item, zone }: { item: AgendaItem; zone: string }) => (
  <li>
    <span class="when">
      {time(item.starts_at, zone)}–{time(item.ends_at, zone)}
    </span>
    {item.session !== undefined ? (
      <a
        href={`${BASE}/times/${item.session.id}?offering=${encodeURIComponent(item.offeringId)}&at=${encodeURIComponent(item.starts_at)}`}
        class="what"
      >
        {item.offering}
      </a>
    ) : (
      <a href={`${BASE}/bookings/${item.booking?.id}`} class="what">
        {item.offering}: {item.booking?.customer?.name ?? item.booking?.reference}
      </a>
    )}
    <span class="places">
      {item.session !== undefined ? (
        <>
          <Badge tone={item.session.left === 0 ? "bad" : "good"}>
            {item.session.taken} taken, {item.session.left} left
          </Badge>
          {item.session.holds > 0 ? <Badge tone="warn">{item.session.holds} held</Badge> : null}
          {item.session.waiting > 0 ? <Badge>{item.session.waiting} waiting</Badge> : null}
        </>
      ) : (
        <Badge tone={statusTone(item.booking?.status ?? "")}>{item.booking?.status}</Badge>
      )}
    </span>
  </li>
)
