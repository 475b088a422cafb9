import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { seededDataDir } from "../../support/database.ts"

// The request log of the built server (dist/server.mjs, what npm start runs): one JSON line per request at info.
const scratch = mkdtempSync(join(tmpdir(), "be-reqlog-"))
const children: Array<ChildProcess> = []
afterAll(() => {
  for (const c of children) c.kill("SIGKILL")
  rmSync(scratch, { recursive: true, force: true })
})
const ADMIN = "request-log-admin-token-0123456789"

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

/** The server on a seeded data dir; `lines()` is every JSON line it wrote to stdout so far. */
const start = async (logLevel: string) => {
  const port = await freePort()
  const child = spawn(process.execPath, ["dist/server.mjs"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: await seededDataDir(scratch),
      PORT: String(port),
      LOG_LEVEL: logLevel,
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT: "0",
      RATE_LIMIT_ANONYMOUS: "0"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  let out = ""
  child.stdout!.on("data", (c) => (out += c))
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    await new Promise((r) => setTimeout(r, 100))
  }
  const lines = () =>
    out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { message: string; logLevel: string; annotations: Record<string, unknown> })
  return { base, lines, stop: () => child.kill("SIGTERM") }
}

const settle = () => new Promise((r) => setTimeout(r, 300))

describe("the request log", () => {
  it("at info: one line per request with method, route, status, time, org and the answer's Request-Id; no path", async () => {
    const server = await start("info")
    try {
      const created = await fetch(`${server.base}/admin/v1/orgs`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Logged", timezone: "UTC", currency: "EUR" })
      })
      expect(created.status).toBe(201)
      const { org, api_key } = (await created.json()) as { org: { id: string }; api_key: { key: string } }
      const missing = await fetch(`${server.base}/api/v1/offerings/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization: `Bearer ${api_key.key}` }
      })
      expect(missing.status).toBe(404)
      const page = await fetch(`${server.base}/b/a-guests-secret-handle`)
      // A balancer's own id is kept.
      const given = await fetch(`${server.base}/healthz`, { headers: { "x-request-id": "lb-7f3a.1" } })
      expect(given.headers.get("request-id")).toBe("lb-7f3a.1")
      await settle()
      const requests = server.lines().filter((l) => l.annotations?.request_id !== undefined)
      const of = (res: Response) => requests.find((l) => l.annotations.request_id === res.headers.get("request-id"))
      expect(created.headers.get("request-id")).toMatch(/^req_[0-9a-f]{32}$/)
      expect(of(created)).toMatchObject({
        logLevel: "INFO",
        message: expect.stringMatching(/^POST \/admin\/v1\/orgs 201 [\d.]+ ms$/),
        annotations: { method: "POST", route: "/admin/v1/orgs", operation: "admin.create_org", status: 201 }
      })
      expect(of(missing)).toMatchObject({
        annotations: { method: "GET", route: "/api/v1/offerings/{id}", status: 404, org: org.id }
      })
      expect(typeof of(missing)!.annotations.time_ms).toBe("number")
      expect(of(page)).toMatchObject({ annotations: { route: "guest pages", status: page.status, org: null } })
      expect(of(given)).toMatchObject({ annotations: { route: "/healthz", status: 200 } })
      expect(JSON.stringify(server.lines())).not.toContain("a-guests-secret-handle")
      expect(JSON.stringify(server.lines())).not.toContain(api_key.key)
    } finally {
      server.stop()
    }
  }, 240_000)

  it("off with LOG_LEVEL=warn; the Request-Id header stays", async () => {
    const server = await start("warn")
    try {
      const res = await fetch(`${server.base}/api/v1/org`)
      expect(res.status).toBe(401)
      expect(res.headers.get("request-id")).toMatch(/^req_/)
      await settle()
      expect(server.lines().filter((l) => l.annotations?.request_id !== undefined)).toEqual([])
    } finally {
      server.stop()
    }
  }, 240_000)
})
