import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { minorUnits } from "../../engine/schema/currency.ts"
import { STYLE as WIDGET_STYLE } from "../../widget/style.ts"
import { CLOSE, readText } from "../shared/body.ts"
import { findBadQuery, printable } from "../shared/json.ts"

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Intl formatters cost far more to make than to use (a page may list dozens of times): one per kind, locale and zone. */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>()
const kept = <F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F => {
  let f = formatters.get(key)
  if (f === undefined) {
    if (formatters.size >= 1_000) formatters.clear()
    f = make()
    formatters.set(key, f)
  }
  return f as F
}

export const money = (cents: number, currency: string, locale = "en") =>
  kept(
    `money|${locale}|${currency}`,
    () =>
      new Intl.NumberFormat(locale, {
        style: "currency",
        currency,
        minimumFractionDigits: Math.log10(minorUnits(currency))
      })
  ).format(cents / minorUnits(currency))

/** A date and time in the org's zone, in the org's language, with the zone named. */
export const when = (iso: string, zone: string, locale = "en") =>
  kept(
    `when|${locale}|${zone}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone: zone })
  ).format(new Date(iso))
export const timeOnly = (iso: string, zone: string, locale = "en") =>
  kept(`time|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone: zone })).format(
    new Date(iso)
  )
export const dayOnly = (iso: string, zone: string, locale = "en") =>
  kept(
    `day|${locale}|${zone}`,
    () => new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone: zone })
  ).format(new Date(iso))

const STYLE =
  `:root{color-scheme:light}body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}` +
  `h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin-top:2rem}dt{font-weight:600}dd{margin:0 0 .5rem}` +
  `label{display:block;font-weight:600;margin-top:1rem}input[type=text],input:not([type]),textarea{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;border:1px solid #767676;border-radius:4px}` +
  `button,.button{display:inline-block;font:inherit;margin-top:1rem;padding:.6rem 1.2rem;background:#0b57d0;color:#fff;border:0;border-radius:4px;text-decoration:none;cursor:pointer}` +
  `button.danger{background:#b3261e}a{color:#0b57d0}fieldset{border:1px solid #ccc;border-radius:4px;margin:1rem 0}legend{font-weight:600}` +
  `.choice{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.25rem 0}[role=alert]{border:2px solid #b3261e;padding:.5rem;color:#b3261e}` +
  `[role=status]{border:2px solid #146c2e;padding:.5rem;color:#146c2e}.note{color:#444;font-size:.9rem}.badge{display:inline-block;padding:.1rem .5rem;border-radius:1rem;background:#e8eefc;font-size:.9rem}` +
  `ol.thread{list-style:none;padding:0}pre{white-space:pre-wrap;word-break:break-all}ol.thread li{border-left:3px solid #ccc;padding:.25rem .75rem;margin:.5rem 0}ol.thread li.guest{border-color:#0b57d0}`

/** A whole page: lang, title, one main landmark, inline styles only (no external assets, no script). */
export const page = (title: string, body: string, lang = "en") =>
  `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
  `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`

export const HTML = "text/html; charset=utf-8"

/** The CSP source that allows exactly this inline script or style. */
export const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/** The booking widget's script tag (data-key and the rest as attributes, already escaped): a page with it may run it. */
export const widgetTag = (attributes: string) => `<script src="/widget.js" ${attributes}></script>`
const WIDGET_TAG = `<script src="/widget.js" `

/** page()'s own styles. */
export const PAGE_STYLE = hashOf(STYLE)

/** What a page may load or run (each a list of CSP sources). */
export interface PagePolicy {
  readonly scripts?: ReadonlyArray<string>
  /** page()'s styles (PAGE_STYLE) unless told. */
  readonly styles?: ReadonlyArray<string>
  readonly connect?: ReadonlyArray<string>
  readonly images?: ReadonlyArray<string>
  readonly fonts?: ReadonlyArray<string>
  readonly workers?: ReadonlyArray<string>
  /** Where its forms may go (and be redirected to): this origin unless told. */
  readonly forms?: ReadonlyArray<string>
}

/** What a page with the widget needs: its script from this origin, its styles (in its shadow root), the public API. */
export const WIDGET_POLICY: PagePolicy = {
  scripts: ["'self'"],
  styles: [PAGE_STYLE, hashOf(WIDGET_STYLE)],
  connect: ["'self'"]
}

/**
 * The Content-Security-Policy of an engine page: nothing but what the policy names (default-src 'none'), page()'s own
 * styles by hash unless told, no inline script unless hashed, forms to this origin, never framed, no <base>.
 */
export const contentSecurityPolicy = (policy: PagePolicy = {}) =>
  [
    "default-src 'none'",
    ...(policy.scripts ? [`script-src ${policy.scripts.join(" ")}`] : []),
    `style-src ${(policy.styles ?? [PAGE_STYLE]).join(" ")}`,
    ...(policy.connect ? [`connect-src ${policy.connect.join(" ")}`] : []),
    ...(policy.images ? [`img-src ${policy.images.join(" ")}`] : []),
    ...(policy.fonts ? [`font-src ${policy.fonts.join(" ")}`] : []),
    ...(policy.workers ? [`worker-src ${policy.workers.join(" ")}`] : []),
    `form-action ${(policy.forms ?? ["'self'"]).join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

/**
 * The headers every HTML page the engine serves sends: its CSP, no framing (frame-ancestors, and X-Frame-Options for
 * older browsers), no MIME sniffing, and no Referer (a page's address carries its credential: a handle, a checkout).
 */
export const pageHeaders = (policy: PagePolicy = {}): Record<string, string> => ({
  "content-security-policy": contentSecurityPolicy(policy),
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
})

/**
 * Sends a page (or a redirect, a file) of the engine with pageHeaders. An HTML page that carries the widget's tag gets
 * the widget's policy; `headers` may replace any of them (the consent page's form-action).
 */
export const send = (
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {}
) => {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    ...pageHeaders(type === HTML && body.includes(WIDGET_TAG) ? WIDGET_POLICY : {}),
    ...headers
  })
  res.end(body)
}

const MAX_FORM = 64 * 1024

export type Form =
  | { readonly ok: true; readonly form: URLSearchParams }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string }

const FORM_RULE = { limit: MAX_FORM, what: "the form" }

/**
 * A form body (application/x-www-form-urlencoded; the caller checks the type) read through the one body reader and
 * then as REST reads a query: UTF-8, %-encoding that decodes to UTF-8, no NUL or lone surrogate in a name or value
 * (400 naming the field), at most 64 KiB (413, answered before the rest is read, with Connection: close).
 */
export const readForm = (req: IncomingMessage) =>
  readText(req, FORM_RULE).then((read): Form => {
    if (!read.ok) return { ok: false, status: read.refusal.status, message: read.refusal.message }
    const text = read.value ?? ""
    const bad = findBadQuery(text)
    if (bad !== undefined)
      return {
        ok: false,
        status: 400,
        message: `${bad.name === undefined ? "a field name" : printable(bad.name)}: ${bad.problem}`
      }
    return { ok: true, form: new URLSearchParams(text) }
  })

/** A link whose path is not text (%-encoding that is not UTF-8, a NUL, a lone surrogate): 400, as a page. */
export const badLink = (res: ServerResponse, problem: string) =>
  send(
    res,
    400,
    HTML,
    page(
      "This link is not valid",
      `<p role="alert">The address ${escapeHtml(problem)}. Check the link in your email.</p>`
    )
  )

/** A form refused (too large, not text), answered as a page; a form too large is answered before it was all read. */
export const formRefused = (res: ServerResponse, refused: Extract<Form, { ok: false }>) =>
  send(
    res,
    refused.status,
    HTML,
    page(
      refused.status === 413
        ? "Too much was sent"
        : refused.status === 415
          ? "The form was not sent as a form"
          : "The form could not be read",
      `<p role="alert">${escapeHtml(refused.message)}</p>`
    ),
    refused.status === 400 ? {} : CLOSE
  )
