import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../../support/app.ts"

/**
 * One door per surface: the fixed routes answer a wrong method 405 with Allow, /favicon.ico is served, REST's 401
 * challenges, every surface's body goes through the one reader (413 past its limit with Connection: close, 415 for a
 * type it does not take), and every kind of credential gets the documented answer on every surface.
 */
let app: TestApp
let secret: string
let publishable: string
let reseller: string
let revoked: string
beforeAll(async () => {
  app = await startApp()
  const org = await app.newOrg()
  secret = org.key
  const orgId = org.id
  publishable = (await app.admin("POST", `/orgs/${orgId}/api_keys`, { kind: "publishable" })).body.key as string
  reseller = (await app.admin("POST", `/orgs/${orgId}/api_keys`, { kind: "reseller" })).body.key as string
  const made = (await app.admin("POST", `/orgs/${orgId}/api_keys`, { kind: "secret" })).body
  revoked = made.key as string
  await app.admin("DELETE", `/api_keys/${made.id}`)
})
afterAll(() => app.close())

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
}

const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) =>
  new Promise<Raw>((resolve, reject) => {
    const req = request(`${app.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") })
      )
    })
    req.on("error", reject)
    if (body !== undefined) req.write(body)
    req.end()
  })

describe("fixed routes", () => {
  it.each([
    ["PUT", "/healthz", "GET"],
    ["POST", "/readyz", "GET"],
    ["DELETE", "/metrics", "GET"],
    ["POST", "/demo", "GET"],
    ["POST", "/favicon.ico", "GET, HEAD"],
    ["PUT", "/widget.js", "GET, HEAD"]
  ])("%s %s is 405 with Allow: %s", async (method, path, allow) => {
    const r = await raw(method, path)
    expect(r.status).toBe(405)
    expect(r.headers.allow).toBe(allow)
    expect(JSON.parse(r.text).error.code).toBe("method_not_allowed")
  })

  it("serves /favicon.ico with a long cache", async () => {
    const r = await raw("GET", "/favicon.ico")
    expect(r.status).toBe(200)
    expect(r.headers["content-type"]).toBe("image/svg+xml")
    expect(r.text).toContain("<svg")
    expect(Number(/max-age=(\d+)/.exec(String(r.headers["cache-control"]))?.[1])).toBeGreaterThanOrEqual(86400)
  })

  it("answers /api/v1 without a key 401 with a Bearer challenge", async () => {
    const r = await raw("GET", "/api/v1/offerings")
    expect(r.status).toBe(401)
    expect(r.headers["www-authenticate"]).toBe('Bearer realm="api"')
  })
})

describe("the one body reader", () => {
  const big = (bytes: number) => Buffer.alloc(bytes, 0x61)
  /** Each surface, a request past its limit (sent whole: Content-Length says so). */
  const surfaces: ReadonlyArray<[string, string, string, () => Record<string, string>, number]> = [
    [
      "REST",
      "POST",
      "/api/v1/offerings",
      () => ({ authorization: `Bearer ${secret}`, "content-type": "application/json" }),
      2 * 1024 * 1024
    ],
    [
      "MCP",
      "POST",
      "/mcp",
      () => ({ authorization: `Bearer ${secret}`, "content-type": "application/json" }),
      2 * 1024 * 1024
    ],
    [
      "OCTO",
      "POST",
      "/api/octo/availability",
      () => ({ authorization: `Bearer ${reseller}`, "content-type": "application/json" }),
      512 * 1024
    ],
    [
      "OAuth token form",
      "POST",
      "/oauth/token",
      () => ({ "content-type": "application/x-www-form-urlencoded" }),
      64 * 1024
    ],
    ["payments events", "POST", "/payments/stripe/events", () => ({ "content-type": "application/json" }), 512 * 1024]
  ]
  it.each(surfaces)(
    "%s answers 413 past its limit and closes the connection",
    async (_, method, path, headers, limit) => {
      const r = await raw(method, path, headers(), big(limit + 1))
      expect(r.status).toBe(413)
      expect(r.headers.connection).toBe("close")
    }
  )

  it.each([
    ["REST", "/api/v1/offerings"],
    ["MCP", "/mcp"]
  ])("%s answers 415 for a body that is not JSON", async (_, path) => {
    const r = await raw("POST", path, { authorization: `Bearer ${secret}`, "content-type": "text/plain" }, "{}")
    expect(r.status).toBe(415)
    expect(JSON.parse(r.text).error.code).toBe("unsupported_media_type")
  })
})

describe("credentials: every key kind on every surface", () => {
  type Kind = "secret" | "publishable" | "reseller" | "oauth" | "admin" | "none" | "unknown" | "revoked"
  const bearer = (kind: Kind): Record<string, string> => {
    const value = {
      secret,
      publishable,
      reseller,
      oauth: "mcp_at_not_a_real_token_000000000000",
      admin: ADMIN_TOKEN,
      none: undefined,
      unknown: "sk_live_nobody_has_this_key_0000000000",
      revoked
    }[kind]
    return value === undefined ? {} : { authorization: `Bearer ${value}` }
  }
  const KINDS: ReadonlyArray<Kind> = [
    "secret",
    "publishable",
    "reseller",
    "oauth",
    "admin",
    "none",
    "unknown",
    "revoked"
  ]
  const only = (ok: ReadonlyArray<Kind>, other = 401) =>
    Object.fromEntries(KINDS.map((k) => [k, ok.includes(k) ? 200 : other])) as Record<Kind, number>
  const INIT = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
  })
  const surfaces: ReadonlyArray<[string, (h: Record<string, string>) => Promise<Raw>, Record<Kind, number>]> = [
    ["REST private", (h) => raw("GET", "/api/v1/offerings", h), only(["secret"])],
    ["REST public", (h) => raw("GET", "/api/v1/public/offerings", h), only(["secret", "publishable"])],
    [
      "MCP",
      (h) =>
        raw(
          "POST",
          "/mcp",
          { ...h, "content-type": "application/json", accept: "application/json, text/event-stream" },
          INIT
        ),
      only(["secret"])
    ],
    ["OCTO", (h) => raw("GET", "/api/octo/products", h), { ...only(["reseller"]), secret: 403, publishable: 403 }],
    ["admin", (h) => raw("GET", "/admin/v1/orgs", h), only(["admin"])],
    ["metrics", (h) => raw("GET", "/metrics", h), only(["admin"])]
  ]
  for (const [surface, ask, expected] of surfaces) {
    it.each(KINDS)(`${surface}: %s`, async (kind) => {
      const r = await ask(bearer(kind))
      expect({ kind, status: r.status }).toEqual({ kind, status: expected[kind] })
    })
  }
})
