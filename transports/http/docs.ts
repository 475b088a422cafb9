import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { hashOf, pageHeaders } from "../pages/html.ts"

/** The rendered API reference, and the Scalar bundle it runs, served from node_modules (no CDN). */
export const DOCS_PATH = "/docs"
export const DOCS_BUNDLE_PATH = "/docs/scalar.js"

type Bundle = { readonly body: Buffer; readonly etag: string } | undefined
let bundle: Bundle | null = null

/** Where the build puts Scalar's standalone bundle (dist/docs/scalar.js), which the package ships. */
const SHIPPED = ["./docs/scalar.js", "../docs/scalar.js"]

/**
 * Scalar's standalone browser bundle, read once: the copy the build ships beside the running module (dist/, or
 * dist/chunks/), else the devDependency's (running from source); undefined when neither is there.
 */
const load = (): Bundle => {
  if (bundle !== null) return bundle
  const candidates = [
    ...SHIPPED.map((p) => () => fileURLToPath(new URL(p, import.meta.url))),
    () => join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js")
  ]
  bundle = undefined
  for (const candidate of candidates) {
    try {
      const body = readFileSync(candidate())
      bundle = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` }
      break
    } catch {}
  }
  return bundle
}

// Relative to the page (…/docs), so that under a prefix (/booking/docs) the bundle and the document are the prefix's.
const START = `Scalar.createApiReference("#app", { url: "api/v1/openapi.json", withDefaultFonts: false, telemetry: false, showDeveloperTools: "never", agent: { disabled: true }, mcp: { disabled: true } })`

/** The reference of /api/v1/openapi.json, with nothing that calls Scalar's services (web fonts, AI agent, MCP generator). */
const PAGE =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>Booking engine API reference</title></head><body><div id="app"></div>` +
  `<script src="${DOCS_BUNDLE_PATH.slice(1)}"></script>` +
  `<script>${START}</script>` +
  `</body></html>`

/**
 * What the reference needs: the bundle and its one inline start (by hash), the document from this origin, and the
 * styles Scalar writes into the page as it renders (inline, so not hashable), its icons and fonts as data: URLs.
 */
const POLICY = pageHeaders({
  scripts: ["'self'", hashOf(START)],
  styles: ["'self'", "'unsafe-inline'"],
  connect: ["'self'"],
  images: ["'self'", "data:"],
  fonts: ["'self'", "data:"],
  forms: ["'none'"]
})

const plain = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** GET /docs: the page; GET /docs/scalar.js: the bundle, cached a day and revalidated by its ETag. */
export const serveDocs = (req: IncomingMessage, res: ServerResponse, path: string) => {
  const b = load()
  if (b === undefined)
    return plain(
      res,
      404,
      "the API reference needs @scalar/api-reference installed; the document is at /api/v1/openapi.json"
    )
  if (path === DOCS_PATH) {
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": Buffer.byteLength(PAGE),
      "cache-control": "no-cache",
      ...POLICY
    })
    return res.end(req.method === "HEAD" ? undefined : PAGE)
  }
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "public, max-age=86400",
    etag: b.etag,
    "x-content-type-options": "nosniff"
  }
  if (req.headers["if-none-match"] === b.etag) {
    res.writeHead(304, headers)
    return res.end()
  }
  res.writeHead(200, { ...headers, "content-length": b.body.length })
  res.end(req.method === "HEAD" ? undefined : b.body)
}
