import { HttpApi, type HttpApiEndpoint } from "@effect/platform"
import { Either, Option, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventSchemas } from "../../../engine/schema/eventCatalogue.ts"
import { EVENT_TYPES } from "../../../engine/schema/webhook.ts"
import { Api } from "../../../transports/http/Api.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, UNKNOWN_ID } from "./fixtures.ts"

const PUBLIC_URL = "https://book.example.com"

let app: TestApp
let doc: any
beforeAll(async () => {
  app = await startApp({ publicUrl: PUBLIC_URL })
  doc = (await app.call(null, "GET", "/api/v1/openapi.json")).body
})
afterAll(() => app.close())

const operations = () => {
  const out: Array<{ id: string; method: string; path: string; op: any }> = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) out.push({ id: op.operationId, method, path, op })
  }
  return out
}

/** Each public endpoint's payload Schema, by operation id: what the server decodes a body with. */
const payloads = () => {
  const out = new Map<string, Schema.Schema<unknown, unknown, never>>()
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint, group }) {
      const e = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      if (Option.isSome(e.payloadSchema))
        out.set(`${group.identifier}.${e.name}`, e.payloadSchema.value as Schema.Schema<unknown, unknown, never>)
    }
  })
  return out
}

const resolve = (schema: any): any =>
  typeof schema?.$ref === "string" ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema

describe("the OpenAPI document explains itself", () => {
  it("names this instance as its server (PUBLIC_URL)", () => {
    expect(doc.servers).toEqual([{ url: PUBLIC_URL, description: expect.any(String) }])
  })

  it("describes every operation, beside its summary", () => {
    for (const o of operations()) {
      expect(typeof o.op.summary, o.id).toBe("string")
      expect(typeof o.op.description, o.id).toBe("string")
      expect(o.op.description.length, o.id).toBeGreaterThan(o.op.summary.length / 2)
      expect(o.op.description, o.id).toMatch(/Emits|emits/)
    }
  })

  it("has an example for every request body, and each decodes with the operation's Schema", () => {
    const schemas = payloads()
    let bodies = 0
    for (const o of operations()) {
      const content = o.op.requestBody?.content?.["application/json"]
      if (content === undefined) continue
      bodies++
      const examples: Array<unknown> =
        content.example !== undefined ? [content.example] : (resolve(content.schema)?.examples ?? [])
      expect(examples.length, o.id).toBeGreaterThan(0)
      const decode = Schema.decodeUnknownEither(schemas.get(o.id)!)
      for (const example of examples) {
        const decoded = decode(example)
        expect(Either.isRight(decoded) ? "decodes" : String(decoded.left), `${o.id}: ${JSON.stringify(example)}`).toBe(
          "decodes"
        )
      }
    }
    expect(bodies).toBeGreaterThan(30)
  })

  it("describes fields whose meaning is not obvious: per kind, minor units, UTC or local", () => {
    const offering = doc.components.schemas.Offering.properties
    expect(offering.capacity.description).toMatch(/class: seats.*appointment.*rental/)
    expect(offering.price_cents.description).toMatch(/[Mm]inor units/)
    expect(doc.components.schemas.OfferingCreate.properties.guest_price_cents.description).toMatch(/appointment only/)
    const booking = doc.components.schemas.Booking.properties
    expect(booking.total_cents.description).toMatch(/minor units/)
    expect(booking.starts_at.description).toMatch(/UTC/)
    expect(doc.components.schemas.CalendarEntryCreate.properties.starts_on.description).toMatch(/[Ll]ocal/)
  })

  it("lists the error codes of every operation, as an enum per status, and only statuses it can answer", () => {
    for (const o of operations()) {
      const table: Record<string, Array<string>> = o.op["x-error-codes"]
      expect(Object.keys(table).length, o.id).toBeGreaterThan(0)
      const errors = Object.keys(o.op.responses).filter((s) => Number(s) >= 400)
      expect(errors.sort(), o.id).toEqual(Object.keys(table).sort())
      for (const status of errors) {
        const schema = o.op.responses[status].content["application/json"].schema
        expect(schema.properties.error.properties.code.enum, `${o.id} ${status}`).toEqual(table[status])
        expect(table[status].length, `${o.id} ${status}`).toBeGreaterThan(0)
      }
      // A 401 only where a credential is checked; the platform's own decode error is never sent.
      expect("401" in table, o.id).toBe((o.op.security ?? []).length > 0)
      if (o.method === "post" && o.id !== "guest.confirm" && o.id !== "guest.cancel")
        expect(table["400"], o.id).toContain("invalid_idempotency_key")
    }
    expect(JSON.stringify(doc)).not.toContain("HttpApiDecodeError")
  })

  it("lists the codes the server really answers", async () => {
    const org = await app.newOrg()
    const codesOf = (id: string) => operations().find((o) => o.id === id)!.op["x-error-codes"]
    const off = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })
    const cases: Array<[string, Promise<{ status: number; body: any }>]> = [
      ["offerings.get", app.call(org.key, "GET", `/api/v1/offerings/${UNKNOWN_ID}`)],
      ["offerings.get", app.call(null, "GET", `/api/v1/offerings/${UNKNOWN_ID}`)],
      ["offerings.create", app.call(org.key, "POST", "/api/v1/offerings", { name: "", kind: "class" })],
      ["offerings.create", app.call(org.key, "POST", "/api/v1/offerings", { name: "X", kind: "class", colour: "red" })],
      [
        "offerings.create",
        app.call(org.key, "POST", "/api/v1/offerings", {
          name: "X",
          kind: "class",
          course: true,
          waitlist_enabled: true
        })
      ],
      ["offerings.get_hours", app.call(org.key, "GET", `/api/v1/offerings/${off.body.id}/hours`)],
      [
        "availability.get",
        app.call(org.key, "GET", `/api/v1/offerings/${off.body.id}/availability?from=2026-06-10&to=2026-06-01`)
      ],
      ["bookings.cancel", app.call(org.key, "POST", `/api/v1/bookings/${UNKNOWN_ID}/cancel`, {})],
      [
        "webhooks.create",
        app.call(org.key, "POST", "/api/v1/webhooks", { url: "https://hooks.example.com/x", events: ["no.such"] })
      ],
      ["series.delete", app.call(org.key, "DELETE", "/api/v1/series/not-a-uuid")]
    ]
    for (const [id, pending] of cases) {
      const res = await pending
      expect(res.status, id).toBeGreaterThanOrEqual(400)
      expect(codesOf(id)[String(res.status)] ?? [], `${id} ${res.status}`).toContain(res.body.error.code)
    }
  })

  it("answers malformed calls of every operation only with codes that operation lists", async () => {
    const org = await app.newOrg()
    const unlisted: Array<string> = []
    const unprintable: Array<string> = []
    // The event stream's good calls never end: its refusals are checked in specs/integration/events/stream.test.ts.
    for (const o of operations().filter((o) => o.op.responses["200"]?.content?.["text/event-stream"] === undefined)) {
      const table: Record<string, Array<string>> = o.op["x-error-codes"]
      const params: Array<any> = o.op.parameters ?? []
      const fill = (value: (name: string) => string) =>
        o.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(value(name)))
      const good = fill(() => UNKNOWN_ID)
      const body = resolve(o.op.requestBody?.content?.["application/json"]?.schema)
      const fields = Object.keys(body?.properties ?? {})
      const calls: Array<[string | null, string, unknown]> = [
        [org.key, good, body === undefined ? undefined : {}],
        [null, good, undefined],
        [org.key, fill(() => "not-a-uuid"), undefined],
        [org.key, fill(() => "x".repeat(101)), undefined],
        [
          org.key,
          `${good}?${params
            .filter((p) => p.in === "query")
            .map((p) => `${p.name}=%7B%7D`)
            .join("&")}`,
          undefined
        ],
        // Names a client makes up, holding or being what no field may: never a code of their own.
        [org.key, `${good}?na%ED%A0%80me=1`, undefined],
        [org.key, `${good}?no_such_param=%00`, undefined],
        [org.key, `${good}?%E0%A4%A=1`, undefined],
        ...params
          .filter((p) => p.in === "query")
          .map((p) => [org.key, `${good}?${p.name}=%00`, undefined] as [string, string, unknown]),
        ...(body === undefined
          ? []
          : [
              [org.key, good, `{"na\\udc00me":1}`] as [string, string, unknown],
              [org.key, good, `{"no_such_field":"\\u0000"}`] as [string, string, unknown],
              [org.key, good, `{"${"k".repeat(300)}\\u0001\\u0000":1}`] as [string, string, unknown],
              [org.key, good, `"\\u0000"`] as [string, string, unknown]
            ]),
        ...(body === undefined
          ? []
          : [
              [org.key, good, "[1,"] as [string, string, unknown],
              [org.key, good, "42"] as [string, string, unknown],
              [org.key, good, { no_such_field: 1 }] as [string, string, unknown],
              ...fields.map((f) => [org.key, good, { [f]: { nested: [] } }] as [string, string, unknown])
            ])
      ]
      for (const [key, path, sent] of calls) {
        const res = await app.call(key, o.method.toUpperCase(), path, sent)
        expect(res.status, `${o.id} ${path}`).toBeLessThan(500)
        if (res.status >= 400 && !(table[String(res.status)] ?? []).includes(res.body.error.code))
          unlisted.push(`${o.id}: ${res.status} ${res.body.error.code}`)
        // What was sent is quoted printable and short, never as it came.
        if (res.status >= 400 && /[\u0000-\u001f]|\p{Cs}|k{101}/u.test(res.body.error.message))
          unprintable.push(`${o.id}: ${JSON.stringify(res.body.error.message)}`)
      }
    }
    expect({ unlisted: [...new Set(unlisted)], unprintable: [...new Set(unprintable)] }).toEqual({
      unlisted: [],
      unprintable: []
    })
  }, 120_000)

  it("describes every tag", () => {
    const used = new Set(operations().flatMap((o) => o.op.tags))
    for (const tag of doc.tags) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(20)
    for (const name of used)
      expect(
        doc.tags.map((t: any) => t.name),
        String(name)
      ).toContain(name)
  })

  it("has the event catalogue: every event type, its data as a component, as a webhook", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort())
    for (const type of EVENT_TYPES) {
      const ref: string = doc.webhooks[type].post.requestBody.content["application/json"].schema.$ref
      const schema = resolve({ $ref: ref })
      expect(schema.properties.type.enum, type).toEqual([type])
      expect(schema.required, type).toEqual(expect.arrayContaining(["id", "type", "created_at", "data"]))
      expect(schema.description, type).toMatch(/\w/)
    }
    expect(JSON.stringify(doc.components.schemas.BookingCalledOffEvent)).toContain('"room"')
    expect(doc.components.schemas.WaitlistLeftEvent.properties.data.properties.reason.enum).toContain("called_off")
  })
})

describe("the event catalogue", () => {
  it("decodes the events the engine writes, each with its type's entry", async () => {
    const org = await app.newOrg()
    const call = (method: string, path: string, body?: unknown) => app.call(org.key, method, `/api/v1${path}`, body)
    const ok = async (pending: Promise<{ status: number; body: any }>) => {
      const res = await pending
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    await ok(call("PATCH", "/org", { name: "Harbour" }))
    await ok(call("PUT", "/waiver", { text: "At your own risk" }))
    const board = await ok(call("POST", "/offerings", { name: "Board", kind: "rental", price_cents: 0 }))
    await ok(call("PATCH", `/offerings/${board.id}`, { capacity: 3 }))
    await ok(
      call("PUT", `/offerings/${board.id}/hours`, {
        hours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: "09:00", end_time: "17:00" }))
      })
    )
    const slots = (await ok(call("GET", `/offerings/${board.id}/availability`))).data
    const customer = await ok(call("POST", "/customers", { email: "ada@example.com", name: "Ada" }))
    const booking = await ok(
      call("POST", "/bookings", {
        offering_id: board.id,
        starts_at: slots[0].starts_at,
        customer: { email: "ada@example.com", name: "Ada" }
      })
    )
    for (const attendance of ["checked_in", "clear"])
      await ok(call("POST", `/bookings/${booking.id}/attendance`, { attendance }))
    await ok(call("POST", `/bookings/${booking.id}/mark_paid`, {}))
    await ok(call("POST", `/bookings/${booking.id}/mark_unpaid`))
    await ok(call("POST", `/bookings/${booking.id}/move`, { starts_at: slots[1].starts_at }))
    await ok(call("POST", `/bookings/${booking.id}/cancel`, {}))
    const yoga = await ok(call("POST", "/offerings", { name: "Yoga", kind: "class", waitlist_enabled: true }))
    await ok(
      call("POST", "/series", {
        offering_id: yoga.id,
        starts_on: slots[0].starts_at.slice(0, 10),
        start_time: "07:00",
        end_time: "08:00",
        repeat: "weekly",
        ends_on: slots[0].starts_at.slice(0, 10)
      })
    )
    const [session] = (await ok(call("POST", "/sessions", { offering_id: yoga.id, starts_at: slots[2].starts_at })))
      .data
    // Moving a time nobody booked writes no event beyond the spec's table (its own session.updated once did).
    await ok(call("PATCH", `/sessions/${session.id}`, { teacher: null }))
    const [full] = (
      await ok(call("POST", "/sessions", { offering_id: yoga.id, starts_at: slots[3].starts_at, capacity: 1 }))
    ).data
    const seat = { offering_id: yoga.id, session_id: full.id, starts_at: full.starts_at }
    await ok(call("POST", "/bookings", { ...seat, customer: { email: "ada@example.com", name: "Ada" } }))
    await ok(call("POST", "/waitlist", { session_id: full.id, customer: { email: "bo@example.com", name: "Bo" } }))
    await ok(call("POST", `/sessions/${full.id}/cancel`, {}))
    await ok(call("POST", `/sessions/${session.id}/cancel`, {}))
    const promo = await ok(call("POST", "/promo_codes", { code: "TEN", percent_off: 10 }))
    await ok(call("PATCH", `/promo_codes/${promo.id}`, { active: false }))
    await ok(call("DELETE", `/promo_codes/${promo.id}`))
    const card = await ok(call("POST", "/gift_cards", { amount_cents: 5000, for_email: "ada@example.com" }))
    await ok(call("POST", `/gift_cards/${card.id}/adjust`, { cents: -100, note: "fix" }))
    const invite = await ok(call("POST", "/team/invites", { email: "sam@example.com", role: "staff" }))
    await ok(call("DELETE", `/team/invites/${invite.id}`))
    await ok(call("POST", "/customers/import", { csv: "email,name\ngrace@example.com,Grace\n" }))
    await ok(call("DELETE", `/customers/${customer.id}`))
    await ok(call("DELETE", `/offerings/${board.id}`))

    const schemas = new Map(
      EVENT_TYPES.map((type, i) => [
        type as string,
        Schema.decodeUnknownEither(eventSchemas[i] as unknown as Schema.Schema<unknown>)
      ])
    )
    const events = await allEvents(app, org.key)
    const failures: Array<string> = []
    for (const event of events) {
      const decode = schemas.get(event.type)
      if (decode === undefined) {
        failures.push(`${event.type}: not in the event catalogue (engine/schema/webhook.ts)`)
        continue
      }
      const decoded = decode(event)
      if (Either.isLeft(decoded)) failures.push(`${event.type}: ${String(decoded.left).slice(0, 400)}`)
    }
    expect(failures).toEqual([])
    expect(new Set(events.map((e) => e.type)).size).toBeGreaterThan(24)
  }, 60_000)
})

describe("/docs", () => {
  it("answers a rendered reference that loads the local Scalar bundle and this document", async () => {
    const res = await fetch(`${app.url}/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await res.text()
    // Relative to the page, so that under a prefix they are the prefix's (embed.test.ts mounts it under /booking).
    expect(html).toContain(`<script src="docs/scalar.js"></script>`)
    expect(html).toContain(`url: "api/v1/openapi.json"`)
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)/)
  })

  it("serves the bundle from node_modules with a JS type and cache headers, and 304 on its ETag", async () => {
    const res = await fetch(`${app.url}/docs/scalar.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/)
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/)
    const body = await res.text()
    expect(body.length).toBeGreaterThan(100_000)
    expect(body).toContain("createApiReference")
    const etag = res.headers.get("etag")!
    const again = await fetch(`${app.url}/docs/scalar.js`, { headers: { "if-none-match": etag } })
    expect(again.status).toBe(304)
  })
})
