import { useEffect, useMemo, useState } from "preact/hooks"
import type { Client, Offering, Org, Slot } from "./api.ts"
import { addDays, dayLabel, dayLong, localDate, time } from "./format.ts"
import { type Heading, message, WINDOW_DAYS } from "./shared.ts"

export const Times = (p: {
  api: Client
  org: Org
  offering: Offering
  heading: Heading
  onBack?: (() => void) | undefined
  onPick: (s: Slot) => void
  onWait: (s: Slot) => void
  onError: (e: string) => void
}) => {
  const today = p.org.today
  const [from, setFrom] = useState(today)
  const [slots, setSlots] = useState<Slot[]>()
  const [day, setDay] = useState<string>()
  useEffect(() => {
    setSlots(undefined)
    p.api.times(p.offering.id, from, addDays(from, WINDOW_DAYS - 1)).then(
      (r) => {
        setSlots(r.data)
        const first = r.data.find((s) => s.remaining > 0) ?? r.data[0]
        setDay(first ? localDate(first.starts_at, p.org.timezone) : undefined)
      },
      (e) => p.onError(message(e))
    )
  }, [from])
  const byDay = useMemo(() => {
    const m = new Map<string, Slot[]>()
    for (const s of slots ?? []) {
      const d = localDate(s.starts_at, p.org.timezone)
      m.set(d, [...(m.get(d) ?? []), s])
    }
    return m
  }, [slots])
  const shown = day ? (byDay.get(day) ?? []) : []
  return (
    <section>
      {p.heading(p.offering.name)}
      {p.offering.description && <p class="note">{p.offering.description}</p>}
      <p class="note">Times are in {p.org.timezone} time.</p>
      <div class="nav">
        <button
          type="button"
          onClick={() => setFrom(addDays(from, -WINDOW_DAYS))}
          disabled={from <= today}
          aria-label="Earlier dates"
        >
          ‹ Earlier
        </button>
        <span aria-live="polite">
          {dayLabel(`${from}T12:00:00Z`, "UTC")} to {dayLabel(`${addDays(from, WINDOW_DAYS - 1)}T12:00:00Z`, "UTC")}
        </span>
        <button type="button" onClick={() => setFrom(addDays(from, WINDOW_DAYS))} aria-label="Later dates">
          Later ›
        </button>
      </div>
      {slots === undefined ? (
        <p aria-busy="true">Loading times…</p>
      ) : byDay.size === 0 ? (
        <p>No times in these two weeks.</p>
      ) : (
        <>
          <h3 id="days-label">Day</h3>
          {/* biome-ignore lint/a11y/useSemanticElements: a row of day chips, not a form */}
          <div class="days" role="group" aria-labelledby="days-label">
            {[...byDay].map(([d, list]) => {
              const open = list.filter((s) => s.remaining > 0).length
              return (
                <button type="button" key={d} aria-pressed={day === d} onClick={() => setDay(d)}>
                  {dayLabel(list[0].starts_at, p.org.timezone)}
                  <br />
                  <span class="note">{open === 0 ? "full" : `${open} free`}</span>
                </button>
              )
            })}
          </div>
          {day && (
            <>
              <h3 id="times-label">Times on {dayLong(shown[0]?.starts_at ?? `${day}T12:00:00Z`, p.org.timezone)}</h3>
              {/* biome-ignore lint/a11y/useSemanticElements: a row of time chips, not a form */}
              <div class="times" role="group" aria-labelledby="times-label">
                {shown.map((s) =>
                  s.remaining > 0 ? (
                    <button type="button" key={s.starts_at} onClick={() => p.onPick(s)}>
                      {time(s.starts_at, p.org.timezone)} <span class="note">({s.remaining} left)</span>
                    </button>
                  ) : p.offering.waitlist_enabled ? (
                    <button type="button" key={s.starts_at} onClick={() => p.onWait(s)}>
                      {time(s.starts_at, p.org.timezone)} <span class="note">(full: join the waitlist)</span>
                    </button>
                  ) : (
                    <button type="button" key={s.starts_at} disabled>
                      {time(s.starts_at, p.org.timezone)} <span class="note">(full)</span>
                    </button>
                  )
                )}
              </div>
            </>
          )}
        </>
      )}
      {p.onBack && (
        <button type="button" onClick={p.onBack}>
          ‹ All offerings
        </button>
      )}
    </section>
  )
}
