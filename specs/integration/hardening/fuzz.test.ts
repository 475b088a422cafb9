import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../transports/http/Api.ts"
import { type Tool, toolsOf } from "../../../transports/mcp/tools.ts"
import { startApp, type TestApp } from "../../support/app.ts"

/**
 * Malformed requests across every public operation, REST and MCP, derived from the contract (the same tool list
 * MCP serves). Each must be answered within 5 s, never with a 5xx, always in the error shape when it is not a
 * success, and a refused request must leave nothing behind (the org's rows and events are counted around it).
 */
const tools = toolsOf(Api)
const REST_RUNS = 1_600
const MCP_RUNS = 500
const DEADLINE_MS = 5_000

let app: TestApp
let org: { id: string; key: string }
const ids: string[] = []

const snapshot = () =>
  app.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{ s: string }>`select concat_ws(',',
      (select count(*) from events where org_id = ${org.id}),
      (select count(*) from offerings where org_id = ${org.id}),
      (select count(*) from bookings where org_id = ${org.id}),
      (select count(*) from customers where org_id = ${org.id}),
      (select count(*) from sessions where org_id = ${org.id}),
      (select count(*) from webhook_endpoints where org_id = ${org.id}),
      (select count(*) from api_keys where org_id = ${org.id} and revoked_at is null),
      (select count(*) from mail_outbox where org_id = ${org.id})) as s`
    ).pipe(
      Effect.map((r) => r[0].s),
      Effect.orDie
    )
  )

const timed = async <T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), DEADLINE_MS)
  try {
    return await run(abort.signal)
  } catch (e) {
    if (abort.signal.aborted) throw new Error(`${what}: no answer within ${DEADLINE_MS} ms`)
    throw e
  } finally {
    clearTimeout(timer)
  }
}

const isErrorShape = (body: unknown) => {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined
  if (typeof error !== "object" || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return typeof code === "string" && code.length > 0 && typeof message === "string" && message.length > 0
}

/** Values that are wrong for almost any field, and a few that break parsers. */
const nasty = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    -1,
    0,
    1.5,
    2 ** 31,
    -(2 ** 53),
    "",
    " ",
    "\u0000",
    "\ud800",
    "😀".repeat(200),
    "9999-12-31",
    "2026-02-30",
    "25:61",
    "Europe/Nowhere",
    "x".repeat(5_000),
    [],
    {},
    [[[]]],
    { a: { b: { c: {} } } }
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 })
)

const deep = (n: number): string => "[".repeat(n) + "]".repeat(n)

const idArb = fc.oneof(
  fc.constant("00000000-0000-4000-8000-000000000000"),
  fc.constantFrom("x".repeat(101), "%00", "..", "%2F..%2F", "%ud800", "' or 1=1 --", "-1", "1e9"),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.nat().map((i) => (ids.length > 0 ? ids[i % ids.length] : "none"))
)

type Malformed = {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly headers: Record<string, string>
}

const pathOf = (tool: Tool, id: string) => tool.path.replace(/:[a-z_]+/g, id)

const bodyArb = (tool: Tool): fc.Arbitrary<{ body?: string; contentType?: string }> => {
  const fields = tool.bodyKeys.length > 0 ? tool.bodyKeys : ["name"]
  const obj = fc.dictionary(fc.constantFrom(...fields, "unknown_field", "__proto__"), nasty, { minKeys: 1, maxKeys: 4 })
  return fc.oneof(
    obj.map((o) => ({ body: JSON.stringify(o) })),
    fc
      .constantFrom(
        "{",
        "[1,",
        "not json",
        "null",
        "42",
        '"s"',
        "[]",
        '{"a":1}{',
        '{"a":"\\ud800"}',
        `{"metadata":${deep(5_000)}}`,
        deep(40)
      )
      .map((body) => ({ body })),
    fc
      .tuple(
        obj,
        fc.constantFrom(
          "application/xml",
          "multipart/form-data; boundary=x",
          "*/*",
          "application/octet-stream",
          "image/png",
          "application/vnd.api+json",
          "application/x-www-form-urlencoded",
          "text/plain"
        )
      )
      .map(([o, contentType]) => ({ body: JSON.stringify(o), contentType })),
    fc.constant({ body: "name=a&kind=class", contentType: "application/x-www-form-urlencoded" })
  )
}

const queryArb = (tool: Tool) =>
  fc
    .dictionary(
      fc.constantFrom(...tool.queryKeys, "limit", "after", "unknown"),
      nasty.map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""))),
      { maxKeys: 3 }
    )
    .map((q) => {
      const s = new URLSearchParams(q).toString()
      return s === "" ? "" : `?${s}`
    })

const byName = (name: string) => tools.find((t) => t.name === name)!

const restArb: fc.Arbitrary<Malformed> = fc
  .constantFrom(...tools.map((t) => t.name))
  .map(byName)
  .chain((tool) =>
    fc
      .record({
        id: idArb,
        query: queryArb(tool),
        body: bodyArb(tool),
        auth: fc.constantFrom("key", "key", "key", "key", "none", "bad")
      })
      .map(({ id, query, body, auth }) => {
        const headers: Record<string, string> = {}
        if (auth === "key") headers.authorization = `Bearer ${org.key}`
        if (auth === "bad") headers.authorization = "Bearer sk_live_nope"
        const hasBody = tool.method !== "GET" && tool.method !== "DELETE" && tool.method !== "HEAD"
        if (hasBody && body.body !== undefined) headers["content-type"] = body.contentType ?? "application/json"
        if (tool.method === "POST") headers["idempotency-key"] = `fuzz-${Math.random()}`
        return { method: tool.method, path: pathOf(tool, id) + query, body: hasBody ? body.body : undefined, headers }
      })
  )

describe("fuzzing every operation with malformed input", () => {
  beforeAll(async () => {
    app = await startApp()
    org = await app.newOrg()
    const post = async (path: string, body: unknown) => {
      const res = await app.call(org.key, "POST", `/api/v1${path}`, body)
      if (res.status !== 201) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body
    }
    const offering = await post("/offerings", { name: "Yoga", kind: "class", capacity: 10, duration_minutes: 60 })
    ids.push(offering.id)
    const customer = await post("/customers", { name: "Ann", email: "ann@example.com" })
    ids.push(customer.id)
  })
  afterAll(async () => {
    await app?.close()
  })

  it(`answers ${REST_RUNS} malformed REST requests with a 4xx in the error shape (or a success), within ${DEADLINE_MS} ms, changing nothing when refused`, async () => {
    const seen = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(restArb, async (req) => {
        const before = await snapshot()
        const res = await timed(`${req.method} ${req.path}`, (signal) =>
          fetch(`${app.url}${req.path}`, { method: req.method, headers: req.headers, body: req.body, signal })
        )
        const text = await res.text()
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1)
        let body: unknown
        try {
          body = text === "" ? undefined : JSON.parse(text)
        } catch {
          body = text
        }
        expect(
          res.status,
          `${req.method} ${req.path} ${req.body?.slice(0, 200)} -> ${text.slice(0, 300)}`
        ).toBeLessThan(500)
        if (res.status >= 400) {
          expect(isErrorShape(body), `${req.method} ${req.path} -> ${res.status} ${text.slice(0, 300)}`).toBe(true)
          expect(text.length, "an error never echoes a large input").toBeLessThan(2_000)
          expect(await snapshot(), `${req.method} ${req.path} was refused (${res.status}) yet changed state`).toBe(
            before
          )
        }
      }),
      { numRuns: REST_RUNS }
    )
    // The run reached past authentication and into validation, not only 401s.
    const refused = [...seen].filter(([s]) => s >= 400 && s !== 401).reduce((n, [, c]) => n + c, 0)
    expect(refused).toBeGreaterThan(REST_RUNS / 2)
  }, 600_000)

  it(`answers ${MCP_RUNS} MCP tool calls with malformed arguments with an error result, never internal_error`, async () => {
    let n = 0
    const argsArb = (tool: Tool) =>
      fc.dictionary(
        fc.constantFrom(...Object.keys(tool.inputSchema.properties ?? {}), "unknown"),
        fc.oneof(nasty, idArb),
        { maxKeys: 4 }
      )
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...tools.map((t) => t.name))
          .chain((name) => fc.tuple(fc.constant(name), argsArb(byName(name)))),
        async ([name, args]) => {
          const tool = byName(name)
          const before = await snapshot()
          const payload = JSON.stringify({
            jsonrpc: "2.0",
            id: ++n,
            method: "tools/call",
            params: { name: tool.name, arguments: args }
          })
          const res = await timed(`mcp ${tool.name}`, (signal) =>
            fetch(`${app.url}/mcp`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${org.key}`,
                "content-type": "application/json",
                accept: "application/json, text/event-stream"
              },
              body: payload,
              signal
            })
          )
          const text = await res.text()
          expect(res.status, `${tool.name} ${payload.slice(0, 300)} -> ${text.slice(0, 300)}`).toBeLessThan(500)
          const reply = JSON.parse(text)
          if (reply.error !== undefined) {
            // A JSON-RPC level refusal (invalid params): fine, as long as it is not an internal error.
            expect(reply.error.code, text.slice(0, 300)).not.toBe(-32603)
            return
          }
          const result = reply.result
          if (result.isError === true) {
            const inner = JSON.parse(result.content[0].text)
            expect(isErrorShape(inner), text.slice(0, 300)).toBe(true)
            expect(inner.error.code, `${tool.name} ${JSON.stringify(args).slice(0, 300)}`).not.toBe("internal_error")
            expect(await snapshot(), `${tool.name} was refused yet changed state`).toBe(before)
          }
        }
      ),
      { numRuns: MCP_RUNS }
    )
  }, 600_000)
})
