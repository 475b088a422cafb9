import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { seededDataDir } from "../../support/database.ts"
import { waitFor } from "../../support/receiver.ts"

/** A request whose body is still on its way: it stays in flight until `finish` sends the rest. */
const slowRequest = (port: number, path = "/api/v1/offerings") => {
  const socket: Socket = connect(port, "127.0.0.1")
  const body = JSON.stringify({ name: "Slow", kind: "class" })
  let answer = ""
  socket.on("data", (d) => (answer += d.toString()))
  const closed = new Promise<void>((r) => socket.on("close", () => r()))
  socket.on("error", () => {})
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`
  )
  return {
    finish: async () => {
      socket.write(body.slice(5))
      await closed
      return answer
    }
  }
}

describe("load shedding", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp({ maxInflight: 2 })
  })
  afterAll(() => app.close())

  it("past MAX_INFLIGHT requests in progress, answers 503 overloaded with Retry-After at once; probes still answer; the slow ones finish", async () => {
    const port = Number(new URL(app.url).port)
    const a = slowRequest(port)
    const b = slowRequest(port)
    await waitFor(
      async () => {
        const r = await fetch(`${app.url}/api/v1/org`)
        return r.status === 503
      },
      60_000,
      "the third request shed"
    )
    const shed = await fetch(`${app.url}/api/v1/org`)
    expect(shed.status).toBe(503)
    expect(shed.headers.get("retry-after")).toBe("1")
    expect(((await shed.json()) as { error: { code: string } }).error.code).toBe("overloaded")
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
    // Readiness says the instance cannot take more, so a load balancer sends the next requests elsewhere.
    const ready = await fetch(`${app.url}/readyz`)
    expect({ status: ready.status, code: ((await ready.json()) as { error: { code: string } }).error.code }).toEqual({
      status: 503,
      code: "not_ready"
    })
    // The two in flight get their (401: no key) answers, and then there is room again.
    expect(await a.finish()).toMatch(/^HTTP\/1\.1 401/)
    expect(await b.finish()).toMatch(/^HTTP\/1\.1 401/)
    expect((await fetch(`${app.url}/api/v1/org`)).status).toBe(401)
  })
})

describe("SIGTERM", () => {
  const dir = mkdtempSync(join(tmpdir(), "be-drain-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("drains: the request in flight gets its answer, new connections are refused, and the process exits within the grace period", async () => {
    const free = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port
        s.close(() => resolve(p))
      })
    })
    const child = spawn(process.execPath, ["dist/server.mjs"], {
      env: {
        ...process.env,
        PORT: String(free),
        DATA_DIR: await seededDataDir(dir),
        DATABASE_URL: "",
        NATS_URL: "",
        SHUTDOWN_GRACE_MS: "20000",
        LOG_LEVEL: "info"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d) => (out += d.toString()))
    child.stderr.on("data", (d) => (out += d.toString()))
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)))
    try {
      await waitFor(() => /listening on http:\/\/[\d.]+:(\d+)/.test(out), 150_000, "the server to listen")
      const port = Number(/listening on http:\/\/[\d.]+:(\d+)/.exec(out)![1])
      const inFlight = slowRequest(port)
      await new Promise((r) => setTimeout(r, 200))
      child.kill("SIGTERM")
      await waitFor(
        async () => {
          try {
            await fetch(`http://127.0.0.1:${port}/healthz`)
            return false
          } catch {
            return true
          }
        },
        30_000,
        "new connections refused"
      )
      expect(await inFlight.finish()).toMatch(/^HTTP\/1\.1 401/)
      expect(await exited).toBe(0)
    } finally {
      child.kill("SIGKILL")
    }
  })
})
