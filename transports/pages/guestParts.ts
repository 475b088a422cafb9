import { Option } from "effect"
import type { GaugeReading, Weather } from "../../engine/ports/Outdoors.ts"
import type { GuestView } from "../../engine/schema/guest.ts"
import { escapeHtml, when } from "./html.ts"

export type Outdoor = { weather: Option.Option<Weather>; gauge: Option.Option<GaugeReading> }
export type Message = { from: "guest" | "business"; body: string; created_at: string }

/** The conditions at the start: the forecast and a river gauge, where the offering has them. */
export const outdoorsHtml = (v: GuestView, o: Outdoor | undefined) => {
  if (o === undefined || (Option.isNone(o.weather) && Option.isNone(o.gauge))) return ""
  const n = (x: number, digits = 1) => new Intl.NumberFormat(v.org.locale, { maximumFractionDigits: digits }).format(x)
  return (
    `<h2>Conditions</h2><dl>` +
    Option.match(o.weather, {
      onNone: () => "",
      onSome: (w) =>
        `<dt>Forecast at the start</dt><dd>${escapeHtml(w.summary)}, ${n(w.temperature_c)} °C, wind ${n(w.wind_kmh, 0)} km/h, ${n(w.precipitation_mm)} mm rain <span class="note">(Open-Meteo)</span></dd>`
    }) +
    Option.match(o.gauge, {
      onNone: () => "",
      onSome: (g) =>
        `<dt>River gauge</dt><dd>${escapeHtml(g.name)}: ${escapeHtml(g.parameter)} ${n(g.value, 2)} ${escapeHtml(g.unit)}, <time datetime="${escapeHtml(g.at)}">${escapeHtml(when(g.at, v.org.timezone, v.org.locale))}</time> <span class="note">(USGS)</span></dd>`
    }) +
    `</dl>`
  )
}

export const waiver = (v: GuestView) =>
  v.waiver === null
    ? ""
    : `<h2>Waiver</h2><p>${v.waiver.signed} of ${v.waiver.needed} signatures. ` +
      (v.waiver.signed < v.waiver.needed
        ? `<a href="${escapeHtml(v.waiver.url)}">Sign the waiver</a>`
        : "Every signature is in.") +
      `</p>`

export const thread = (v: GuestView, messages: ReadonlyArray<Message>, base: string, error?: string) =>
  `<h2 id="messages">Messages</h2>` +
  (messages.length === 0
    ? `<p class="note">No messages yet.</p>`
    : `<ol class="thread">${messages
        .map(
          (m) =>
            `<li class="${m.from}"><span class="note">${m.from === "guest" ? "You" : escapeHtml(v.org.name)}, <time datetime="${escapeHtml(m.created_at)}">${escapeHtml(when(m.created_at, v.org.timezone, v.org.locale))}</time></span><br>${escapeHtml(m.body).replace(/\n/g, "<br>")}</li>`
        )
        .join("")}</ol>`) +
  (v.guest.email === null
    ? ""
    : `<form method="post" action="${base}/messages">` +
      (error ? `<p role="alert" id="message-error">${escapeHtml(error)}</p>` : "") +
      `<label for="body">Write to ${escapeHtml(v.org.name)}</label><textarea id="body" name="body" rows="4" maxlength="5000" required${error ? ` aria-invalid="true" aria-describedby="message-error"` : ""}></textarea>` +
      `<button type="submit">Send message</button></form>`)
