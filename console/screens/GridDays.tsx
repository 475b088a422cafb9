import type { AgendaItem } from "../agenda.ts"
import {
  bands,
  blockLabel,
  type Closure,
  hhmm,
  minuteOf,
  noonOf,
  type Placed,
  PX,
  place,
  shortDay
} from "../calendarGrid.ts"
import { dateIn, day, time } from "../format.ts"

/** Where a drag would land: drawn as a dashed box in its column. */
export interface Ghost {
  readonly date: string
  readonly minute: number
  readonly length: number
}

/**
 * The grid itself: an hour axis and one column per date, each with its closures greyed, its times as blocks (each a
 * button named in full for screen readers, with a Move… button), the current time as a line and a drag's landing.
 */
export const GridDays = ({
  dates,
  zone,
  range,
  items,
  closures,
  offeringName,
  ghost,
  press,
  open,
  move
}: {
  dates: ReadonlyArray<string>
  zone: string
  range: { from: number; to: number }
  items: ReadonlyArray<AgendaItem>
  closures: ReadonlyArray<Closure>
  offeringName: (id: string) => string
  ghost: Ghost | undefined
  press: (e: PointerEvent, item: AgendaItem, grab: number) => void
  open: (item: AgendaItem) => void
  move: (item: AgendaItem) => void
}) => {
  const height = (range.to - range.from) * 60 * PX
  const now = new Date()
  const today = dateIn(now, zone)
  const nowMinute = minuteOf(now.toISOString(), zone) - range.from * 60
  const hours = Array.from({ length: range.to - range.from }, (_, i) => range.from + i)
  return (
    <div class="cal" style={{ "--days": String(dates.length) }}>
      <div class="cal-axis" aria-hidden="true" style={{ height: `${height}px` }}>
        {hours.map((h) => (
          <span key={h} style={{ top: `${(h - range.from) * 60 * PX}px` }}>
            {hhmm(h * 60)}
          </span>
        ))}
      </div>
      {dates.map((date) => {
        const mine = items.filter((i) => dateIn(new Date(i.starts_at), zone) === date)
        const placed = place(mine, zone, range.from)
        return (
          <section key={date} class="cal-day" aria-labelledby={`day-${date}`}>
            <h2 id={`day-${date}`} class={date === today ? "cal-head today" : "cal-head"}>
              <span aria-hidden="true">{shortHead(date, zone)}</span>
              <span class="visually-hidden">
                {day(noonOf(date, zone), zone)}
                {date === today ? " (today)" : ""}
              </span>
            </h2>
            <div class="cal-track" data-date={date} style={{ height: `${height}px` }}>
              {bands(closures, date, range, offeringName).map((b) => (
                <p key={b.key} class="cal-band" style={{ top: `${b.top * PX}px`, height: `${b.length * PX}px` }}>
                  {b.text}
                </p>
              ))}
              {mine.length === 0 ? <p class="visually-hidden">Nothing on this day.</p> : null}
              {placed.map((p) => (
                <Block key={p.item.key} p={p} zone={zone} press={press} open={open} move={move} />
              ))}
              {date === today && nowMinute >= 0 && nowMinute <= height / PX ? (
                <div class="cal-now" style={{ top: `${nowMinute * PX}px` }}>
                  <span class="visually-hidden">Now, {time(now.toISOString(), zone)}</span>
                </div>
              ) : null}
              {ghost !== undefined && ghost.date === date ? (
                <div
                  class="cal-ghost"
                  aria-hidden="true"
                  style={{ top: `${(ghost.minute - range.from * 60) * PX}px`, height: `${ghost.length * PX}px` }}
                >
                  {hhmm(ghost.minute)}
                </div>
              ) : null}
            </div>
          </section>
        )
      })}
    </div>
  )
}

const shortHead = (date: string, zone: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", timeZone: zone }).format(
    new Date(noonOf(date, zone))
  )

const Block = ({
  p,
  zone,
  press,
  open,
  move
}: {
  p: Placed
  zone: string
  press: (e: PointerEvent, item: AgendaItem, grab: number) => void
  open: (item: AgendaItem) => void
  move: (item: AgendaItem) => void
}) => {
  const { item } = p
  const s = item.session
  const label = blockLabel(item, zone)
  const tone = s === undefined ? "booking" : s.left === 0 ? "full" : ""
  return (
    <div
      class={`cal-block ${tone}`}
      data-session={s?.id}
      style={{
        top: `${p.top * PX}px`,
        height: `${Math.max(p.length * PX, 18)}px`,
        left: `${(p.lane / p.lanes) * 100}%`,
        width: `${100 / p.lanes}%`
      }}
      onPointerDown={(e) => {
        const r = (e.currentTarget as HTMLElement).getBoundingClientRect()
        press(e, item, (e.clientY - r.top) / PX)
      }}
    >
      <button type="button" class="cal-open" aria-label={label} onClick={() => open(item)}>
        {/* Spaces between the lines, so the text read out matches the block's name (a visible text in its label). */}
        <strong>{item.offering}</strong>{" "}
        <span>
          {shortDay(item.starts_at, zone)} {time(item.starts_at, zone)}–{time(item.ends_at, zone)}
        </span>{" "}
        {s === undefined ? (
          <span>{item.booking?.customer?.name ?? item.booking?.reference}</span>
        ) : (
          <>
            <span>
              {s.taken} taken, {s.left} left
            </span>{" "}
            {s.holds > 0 ? <span>{s.holds} held</span> : null} {s.waiting > 0 ? <span>{s.waiting} waiting</span> : null}
          </>
        )}
      </button>
      <button type="button" class="cal-move" aria-label={`Move ${label}…`} onClick={() => move(item)}>
        Move…
      </button>
    </div>
  )
}
