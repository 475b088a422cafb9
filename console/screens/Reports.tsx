import type { FunctionComponent } from "preact"
import { useEffect, useState } from "preact/hooks"
import { Loading } from "../ui.tsx"

/**
 * The Reports screen, fetched when first opened: its charts (chart.js) stay out of the script every other screen
 * loads.
 */
export const Reports = () => {
  const [screen, setScreen] = useState<FunctionComponent | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    import("../reports/Screen.tsx").then(
      (m) => setScreen(() => m.ReportsScreen),
      () => setError("Could not load the reports. Check your connection and reload the page.")
    )
  }, [])
  const Screen = screen
  return Screen === undefined ? <Loading error={error} /> : <Screen />
}
