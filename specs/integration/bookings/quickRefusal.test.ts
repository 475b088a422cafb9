import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { QuickRefusals } from "../../../transports/http/quick.ts"
import { startApp } from "../../support/app.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, guest, ok, PIN, type TestApp } from "./helpers.ts"

// A booking of a time the instance knows is full is refused without a fiber per guest (transports/http/quick.ts). The
// same requests sent to an app that answers them so and to one that serves every request on the dispatcher's own path
// must be answered the same, byte for byte: status, headers (the date aside) and body.

const SHOP = "https://shop.example.com"

interface Side {
  readonly app: TestApp
  readonly org: BookingsOrg
  readonly pk: string
  readonly offering: string
  readonly other: string
  readonly session: string
  readonly refused: Array<string>
}

const side = async (quick: boolean): Promise<Side> => {
  const refused: Array<string> = []
  const app = await startApp(
    {},
    { with: Layer.succeed(QuickRefusals, { enabled: quick, refused: (op) => void refused.push(op) }) }
  )
  await advanceTo(app, PIN)
  const org = await bookingsOrg(app)
  const pk = (
    ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable", name: "site" }), 201) as {
      key: string
    }
  ).key
  ok(await org.call("PATCH", "/org", { allowed_origins: [SHOP] }))
  const { offering, session } = await org.classWithSession({ capacity: 2, max_per_booking: 3 })
  const other = (await org.classWithSession({ capacity: 5 })).offering
  for (const n of [1, 2])
    ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(n) }), 201)
  // The first guest refused reads the time's places: the gate knows it full from here on.
  expect((await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(3) })).status).toBe(409)
  return { app, org, pk, offering: offering.id, other: other.id, session: session.id, refused }
}

/** One request as a client sends it: which key, where, which body (text as is), which headers. */
interface Ask {
  readonly name: string
  readonly key: "secret" | "publishable" | "unknown" | "none"
  readonly path: string
  readonly body: (s: Side) => unknown
  readonly headers?: Record<string, string>
  /** Whether the app that refuses at once answers it so. */
  readonly quick?: boolean
}

const time = (s: Side) => ({ offering_id: s.offering, session_id: s.session })
const REST = "/api/v1/bookings"
const PUBLIC = "/api/v1/public/bookings"

const asks: ReadonlyArray<Ask> = [
  { name: "a full time", key: "secret", path: REST, body: (s) => ({ ...time(s), customer: guest(10) }), quick: true },
  {
    name: "a full time, three places",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), quantity: 3, customer: guest(11) }),
    quick: true
  },
  {
    name: "a full time, more than one booking takes",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), quantity: 4, customer: guest(12) })
  },
  {
    name: "an answer to no question",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), answers: { nope: "x" }, customer: guest(13) })
  },
  {
    name: "payment free with a promo code",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), payment: "free", promo_code: "SUMMER", customer: guest(14) })
  },
  {
    name: "payment free",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), payment: "free", customer: guest(15) }),
    quick: true
  },
  {
    name: "a promo code",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), promo_code: "X", customer: guest(16) })
  },
  {
    name: "an Idempotency-Key",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), customer: guest(17) }),
    headers: { "idempotency-key": "same-key-1" }
  },
  {
    name: "the same Idempotency-Key again",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), customer: guest(17) }),
    headers: { "idempotency-key": "same-key-1" }
  },
  { name: "no customer", key: "secret", path: REST, body: (s) => time(s) },
  {
    name: "a bad email",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), customer: { email: "nope", name: "N" } })
  },
  { name: "not JSON", key: "secret", path: REST, body: () => '{"offering_id": ' },
  {
    name: "an unknown field",
    key: "secret",
    path: REST,
    body: (s) => ({ ...time(s), seat: "A1", customer: guest(18) })
  },
  {
    name: "another offering's time",
    key: "secret",
    path: REST,
    body: (s) => ({ offering_id: s.other, session_id: s.session, customer: guest(19) })
  },
  {
    name: "a publishable key on REST",
    key: "publishable",
    path: REST,
    body: (s) => ({ ...time(s), customer: guest(20) })
  },
  { name: "an unknown key", key: "unknown", path: REST, body: (s) => ({ ...time(s), customer: guest(21) }) },
  { name: "no key", key: "none", path: REST, body: (s) => ({ ...time(s), customer: guest(22) }) },
  {
    name: "a query string",
    key: "secret",
    path: `${REST}?x=1`,
    body: (s) => ({ ...time(s), customer: guest(23) })
  },
  {
    name: "public, no origin",
    key: "publishable",
    path: PUBLIC,
    body: (s) => ({ ...time(s), customer: guest(30) }),
    quick: true
  },
  {
    name: "public, the shop's origin",
    key: "publishable",
    path: PUBLIC,
    body: (s) => ({ ...time(s), customer: guest(31) }),
    headers: { origin: SHOP },
    quick: true
  },
  {
    name: "public, another origin",
    key: "publishable",
    path: PUBLIC,
    body: (s) => ({ ...time(s), customer: guest(32) }),
    headers: { origin: "https://elsewhere.example.com" }
  },
  {
    name: "public, a secret key",
    key: "secret",
    path: PUBLIC,
    body: (s) => ({ ...time(s), customer: guest(33) }),
    quick: true
  },
  {
    name: "public, a payment (REST's only)",
    key: "publishable",
    path: PUBLIC,
    body: (s) => ({ ...time(s), payment: "free", customer: guest(34) })
  }
]

const send = async (s: Side, ask: Ask, i: number) => {
  const key = { secret: s.org.key, publishable: s.pk, unknown: "bk_live_nothing", none: undefined }[ask.key]
  const body = ask.body(s)
  const res = await fetch(`${s.app.url}${ask.path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "request-id": `req_same_${i}`,
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...ask.headers
    },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
  const headers: Array<[string, string]> = []
  res.headers.forEach((v, k) => {
    if (k !== "date") headers.push([k, v])
  })
  return { name: ask.name, status: res.status, headers, body: await res.text() }
}

let quick: Side
let full: Side
beforeAll(async () => {
  quick = await side(true)
  full = await side(false)
})
afterAll(async () => {
  await quick?.app.close()
  await full?.app.close()
})

describe.sequential("refusals of a full time answered at once", () => {
  it("answer every request as the dispatcher's own path does, byte for byte, and only a full time's refusals so", async () => {
    const atOnce: Array<string> = []
    for (const [i, ask] of asks.entries()) {
      const before = quick.refused.length
      const fast = await send(quick, ask, i)
      const slow = await send(full, ask, i)
      expect(fast).toEqual(slow)
      if (quick.refused.length > before) atOnce.push(ask.name)
      const soldOut = fast.status === 409 && JSON.parse(fast.body).error.code === "sold_out"
      // Only a full time's refusal is ever answered at once; the plain ones always are.
      if (!soldOut) expect(atOnce).not.toContain(ask.name)
      if (ask.quick)
        expect({ name: ask.name, soldOut, atOnce: atOnce.includes(ask.name) }).toEqual({
          name: ask.name,
          soldOut: true,
          atOnce: true
        })
    }
    expect(full.refused).toEqual([])
  })

  it("a crowd at the full time gets the same answers from both, and a cancel's place goes to the next guest", async () => {
    const crowd = (s: Side, tag: string) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          send(
            s,
            {
              name: `${tag}-${i}`,
              key: "secret",
              path: REST,
              body: (x) => ({ ...time(x), customer: guest(`${tag}-${i}`) })
            },
            1000 + i
          )
        )
      )
    const before = quick.refused.length
    expect(await crowd(quick, "crowd")).toEqual(await crowd(full, "crowd"))
    expect(quick.refused.length - before).toBe(40)
    for (const s of [quick, full]) {
      const first = (
        ok(await s.org.call("GET", `/bookings?session_id=${s.session}`)) as { data: Array<{ id: string }> }
      ).data[0]
      ok(await s.org.act(first.id, "cancel"))
    }
    const next = async (s: Side) => (await s.org.book({ ...time(s), customer: guest("after") })).status
    expect(await next(quick)).toBe(201)
    expect(await next(full)).toBe(201)
  })
})
