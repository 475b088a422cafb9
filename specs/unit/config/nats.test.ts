import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { appConfig } from "../../../app/config.ts"

const load = (env: Record<string, string>) => {
  const provider = ConfigProvider.fromMap(new Map(Object.entries(env)))
  return Effect.runSync(Effect.either(Effect.withConfigProvider(appConfig, provider)))
}

const nats = (env: Record<string, string>) =>
  Either.map(load(env), (c) => ({ stream: c.natsStream, prefix: c.natsSubjectPrefix }))

/** The one line a start that fails on it would print (main.ts prints the error's message, whitespace folded). */
const problem = (env: Record<string, string>) =>
  Either.match(load(env), { onLeft: (e) => String(e).replace(/\s+/g, " "), onRight: () => "no error" })

const DEFAULTS = Either.right({ stream: "EVENTS", prefix: "events" })

describe("NATS_STREAM and NATS_SUBJECT_PREFIX", () => {
  it("default to EVENTS and events (subjects events.<org_id>.<type>, as before); blank is unset", () => {
    expect(nats({})).toEqual(DEFAULTS)
    expect(nats({ NATS_STREAM: "", NATS_SUBJECT_PREFIX: "  " })).toEqual(DEFAULTS)
    // Spaces around a value are not part of it.
    expect(nats({ NATS_STREAM: " EVENTS ", NATS_SUBJECT_PREFIX: "events " })).toEqual(DEFAULTS)
  })

  it("take a stream name and a prefix of dot-separated tokens", () => {
    const valid: Array<[string, string]> = [
      ["BOOKINGS", "bookings"],
      ["acme-prod_events", "acme.prod.events"],
      ["S1", "tenant-7.events"],
      ["Ünïcode", "$app.events"]
    ]
    for (const [stream, prefix] of valid) {
      expect(nats({ NATS_STREAM: stream, NATS_SUBJECT_PREFIX: prefix })).toEqual(Either.right({ stream, prefix }))
    }
  })

  it("refuse a stream name with whitespace inside, '.', '*', '>', a path separator or over 255 characters, by name", () => {
    const bad = ["MY EVENTS", "my.events", "EVENTS*", "EVENTS>", "a/b", "a\\b", "tab\there", "x".repeat(256)]
    for (const stream of bad) {
      const line = problem({ NATS_STREAM: stream })
      const says = expect.stringContaining("NATS_STREAM must be a JetStream stream name")
      expect({ stream, line }).toEqual({ stream, line: says })
    }
  })

  it("refuse a prefix with wildcards, whitespace or empty tokens, by name", () => {
    for (const prefix of ["events.>", "events.*", "*", ">", "my events", "events.", ".events", "a..b", "a.\tb"]) {
      const line = problem({ NATS_SUBJECT_PREFIX: prefix })
      const says = expect.stringContaining("NATS_SUBJECT_PREFIX must be dot-separated subject tokens")
      expect({ prefix, line }).toEqual({ prefix, line: says })
    }
  })
})

describe("NATS_URL and NATS_STREAM_REPLICAS", () => {
  it("NATS_URL takes a cluster's nodes, comma-separated; a list with a bad entry is refused by name", () => {
    const urls = (env: Record<string, string>) => Either.map(load(env), (c) => c.natsUrl)
    expect(Either.isRight(urls({ NATS_URL: "nats://a:4222,nats://b:4222, nats://c:4222" }))).toBe(true)
    expect(problem({ NATS_URL: "nats://a:4222,,nats://b:4222" })).toContain("NATS_URL must be nats:// URLs")
    expect(problem({ NATS_URL: "nats://a:4222,http://b" })).toContain("comma-separated for a cluster")
  })

  it("NATS_STREAM_REPLICAS is 1 by default, 1 to 5", () => {
    const replicas = (env: Record<string, string>) => Either.map(load(env), (c) => c.natsStreamReplicas)
    expect(replicas({})).toEqual(Either.right(1))
    expect(replicas({ NATS_STREAM_REPLICAS: "3" })).toEqual(Either.right(3))
    expect(problem({ NATS_STREAM_REPLICAS: "6" })).toContain(
      'NATS_STREAM_REPLICAS must be a number of replicas from 1 to 5, not "6"'
    )
    expect(problem({ NATS_STREAM_REPLICAS: "0" })).toContain("NATS_STREAM_REPLICAS must be")
  })
})

describe("TRUST_PROXY", () => {
  it("takes addresses and CIDRs, comma-separated; anything else is refused by name", () => {
    const trust = (env: Record<string, string>) => Either.map(load(env), (c) => c.trustProxy)
    expect(trust({})).toEqual(Either.right(undefined))
    expect(trust({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1,fd00::/8" })).toEqual(
      Either.right("10.0.0.0/8, 127.0.0.1,::1,fd00::/8")
    )
    for (const bad of ["10.0.0.0/33", "proxy.local", "10.0.0.1/8/9", "::1/129", "1.2.3"])
      expect(problem({ TRUST_PROXY: bad })).toContain("TRUST_PROXY must be addresses or CIDRs")
  })
})
