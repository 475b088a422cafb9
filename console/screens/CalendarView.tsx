import { useEffect, useState } from "preact/hooks"
import { type AgendaItem, agenda } from "../agenda.ts"
import { all, api, qs } from "../api.ts"
import { type Closure, datesOf, type Hour, hhmm, hourRange, minuteOf, noonOf, shortDay } from "../calendarGrid.ts"
import { bookedTimeStays, guestOf, moveBooking, moveRefusal, moveTime } from "../calendarMoves.ts"
import { type Target, useDrag } from "../drag.ts"
import { addDays, dateIn, day, mondayOf, zonedToUtc } from "../format.ts"
import { BASE, navigate } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking, Offering, TimeSlot, Waiting } from "../types.ts"
import { Alert, Done, Field, Loading, Title, value } from "../ui.tsx"
import { GridDays } from "./GridDays.tsx"
import { MoveDialog, type Moving } from "./MoveDialog.tsx"
import { TimePanel } from "./TimePanel.tsx"

const NARROW = "(max-width: 49.99rem)"
const useNarrow = () => {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches)
  useEffect(() => {
    const m = matchMedia(NARROW)
    const on = () => setNarrow(m.matches)
    m.addEventListener("change", on)
    return () => m.removeEventListener("change", on)
  }, [])
  return narrow
}

const isDate = (d: string | null): d is string => d !== null && /^\d{4}-\d{2}-\d{2}$/.test(d)

/**
 * The calendar grid (/dashboard/calendar?view=week|day&date=&show=): hours down, days across in the org's zone, every
 * time as a block with its places; closures greyed; drag or Move… to move a booking or a time nobody booked. On a
 * phone one day at a time.
 */
export const CalendarView = ({ search }: { search: string }) => {
  const { zone, session } = useConsole()
  const q = new URLSearchParams(search)
  const today = dateIn(new Date(), zone)
  const date = isDate(q.get("date")) ? (q.get("date") as string) : today
  const view = q.get("view") === "day" ? "day" : "week"
  const show = q.get("show") ?? ""
  const narrow = useNarrow()
  const single = view === "day" || narrow
  const first = single ? date : mondayOf(date)
  const dates = datesOf(first, single ? 1 : 7)
  const last = dates[dates.length - 1]
  const from = zonedToUtc(first, "00:00", zone).toISOString()
  const to = zonedToUtc(addDays(last, 1), "00:00", zone).toISOString()
  const { data, error, reload } = useLoad(async () => {
    const offerings = (await api.get<{ data: Offering[] }>("/offerings")).data
    const one = offerings.some((o) => o.id === show) ? show : undefined
    const hourly = offerings.filter(
      (o) => o.kind !== "class" && o.schedule !== "calendar" && show !== "mine" && (one === undefined || o.id === one)
    )
    const [times, bookings, waiting, closures, hours] = await Promise.all([
      all<TimeSlot>("/sessions", { from, to, status: "scheduled", offering_id: one }),
      all<Booking>("/bookings", { from, to, order: "asc", offering_id: one }),
      api.get<{ data: Waiting[] }>("/waitlist").then((r) => r.data),
      api.get<{ data: Closure[] }>("/closures", { from: first, to: last, offering_id: one }).then((r) => r.data),
      Promise.all(hourly.map((o) => api.get<{ data: Hour[] }>(`/offerings/${o.id}/hours`).then((r) => r.data)))
    ])
    const teaches = new Set(times.filter((t) => t.teacher?.user_id === session.member_id).map((t) => t.id))
    const items = agenda(zone, offerings, times, bookings, waiting)
      .flatMap((d) => d.items)
      .filter((i) => (show === "mine" ? i.session !== undefined && teaches.has(i.session.id) : true))
    return { offerings, bookings, closures, items, hours: hours.flat() }
  }, [from, to, zone, show])
  const [opened, setOpened] = useState<string | undefined>(undefined)
  const [moving, setMoving] = useState<Moving | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction(() => setDone(undefined))
  const range = hourRange(dates, data?.hours ?? [], data?.items ?? [], zone)
  const name = (id: string) => data?.offerings.find((o) => o.id === id)?.name ?? "An offering"
  const after = (said: string) => (setDone(said), reload())

  const drop = (w: Moving, t: Target) => {
    setDone(undefined)
    const starts = zonedToUtc(t.date, hhmm(t.minute), zone)
    if (w.kind === "time") {
      if (starts.getTime() === Date.parse(w.item.starts_at)) return
      return void act.run(() => moveTime(w.item, starts, zone), after)
    }
    const b = w.booking
    if (b.session_id === null) {
      if (starts.getTime() === Date.parse(b.starts_at)) return
      return void act.run(() => moveBooking(b, { starts_at: starts.toISOString() }, zone), after)
    }
    const same = (i: AgendaItem) => i.session !== undefined && i.offeringId === b.offering_id
    const onto =
      data?.items.find((i) => same(i) && i.session?.id === t.sessionId) ??
      data?.items.find(
        (i) => same(i) && dateIn(new Date(i.starts_at), zone) === t.date && minuteOf(i.starts_at, zone) === t.minute
      )
    if (onto?.session === undefined)
      return act.setError(
        `Drop ${guestOf(b)}'s booking on another time of ${w.item.offering}: none starts at ${shortDay(noonOf(t.date, zone), zone)} ${hhmm(t.minute)}.`
      )
    if (onto.session.id === b.session_id) return
    void act.run(() => moveBooking(b, { session_id: onto.session?.id as string }, zone), after)
  }
  const drag = useDrag<Moving>({
    fromHour: range.from,
    start: (w) => (w.kind === "time" && (w.item.session?.taken ?? 0) > 0 ? bookedTimeStays(w.item, zone) : undefined),
    drop
  })
  const whatOf = (item: AgendaItem): Moving =>
    item.booking !== undefined ? { kind: "booking", booking: item.booking, item } : { kind: "time", item }
  const go = (change: { date?: string; view?: string; show?: string }) =>
    navigate(`${BASE}/calendar${qs({ view, date, show, ...change })}`)
  const step = single ? 1 : 7
  const item = data?.items.find((i) => i.key === opened)
  const ghost =
    drag.dragging?.target === undefined
      ? undefined
      : {
          date: drag.dragging.target.date,
          minute: drag.dragging.target.minute,
          length: (Date.parse(drag.dragging.what.item.ends_at) - Date.parse(drag.dragging.what.item.starts_at)) / 60_000
        }
  const refusal = drag.refused ?? (act.error === undefined ? undefined : moveRefusal(act.code, act.error))
  return (
    <section>
      <Title>{single ? day(noonOf(first, zone), zone) : `Week of ${day(noonOf(first, zone), zone)}`}</Title>
      <div class="cal-bar">
        <nav class="actions" aria-label="Dates">
          <button type="button" class="secondary" onClick={() => go({ date: addDays(date, -step) })}>
            {single ? "Previous day" : "Previous week"}
          </button>
          <button type="button" class="secondary" onClick={() => go({ date: today })}>
            Today
          </button>
          <button type="button" class="secondary" onClick={() => go({ date: addDays(date, step) })}>
            {single ? "Next day" : "Next week"}
          </button>
        </nav>
        <Field label="Go to date">
          <input type="date" value={date} onInput={(e) => isDate(value(e)) && go({ date: value(e) })} />
        </Field>
        {narrow ? null : (
          <Field label="View">
            <select value={view} onChange={(e) => go({ view: value(e) })}>
              <option value="week">Week</option>
              <option value="day">Day</option>
            </select>
          </Field>
        )}
        <Field label="Show">
          <select value={show} onChange={(e) => go({ show: value(e) })}>
            <option value="">All offerings</option>
            <option value="mine">Mine (the times I teach)</option>
            {data?.offerings.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p class="muted">
        Times are in {zone}. Drag a time nobody booked, or a guest from a time's list, to move it (quarter hours); each
        block's Move… does the same by keyboard.
      </p>
      <Alert text={refusal} />
      <Done text={done} />
      {data === undefined ? (
        <Loading error={error} />
      ) : (
        <GridDays
          dates={dates}
          zone={zone}
          range={range}
          items={data.items}
          closures={data.closures}
          offeringName={name}
          ghost={ghost}
          press={(e, i, grab) => (drag.clearRefused(), drag.press(e, whatOf(i), grab))}
          open={(i) => drag.wasDrag() || setOpened(i.key)}
          move={(i) =>
            drag.wasDrag() || (i.session !== undefined && i.session.taken > 0 ? setOpened(i.key) : setMoving(whatOf(i)))
          }
        />
      )}
      {item === undefined || data === undefined ? null : (
        <TimePanel
          item={item}
          roster={data.bookings.filter((b) => b.session_id === item.session?.id && b.status !== "cancelled")}
          zone={zone}
          press={(e, w) => (drag.clearRefused(), drag.press(e, w))}
          move={(w) => drag.wasDrag() || setMoving(w)}
          close={() => setOpened(undefined)}
        />
      )}
      {moving === undefined ? null : (
        <MoveDialog
          key={moving.item.key}
          moving={moving}
          zone={zone}
          moved={(said) => (setDone(said), reload())}
          close={() => setMoving(undefined)}
        />
      )}
    </section>
  )
}
