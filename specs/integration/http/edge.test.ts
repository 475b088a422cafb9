import { request } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { bookingsOrg } from "../bookings/helpers.ts"
import { expectError, mcpClient } from "../foundation/fixtures.ts"

let app: TestApp
let key: string
let offeringId: string
beforeAll(async () => {
  app = await startApp()
  key = (await app.newOrg()).key
  offeringId = (await app.call(key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })).body.id
})
afterAll(() => app.close())

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: any
}

/** A request with exactly these headers and body chunks (no client defaults), answered as parsed JSON. */
const raw = (
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: ReadonlyArray<string | Buffer> = []
) =>
  new Promise<Raw>((resolve, reject) => {
    const req = request(
      `${app.url}${path}`,
      { method, headers: { authorization: `Bearer ${key}`, ...headers } },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (text += c))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === "" ? null : JSON.parse(text) })
        )
      }
    )
    req.on("error", reject)
    for (const c of chunks) req.write(c)
    req.end()
  })

/** Bytes straight onto a socket; resolves with the first response's status line and JSON body. */
const onSocket = (text: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const url = new URL(app.url)
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text))
    let data = ""
    socket.on("data", (c) => {
      data += c.toString("utf8")
      const head = data.indexOf("\r\n\r\n")
      const length = /content-length: (\d+)/i.exec(data)?.[1]
      if (head !== -1 && length !== undefined && Buffer.byteLength(data.slice(head + 4)) >= Number(length)) {
        socket.destroy()
        resolve({ status: Number(data.split(" ")[1]), body: JSON.parse(data.slice(head + 4)) })
      }
    })
    socket.on("error", reject)
  })

const expectShape = (res: Raw, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code })
  expect(res.body.error.message.length).toBeGreaterThan(0)
}

const post = (path: string, contentType: string, body: string) =>
  raw("POST", path, { "content-type": contentType, "content-length": String(Buffer.byteLength(body)) }, [body])

describe("request bodies", () => {
  it("accepts only application/json (with a charset): anything else is 415 unsupported_media_type", async () => {
    const body = JSON.stringify({ name: "Pilates", kind: "class" })
    for (const type of [
      "application/xml",
      "multipart/form-data; boundary=x",
      "*/*",
      "application/octet-stream",
      "application/x-www-form-urlencoded",
      "application/vnd.api+json",
      "text/plain"
    ]) {
      const res = await post("/api/v1/offerings", type, body)
      expect({ type, status: res.status, code: res.body?.error?.code }).toEqual({
        type,
        status: 415,
        code: "unsupported_media_type"
      })
    }
    expect((await post("/api/v1/offerings", "application/json; charset=utf-8", body)).status).toBe(201)
    expect((await post("/api/v1/offerings", "Application/JSON", body)).status).toBe(201)
  })

  it("answers 415 at once when the body never comes", async () => {
    const res = await onSocket(
      `POST /api/v1/offerings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/xml\r\nContent-Length: 5000\r\n\r\n`
    )
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 415, code: "unsupported_media_type" })
  })

  it("refuses a body over the limit with 413 payload_too_large, on Content-Length and while streaming", async () => {
    const big = JSON.stringify({ name: "x", kind: "class", description: "a".repeat(2_200_000) })
    const declared = await onSocket(
      `POST /api/v1/offerings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n`
    )
    expect({ status: declared.status, code: declared.body.error.code }).toEqual({
      status: 413,
      code: "payload_too_large"
    })
    const streamed = await raw(
      "POST",
      "/api/v1/offerings",
      { "content-type": "application/json", "transfer-encoding": "chunked" },
      [big.slice(0, 1_200_000), big.slice(1_200_000)]
    )
    expect({ status: streamed.status, code: streamed.body.error.code }).toEqual({
      status: 413,
      code: "payload_too_large"
    })
  })

  it("refuses what is not JSON with 400 invalid_json, saying to send JSON", async () => {
    for (const text of ["{", "name=x", "<a/>", "{\"name\": 'x'}"]) {
      const res = await post("/api/v1/offerings", "application/json", text)
      expectShape(res, 400, "invalid_json")
      expect(res.body.error.message).toMatch(/JSON/)
    }
  })

  it("refuses JSON nested deeper than 32 with the same 400 every time, and accepts 32", async () => {
    const nest = (n: number) => `{"name":"x","kind":"class","metadata":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`
    const answers = await Promise.all([1, 2, 3].map(() => post("/api/v1/offerings", "application/json", nest(100_000))))
    for (const res of answers) expectShape(res, 400, "invalid_json")
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1)
    expectShape(await post("/api/v1/offerings", "application/json", nest(33)), 400, "invalid_json")
    expect((await post("/api/v1/offerings", "application/json", nest(32))).body?.error?.code).not.toBe("invalid_json")
  })

  it("refuses lone surrogates anywhere in a body or query with 400 naming the field", async () => {
    const cases: Array<[string, string, string | undefined, string]> = [
      ["POST", "/api/v1/offerings", '{"name":"a\\ud800b","kind":"class"}', "invalid_name"],
      ["PATCH", `/api/v1/offerings/${offeringId}`, '{"metadata":{"k\\udc00":1}}', "invalid_metadata"],
      ["POST", "/api/v1/customers", '{"email":"s@example.com","name":"\\ud83d"}', "invalid_name"],
      ["GET", "/api/v1/customers?q=%ED%A0%80", undefined, "invalid_q"],
      ["GET", "/api/v1/bookings?status=confirmed&q=ab%ED%B0%80", undefined, "invalid_q"],
      // A name the operation does not have is never made into a code: it is quoted, printable, in the message only.
      ["POST", "/api/v1/offerings", '{"na\\udc00me":1}', "unknown_field"],
      ["POST", "/api/v1/offerings", '{"name":"x","kind":"class","colour":"\\u0000"}', "unknown_field"],
      ["GET", "/api/v1/customers?na%ED%A0%80me=1", undefined, "invalid_query"],
      ["GET", "/api/v1/customers?colour=%00", undefined, "invalid_query"],
      ["GET", "/api/v1/customers?%E0%A4%A=1", undefined, "invalid_query"]
    ]
    for (const [method, path, body, code] of cases) {
      const res =
        body === undefined
          ? await raw(method, path, {})
          : await raw(method, path, { "content-type": "application/json" }, [body])
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 400, code })
      expect(res.body.error.message).not.toMatch(/[\u0000-\u001f]|\p{Cs}/u)
    }
    const named = await raw("POST", "/api/v1/offerings", { "content-type": "application/json" }, ['{"na\\udc00me":1}'])
    expect(named.body.error.message).toBe("na?me: must be valid Unicode (no lone surrogates)")
  })

  it("quotes at most ~100 characters of an offending value", async () => {
    const long = "z".repeat(5000)
    for (const res of [
      await app.call(key, "POST", "/api/v1/offerings", { name: "x", kind: long }),
      await app.call(key, "POST", "/api/v1/offerings", { name: "x", kind: "class", [long]: 1 }),
      await app.call(key, "GET", `/api/v1/offerings?kind=${long}`)
    ]) {
      expect(res.status).toBe(400)
      expect(res.body.error.message.length).toBeLessThan(300)
    }
  })
})

describe("every reply in the error shape", () => {
  it("is 404 not_found for an unknown route and 405 method_not_allowed with Allow for a known path", async () => {
    expectError(await app.call(key, "GET", "/api/v1/nothing-here"), 404, "not_found")
    expectError(await app.call(null, "GET", "/nowhere"), 404, "not_found")
    const res = await app.call(key, "PUT", "/api/v1/offerings")
    expectError(res, 405, "method_not_allowed")
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "POST"])
    const one = await app.call(key, "POST", `/api/v1/offerings/${offeringId}`)
    expectError(one, 405, "method_not_allowed")
    expect(one.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "PATCH"])
  })

  it("answers ids over 100 characters in the error shape (404 or 400), never 500", async () => {
    const long = "a".repeat(150)
    for (const [method, path] of [
      ["GET", `/api/v1/offerings/${long}`],
      ["PATCH", `/api/v1/offerings/${long}`],
      ["DELETE", `/api/v1/offerings/${long}`],
      ["GET", `/api/v1/bookings/${long}`],
      ["POST", `/api/v1/bookings/${long}/confirm`],
      ["POST", `/api/v1/bookings/${long}/cancel`],
      ["GET", `/api/v1/customers/${long}`],
      ["GET", `/api/v1/webhooks/${long}`],
      ["DELETE", `/admin/v1/api_keys/${long}`]
    ]) {
      const res =
        method === "DELETE" && path.startsWith("/admin")
          ? await app.admin("DELETE", path.slice("/admin/v1".length))
          : await app.call(key, method, path, method === "PATCH" ? {} : undefined)
      expect({
        path: path.slice(0, 30),
        ok: [400, 404].includes(res.status),
        shape: typeof res.body?.error?.code
      }).toEqual({ path: path.slice(0, 30), ok: true, shape: "string" })
    }
  })

  it("answers a URL or headers too large with 414 or 431 in the error shape", async () => {
    const url = await app.call(key, "GET", `/api/v1/offerings?kind=${"a".repeat(10_000)}`)
    expectError(url, 414, "uri_too_long")
    const headers = await onSocket(`GET /api/v1/offerings HTTP/1.1\r\nHost: x\r\nX-Big: ${"h".repeat(40_000)}\r\n\r\n`)
    expect({ status: headers.status, code: headers.body.error.code }).toEqual({
      status: 431,
      code: "headers_too_large"
    })
    const both = await onSocket(`GET /api/v1/offerings?kind=${"a".repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect([414, 431]).toContain(both.status)
    expect(typeof both.body.error.code).toBe("string")
  })

  it("cancels a booking with no body, like confirm", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession()
    const created = await org.booked({ offering_id: offering.id, session_id: session.id })
    const res = await raw("POST", `/api/v1/bookings/${created.id}/cancel`, { authorization: `Bearer ${org.key}` })
    expect({ status: res.status, state: res.body.status }).toEqual({ status: 200, state: "cancelled" })
  })
})

describe("idempotency", () => {
  it("replays the same JSON with its keys in another order, instead of refusing it", async () => {
    const first = await raw(
      "POST",
      "/api/v1/offerings",
      { "content-type": "application/json", "idempotency-key": "order-1" },
      ['{"name":"Ordered","kind":"class","capacity":5}']
    )
    const again = await raw(
      "POST",
      "/api/v1/offerings",
      { "content-type": "application/json", "idempotency-key": "order-1" },
      ['{"capacity":5,"kind":"class","name":"Ordered"}']
    )
    expect(first.status).toBe(201)
    expect({ status: again.status, replayed: again.headers["idempotent-replayed"], id: again.body.id }).toEqual({
      status: 201,
      replayed: "true",
      id: first.body.id
    })
    const other = await raw(
      "POST",
      "/api/v1/offerings",
      { "content-type": "application/json", "idempotency-key": "order-1" },
      ['{"capacity":6,"kind":"class","name":"Ordered"}']
    )
    expect(other.status).toBe(422)
  })
})

describe("MCP arguments", () => {
  it("are validated as REST validates path and query: wrong types and long ids get REST's code, never the list or internal_error", async () => {
    const mcp = await mcpClient(app, key)
    try {
      const list = await mcp.call("offerings_get", { id: [] })
      expect({ isError: list.isError, code: list.json.error?.code }).toEqual({ isError: true, code: "invalid_id" })
      const long = "a".repeat(150)
      const rest = await app.call(key, "GET", `/api/v1/offerings/${long}`)
      for (const tool of [
        "offerings_get",
        "offerings_update",
        "offerings_delete",
        "bookings_confirm",
        "bookings_cancel",
        "customers_get"
      ]) {
        for (const id of [[], {}, long]) {
          const res = await mcp.call(tool, { id })
          const expected = typeof id === "string" ? rest.body.error.code : "invalid_id"
          expect({ tool, id: typeof id, isError: res.isError, code: res.json.error?.code }).toEqual({
            tool,
            id: typeof id,
            isError: true,
            code: expected
          })
        }
      }
      const query = await mcp.call("offerings_list", { kind: ["class", "rental"] })
      expect({ isError: query.isError, code: query.json.error?.code }).toEqual({ isError: true, code: "invalid_kind" })
    } finally {
      await mcp.close()
    }
  })
})
