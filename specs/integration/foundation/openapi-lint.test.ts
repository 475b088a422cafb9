import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

const ROOT = resolve(import.meta.dirname, "../../..")
const REDOCLY = join(ROOT, "node_modules/.bin/redocly")

let app: TestApp
let dir: string
beforeAll(async () => {
  app = await startApp()
  dir = mkdtempSync(join(tmpdir(), "openapi-lint-"))
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await app.close()
})

describe("the served OpenAPI document", () => {
  it("lints with Redocly's recommended rules (redocly.yaml) without an error or a warning", async () => {
    // A missing CLI fails the suite: it is a dev dependency, and CI installs it.
    expect(existsSync(REDOCLY), `${REDOCLY} is missing: npm install`).toBe(true)
    const res = await app.call(null, "GET", "/api/v1/openapi.json")
    expect(res.status).toBe(200)
    const file = join(dir, "openapi.json")
    writeFileSync(file, JSON.stringify(res.body))
    const run = spawnSync(REDOCLY, ["lint", file, "--config", join(ROOT, "redocly.yaml"), "--format=json"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" }
    })
    expect(run.error, String(run.error)).toBeUndefined()
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{")))
    const problems = report.problems.map(
      (p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`
    )
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(run.status).toBe(0)
  }, 90_000)
})
