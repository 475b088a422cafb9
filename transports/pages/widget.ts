import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { escapeHtml, HTML, page, send, widgetTag } from "./html.ts"

/** dist/widget.js beside the bundled server, or under the project when running from source. */
const widgetFile = () => {
  const here = dirname(fileURLToPath(import.meta.url))
  return [
    join(here, "widget.js"),
    join(here, "..", "..", "dist", "widget.js"),
    join(process.cwd(), "dist", "widget.js")
  ].find(existsSync)
}

let cached: { body: Buffer; etag: string } | undefined
const load = () => {
  if (cached) return cached
  const file = widgetFile()
  if (file === undefined) return undefined
  const body = readFileSync(file)
  cached = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` }
  return cached
}

/** GET /widget.js: the built widget, cached by browsers for 5 minutes and revalidated by ETag. */
export const serveWidget = (req: IncomingMessage, res: ServerResponse) => {
  const w = load()
  if (w === undefined) return send(res, 404, "text/plain", "the widget is not built: run `npm run build`")
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "public, max-age=300",
    etag: w.etag,
    "access-control-allow-origin": "*",
    "x-content-type-options": "nosniff"
  }
  if (req.headers["if-none-match"] === w.etag) {
    res.writeHead(304, headers)
    return res.end()
  }
  res.writeHead(200, headers)
  res.end(req.method === "HEAD" ? undefined : w.body)
}

/** GET /demo: a page that embeds the widget with the demo org's publishable key. */
export const demoPage = (key: string | undefined) =>
  key === undefined
    ? page(
        "No demo here",
        "<p>The demo org is made on the first <code>npm start</code> over an empty embedded database, without ADMIN_TOKEN.</p>"
      )
    : page(
        "Book with the demo org",
        `<p>This page embeds the booking widget with one script tag, as any site would:</p>` +
          `<pre class="note">&lt;script src="/widget.js" data-key="${escapeHtml(key)}"&gt;&lt;/script&gt;</pre>` +
          widgetTag(`data-key="${escapeHtml(key)}"`) +
          `<p class="note">Payments go through the sandbox: card 4242 4242 4242 4242 pays. The guest's email is logged, and kept at GET /admin/v1/mail?to=… (the admin token the first start printed, kept in DATA_DIR/admin-token).</p>`
      )

export { HTML }
