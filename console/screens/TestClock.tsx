import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, value } from "../ui.tsx"

interface Clock {
  now: string
  test: boolean
}

const UNITS = { minutes: 60, hours: 3600, days: 86400 } as const
type Unit = keyof typeof UNITS
const MAX_SECONDS = 400 * 86400

/**
 * The test clock (CLOCK=test), through GET and POST /api/v1/clock: its time, and moving it forward by a chosen
 * amount (what falls due by then runs). Shown only when the deployment runs it; the engine has no way back.
 */
export const TestClock = ({ onMoved }: { onMoved: () => void }) => {
  const { zone } = useConsole()
  const { data, reload } = useLoad(() => api.get<Clock>("/clock"), [])
  const [form, setForm] = useState<{ amount: string; unit: Unit }>({ amount: "1", unit: "hours" })
  const [moved, setMoved] = useState<string | undefined>(undefined)
  const act = useAction()
  if (data === undefined || !data.test) return null
  const advance = (e: Event) => {
    e.preventDefault()
    setMoved(undefined)
    const amount = Number(form.amount)
    if (!Number.isInteger(amount) || amount < 1) {
      act.setError("Enter a whole number of at least 1.")
      return
    }
    if (amount * UNITS[form.unit] > MAX_SECONDS) {
      act.setError("The clock moves at most 400 days at a time.")
      return
    }
    void act.run(
      () => api.post<Clock>("/clock", { advance_seconds: amount * UNITS[form.unit] }),
      (c) => (
        setMoved(`Moved forward ${amount} ${form.unit}: it is now ${dateTime(c.now, zone)}.`), reload(), onMoved()
      )
    )
  }
  return (
    <section aria-labelledby="test-clock">
      <h2 id="test-clock">Test clock</h2>
      <p>
        This deployment runs the test clock: time stands still until you move it, for every org on it. Engine time:{" "}
        <strong>
          <time dateTime={data.now}>{dateTime(data.now, zone)}</time>
        </strong>{" "}
        <span class="muted">({data.now})</span>
      </p>
      <Alert text={act.error} />
      <Done text={moved} />
      <form class="inline" onSubmit={advance} aria-label="Advance the test clock">
        <Field label="Amount">
          <input
            type="number"
            min="1"
            step="1"
            required
            value={form.amount}
            onInput={(e) => setForm({ ...form, amount: value(e) })}
          />
        </Field>
        <Field label="Unit">
          <select value={form.unit} onChange={(e) => setForm({ ...form, unit: value(e) as Unit })}>
            <option value="minutes">Minutes</option>
            <option value="hours">Hours</option>
            <option value="days">Days</option>
          </select>
        </Field>
        <button type="submit" disabled={act.busy}>
          Advance
        </button>
      </form>
    </section>
  )
}
