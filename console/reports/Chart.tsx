import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip
} from "chart.js"
import { useEffect, useRef } from "preact/hooks"

// Only the pieces the bar charts use are registered, so the rest of chart.js stays out of the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip)

/** Colours that keep 4.5:1 against white, one per series in order. */
const COLOURS = ["#0b57d0", "#b3261e", "#146c2e", "#7a4f00", "#5b3d99"]

export interface Series {
  readonly label: string
  readonly values: ReadonlyArray<number>
}

/**
 * A bar chart in a sized box (it fills the box's width and height at any screen size). The canvas is an image to a
 * screen reader, named by `summary`; the figures themselves are in the table beside it.
 */
export const BarChart = ({
  summary,
  labels,
  series,
  format
}: {
  summary: string
  labels: ReadonlyArray<string>
  series: ReadonlyArray<Series>
  /** How a value reads on the axis and in the tooltip (money in the org's currency, say). */
  format?: (n: number) => string
}) => {
  const canvas = useRef<HTMLCanvasElement>(null)
  const key = JSON.stringify([labels, series])
  useEffect(() => {
    if (canvas.current === null) return
    const show = format ?? ((n: number) => String(n))
    const config: ChartConfiguration<"bar"> = {
      type: "bar",
      data: {
        labels: [...labels],
        datasets: series.map((s, i) => ({
          label: s.label,
          data: [...s.values],
          backgroundColor: COLOURS[i % COLOURS.length],
          maxBarThickness: 40
        }))
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          y: {
            beginAtZero: true,
            // Counts are whole: no "0.5 bookings" on the axis.
            ticks: {
              callback: (v: string | number) => show(Number(v)),
              ...(format === undefined ? { precision: 0 } : {})
            }
          }
        },
        plugins: {
          legend: { position: "bottom" },
          tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${show(Number(c.raw))}` } }
        }
      }
    }
    const chart = new Chart(canvas.current, config)
    return () => chart.destroy()
  }, [key])
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  )
}
