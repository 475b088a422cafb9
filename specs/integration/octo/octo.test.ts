import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { expectOcto, expectOctoError, octoClient, octoOk, OctoSchemas as S } from "../../support/octo.ts"
import { type BookingsOrg, bookingsOrg, clockNow, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let rk: string
let octo: ReturnType<typeof octoClient>
let priced: ReturnType<typeof octoClient>
/** A class of 3 seats with one session two days ahead (12:00 UTC), and its OCTO availability id. */
let tour: { id: string; session: string; at: string }

const availabilityId = (iso: string) => iso.replace(/\.000Z$/, "+00:00")
/** Reservation uuids (OCTO has them UUIDs), one per use, named for it. */
const U = Object.fromEntries(
  [
    "theirs",
    "kayak1",
    "kayak2",
    "cut1",
    "cut2",
    "flow",
    "retry1",
    "retry2",
    "big",
    "full1",
    "full2",
    "exp1",
    "exp2",
    "patch",
    "text"
  ].map((name, i) => [name, `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`])
) as Record<string, string>
const vacancies = async (productId: string, id: string) => {
  const found = octoOk(
    S.Availability,
    await octo("POST", "/availability", { productId, optionId: "DEFAULT", availabilityIds: [id] })
  )
  return found[0]?.vacancies ?? 0
}
const reservation = () => ({
  productId: tour.id,
  optionId: "DEFAULT",
  availabilityId: tour.at,
  unitItems: [{ unitId: "adult" }]
})
const reserve = (body: Record<string, unknown>) => octo("POST", "/bookings", { ...reservation(), ...body })

beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  const made = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "reseller", name: "Viator" }), 201)
  expect(made).toMatchObject({ kind: "reseller" })
  expect(made.key).toMatch(/^rk_live_/)
  rk = made.key
  octo = octoClient(app, rk)
  priced = octoClient(app, rk, "octo/pricing, octo/content")
  const { offering, session } = await org.classWithSession({ name: "Canal tour", capacity: 3, price_cents: 1500 })
  tour = { id: offering.id, session: session.id, at: availabilityId(session.starts_at) }
})
afterAll(() => app.close())

describe("OCTO: keys and errors", () => {
  it("takes only reseller keys; a reseller key reaches nothing else", async () => {
    expectOctoError(await app.call(null, "GET", "/api/octo/products"), 401, "UNAUTHORIZED")
    expectOctoError(await app.call("rk_live_unknown", "GET", "/api/octo/products"), 401, "UNAUTHORIZED")
    expectOctoError(await app.call(org.key, "GET", "/api/octo/products"), 403, "FORBIDDEN")
    const pk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "publishable" }), 201).key
    expectOctoError(await app.call(pk, "GET", "/api/octo/supplier"), 403, "FORBIDDEN")
    expect((await app.call(rk, "GET", "/api/v1/offerings")).status).toBe(401)
    expect((await app.call(rk, "GET", `/api/v1/public/offerings`)).status).toBe(401)
    const mcp = await fetch(`${app.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${rk}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    expect(mcp.status).toBe(401)
    const listed = ok(await app.admin("GET", `/orgs/${org.id}/api_keys`)).data
    expect(listed.map((k: { kind: string }) => k.kind)).toContain("reseller")

    const spare = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "reseller" }), 201)
    octoOk(S.Supplier, await app.call(spare.key, "GET", "/api/octo/supplier"))
    ok(await app.admin("DELETE", `/api_keys/${spare.id}`))
    expectOctoError(await app.call(spare.key, "GET", "/api/octo/supplier"), 401, "UNAUTHORIZED")
  })

  it("answers caller mistakes with OCTO's codes, never a 500", async () => {
    const other = await bookingsOrg(app)
    const theirs = await other.classWithSession({ name: "Not yours" })
    const body = expectOctoError(await octo("GET", `/products/${theirs.offering.id}`), 400, "INVALID_PRODUCT_ID")
    expect(body.productId).toBe(theirs.offering.id)
    expectOctoError(await octo("GET", "/products/not-a-uuid"), 400, "INVALID_PRODUCT_ID")
    expectOctoError(
      await octo("POST", "/availability", {
        productId: theirs.offering.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-02",
        localDateEnd: "2040-01-05"
      }),
      400,
      "INVALID_PRODUCT_ID"
    )
    expectOctoError(
      await reserve({
        productId: theirs.offering.id,
        availabilityId: availabilityId(theirs.session.starts_at),
        uuid: U.theirs
      }),
      400,
      "INVALID_PRODUCT_ID"
    )
    expectOctoError(await reserve({ optionId: "VIP" }), 400, "INVALID_OPTION_ID")
    expectOctoError(await reserve({ unitItems: [{ unitId: "child" }] }), 400, "INVALID_UNIT_ID")
    expectOctoError(await reserve({ availabilityId: "2040-01-04T13:17:00+00:00" }), 400, "INVALID_AVAILABILITY_ID")
    expectOctoError(await reserve({ availabilityId: "tomorrow" }), 400, "INVALID_AVAILABILITY_ID")
    expectOctoError(await octo("GET", "/bookings/no-such-uuid"), 400, "INVALID_BOOKING_UUID")
    expectOctoError(await octo("POST", "/bookings/no-such-uuid/confirm", { contact: {} }), 400, "INVALID_BOOKING_UUID")
    expectOctoError(await octo("POST", "/bookings", "{not json"), 400, "BAD_REQUEST")
    expectOctoError(await octo("POST", "/bookings", { optionId: "DEFAULT" }), 400, "BAD_REQUEST")
    expectOctoError(await reserve({ unitItems: [] }), 400, "BAD_REQUEST")
    expectOctoError(await reserve({ expirationMinutes: 0 }), 400, "BAD_REQUEST")
    expectOctoError(
      await octo("POST", "/availability/calendar", {
        productId: tour.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-05",
        localDateEnd: "2040-01-02"
      }),
      400,
      "BAD_REQUEST"
    )
    expectOctoError(await octo("GET", "/bookings"), 400, "BAD_REQUEST")
    expect((await octo("GET", "/nothing-here")).status).toBe(404)
    expect((await octo("DELETE", "/products")).status).toBe(405)
  })

  it("takes only UUIDs as reservation uuids (as OCTO has them), kept as sent: two uuids are two bookings, never one", async () => {
    for (const uuid of [
      "retry-1",
      "",
      "x".repeat(36),
      "00000000-0000-4000-8000-00000000000",
      "00000000-0000-4000-8000-000000000000 "
    ]) {
      const body = expectOctoError(await reserve({ uuid }), 400, "BAD_REQUEST")
      expect(body.errorMessage).toMatch(/^uuid: must be a UUID/)
    }
    expectOctoError(
      await reserve({ uuid: U.text, unitItems: [{ unitId: "adult", uuid: "seat-1" }] }),
      400,
      "BAD_REQUEST"
    )
    // Two uuids apart only by a lone surrogate were one booking (the database stores each as U+FFFD): both are refused.
    for (const half of ["\\ud800", "\\ud801", "\\udfff"]) {
      const text = JSON.stringify({
        productId: tour.id,
        optionId: "DEFAULT",
        availabilityId: tour.at,
        unitItems: [{ unitId: "adult" }]
      }).replace(/}$/, `,"uuid":"s${half}"}`)
      expectOctoError(await octo("POST", "/bookings", text), 400, "BAD_REQUEST")
    }
    expect(
      await sql(
        app,
        (s) => s<{ n: number }>`select count(*)::int as n from bookings where octo_uuid not like '%-%-%-%-%'`
      )
    ).toEqual([{ n: 0 }])
    // A uuid is kept exactly as sent: another spelling is another booking.
    const mixed = "abcdef00-0000-4000-8000-0000000000ff"
    const lower = octoOk(S.Booking, await reserve({ uuid: mixed }))
    const upper = octoOk(S.Booking, await reserve({ uuid: mixed.toUpperCase() }))
    expect([lower.uuid, upper.uuid]).toEqual([mixed, mixed.toUpperCase()])
    expect(upper.id).not.toBe(lower.id)
    for (const b of [lower, upper]) ok(await octo("POST", `/bookings/${b.uuid}/cancel`, {}))
  })

  it("refuses what is not text (NUL, lone surrogates, %-encoding that is not UTF-8) in the body, query and path with BAD_REQUEST, never a 500", async () => {
    const before = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from bookings where org_id = ${org.id}`
    )
    const cases: Array<[string, string, unknown, RegExp]> = [
      ["POST", "/bookings", { ...reservation(), notes: "a\u0000b" }, /^notes: must not contain NUL/],
      [
        "POST",
        "/bookings",
        { ...reservation(), resellerReference: "a\u0000b" },
        /^resellerReference: must not contain NUL/
      ],
      ["POST", "/bookings", { ...reservation(), uuid: "a\u0000b" }, /^uuid: must not contain NUL/],
      [
        "POST",
        "/bookings",
        { ...reservation(), contact: { fullName: "a\u0000b" } },
        /^contact\.fullName: must not contain NUL/
      ],
      [
        "POST",
        "/bookings",
        { ...reservation(), unitItems: [{ unitId: "adult", resellerReference: "\ud83d" }] },
        /^unitItems\[0\]\.resellerReference: must be valid Unicode/
      ],
      ["POST", "/bookings", { ...reservation(), "k\u0000": 1 }, /must not contain NUL/],
      ["POST", "/availability", { productId: "a\u0000", optionId: "DEFAULT" }, /^productId: must not contain NUL/],
      ["GET", "/bookings?resellerReference=a%00b", undefined, /^resellerReference: must not contain NUL/],
      ["GET", "/bookings?resellerReference=%ED%A0%80", undefined, /^resellerReference: must be valid Unicode/],
      ["GET", "/bookings?resellerReference=%E0%A4%A", undefined, /^resellerReference: must be valid Unicode/],
      ["GET", "/bookings/%E0%A4%A", undefined, /^uuid \(in the path\): must be valid UTF-8/],
      ["GET", "/bookings/%00", undefined, /^uuid \(in the path\): must not contain NUL/],
      ["POST", "/bookings/%ED%A0%80/cancel", {}, /^uuid \(in the path\): must be valid UTF-8/],
      ["GET", "/products/%E0%A4%A", undefined, /^productId \(in the path\): must be valid UTF-8/],
      ["GET", "/products/a%00", undefined, /^productId \(in the path\): must not contain NUL/]
    ]
    for (const [method, path, body, message] of cases) {
      const res = await octo(method, path, body)
      expect({ path, status: res.status, error: res.body?.error }).toEqual({ path, status: 400, error: "BAD_REQUEST" })
      expect(res.body.errorMessage).toMatch(message)
    }
    // A reason that is not text leaves the booking as it was; bytes that are not UTF-8 are refused too.
    const held = octoOk(S.Booking, await reserve({ uuid: U.text }))
    expectOctoError(await octo("POST", `/bookings/${U.text}/cancel`, { reason: "ill\u0000" }), 400, "BAD_REQUEST")
    expectOctoError(await octo("PATCH", `/bookings/${U.text}`, { notes: "\udc00" }), 400, "BAD_REQUEST")
    expect(octoOk(S.Booking, await octo("GET", `/bookings/${U.text}`))).toMatchObject({
      status: "ON_HOLD",
      notes: null
    })
    const latin1 = await fetch(`${app.url}/api/octo/bookings/${U.text}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${rk}`, "content-type": "application/json" },
      body: Buffer.from([0x7b, 0x22, 0x72, 0x65, 0x61, 0x73, 0x6f, 0x6e, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d])
    })
    expect([latin1.status, (await latin1.json()).error]).toEqual([400, "BAD_REQUEST"])
    ok(await octo("POST", `/bookings/${held.uuid}/cancel`, {}))
    const after = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from bookings where org_id = ${org.id}`
    )
    expect(after[0].n).toBe(before[0].n + 1)
  })
})

describe("OCTO: supplier, products, availability", () => {
  it("lists active offerings as products with one option and one unit, and echoes the capabilities it has", async () => {
    const supplier = octoOk(S.Supplier, await octo("GET", "/supplier"))
    expect(supplier.id).toBe(org.id)
    const plain = await octo("GET", "/products")
    expect(plain.headers.get("octo-capabilities")).toBe("")
    const products = octoOk(S.Products, plain)
    const p = products.find((x) => x.id === tour.id)!
    expect(p).toMatchObject({
      internalName: "Canal tour",
      availabilityType: "START_TIME",
      timeZone: "UTC",
      instantConfirmation: true
    })
    expect(p.options).toHaveLength(1)
    expect(p.options[0]).toMatchObject({
      id: "DEFAULT",
      default: true,
      availabilityLocalStartTimes: [tour.at.slice(11, 16)]
    })
    expect(p.options[0].units.map((u) => [u.id, u.type])).toEqual([["adult", "ADULT"]])
    expect(p.options[0].pricingFrom).toBeUndefined()

    const withPricing = await priced("GET", `/products/${tour.id}`)
    expect(withPricing.headers.get("octo-capabilities")).toBe("octo/pricing")
    const one = octoOk(S.Product, withPricing)
    expect(one.options[0].units[0].pricingFrom).toEqual([
      { original: 1500, retail: 1500, net: null, currency: "EUR", currencyPrecision: 2, includedTaxes: [] }
    ])

    const paused = await org.classWithSession({ name: "Paused" })
    ok(await org.call("PATCH", `/offerings/${paused.offering.id}`, { active: false }))
    expect(octoOk(S.Products, await octo("GET", "/products")).map((x) => x.id)).not.toContain(paused.offering.id)
    expectOctoError(await octo("GET", `/products/${paused.offering.id}`), 400, "INVALID_PRODUCT_ID")
  })

  it("gives times as availability and days as a calendar; rentals as opening hours", async () => {
    const times = octoOk(
      S.Availability,
      await priced("POST", "/availability", {
        productId: tour.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-02",
        localDateEnd: "2040-01-06"
      })
    )
    expect(times).toHaveLength(1)
    expect(times[0]).toMatchObject({
      id: tour.at,
      localDateTimeStart: tour.at,
      status: "AVAILABLE",
      vacancies: 3,
      capacity: 3,
      available: true,
      openingHours: []
    })
    expect(times[0].pricing?.retail).toBe(1500)
    const calendar = octoOk(
      S.Calendar,
      await octo("POST", "/availability/calendar", {
        productId: tour.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-03",
        localDateEnd: "2040-01-05"
      })
    )
    expect(calendar.map((d) => [d.localDate, d.status, d.vacancies])).toEqual([
      ["2040-01-03", "CLOSED", 0],
      ["2040-01-04", "AVAILABLE", 3],
      ["2040-01-05", "CLOSED", 0]
    ])
    // Asking for more units than a time has left leaves it out.
    expect(
      octoOk(
        S.Availability,
        await octo("POST", "/availability", {
          productId: tour.id,
          optionId: "DEFAULT",
          availabilityIds: [tour.at],
          units: [{ id: "adult", quantity: 4 }]
        })
      )
    ).toEqual([])

    const kayak = await org.offering({
      name: "Kayak",
      kind: "rental",
      capacity: 2,
      max_per_booking: 2,
      duration_minutes: 120,
      price_cents: 2000
    })
    const product = octoOk(S.Product, await octo("GET", `/products/${kayak.id}`))
    expect(product.availabilityType).toBe("OPENING_HOURS")
    const slots = octoOk(
      S.Availability,
      await octo("POST", "/availability", {
        productId: kayak.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-04",
        localDateEnd: "2040-01-04"
      })
    )
    expect(slots.length).toBeGreaterThan(0)
    expect(slots[0]).toMatchObject({
      localDateTimeStart: "2040-01-04T09:00:00+00:00",
      openingHours: [{ from: "09:00", to: "17:00" }],
      vacancies: 2
    })
    const rented = octoOk(
      S.Booking,
      await octo("POST", "/bookings", {
        uuid: U.kayak1,
        productId: kayak.id,
        optionId: "DEFAULT",
        availabilityId: slots[0].id,
        unitItems: [{ unitId: "adult" }, { unitId: "adult" }]
      })
    )
    expect(rented).toMatchObject({ status: "ON_HOLD", availabilityId: "2040-01-04T09:00:00+00:00" })
    expect(rented.unitItems).toHaveLength(2)
    const after = octoOk(
      S.Availability,
      await octo("POST", "/availability", {
        productId: kayak.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-04",
        localDateEnd: "2040-01-04"
      })
    )
    expect(after.find((s) => s.id === slots[0].id)).toBeUndefined()
    expectOctoError(
      await octo("POST", "/bookings", {
        uuid: U.kayak2,
        productId: kayak.id,
        optionId: "DEFAULT",
        availabilityId: slots[0].id,
        unitItems: [{ unitId: "adult" }]
      }),
      400,
      "UNPROCESSABLE_ENTITY"
    )
    ok(await octo("POST", `/bookings/${U.kayak1}/cancel`, {}))

    // An appointment on weekly hours: start times; a party of several takes one place, priced per person.
    const cut = await org.offering({
      name: "Haircut",
      kind: "appointment",
      duration_minutes: 30,
      capacity: 1,
      max_per_booking: 3,
      price_cents: 3000,
      guest_price_cents: 1000
    })
    ok(await org.call("PATCH", `/offerings/${cut.id}`, { schedule: "hours" }))
    expect(octoOk(S.Product, await octo("GET", `/products/${cut.id}`)).availabilityType).toBe("START_TIME")
    const cal = octoOk(
      S.Calendar,
      await priced("POST", "/availability/calendar", {
        productId: cut.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-04",
        localDateEnd: "2040-01-04"
      })
    )
    expect(cal[0]).toMatchObject({ status: "AVAILABLE", openingHours: [], pricingFrom: { retail: 3000 } })
    const hours = octoOk(
      S.Availability,
      await octo("POST", "/availability", {
        productId: cut.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-04",
        localDateEnd: "2040-01-04"
      })
    )
    expect(hours[0]).toMatchObject({
      localDateTimeStart: "2040-01-04T09:00:00+00:00",
      localDateTimeEnd: "2040-01-04T09:30:00+00:00",
      vacancies: 1
    })
    const party = octoOk(
      S.Booking,
      await priced("POST", "/bookings", {
        uuid: U.cut1,
        productId: cut.id,
        optionId: "DEFAULT",
        availabilityId: hours[0].id,
        unitItems: [{ unitId: "adult" }, { unitId: "adult" }, { unitId: "adult" }]
      })
    )
    expect(party.unitItems.map((u) => u.pricing?.retail)).toEqual([3000, 1000, 1000])
    expect(party.pricing?.retail).toBe(5000)
    expectOctoError(
      await octo("POST", "/bookings", {
        uuid: U.cut2,
        productId: cut.id,
        optionId: "DEFAULT",
        availabilityId: hours[0].id,
        unitItems: [{ unitId: "adult" }]
      }),
      400,
      "UNPROCESSABLE_ENTITY"
    )
    ok(await octo("POST", `/bookings/${U.cut1}/cancel`, {}))
  })
})

describe("OCTO: bookings", () => {
  it("reserve -> confirm -> get -> list -> cancel, with source octo, references, the reason, and no mail to the guest", async () => {
    const now = await clockNow(app)
    const held = octoOk(
      S.Booking,
      await priced("POST", "/bookings", {
        uuid: U.flow,
        productId: tour.id,
        optionId: "DEFAULT",
        availabilityId: tour.at,
        resellerReference: "VIA-100",
        notes: "window seats",
        unitItems: [
          { unitId: "adult", resellerReference: "T-1" },
          { unitId: "adult", resellerReference: "T-2" }
        ]
      })
    )
    expect(held).toMatchObject({
      uuid: U.flow,
      status: "ON_HOLD",
      resellerReference: "VIA-100",
      productId: tour.id,
      optionId: "DEFAULT",
      availabilityId: tour.at,
      notes: "window seats",
      voucher: null
    })
    expect(Date.parse(held.utcExpiresAt!)).toBe(now.getTime() - (now.getTime() % 1000) + 30 * 60_000)
    expect(held.unitItems.map((u) => [u.resellerReference, u.status, u.pricing?.retail])).toEqual([
      ["T-1", "ON_HOLD", 1500],
      ["T-2", "ON_HOLD", 1500]
    ])
    expect(held.pricing).toMatchObject({ retail: 3000, currency: "EUR" })
    expect(held.availability).toMatchObject({ id: tour.at, vacancies: 1 })
    expect(await vacancies(tour.id, tour.at)).toBe(1)

    const confirmed = octoOk(
      S.Booking,
      await octo("POST", `/bookings/${U.flow}/confirm`, {
        contact: {
          firstName: "Ann",
          lastName: "Lee",
          emailAddress: "Ann@Example.com",
          country: "nl",
          locales: ["en-GB"]
        },
        unitItems: [{ unitId: "adult" }, { unitId: "adult" }]
      })
    )
    expect(confirmed).toMatchObject({
      status: "CONFIRMED",
      utcExpiresAt: null,
      contact: { fullName: "Ann Lee", emailAddress: "ann@example.com", country: "NL", locales: ["en-GB"] }
    })
    expect(confirmed.voucher?.deliveryOptions[0]).toEqual({
      deliveryFormat: "QRCODE",
      deliveryValue: confirmed.supplierReference
    })
    expect(confirmed.unitItems.map((u) => u.resellerReference)).toEqual(["T-1", "T-2"])
    expect(confirmed.unitItems.map((u) => u.uuid)).toEqual(held.unitItems.map((u) => u.uuid))
    // Confirming again changes nothing.
    expect(octoOk(S.Booking, await octo("POST", `/bookings/${U.flow}/confirm`, { contact: {} })).status).toBe(
      "CONFIRMED"
    )

    const got = octoOk(S.Booking, await octo("GET", `/bookings/${U.flow}`))
    expect(got).toMatchObject({
      id: held.id,
      status: "CONFIRMED",
      supplierReference: held.supplierReference,
      cancellable: true
    })
    expect(got.pricing).toBeUndefined()
    for (const q of [
      "resellerReference=VIA-100",
      `supplierReference=${held.supplierReference}`,
      "localDateStart=2040-01-04&localDateEnd=2040-01-04"
    ]) {
      expect(octoOk(S.Bookings, await octo("GET", `/bookings?${q}`)).map((b) => b.uuid)).toContain(U.flow)
    }
    expect(
      octoOk(S.Bookings, await octo("GET", "/bookings?localDateStart=2040-01-05&localDateEnd=2040-01-09"))
    ).toEqual([])

    const [row] = await sql(
      app,
      (s) => s<{ source: string; reseller_reference: string; email: string; status: string }>`
      select b.source, b.reseller_reference, c.email, b.status from bookings b join customers c on c.id = b.customer_id where b.id = ${held.id}`
    )
    expect(row).toEqual({
      source: "octo",
      reseller_reference: "VIA-100",
      email: "ann@example.com",
      status: "confirmed"
    })
    const rest = ok(await org.call("GET", `/bookings/${held.id}`))
    expect(rest).toMatchObject({ source: "octo", reseller_reference: "VIA-100", status: "confirmed", quantity: 2 })

    const cancelled = octoOk(S.Booking, await octo("POST", `/bookings/${U.flow}/cancel`, { reason: "guest ill" }))
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      cancellable: false,
      cancellation: { reason: "guest ill", refund: "FULL" }
    })
    expect(
      (await sql(app, (s) => s<{ cancel_reason: string }>`select cancel_reason from bookings where id = ${held.id}`))[0]
        .cancel_reason
    ).toBe("guest ill")
    expect(await vacancies(tour.id, tour.at)).toBe(3)
    expect(octoOk(S.Booking, await octo("POST", `/bookings/${U.flow}/cancel`, {})).status).toBe("CANCELLED")
    expectOctoError(await octo("POST", `/bookings/${U.flow}/confirm`, { contact: {} }), 400, "UNPROCESSABLE_ENTITY")
    const mails = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from mail_outbox where booking_id = ${held.id}`
    )
    expect(mails[0].n).toBe(0)
    const events = await sql(
      app,
      (s) => s<{ type: string }>`select type from events where data->>'id' = ${held.id} order by id`
    )
    expect(events.map((e) => e.type)).toEqual(["booking.held", "booking.confirmed", "booking.cancelled"])
  })

  it("a retried reservation with the same uuid answers the same booking and takes no second place", async () => {
    const first = octoOk(S.Booking, await reserve({ uuid: U.retry1, resellerReference: "VIA-200" }))
    const again = octoOk(S.Booking, await reserve({ uuid: U.retry1, resellerReference: "VIA-200" }))
    expect(again.id).toBe(first.id)
    expect(again.unitItems.map((u) => u.uuid)).toEqual(first.unitItems.map((u) => u.uuid))
    const raced = await Promise.all([reserve({ uuid: U.retry2 }), reserve({ uuid: U.retry2 })])
    expect(raced.map((r) => r.status)).toEqual([200, 200])
    expect(raced[0].body.id).toBe(raced[1].body.id)
    const rows = await sql(
      app,
      (s) => s<{ octo_uuid: string; n: number }>`
      select octo_uuid, count(*)::int as n from bookings where octo_uuid in (${U.retry1}, ${U.retry2}) group by octo_uuid order by octo_uuid`
    )
    expect(rows).toEqual([
      { octo_uuid: U.retry1, n: 1 },
      { octo_uuid: U.retry2, n: 1 }
    ])
    expect(await vacancies(tour.id, tour.at)).toBe(1)
    for (const uuid of [U.retry1, U.retry2]) ok(await octo("POST", `/bookings/${uuid}/cancel`, {}))
    expect(await vacancies(tour.id, tour.at)).toBe(3)
  })

  it("refuses a reservation past the places left (UNPROCESSABLE_ENTITY), and one more once sold out", async () => {
    expectOctoError(
      await reserve({ uuid: U.big, unitItems: Array.from({ length: 4 }, () => ({ unitId: "adult" })) }),
      400,
      "UNPROCESSABLE_ENTITY"
    )
    octoOk(
      S.Booking,
      await reserve({ uuid: U.full1, unitItems: Array.from({ length: 3 }, () => ({ unitId: "adult" })) })
    )
    expectOctoError(await reserve({ uuid: U.full2 }), 400, "UNPROCESSABLE_ENTITY")
    const day = octoOk(
      S.Calendar,
      await octo("POST", "/availability/calendar", {
        productId: tour.id,
        optionId: "DEFAULT",
        localDateStart: "2040-01-04",
        localDateEnd: "2040-01-04"
      })
    )
    expect(day[0]).toMatchObject({ available: false, vacancies: 0 })
    expect(
      await sql(
        app,
        (s) => s<{ n: number }>`select count(*)::int as n from bookings where octo_uuid in (${U.big}, ${U.full2})`
      )
    ).toEqual([{ n: 0 }])
    ok(await octo("POST", `/bookings/${U.full1}/cancel`, {}))
  })

  it("extends a hold; a hold past its expiry is EXPIRED, keeps no place, and can be neither confirmed nor extended", async () => {
    const held = octoOk(
      S.Booking,
      await reserve({ uuid: U.exp1, expirationMinutes: 5, unitItems: [{ unitId: "adult" }, { unitId: "adult" }] })
    )
    const extended = octoOk(S.Booking, await octo("POST", `/bookings/${U.exp1}/extend`, { expirationMinutes: 10 }))
    expect(Date.parse(extended.utcExpiresAt!) - Date.parse(held.utcExpiresAt!)).toBe(5 * 60_000)
    await app.advance(9 * 60)
    expect(octoOk(S.Booking, await octo("GET", `/bookings/${U.exp1}`)).status).toBe("ON_HOLD")
    expect(await vacancies(tour.id, tour.at)).toBe(1)
    await app.advance(2 * 60)
    const expired = octoOk(S.Booking, await octo("GET", `/bookings/${U.exp1}`))
    expect(expired).toMatchObject({ status: "EXPIRED", cancellable: false })
    expect(await vacancies(tour.id, tour.at)).toBe(3)
    expectOctoError(
      await octo("POST", `/bookings/${U.exp1}/confirm`, { contact: { fullName: "Late" } }),
      400,
      "UNPROCESSABLE_ENTITY"
    )
    expectOctoError(await octo("POST", `/bookings/${U.exp1}/extend`, {}), 400, "UNPROCESSABLE_ENTITY")
    expectOctoError(await octo("PATCH", `/bookings/${U.exp1}`, { notes: "x" }), 400, "UNPROCESSABLE_ENTITY")
    // Its places went back: a new reservation for all of them is taken.
    octoOk(
      S.Booking,
      await reserve({ uuid: U.exp2, unitItems: Array.from({ length: 3 }, () => ({ unitId: "adult" })) })
    )
    ok(await octo("POST", `/bookings/${U.exp2}/cancel`, {}))
  })

  it("PATCH changes references, notes, contact and the time (moved with its places), and refuses a change of units", async () => {
    const later = await org.session(tour.id, new Date(Date.parse(tour.at) + 86_400_000))
    const laterId = availabilityId(later.starts_at)
    octoOk(S.Booking, await reserve({ uuid: U.patch }))
    const patched = octoOk(
      S.Booking,
      await octo("PATCH", `/bookings/${U.patch}`, {
        resellerReference: "VIA-300",
        notes: "vegetarian",
        contact: { fullName: "Bo", emailAddress: "bo@example.com" },
        availabilityId: laterId,
        expirationMinutes: 20
      })
    )
    expect(patched).toMatchObject({
      status: "ON_HOLD",
      resellerReference: "VIA-300",
      notes: "vegetarian",
      availabilityId: laterId,
      contact: { fullName: "Bo", emailAddress: "bo@example.com" }
    })
    expect(await vacancies(tour.id, tour.at)).toBe(3)
    expect(await vacancies(tour.id, laterId)).toBe(2)
    expectOctoError(
      await octo("PATCH", `/bookings/${U.patch}`, { unitItems: [{ unitId: "adult" }, { unitId: "adult" }] }),
      400,
      "UNPROCESSABLE_ENTITY"
    )
    expectOctoError(
      await octo("PATCH", `/bookings/${U.patch}`, { availabilityId: "2040-01-05T13:17:00+00:00" }),
      400,
      "INVALID_AVAILABILITY_ID"
    )
    const confirmed = octoOk(
      S.Booking,
      await octo("POST", `/bookings/${U.patch}/confirm`, {
        contact: { fullName: "Bo", emailAddress: "bo@example.com" },
        emailReceipt: true
      })
    )
    expect(confirmed.status).toBe("CONFIRMED")
    const mails = await sql(
      app,
      (s) =>
        s<{
          kind: string
          to_address: string
        }>`select kind, to_address from mail_outbox where booking_id = ${confirmed.id}`
    )
    expect(mails).toEqual([{ kind: "booking.confirmed", to_address: "bo@example.com" }])
    expect(octoOk(S.Bookings, await octo("GET", "/bookings?resellerReference=VIA-300")).map((b) => b.uuid)).toEqual([
      U.patch
    ])
    expectOcto(S.Booking, (await octo("POST", `/bookings/${U.patch}/cancel`, { reason: null })).body)
  })
})
