import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer as createHttpServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, startApp, type TestApp } from "../../support/app.ts"
import { seededDataDir } from "../../support/database.ts"
import { waitFor } from "../../support/receiver.ts"

/** A request whose body is still on its way: `finish` sends the rest and answers what came back. */
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

/**
 * Requests that work until the test lets them end: each sets an offering's photo from a URL of a stand-in server
 * that answers only when released (then 404: the photo is 400 photo_unreachable). Its body is whole, so it has a turn.
 */
const holders = async (app: TestApp) => {
  const org = await app.newOrg()
  const waiting = new Map<string, ServerResponse>()
  const released = new Set<string>()
  const server: Server = createHttpServer((req, res) => {
    const name = req.url ?? "/"
    if (released.has(name)) return res.writeHead(404).end()
    waiting.set(name, res)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const made = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Held", kind: "class" })
  const offering = made.body.id as string
  return {
    hold: (name: string) => {
      const answer = app.call(org.key, "PUT", `/api/v1/offerings/${offering}/photo`, { url: `${base}/${name}.jpg` })
      return {
        /** Lets it end; answers its status (400 photo_unreachable). */
        finish: async () => {
          released.add(`/${name}.jpg`)
          waiting.get(`/${name}.jpg`)?.writeHead(404).end()
          waiting.delete(`/${name}.jpg`)
          return (await answer).status
        }
      }
    },
    close: () => {
      for (const res of waiting.values()) res.writeHead(404).end()
      waiting.clear()
      return new Promise((r) => server.close(r))
    }
  }
}

/** The listener's gauge of open requests (GET /metrics): working, queued, parked and reading. */
const inProgress = async (app: TestApp, state: string) => {
  const text = await (await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text()
  const line = text.split("\n").find((l) => l.startsWith(`http_requests_in_progress{state="${state}"}`))
  return line === undefined ? undefined : Number(line.split(" ")[1])
}

describe("load shedding", () => {
  let app: TestApp
  let held: Awaited<ReturnType<typeof holders>>
  beforeAll(async () => {
    app = await startApp({ maxInflight: 2, maxQueued: 2 })
    held = await holders(app)
  })
  afterAll(async () => {
    await held?.close()
    await app?.close()
  })

  it("past MAX_INFLIGHT requests wait for a turn in arrival order; past MAX_QUEUED more, 503 overloaded with Retry-After at once; probes still answer", async () => {
    const a = held.hold("a")
    const b = held.hold("b")
    // Readiness says the instance cannot take more, so a load balancer sends the next requests elsewhere.
    await waitFor(async () => (await fetch(`${app.url}/readyz`)).status === 503, 60_000, "the two slow ones in flight")
    const ready = await fetch(`${app.url}/readyz`)
    expect({ status: ready.status, code: ((await ready.json()) as { error: { code: string } }).error.code }).toEqual({
      status: 503,
      code: "not_ready"
    })
    const order: Array<string> = []
    const waiter = (name: string) =>
      fetch(`${app.url}/api/v1/org`).then((r) => {
        order.push(name)
        return r.status
      })
    const c = waiter("c")
    await waitFor(async () => (await inProgress(app, "queued")) === 1, 60_000, "c waiting")
    const d = waiter("d")
    await waitFor(async () => (await inProgress(app, "queued")) === 2, 60_000, "d waiting")
    expect(await inProgress(app, "working")).toBe(2)
    const shed = await fetch(`${app.url}/api/v1/org`)
    expect(shed.status).toBe(503)
    expect(shed.headers.get("retry-after")).toBe("1")
    expect(((await shed.json()) as { error: { code: string } }).error.code).toBe("overloaded")
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
    expect(order).toEqual([])
    // A slow one ends: the first to wait takes its turn, then the next, in arrival order (their answer: 401, no key),
    // while the other slow one is still in flight.
    expect(await a.finish()).toBe(400)
    expect([await c, await d]).toEqual([401, 401])
    expect(order).toEqual(["c", "d"])
    expect(await inProgress(app, "queued")).toBe(0)
    expect(await b.finish()).toBe(400)
    expect((await fetch(`${app.url}/api/v1/org`)).status).toBe(401)
  })
})

describe("a crowd past MAX_INFLIGHT", () => {
  let app: TestApp
  let held: Awaited<ReturnType<typeof holders>>
  beforeAll(async () => {
    app = await startApp({ maxInflight: 4 })
    held = await holders(app)
  })
  afterAll(async () => {
    await held?.close()
    await app?.close()
  })

  it("12 slow requests, 4 turns: 8 wait, none is shed, and every one is answered truly", async () => {
    const crowd = Array.from({ length: 12 }, (_, i) => held.hold(`crowd-${i}`))
    await waitFor(async () => (await inProgress(app, "queued")) === 8, 60_000, "8 waiting for a turn")
    expect(await inProgress(app, "working")).toBe(4)
    expect(await Promise.all(crowd.map((r) => r.finish()))).toEqual(Array(12).fill(400))
  })
})

/** A POST whose body comes a byte at a time (every `everyMs`) until the server answers; the answer as text. */
const trickle = (port: number, key: string, everyMs = 250) => {
  const socket: Socket = connect(port, "127.0.0.1")
  let answer = ""
  socket.on("data", (d) => (answer += d.toString()))
  socket.on("error", () => {})
  socket.write(
    `POST /api/v1/offerings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`
  )
  const drip = setInterval(() => socket.write(" "), everyMs)
  return new Promise<string>((resolve) =>
    socket.on("close", () => {
      clearInterval(drip)
      resolve(answer)
    })
  )
}

describe("bodies that trickle in", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp({ maxInflight: 8, bodyTimeoutMs: 10_000 })
  })
  afterAll(() => app.close())

  it("hold no turn: with MAX_INFLIGHT=8 and 12 of them, another org is served and /readyz is 200; each is 408 in the error shape", async () => {
    const port = Number(new URL(app.url).port)
    const slow = await app.newOrg()
    const other = await app.newOrg()
    const started = performance.now()
    const crowd = Array.from({ length: 12 }, () => trickle(port, slow.key))
    await waitFor(async () => (await inProgress(app, "reading")) === 12, 60_000, "12 bodies arriving")
    const answer = await app.call(other.key, "GET", "/api/v1/org")
    expect({ status: answer.status, id: answer.body.id }).toEqual({ status: 200, id: other.id })
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200)
    expect(await inProgress(app, "working")).toBe(0)
    // All of that while the 12 are still arriving: none of them has had its answer yet.
    expect(await inProgress(app, "reading")).toBe(12)
    const answers = await Promise.all(crowd)
    expect(performance.now() - started).toBeGreaterThanOrEqual(10_000)
    for (const a of answers) {
      expect(a.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout")
      expect(a.toLowerCase()).toContain("connection: close")
      expect(JSON.parse(a.slice(a.indexOf("\r\n\r\n") + 4)).error.code).toBe("request_timeout")
    }
    expect(await inProgress(app, "reading")).toBe(0)
    // A body that arrives whole within the time-out is served as before.
    const whole = slowRequest(port)
    await new Promise((r) => setTimeout(r, 500))
    expect(await whole.finish()).toMatch(/^HTTP\/1\.1 401/)
  })
})

describe("a request that waits too long", () => {
  let app: TestApp
  let held: Awaited<ReturnType<typeof holders>>
  beforeAll(async () => {
    app = await startApp({ maxInflight: 1, queueTimeoutMs: 300 })
    held = await holders(app)
  })
  afterAll(async () => {
    await held?.close()
    await app?.close()
  })

  it("is answered 503 overloaded after QUEUE_TIMEOUT_MS; one whose client left is dropped from the queue", async () => {
    const slow = held.hold("slow")
    await waitFor(async () => (await fetch(`${app.url}/readyz`)).status === 503, 60_000, "the slow one in flight")
    const gone = new AbortController()
    const left = fetch(`${app.url}/api/v1/org`, { signal: gone.signal }).catch(() => "aborted")
    await waitFor(async () => (await inProgress(app, "queued")) === 1, 60_000, "one waiting")
    gone.abort()
    expect(await left).toBe("aborted")
    await waitFor(async () => (await inProgress(app, "queued")) === 0, 60_000, "the one that left, dropped")
    const waited = await fetch(`${app.url}/api/v1/org`)
    expect(waited.status).toBe(503)
    expect(((await waited.json()) as { error: { code: string } }).error.code).toBe("overloaded")
    expect(await slow.finish()).toBe(400)
    expect((await fetch(`${app.url}/api/v1/org`)).status).toBe(401)
  })
})

describe("shutdown with requests waiting for a turn", () => {
  it("answers them 503 shutting_down at once; the one in flight still finishes", async () => {
    const app = await startApp({ maxInflight: 1, shutdownGraceMs: 60_000 })
    const held = await holders(app)
    const slow = held.hold("slow")
    await waitFor(async () => (await fetch(`${app.url}/readyz`)).status === 503, 60_000, "the slow one in flight")
    const waiting = fetch(`${app.url}/api/v1/org`)
    await waitFor(async () => (await inProgress(app, "queued")) === 1, 60_000, "one waiting")
    const closed = app.close()
    const answer = await waiting
    expect(answer.status).toBe(503)
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("shutting_down")
    expect(await slow.finish()).toBe(400)
    await closed
    await held.close()
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
