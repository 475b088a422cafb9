import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateIn, localDate } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Offering } from "../types.ts"
import { Field, FieldError, Loading, Title, value } from "../ui.tsx"
import {
  type AttendanceRow,
  type By,
  type Frame,
  type OccupancyRow,
  type Preset,
  presetRange,
  type RevenueRow,
  type WaitlistRow
} from "./figures.ts"
import { Attendance, Occupancy, Revenue, Waitlist } from "./Sections.tsx"
import "./reports.css"

const PRESETS: ReadonlyArray<readonly [Preset, string]> = [
  ["month", "This month"],
  ["30days", "Last 30 days"],
  ["year", "This year"],
  ["custom", "Custom dates"]
]

interface Reports {
  by: By
  revenue: Frame<RevenueRow>
  occupancy: Frame<OccupancyRow>
  attendance: Frame<AttendanceRow>
  waitlist: Frame<WaitlistRow>
}

/** What the range picked says is wrong with it, before asking (the API's own limits: to not before from, 3660 days). */
const rangeProblem = (from: string, to: string) =>
  from === "" || to === ""
    ? "Pick both days."
    : to < from
      ? "The last day is before the first."
      : (Date.parse(to) - Date.parse(from)) / 86_400_000 >= 3660
        ? "A report covers at most ten years."
        : undefined

/**
 * The figures an owner runs the business by (reports.*), for a range of days in the org's zone, in its currency: each
 * as a chart with its figures in a table beside it.
 */
export const ReportsScreen = () => {
  const { zone } = useConsole()
  const today = dateIn(new Date(), zone)
  const [preset, setPreset] = useState<Preset>("month")
  const [range, setRange] = useState(presetRange("month", today))
  const [by, setBy] = useState<By>("day")
  const [offering, setOffering] = useState("")
  const offerings = useLoad(() => api.get<{ data: Offering[] }>("/offerings").then((r) => r.data), [])
  const problem = rangeProblem(range.from, range.to)
  const { data, error } = useLoad(async (): Promise<Reports | undefined> => {
    if (problem !== undefined) return undefined
    const q = { ...range, offering_id: offering === "" ? undefined : offering }
    const [revenue, occupancy, attendance, waitlist] = await Promise.all([
      api.get<Frame<RevenueRow>>("/reports/revenue", { ...q, by }),
      api.get<Frame<OccupancyRow>>("/reports/occupancy", q),
      api.get<Frame<AttendanceRow>>("/reports/attendance", q),
      api.get<Frame<WaitlistRow>>("/reports/waitlist", q)
    ])
    return { by, revenue, occupancy, attendance, waitlist }
  }, [range.from, range.to, by, offering, problem])
  const pick = (p: Preset) => {
    setPreset(p)
    if (p !== "custom") setRange(presetRange(p, today))
  }
  const current =
    data !== undefined &&
    data.revenue.from === range.from &&
    data.revenue.to === range.to &&
    data.by === by &&
    problem === undefined
  return (
    <section>
      <Title>Reports</Title>
      <form class="filters" aria-label="What the reports cover" onSubmit={(e) => e.preventDefault()}>
        <Field label="Days">
          <select value={preset} onChange={(e) => pick(value(e) as Preset)}>
            {PRESETS.map(([p, label]) => (
              <option key={p} value={p}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="From">
          <input
            type="date"
            required
            value={range.from}
            onInput={(e) => (setPreset("custom"), setRange({ ...range, from: value(e) }))}
          />
        </Field>
        <Field label="To">
          <input
            type="date"
            required
            value={range.to}
            onInput={(e) => (setPreset("custom"), setRange({ ...range, to: value(e) }))}
          />
        </Field>
        <Field label="Revenue by">
          <select value={by} onChange={(e) => setBy(value(e) as By)}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </Field>
        <Field label="Offering">
          <select value={offering} onChange={(e) => setOffering(value(e))}>
            <option value="">All offerings</option>
            {offerings.data?.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <FieldError text={problem} />
      {problem === undefined ? (
        <p class="muted">
          {localDate(range.from)} to {localDate(range.to)}, in {zone} time
          {offering === "" ? "" : `, ${offerings.data?.find((o) => o.id === offering)?.name ?? "one offering"} only`}.
        </p>
      ) : null}
      {data === undefined || problem !== undefined ? (
        problem === undefined ? (
          <Loading error={error} />
        ) : null
      ) : (
        <div aria-busy={!current}>
          <Revenue report={data.revenue} by={data.by} />
          <Occupancy report={data.occupancy} />
          <Attendance report={data.attendance} />
          <Waitlist report={data.waitlist} />
        </div>
      )}
    </section>
  )
}
