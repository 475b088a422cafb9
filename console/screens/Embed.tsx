import { useEffect, useRef, useState } from "preact/hooks"
import { api } from "../api.ts"
import { useAction } from "../state.ts"
import { Alert } from "../ui.tsx"

/** Loads /widget.js once (same origin: the console's script-src allows it). */
const loadWidget = () => {
  if (document.querySelector("script[data-console-widget]") !== null) return
  const s = document.createElement("script")
  s.src = "/widget.js"
  s.dataset.consoleWidget = ""
  document.head.appendChild(s)
}

/**
 * The preview's publishable key, kept in memory for the page's life: coming back to Settings reuses it instead of
 * making a key per visit (the API never shows a key again, so a new page load makes one when asked).
 */
let previewKey: string | undefined

/** The widget's embed code with a publishable key made for it, and the widget itself as a live preview. */
export const Embed = () => {
  const [key, setKey] = useState<string | undefined>(previewKey)
  const act = useAction()
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (key === undefined || box.current === null) return
    loadWidget()
    const el = document.createElement("booking-widget")
    el.dataset.key = key
    el.dataset.api = location.origin
    box.current.replaceChildren(el)
  }, [key])
  const code = `<script src="${location.origin}/widget.js" data-key="${key ?? "pk_…"}"></script>`
  return (
    <section aria-labelledby="embed">
      <h2 id="embed">Put the widget on your site</h2>
      <p>
        Paste this where the booking widget should appear, and add your site under “Sites that may embed the widget”.
      </p>
      <pre>
        <code>{code}</code>
      </pre>
      {key === undefined ? (
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            act.run(
              () => api.post<{ key: string }>("/api_keys", { kind: "publishable", name: "Widget" }),
              (k) => {
                previewKey = k.key
                setKey(k.key)
              }
            )
          }
        >
          Make a key for the widget and preview it
        </button>
      ) : (
        <>
          <h3>Preview</h3>
          <div ref={box} class="panel" />
        </>
      )}
      <Alert text={act.error} />
    </section>
  )
}
