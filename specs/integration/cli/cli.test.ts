import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "../../../transports/cli/main.ts"

// The CLI works against the local PGlite when DATABASE_URL is unset; point it at a fresh directory.
const dir = mkdtempSync(join(tmpdir(), "be-cli-"))
const cli = async (...args: string[]) => {
  const saved = { url: process.env.DATABASE_URL, dir: process.env.DATA_DIR }
  process.env.DATABASE_URL = ""
  process.env.DATA_DIR = dir
  try {
    const { code, text } = await Effect.runPromise(runCli(args))
    return { code, json: JSON.parse(text) }
  } finally {
    // Assigning undefined would store the string "undefined" for the files that share this worker.
    for (const [name, value] of [["DATABASE_URL", saved.url], ["DATA_DIR", saved.dir]] as const) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("booking-engine CLI", () => {
  it("creates an org with a key, adds and revokes keys, and prints JSON", async () => {
    const created = await cli("org", "create", "--name", "Acme", "--timezone", "Europe/Amsterdam", "--currency", "JPY", "--plan", "pro")
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
    const usage = await cli("frobnicate")
    expect(usage).toMatchObject({ code: 1, json: { error: { code: "usage" } } })
  }, 180_000)
})
