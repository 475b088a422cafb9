import type { ComponentChildren } from "preact"
import { localDate, money, monthOf } from "../format.ts"
import { useConsole } from "../state.ts"
import { Empty } from "../ui.tsx"
import { BarChart } from "./Chart.tsx"
import {
  type AttendanceRow,
  type By,
  type Frame,
  type OccupancyRow,
  occupancyByHour,
  occupancyByOffering,
  type RevenueRow,
  revenueSeries,
  revenueTotals,
  share,
  type WaitlistRow
} from "./figures.ts"

/** A table row: the first cell names it (a period, an offering, an hour), the rest are figures. */
const Row = ({ cells }: { cells: ReadonlyArray<ComponentChildren> }) => (
  <tr>
    {cells.map((c, j) =>
      j === 0 ? (
        <th key={j} scope="row">
          {c}
        </th>
      ) : (
        <td key={j} class="num">
          {c}
        </td>
      )
    )}
  </tr>
)

/** The figures of a chart as a table, for anyone who would rather read them (and for screen readers). */
const Figures = ({
  caption,
  head,
  rows,
  foot
}: {
  caption: string
  head: ReadonlyArray<string>
  rows: ReadonlyArray<ReadonlyArray<ComponentChildren>>
  foot?: ReadonlyArray<ComponentChildren>
}) => (
  <details class="figures">
    <summary>{caption}: the figures</summary>
    <div class="scroll">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" class={i === 0 ? undefined : "num"}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <Row key={i} cells={r} />
          ))}
        </tbody>
        {foot === undefined ? null : (
          <tfoot>
            <Row cells={foot} />
          </tfoot>
        )}
      </table>
    </div>
  </details>
)

/** "1 booking", "3 bookings". */
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

const periodLabel = (period: string, by: By) =>
  by === "month" ? monthOf(period) : by === "week" ? `Week of ${localDate(period)}` : localDate(period)
/** The chart's axis: shorter than the table's label ("3 Dec", "Dec 2026"). */
const tick = (period: string, by: By) =>
  by === "month" ? monthOf(period).replace(/^(\w{3})\w*/, "$1") : localDate(period).split(" ").slice(1, 3).join(" ")

export const Revenue = ({ report, by }: { report: Frame<RevenueRow>; by: By }) => {
  const { currency } = useConsole()
  const m = (n: number) => money(n, currency)
  const t = revenueTotals(report.data)
  const series = revenueSeries(report.data, report.from, report.to, by)
  return (
    <section class="report" aria-labelledby="revenue">
      <h2 id="revenue">Revenue</h2>
      <dl class="totals">
        {(
          [
            ["Charged", t.charged_cents],
            ["Refunded", t.refunded_cents],
            ["Net", t.net_cents],
            ["Gift cards", t.gift_card_cents],
            ["Promo discounts", t.discount_cents],
            ["Deposits still due", t.deposits_due_cents]
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{m(n)}</dd>
          </div>
        ))}
      </dl>
      {report.data.length === 0 ? (
        <Empty>No bookings were made in these days.</Empty>
      ) : (
        <>
          <BarChart
            summary={`Revenue by ${by}: ${m(t.charged_cents)} charged, ${m(t.refunded_cents)} refunded, ${m(t.net_cents)} net over ${t.bookings} bookings.`}
            labels={series.map((p) => tick(p.period, by))}
            series={[
              { label: "Charged", values: series.map((p) => p.charged_cents) },
              { label: "Refunded", values: series.map((p) => p.refunded_cents) },
              { label: "Net", values: series.map((p) => p.net_cents) }
            ]}
            format={m}
          />
          <Figures
            caption={`Revenue by ${by}`}
            head={["Made", "Bookings", "Charged", "Refunded", "Net", "Gift cards", "Discounts", "Deposits due"]}
            rows={report.data.map((r) => [
              periodLabel(r.period ?? report.from, by),
              r.bookings,
              m(r.charged_cents),
              m(r.refunded_cents),
              m(r.net_cents),
              m(r.gift_card_cents),
              m(r.discount_cents),
              m(r.deposits_due_cents)
            ])}
            foot={[
              "Total",
              t.bookings,
              m(t.charged_cents),
              m(t.refunded_cents),
              m(t.net_cents),
              m(t.gift_card_cents),
              m(t.discount_cents),
              m(t.deposits_due_cents)
            ]}
          />
        </>
      )}
    </section>
  )
}

export const Occupancy = ({ report }: { report: Frame<OccupancyRow> }) => {
  const offerings = occupancyByOffering(report.data)
  const hours = occupancyByHour(report.data)
  const sold = offerings.reduce((s, o) => s + o.sold, 0)
  const offered = offerings.reduce((s, o) => s + o.offered, 0)
  const chart = (by: string, list: typeof offerings) => (
    <>
      <BarChart
        summary={`Places sold against offered ${by}: ${list.map((o) => `${o.label} ${o.sold} of ${o.offered}`).join(", ")}.`}
        labels={list.map((o) => o.label)}
        series={[
          { label: "Sold", values: list.map((o) => o.sold) },
          { label: "Offered", values: list.map((o) => o.offered) }
        ]}
      />
      <Figures
        caption={`Occupancy ${by}`}
        head={[by === "per offering" ? "Offering" : "Starting at", "Times", "Places offered", "Sold", "Sold share"]}
        rows={list.map((o) => [o.label, o.times, o.offered, o.sold, share(o.sold, o.offered)])}
        foot={["Total", list.reduce((s, o) => s + o.times, 0), offered, sold, share(sold, offered)]}
      />
    </>
  )
  return (
    <section class="report" aria-labelledby="occupancy">
      <h2 id="occupancy">Occupancy</h2>
      {report.data.length === 0 ? (
        <Empty>No times on the calendar in these days.</Empty>
      ) : (
        <>
          <p>
            <strong>
              {sold} of {offered} places sold ({share(sold, offered)})
            </strong>{" "}
            <span class="muted">on the times starting in these days, holds included</span>
          </p>
          <h3>Per offering</h3>
          {chart("per offering", offerings)}
          <h3>Per hour of day</h3>
          {chart("per hour of day", hours)}
        </>
      )}
    </section>
  )
}

export const Attendance = ({ report }: { report: Frame<AttendanceRow> }) => {
  const rows = report.data
  const total = (k: "bookings" | "cancelled" | "checked_in" | "no_shows") => rows.reduce((s, r) => s + r[k], 0)
  return (
    <section class="report" aria-labelledby="attendance">
      <h2 id="attendance">Attendance</h2>
      {rows.length === 0 ? (
        <Empty>No bookings for times in these days.</Empty>
      ) : (
        <>
          <p>
            <strong>
              {count(total("no_shows"), "no-show")} and {count(total("cancelled"), "cancellation")} of{" "}
              {count(total("bookings"), "booking")}
            </strong>
          </p>
          <BarChart
            summary={`Attendance per offering: ${rows.map((r) => `${r.offering_name} ${r.bookings} bookings, ${r.cancelled} cancelled, ${r.no_shows} no-shows`).join("; ")}.`}
            labels={rows.map((r) => r.offering_name)}
            series={[
              { label: "Bookings", values: rows.map((r) => r.bookings) },
              { label: "Cancellations", values: rows.map((r) => r.cancelled) },
              { label: "No-shows", values: rows.map((r) => r.no_shows) },
              { label: "Checked in", values: rows.map((r) => r.checked_in) }
            ]}
          />
          <Figures
            caption="Attendance per offering"
            head={["Offering", "Bookings", "Cancellations", "No-shows", "Checked in"]}
            rows={rows.map((r) => [r.offering_name, r.bookings, r.cancelled, r.no_shows, r.checked_in])}
            foot={["Total", total("bookings"), total("cancelled"), total("no_shows"), total("checked_in")]}
          />
        </>
      )}
    </section>
  )
}

export const Waitlist = ({ report }: { report: Frame<WaitlistRow> }) => {
  const rows = report.data
  const joins = rows.reduce((s, r) => s + r.joins, 0)
  const got = rows.reduce((s, r) => s + r.got_a_place, 0)
  return (
    <section class="report" aria-labelledby="waitlist">
      <h2 id="waitlist">Waitlist</h2>
      {rows.length === 0 ? (
        <Empty>Nobody joined a waitlist in these days.</Empty>
      ) : (
        <>
          <p>
            <strong>
              {joins} joined, {got} got a place
            </strong>
          </p>
          <BarChart
            summary={`Waitlist per offering: ${rows.map((r) => `${r.offering_name} ${r.joins} joined, ${r.got_a_place} got a place`).join("; ")}.`}
            labels={rows.map((r) => r.offering_name)}
            series={[
              { label: "Joined", values: rows.map((r) => r.joins) },
              { label: "Got a place", values: rows.map((r) => r.got_a_place) }
            ]}
          />
          <Figures
            caption="Waitlist per offering"
            head={["Offering", "Joined", "Got a place"]}
            rows={rows.map((r) => [r.offering_name, r.joins, r.got_a_place])}
            foot={["Total", joins, got]}
          />
        </>
      )}
    </section>
  )
}
