import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { connect, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Deferred, Effect, Either, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { loadConfig } from "../../../app/config.ts"
import { AppLive, NodeServerLive } from "../../../app/layers.ts"
import { testConfig } from "../../support/app.ts"
import { seededDataDir, TestDatabase } from "../../support/database.ts"

/** The data dirs of the engines these tests start. */
const scratch = mkdtempSync(join(tmpdir(), "be-start-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(port, "127.0.0.1", () => resolve(s))
  })

const freePort = async () => {
  const s = await listenOn(0)
  const port = (s.address() as { port: number }).port
  await new Promise((r) => s.close(r))
  return port
}

/** "refused" when nothing listens; "open" when a connection is accepted. */
const probe = (port: number) =>
  new Promise<"refused" | "open">((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve("open")))
    socket.once("error", () => resolve("refused"))
  })

/** Runs the built server (dist/server.mjs, what npm start runs; the run's globalSetup built it); resolves with its exit code and the lines it wrote to stderr. */
const runMain = async (env: Record<string, string>, opensDatabase = false) => {
  // Only an engine that gets as far as the embedded database needs one (seeding takes a few seconds).
  const dataDir = opensDatabase ? await seededDataDir(scratch) : mkdtempSync(join(scratch, "empty-"))
  return new Promise<{ code: number | null; lines: Array<string> }>((resolve) => {
    const child = spawn(process.execPath, ["dist/server.mjs"], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let err = ""
    child.stderr.on("data", (c) => (err += c))
    child.stdout.resume()
    child.on("exit", (code) => resolve({ code, lines: err.split("\n").filter((l) => l.trim() !== "") }))
  })
}

describe("start-up", () => {
  it("opens the port only once the app is ready (database up, migrations done)", async () => {
    const port = await freePort()
    const gate = Effect.runSync(Deferred.make<void>())
    const database = Layer.unwrapEffect(Effect.as(Deferred.await(gate), TestDatabase()))
    const runtime = ManagedRuntime.make(
      AppLive(testConfig(), database).pipe(
        Layer.provideMerge(NodeServerLive({ port, host: "127.0.0.1" }))
      ) as Layer.Layer<SqlClient.SqlClient>
    )
    const started = runtime.runPromise(SqlClient.SqlClient)
    try {
      expect(await probe(port)).toBe("refused")
      Effect.runSync(Deferred.succeed(gate, undefined))
      await started
      expect(await probe(port)).toBe("open")
      const res = await fetch(`http://127.0.0.1:${port}/readyz`)
      expect(res.status).toBe(200)
    } finally {
      await runtime.dispose()
    }
  }, 120_000)

  it("accepts LOG_LEVEL in any case: trace, debug, info, warn, warning, error, fatal, none", async () => {
    const level = (value: string) =>
      Effect.runSync(
        Effect.either(
          Effect.withConfigProvider(
            Effect.map(loadConfig, (c) => c.logLevel),
            ConfigProvider.fromMap(new Map([["LOG_LEVEL", value]]))
          )
        )
      )
    const cases: Array<[string, string]> = [
      ["WARN", "warning"],
      ["warn", "warning"],
      ["Warning", "warning"],
      ["TRACE", "trace"],
      ["Fatal", "fatal"],
      ["debug", "debug"],
      ["INFO", "info"],
      ["error", "error"],
      ["NONE", "none"]
    ]
    for (const [value, expected] of cases)
      expect({ value, level: Either.getOrUndefined(level(value)) }).toEqual({ value, level: expected })
    expect(Either.isLeft(level("loud"))).toBe(true)
  })

  it("MAX_QUEUED and QUEUE_TIMEOUT_MS: 10,000 and 30 s unless set; a bad value is refused with the range in one line", async () => {
    const read = (vars: Record<string, string>) =>
      Effect.runSync(
        Effect.either(
          Effect.withConfigProvider(
            Effect.map(loadConfig, (c) => ({ queued: c.maxQueued, timeout: c.queueTimeoutMs })),
            ConfigProvider.fromMap(new Map(Object.entries(vars)))
          )
        )
      )
    expect(Either.getOrUndefined(read({}))).toEqual({ queued: 10_000, timeout: 30_000 })
    expect(Either.getOrUndefined(read({ MAX_QUEUED: "0", QUEUE_TIMEOUT_MS: "500" }))).toEqual({
      queued: 0,
      timeout: 500
    })
    for (const [vars, says] of [
      [{ MAX_QUEUED: "-1" }, /MAX_QUEUED must be a number of requests from 0/],
      [{ MAX_QUEUED: "lots" }, /MAX_QUEUED/],
      [{ QUEUE_TIMEOUT_MS: "50" }, /QUEUE_TIMEOUT_MS must be milliseconds from 100 to 600000/]
    ] as const) {
      const r = read(vars)
      expect(Either.isLeft(r)).toBe(true)
      if (Either.isLeft(r)) expect(r.left.message).toMatch(says)
    }
  })

  it("fails to start with one JSON log line, a plain message and exit code 1: bad config, port in use, database unreachable", async () => {
    const config = await runMain({ LOG_LEVEL: "loud" })
    const busy = await listenOn(0)
    const inUse = await runMain(
      { PORT: String((busy.address() as { port: number }).port), LOG_LEVEL: "error" },
      true
    ).finally(() => busy.close())
    const noDb = await runMain({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", LOG_LEVEL: "error" })
    for (const [name, run, says] of [
      ["config", config, /LOG_LEVEL/],
      ["port", inUse, /listen|in use/i],
      ["database", noDb, /database/i]
    ] as const) {
      expect({ name, code: run.code, lines: run.lines.length }).toEqual({ name, code: 1, lines: 1 })
      const line = JSON.parse(run.lines[0])
      expect({
        name,
        level: line.level,
        plain: !String(line.message).includes("\n") && !String(line.message).includes("    at ")
      }).toEqual({ name, level: "FATAL", plain: true })
      expect(line.message).toMatch(says)
      expect(line.message).not.toMatch(/Invalid data|Missing data/)
    }
    expect(JSON.parse(config.lines[0]).message).toBe(
      'configuration error: LOG_LEVEL must be one of trace, debug, info, warning, error, fatal, none, warn, not "loud"'
    )
  }, 180_000)

  it("logs the URL it listens on", async () => {
    const port = await freePort()
    const child = spawn(process.execPath, ["dist/server.mjs"], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: await seededDataDir(scratch),
        PORT: String(port),
        LOG_LEVEL: "info",
        ADMIN_TOKEN: "0123456789abcdef0123456789"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const line = await new Promise<string>((resolve) => {
      let out = ""
      const onData = (c: Buffer) => {
        out += c.toString()
        const found = out.split("\n").find((l) => l.includes("listening on"))
        if (found) resolve(found)
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.on("exit", () => resolve(out))
    })
    // Stopped and gone before the suite removes its data dir (it writes there while it shuts down).
    const exited = new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)))
    child.kill("SIGTERM")
    await exited
    expect(JSON.parse(line).message).toBe(`booking-engine listening on http://127.0.0.1:${port}`)
  }, 240_000)
})
