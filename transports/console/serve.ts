import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { dirname, extname, join, normalize } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { STYLE as WIDGET_STYLE } from "../../widget/style.ts"

/** The CSP source that allows exactly this inline style. */
const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/** The console's pages: /dashboard and every path below it (the console routes in the browser). */
export const CONSOLE_PATH = /^\/dashboard(\/.*)?$/

/**
 * Its policy: its own script and stylesheet only (no inline script; no inline style but the widget's, by hash; no CDN), fetches and the event stream to
 * this origin, photos from here or https, never framed (frame-ancestors 'none'), forms to here, no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The widget's own stylesheet (its shadow root's <style>), for the live preview in Settings.
  `style-src 'self' ${hashOf(WIDGET_STYLE)}`,
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'"
].join("; ")

const SECURITY = {
  "content-security-policy": CONSOLE_CSP,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()"
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2"
}

/** dist/console beside the bundled server, or under the project when running from source. */
const root = () => {
  const here = dirname(fileURLToPath(import.meta.url))
  return [
    join(here, "console"),
    join(here, "..", "..", "dist", "console"),
    join(process.cwd(), "dist", "console")
  ].find((d) => existsSync(join(d, "index.html")))
}

interface File {
  readonly body: Buffer
  /** The body compressed once, on first load (JS and CSS are text: a fifth to a third of their size). */
  readonly br: Buffer | undefined
  readonly gzip: Buffer | undefined
  readonly etag: string
  readonly type: string
}

const TEXT = new Set([".js", ".css", ".html", ".svg", ".json", ".map"])
const files = new Map<string, File | null>()
const load = (dir: string, name: string): File | undefined => {
  const key = join(dir, name)
  const known = files.get(key)
  if (known !== undefined) return known ?? undefined
  const file = existsSync(key) ? readFileSync(key) : undefined
  const entry =
    file === undefined
      ? null
      : {
          body: file,
          br: TEXT.has(extname(name)) ? brotliCompressSync(file) : undefined,
          gzip: TEXT.has(extname(name)) ? gzipSync(file, { level: 9 }) : undefined,
          etag: `"${createHash("sha256").update(file).digest("base64url").slice(0, 22)}"`,
          type: TYPES[extname(name)] ?? "application/octet-stream"
        }
  files.set(key, entry)
  return entry ?? undefined
}

const reply = (res: ServerResponse, status: number, headers: Record<string, string>, body?: Buffer | string) => {
  res.writeHead(status, { ...SECURITY, ...headers })
  res.end(body)
}

/**
 * GET /dashboard[/...]: the built files of dist/console. Hashed assets are cached for a year; every other path is the
 * console's page (no-store: it never holds a secret, and a new build shows at once).
 */
export const serveConsole = (req: IncomingMessage, res: ServerResponse) => {
  const dir = root()
  if (dir === undefined)
    return reply(
      res,
      404,
      { "content-type": "text/plain; charset=utf-8" },
      "the console is not built: run `npm run build`"
    )
  const path = decodeURIComponent((req.url ?? "/").split("?")[0])
  const asset = /^\/dashboard\/assets\/([\w.-]+)$/.exec(path)?.[1]
  const head = req.method === "HEAD"
  if (asset !== undefined) {
    const file = normalize(asset) === asset ? load(join(dir, "assets"), asset) : undefined
    if (file === undefined) return reply(res, 404, { "content-type": "text/plain; charset=utf-8" }, "no such file")
    const accepts = String(req.headers["accept-encoding"] ?? "")
    const encoding =
      file.br !== undefined && /\bbr\b/.test(accepts)
        ? "br"
        : file.gzip !== undefined && /\bgzip\b/.test(accepts)
          ? "gzip"
          : undefined
    const body = encoding === "br" ? file.br : encoding === "gzip" ? file.gzip : file.body
    // Each encoding is its own representation, with its own tag.
    const etag = encoding === undefined ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`
    const headers = {
      "content-type": file.type,
      "cache-control": "public, max-age=31536000, immutable",
      etag,
      ...(file.br === undefined ? {} : { vary: "accept-encoding" }),
      ...(encoding === undefined ? {} : { "content-encoding": encoding })
    }
    if (req.headers["if-none-match"] === etag) return reply(res, 304, headers)
    return reply(res, 200, headers, head ? undefined : body)
  }
  const page = load(dir, "index.html")
  if (page === undefined)
    return reply(res, 404, { "content-type": "text/plain; charset=utf-8" }, "the console is not built")
  return reply(res, 200, { "content-type": page.type, "cache-control": "no-store" }, head ? undefined : page.body)
}
