import type { IncomingMessage, ServerResponse } from "node:http"

/** A small icon (a calendar page), so that a browser's request for /favicon.ico is not a 404 in the console. */
const ICON =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="3" y="6" width="26" height="23" rx="3" ` +
  `fill="#fff" stroke="#0b57d0" stroke-width="2"/><rect x="3" y="6" width="26" height="7" rx="3" fill="#0b57d0"/>` +
  `<path d="M10 3v6M22 3v6" stroke="#0b57d0" stroke-width="2" stroke-linecap="round"/>` +
  `<path d="M10 20l4 4 8-8" fill="none" stroke="#146c2e" stroke-width="3" stroke-linecap="round"/></svg>`
const BYTES = Buffer.from(ICON)

export const FAVICON_PATH = "/favicon.ico"

/** GET or HEAD /favicon.ico: the icon as SVG, cached for a day (it never changes between releases that matter). */
export const serveFavicon = (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, {
    "content-type": "image/svg+xml",
    "content-length": BYTES.length,
    "cache-control": "public, max-age=86400",
    "x-content-type-options": "nosniff"
  })
  res.end(req.method === "HEAD" ? undefined : BYTES)
}
