import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { loadConfig } from "../../../app/config.ts"
import { asEnvironment, ENV, inOptionTerms } from "../../../app/options.ts"

const load = (env: Record<string, string>) =>
  Effect.runSync(
    Effect.either(Effect.withConfigProvider(loadConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )
const problem = (env: Record<string, string>) =>
  Either.match(load(env), { onLeft: (e) => e.message, onRight: () => "no error" })
const root = join(import.meta.dirname, "../../..")

describe("one configuration schema", () => {
  it("every setting has a variable, documented beside its option and in the README's table", () => {
    const options = readFileSync(join(root, "app/options.ts"), "utf8")
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const table = readme.slice(
      readme.indexOf("## Configuration"),
      readme.indexOf("\n## ", readme.indexOf("## Configuration") + 5)
    )
    for (const [path, name] of Object.entries(ENV)) {
      expect({ path, documented: options.includes(`/** ${name}:`) }).toEqual({ path, documented: true })
      expect({ name, inReadme: table.includes(`\`${name}\``) }).toEqual({ name, inReadme: true })
    }
  })

  it("a value that will not do is one plain sentence naming the variable, never Effect's rendering", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ MAX_INFLIGHT: "lots" }, 'MAX_INFLIGHT must be a number of requests from 1 to 100000, not "lots"'],
      [{ PORT: "http" }, 'PORT must be a port from 0 to 65535, not "http"'],
      [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must be a postgres:// or postgresql:// URL"],
      [
        { LOG_LEVEL: "loud" },
        'LOG_LEVEL must be one of trace, debug, info, warning, error, fatal, none, warn, not "loud"'
      ],
      [{ WEBHOOK_ALLOW_INSECURE: "maybe" }, 'WEBHOOK_ALLOW_INSECURE must be 1 or 0 (true or false), not "maybe"'],
      [{ PUBLIC_URL: "example.com" }, "PUBLIC_URL must be an http(s) URL such as https://book.example.com"],
      [{ STRIPE_WEBHOOK_SECRET: "whsec_x" }, "STRIPE_WEBHOOK_SECRET needs STRIPE_SECRET_KEY"]
    ]
    for (const [env, says] of cases) {
      const line = problem(env)
      expect({ env, line }).toEqual({ env, line: expect.stringContaining(says) })
      expect(line).not.toMatch(/Invalid data|\n|\(.*at\s*:/)
    }
    // Two at once: both, on one line.
    expect(problem({ MAX_QUEUED: "-1", DB_POOL_SIZE: "0" })).toMatch(/^[^\n]*MAX_QUEUED[^\n]*; [^\n]*DB_POOL_SIZE/)
  })

  it("takes values as people type them: spaces, thousands separators, any case, yes/no, trailing slashes", () => {
    const c = Either.getOrThrow(
      load({
        MAX_INFLIGHT: " 1,000 ",
        MAX_QUEUED: "10_000",
        LOG_LEVEL: "WARN",
        CLOCK: "Test",
        WEBHOOK_ALLOW_INSECURE: "yes",
        PUBLIC_URL: "https://book.example.com/",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
        DATABASE_URL: "PostgreSQL://db/x",
        MAIL_FROM: "  hi@example.com "
      })
    )
    expect(c).toMatchObject({
      maxInflight: 1000,
      maxQueued: 10_000,
      logLevel: "warning",
      clock: "test",
      webhookAllowInsecure: true,
      publicUrl: "https://book.example.com",
      otelEndpoint: "http://collector:4318",
      mailFrom: "hi@example.com",
      mailDomain: "example.com"
    })
    expect(Either.getOrThrow(load({ WEBHOOK_ALLOW_INSECURE: "off" })).webhookAllowInsecure).toBe(false)
  })

  it("options stand for their variables; a message about a given option names the option", () => {
    const env = asEnvironment({
      maxInflight: 8,
      webhookAllowInsecure: true,
      twilio: { accountSid: "AC1", from: "+1 415 555 2671" },
      tracing: { endpoint: "http://127.0.0.1:4318" }
    })
    expect(Object.fromEntries(env)).toEqual({
      MAX_INFLIGHT: "8",
      WEBHOOK_ALLOW_INSECURE: "true",
      TWILIO_ACCOUNT_SID: "AC1",
      TWILIO_FROM: "+1 415 555 2671",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318"
    })
    expect(() => asEnvironment({ maxInFlight: 8 } as never)).toThrow("createEngine: maxInFlight is not an option")
    const given = new Set(env.keys())
    expect(inOptionTerms("TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together", given)).toBe(
      "twilio.accountSid and TWILIO_AUTH_TOKEN go together"
    )
  })

  it("refuses an admin token that is short or a placeholder the documentation shows, each in one line", () => {
    expect(problem({ ADMIN_TOKEN: "0123456789abcdef0123" })).toBe(
      "ADMIN_TOKEN must be at least 24 characters (a long random token: openssl rand -hex 24)"
    )
    // Every placeholder the README, docs, examples and compose file show, and its like.
    const shown = ["README.md", "docker-compose.yml", "examples/node-http.ts", "examples/express.ts"]
      .concat(
        readdirSync(join(root, "docs"))
          .filter((f) => f.endsWith(".md"))
          .map((f) => `docs/${f}`)
      )
      .flatMap((f) => readFileSync(join(root, f), "utf8").match(/change-me[\w-]*/g) ?? [])
    for (const token of [
      ...shown,
      "change-me-to-a-long-random-token",
      "CHANGE-ME-to-a-long-secret",
      "changeme-0123456789abcdefghij",
      "your-admin-token-goes-here-please"
    ]) {
      const line = problem({ ADMIN_TOKEN: token })
      expect({ token, line }).toEqual({
        token,
        line: expect.stringContaining("ADMIN_TOKEN is a placeholder from the documentation")
      })
      expect(line).not.toMatch(/\n/)
    }
    expect(problem({ ADMIN_TOKEN: "9f2c4e1a7b3d8f0e6a5c2b1d4e7f8a9c" })).toBe("no error")
  })
})
