import { useEffect, useRef, useState } from "preact/hooks"
import { api, describe } from "../api.ts"
import { Loading } from "../ui.tsx"

/** Loads /widget.js once (same origin: the console's script-src allows it). */
const loadWidget = () => {
  if (document.querySelector("script[data-console-widget]") !== null) return
  const s = document.createElement("script")
  s.src = "/widget.js"
  s.dataset.consoleWidget = ""
  document.head.appendChild(s)
}

/**
 * The widget's embed code with the org's widget key, and the widget itself as a live preview. The key is the one
 * publishable key the engine keeps for the org (keys.widget_key: the same on every visit, a new one once revoked).
 */
export const Embed = () => {
  const [key, setKey] = useState<string | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let current = true
    api.post<{ key: string }>("/widget_key").then(
      (k) => current && setKey(k.key),
      (e) => current && setError(describe(e))
    )
    return () => {
      current = false
    }
  }, [])
  useEffect(() => {
    if (key === undefined || box.current === null) return
    loadWidget()
    const el = document.createElement("booking-widget")
    el.dataset.key = key
    el.dataset.api = location.origin
    box.current.replaceChildren(el)
  }, [key])
  return (
    <section aria-labelledby="embed">
      <h2 id="embed">Put the widget on your site</h2>
      <p>
        Paste this where the booking widget should appear, and add your site under “Sites that may embed the widget”.
        Its key is public by design and the same each time you come here; revoked under Developers, a new one shows
        here.
      </p>
      {key === undefined ? (
        <Loading error={error} />
      ) : (
        <>
          <pre>
            <code>{`<script src="${location.origin}/widget.js" data-key="${key}"></script>`}</code>
          </pre>
          <h3>Preview</h3>
          <div ref={box} class="panel" />
        </>
      )}
    </section>
  )
}
