import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { parse } from "yaml"
import { loadConfig } from "../../../app/config.ts"

// The image and the compose file, read as Docker reads them (no daemon here: docs/deploy.md says what was run by hand).
const root = join(import.meta.dirname, "../../..")
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8")
const compose = parse(readFileSync(join(root, "docker-compose.yml"), "utf8")) as {
  services: Record<
    string,
    {
      ports?: Array<string>
      restart?: string
      healthcheck?: { test: Array<string> }
      depends_on?: Record<string, { condition: string }>
      environment?: Record<string, string>
      stop_grace_period?: string
    }
  >
}
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } }

describe("the Dockerfile", () => {
  const stages = dockerfile.split(/^FROM /m).slice(1)
  const runtime = stages[stages.length - 1]
  it("builds on Node 22 LTS pinned to a full release, installs from the lock, runs with NODE_ENV=production as the node user", () => {
    const bases = stages.map((s) => s.split(/\s/)[0])
    expect(bases.length).toBe(3)
    for (const base of bases) expect(base).toMatch(/^node:22\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$/)
    expect(new Set(bases).size).toBe(1)
    expect(pkg.engines.node).toMatch(/>=22/)
    expect(dockerfile).not.toMatch(/npm install/)
    expect(stages[0]).toMatch(/^RUN npm ci /m)
    expect(stages[0]).not.toMatch(/NODE_ENV=production/) // the build needs the devDependencies
    expect(stages[1]).toMatch(/^RUN npm ci --omit=dev /m)
    expect(runtime).toMatch(/^ENV NODE_ENV=production /m)
    expect(runtime).toMatch(/^USER node$/m)
    expect(runtime).not.toMatch(/^RUN npm/m)
  })

  it("copies the production dependencies, the build and the bin, nothing else; no VOLUME (PGlite's DATA_DIR is a choice)", () => {
    expect(runtime.match(/^COPY .*$/gm)).toEqual([
      "COPY --from=build /app/package.json ./",
      "COPY --from=deps /app/node_modules ./node_modules",
      "COPY --from=build /app/dist ./dist",
      "COPY --from=build /app/bin ./bin"
    ])
    expect(dockerfile).not.toMatch(/^VOLUME/m)
  })

  it("puts the CLI on PATH (docker compose exec engine booking-engine ...) and starts through it", () => {
    expect(runtime).toMatch(/ln -s \/app\/bin\/booking-engine\.js \/usr\/local\/bin\/booking-engine/)
    expect(runtime).toMatch(/^CMD \["booking-engine"\]$/m)
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/readyz/m)
  })
})

describe("docker-compose.yml", () => {
  it("publishes only the engine; every service restarts and has a health check", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["engine", "nats", "postgres"])
    expect(compose.services.postgres.ports).toBeUndefined()
    expect(compose.services.nats.ports).toBeUndefined()
    expect(compose.services.engine.ports).toEqual(["3000:3000"])
    for (const [name, s] of Object.entries(compose.services)) expect(s.restart, name).toBe("unless-stopped")
    expect(compose.services.postgres.healthcheck?.test).toContain("pg_isready")
    expect(compose.services.nats.healthcheck?.test.join(" ")).toContain("/healthz?js-enabled-only=true")
  })

  it("starts the engine once Postgres and NATS are healthy (it exits when NATS is not up)", () => {
    expect(compose.services.engine.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      nats: { condition: "service_healthy" }
    })
  })

  it("refuses to start without an ADMIN_TOKEN (no token of its own), and gives the engine longer than its grace to stop", () => {
    expect(compose.services.engine.environment?.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?[^}]+\}$/)
    expect(readFileSync(join(root, "docker-compose.yml"), "utf8")).not.toMatch(/ADMIN_TOKEN:-/)
    const grace = Effect.runSync(
      Effect.withConfigProvider(loadConfig, ConfigProvider.fromMap(new Map()))
    ).shutdownGraceMs
    const stop = /^(\d+)s$/.exec(compose.services.engine.stop_grace_period ?? "")
    expect(stop).not.toBeNull()
    expect(Number(stop?.[1]) * 1000).toBeGreaterThan(grace ?? Number.POSITIVE_INFINITY)
  })
})
