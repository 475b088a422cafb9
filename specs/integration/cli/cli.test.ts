import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { holdDataDir } from "../../../adapters/db/pglite.ts"
import { runCli, usage } from "../../../app/cli/main.ts"
import { ADMIN_TOKEN, startApp } from "../../support/app.ts"
import { seededDataDir } from "../../support/database.ts"

// The CLI works against the local PGlite when DATABASE_URL is unset; point it at a data dir of its own, migrated.
const scratch = mkdtempSync(join(tmpdir(), "be-cli-"))
let dir: string
beforeAll(async () => {
  dir = await seededDataDir(scratch)
})
const withEnv = async <A>(env: Record<string, string>, f: () => Promise<A>) => {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  Object.assign(process.env, env)
  try {
    return await f()
  } finally {
    // Assigning undefined would store the string "undefined" for the files that share this worker.
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}
const run = (args: string[], env: Record<string, string> = {}) =>
  withEnv({ DATABASE_URL: "", DATA_DIR: dir, BOOKING_ENGINE_URL: "", ...env }, () => Effect.runPromise(runCli(args)))
const cli = async (...args: string[]) => {
  const { code, text } = await run(args)
  return { code, json: JSON.parse(text) }
}
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe("booking-engine CLI", () => {
  it("creates an org with a key, adds and revokes keys, and prints JSON", async () => {
    const created = await cli(
      "org",
      "create",
      "--name",
      "Acme",
      "--timezone",
      "Europe/Amsterdam",
      "--currency",
      "JPY",
      "--plan",
      "pro"
    )
    expect(created.code).toBe(0)
    expect(created.json.org).toMatchObject({ name: "Acme", currency: "JPY", currency_minor_units: 1, plan: "pro" })
    expect(created.json.api_key.key).toMatch(/^bk_live_[A-Za-z0-9_-]{32}$/)
    const key = await cli("key", "create", "--org", created.json.org.id)
    expect(key.code).toBe(0)
    const revoked = await cli("key", "revoke", "--id", key.json.id)
    expect(revoked.json).toMatchObject({ id: key.json.id })
    expect(Date.parse(revoked.json.revoked_at)).not.toBeNaN()
  }, 180_000)

  it("refuses bad input with a non-zero exit and the error shape", async () => {
    const bad = await cli("org", "create", "--name", "Acme", "--timezone", "Mars/Olympus", "--currency", "EUR")
    expect(bad.code).toBe(1)
    expect(bad.json.error.code).toBe("invalid_input")
    const unknown = await cli("key", "revoke", "--id", "00000000-0000-4000-8000-000000000000")
    expect(unknown).toMatchObject({ code: 1, json: { error: { code: "not_found" } } })
    const usage = await run(["frobnicate"])
    // One line naming the command, not the whole usage.
    expect(usage.code).toBe(1)
    expect(usage.text.split("\n")).toHaveLength(1)
    expect(JSON.parse(usage.text)).toEqual({
      error: { code: "usage", message: 'unknown command "frobnicate": booking-engine --help lists the commands' }
    })
    expect(JSON.parse((await run(["org"])).text).error.message).toBe(
      '"org" needs a command: org create, org without-owner, org list, org get, org plan'
    )
  }, 180_000)

  it("prints plain help for every command and names a missing or unknown flag", async () => {
    const help = await run(["key", "create", "--help"])
    expect(help.code).toBe(0)
    expect(help.text).toMatch(/^usage: booking-engine key create --org ORG_ID/)
    const all = await run(["--help"])
    expect(all.code).toBe(0)
    for (const c of ["org create", "org list", "org get", "org plan", "key create", "key list", "key revoke"])
      expect(all.text).toContain(`booking-engine ${c}`)
    const missing = await cli("org", "plan", "--org", "00000000-0000-4000-8000-000000000000")
    expect(missing).toMatchObject({ code: 1, json: { error: { code: "usage" } } })
    expect(missing.json.error.message).toContain("--plan")
    expect(await cli("key", "list", "--org", "not-an-id")).toMatchObject({
      code: 1,
      json: { error: { code: "invalid_input" } }
    })
    expect(await cli("org", "get", "--org", "not-an-id")).toMatchObject({
      code: 1,
      json: { error: { code: "invalid_input" } }
    })
    const unknown = await cli("key", "list", "--org", "x", "--colour", "red")
    expect(unknown.code).toBe(1)
    expect(unknown.json.error.message).toContain("--colour")
  }, 180_000)

  it("its usage is the README's, line for line; --version and a bare start say what they do", async () => {
    const root = join(import.meta.dirname, "../../..")
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const block = /The CLI prints JSON[\s\S]*?```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? ""
    const documented = block
      .trim()
      .split("\n")
      .map((l) => l.replace(/^npx /, "").replace(/\s+/g, " "))
    const lines = usage
      .split("\n")
      .filter((l) => l.startsWith("  booking-engine") && !l.includes("<command>"))
      .map((l) => l.trim().replace(/\s+/g, " "))
    expect(documented).toEqual(lines)
    expect(lines.find((l) => l.includes("org create"))).toContain("[--owner-email EMAIL]")

    const bin = join(root, "bin/booking-engine.js")
    const version = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" })
    expect(version.status).toBe(0)
    expect(version.stdout).toBe(`${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}\n`)
    // Bare: one line on stderr saying it starts the server, where, and over what, before the server's own lines.
    const bare = spawnSync(process.execPath, [bin], {
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dir, PORT: "nope" }
    })
    const [said, ...rest] = bare.stderr.split("\n")
    expect(said).toBe(
      `booking-engine: no command given, so starting the server on http://127.0.0.1:nope over the embedded database in ${dir}; Ctrl-C stops it. booking-engine --help lists the admin commands.`
    )
    // On a folder with no database yet it says it makes one.
    const empty = mkdtempSync(join(scratch, "empty-"))
    const fresh = spawnSync(process.execPath, [bin], {
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: empty, PORT: "nope" }
    })
    expect(fresh.stderr.split("\n")[0]).toBe(
      `booking-engine: no command given, so starting the server on http://127.0.0.1:nope over a new embedded database in ${empty} (made now, with a demo org); Ctrl-C stops it. booking-engine --help lists the admin commands.`
    )
    expect(rest.join("\n")).toContain("PORT must be a port")
    expect(bare.status).toBe(1)
  }, 120_000)

  it("lists orgs and keys, and changes a plan", async () => {
    const created = await cli("org", "create", "--name", "Plans", "--timezone", "UTC", "--currency", "EUR")
    const id = created.json.org.id
    expect((await cli("org", "list", "--limit", "500")).json.data.map((o: { id: string }) => o.id)).toContain(id)
    expect((await cli("org", "plan", "--org", id, "--plan", "growth")).json.plan).toBe("growth")
    expect((await cli("org", "get", "--org", id)).json.plan).toBe("growth")
    expect((await cli("org", "plan", "--org", id, "--plan", "gold")).json.error.code).toBe("invalid_input")
    const named = await cli("key", "create", "--org", id, "--name", "ci")
    const keys = await cli("key", "list", "--org", id)
    expect(keys.json.data.map((k: { id: string; name: string | null }) => [k.id, k.name])).toContainEqual([
      named.json.id,
      "ci"
    ])
  }, 180_000)

  it("refuses to write to an embedded database that a running process holds, and takes over a stale hold", async () => {
    const pidFile = join(dir, "engine.pid")
    writeFileSync(pidFile, String(process.ppid))
    try {
      const held = await cli("org", "list")
      expect(held.code).toBe(1)
      expect(held.json.error.code).toBe("data_dir_in_use")
      expect(held.json.error.message).toContain(`process ${process.ppid}`)
      const exit = await Effect.runPromiseExit(Effect.scoped(holdDataDir(dir)))
      expect(exit._tag).toBe("Failure")
      expect(readFileSync(pidFile, "utf8")).toBe(String(process.ppid))
    } finally {
      rmSync(pidFile, { force: true })
    }
    const gone = spawnSync(process.execPath, ["-e", ""]).pid
    writeFileSync(pidFile, String(gone))
    const stale = await cli("org", "list")
    expect(stale.code).toBe(0)
    expect(existsSync(pidFile)).toBe(false)
  }, 180_000)

  it("sends commands to a running server's admin API: its keys work there and a revocation is effective when it answers", async () => {
    const app = await startApp()
    try {
      const env = { BOOKING_ENGINE_URL: app.url, ADMIN_TOKEN }
      const remote = async (...args: string[]) => {
        const { code, text } = await run(args, env)
        return { code, json: JSON.parse(text) }
      }
      const created = await remote(
        "org",
        "create",
        "--name",
        "Live",
        "--timezone",
        "Europe/Amsterdam",
        "--currency",
        "EUR"
      )
      expect(created.code).toBe(0)
      const key = created.json.api_key.key
      expect((await app.call(key, "GET", "/api/v1/org")).body.name).toBe("Live")
      expect((await remote("org", "plan", "--org", created.json.org.id, "--plan", "pro")).json.plan).toBe("pro")
      expect((await app.call(key, "GET", "/api/v1/org")).body.plan).toBe("pro")
      const revoked = await remote("key", "revoke", "--id", created.json.api_key.id)
      expect(revoked.code).toBe(0)
      expect((await app.call(key, "GET", "/api/v1/org")).status).toBe(401)
      const unknown = await remote("key", "revoke", "--id", "00000000-0000-4000-8000-000000000000")
      expect(unknown).toMatchObject({ code: 1, json: { error: { code: "not_found" } } })
      const noToken = await run(["org", "list"], { BOOKING_ENGINE_URL: app.url, ADMIN_TOKEN: "" })
      expect(noToken.code).toBe(1)
      expect(JSON.parse(noToken.text).error.message).toContain("ADMIN_TOKEN")
      const wrong = await run(["org", "list"], { BOOKING_ENGINE_URL: app.url, ADMIN_TOKEN: "not-the-admin-token" })
      expect(JSON.parse(wrong.text).error.code).toBe("unauthorized")
    } finally {
      await app.close()
    }
  }, 180_000)
})
