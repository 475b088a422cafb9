import { render } from "preact"
import { App } from "./App.tsx"
import { client } from "./api.ts"
import { STYLE } from "./style.ts"

/**
 * <booking-widget data-key="pk_live_…" [data-offering="…"] [data-api="https://…"]>: the booking widget in a shadow root.
 * The script tag itself works too: <script src="{PUBLIC_URL}/widget.js" data-key="pk_live_…"></script> puts one
 * widget where the tag stands.
 */
class BookingWidget extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return
    const root = this.attachShadow({ mode: "open" })
    const style = document.createElement("style")
    style.textContent = STYLE
    root.appendChild(style)
    const mount = document.createElement("div")
    root.appendChild(mount)
    const key = this.dataset.key ?? ""
    const api = (this.dataset.api ?? SCRIPT_ORIGIN).replace(/\/$/, "")
    if (!key.startsWith("pk_")) {
      mount.textContent = "booking-widget: set data-key to the org's publishable key (pk_live_…)."
      return
    }
    render(<App api={client(api, key)} offeringId={this.dataset.offering || undefined} />, mount)
  }
}

const script = document.currentScript as HTMLScriptElement | null
const SCRIPT_ORIGIN = script?.src ? new URL(script.src).origin : location.origin

if (!customElements.get("booking-widget")) customElements.define("booking-widget", BookingWidget)
if (script?.dataset.key) {
  const el = document.createElement("booking-widget")
  for (const [k, v] of Object.entries(script.dataset)) if (v !== undefined) el.dataset[k] = v
  script.insertAdjacentElement("afterend", el)
}
