import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BookingsOrg,
  bookingsOrg,
  expectError,
  guest,
  type Json,
  ok,
  startPinned,
  type TestApp
} from "../bookings/helpers.ts"
import { fetchFeed, member, onApp, parseFeed } from "./helpers.ts"

// The engine clock reads 2040-01-02 12:00 UTC; the org runs on Europe/Amsterdam (CET, CEST from 2040-03-25 01:00 UTC).
let app: TestApp
let org: BookingsOrg
let teacher: Awaited<ReturnType<typeof member>>
let other: Awaited<ReturnType<typeof member>>
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  teacher = await member(app, org, "staff", "Tess")
  other = await member(app, org, "staff", "Otto")
})
afterAll(() => app.close())

const session = async (offeringId: string, startsAt: string, teacherId: string | null) =>
  (
    ok(await org.call("POST", "/sessions", { offering_id: offeringId, starts_at: startsAt, teacher: teacherId }), 201)
      .data as Json[]
  )[0] as Json & { id: string }

const HOST = (url: string) => new URL(url).host

describe("calendar feeds (feeds.*, GET /feeds/{token}.ics)", () => {
  it("a member's feed: every time they teach at its instant in the org's zone (the DST week too), places, cancellations; only theirs", async () => {
    const yoga = await org.offering({
      kind: "class",
      name: "Yoga",
      capacity: 10,
      duration_minutes: 60,
      location: "Studio 1"
    })
    const winter = await session(yoga.id, "2040-01-10T09:00:00.000Z", teacher.user_id) // 10:00 CET
    const beforeDst = await session(yoga.id, "2040-03-24T09:00:00.000Z", teacher.user_id) // Sat 10:00 CET
    const afterDst = await session(yoga.id, "2040-03-26T08:00:00.000Z", teacher.user_id) // Mon 10:00 CEST
    const cancelled = await session(yoga.id, "2040-02-01T17:00:00.000Z", teacher.user_id)
    const notTheirs = await session(yoga.id, "2040-01-11T09:00:00.000Z", other.user_id)
    const past = await session(yoga.id, "2041-06-01T09:00:00.000Z", teacher.user_id) // beyond 365 days
    await org.booked({ offering_id: yoga.id, session_id: winter.id, quantity: 3, customer: guest("y1", "Yara Guest") })
    ok(await org.call("POST", `/sessions/${cancelled.id}/cancel`, {}))

    const cut = await org.offering({
      kind: "appointment",
      name: "Haircut",
      duration_minutes: 30,
      min_notice_minutes: 0
    })
    const slot = await session(cut.id, "2040-01-12T14:00:00.000Z", teacher.user_id)
    const appointment = await org.booked({
      offering_id: cut.id,
      session_id: slot.id,
      customer: { email: "ann@example.com", name: "Ann Guest", phone: "+31612345678" }
    })
    await session(cut.id, "2040-01-12T15:00:00.000Z", teacher.user_id) // nobody booked it: not in the feed

    const feed = ok(await teacher.call("POST", "/feeds", { kind: "member" }), 201)
    expect(feed).toMatchObject({ kind: "member", user_id: teacher.user_id, offering_id: null, revoked_at: null })
    expect(feed.url).toMatch(/\/feeds\/cal_[A-Za-z0-9_-]{43}\.ics$/)

    const res = await fetchFeed(onApp(app, feed.url))
    expect(res.status).toBe(200)
    expect(res.type).toBe("text/calendar; charset=utf-8")
    expect(res.text).not.toContain("ann@example.com")
    expect(res.text).not.toContain("+31612345678")
    const parsed = parseFeed(res.text)
    expect(parsed.zones).toEqual(["Europe/Amsterdam"])
    const host = HOST(feed.url)
    const byUid = new Map(parsed.events.map((e) => [e.uid, e]))
    expect([...byUid.keys()].sort()).toEqual(
      [winter.id, beforeDst.id, afterDst.id, cancelled.id, appointment.id].map((id) => `${id}@${host}`).sort()
    )
    expect(byUid.has(`${notTheirs.id}@${host}`)).toBe(false)
    expect(byUid.has(`${past.id}@${host}`)).toBe(false)
    for (const e of parsed.events) expect([e.startZone, e.endZone]).toEqual(["Europe/Amsterdam", "Europe/Amsterdam"])

    expect(byUid.get(`${winter.id}@${host}`)).toMatchObject({
      start: "2040-01-10T09:00:00.000Z",
      end: "2040-01-10T10:00:00.000Z",
      summary: "Yoga: 3 booked, 7 left",
      location: "Studio 1",
      status: "CONFIRMED"
    })
    expect(byUid.get(`${beforeDst.id}@${host}`)).toMatchObject({
      start: "2040-03-24T09:00:00.000Z",
      end: "2040-03-24T10:00:00.000Z"
    })
    expect(byUid.get(`${afterDst.id}@${host}`)).toMatchObject({
      start: "2040-03-26T08:00:00.000Z",
      end: "2040-03-26T09:00:00.000Z"
    })
    // Both read 10:00 on the wall clock: the local reading is what DTSTART carries.
    expect(res.text).toContain("DTSTART;TZID=Europe/Amsterdam:20400324T100000")
    expect(res.text).toContain("DTSTART;TZID=Europe/Amsterdam:20400326T100000")
    const gone = byUid.get(`${cancelled.id}@${host}`)!
    expect(gone).toMatchObject({ status: "CANCELLED", start: "2040-02-01T17:00:00.000Z", summary: "Yoga (cancelled)" })
    expect(gone.sequence).toBeGreaterThanOrEqual(0)
    expect(byUid.get(`${appointment.id}@${host}`)).toMatchObject({
      start: "2040-01-12T14:00:00.000Z",
      end: "2040-01-12T14:30:00.000Z",
      summary: "Haircut: Ann Guest",
      status: "CONFIRMED"
    })

    // A cancelled booking stays in the feed as cancelled, with a later SEQUENCE.
    const before = byUid.get(`${appointment.id}@${host}`)!
    await app.advance(60)
    ok(await org.act(appointment.id, "cancel", {}))
    const again = parseFeed((await fetchFeed(onApp(app, feed.url))).text)
    const after = again.events.find((e) => e.uid === `${appointment.id}@${host}`)!
    expect(after.status).toBe("CANCELLED")
    expect(after.sequence).toBeGreaterThan(before.sequence)
  })

  it("an offering's feed shows its times whoever teaches; revoked or rotated URLs answer 404", async () => {
    const spin = await org.offering({ kind: "class", name: "Spin", capacity: 4, duration_minutes: 45 })
    const a = await session(spin.id, "2040-06-01T16:00:00.000Z", teacher.user_id)
    const b = await session(spin.id, "2040-06-02T16:00:00.000Z", null)
    const feed = ok(await org.call("POST", "/feeds", { kind: "offering", offering_id: spin.id }), 201)
    const parsed = parseFeed((await fetchFeed(onApp(app, feed.url))).text)
    expect(parsed.events.map((e) => [e.uid, e.start, e.end, e.startZone, e.summary])).toEqual([
      [
        `${a.id}@${HOST(feed.url)}`,
        "2040-06-01T16:00:00.000Z",
        "2040-06-01T16:45:00.000Z",
        "Europe/Amsterdam",
        "Spin: 0 booked, 4 left"
      ],
      [
        `${b.id}@${HOST(feed.url)}`,
        "2040-06-02T16:00:00.000Z",
        "2040-06-02T16:45:00.000Z",
        "Europe/Amsterdam",
        "Spin: 0 booked, 4 left"
      ]
    ])
    expect(ok(await org.call("GET", `/feeds?offering_id=${spin.id}`)).data).toEqual([
      {
        id: feed.id,
        kind: "offering",
        user_id: null,
        offering_id: spin.id,
        created_at: feed.created_at,
        revoked_at: null
      }
    ])

    const rotated = ok(await org.call("POST", `/feeds/${feed.id}/rotate`), 201)
    expect(rotated.url).not.toBe(feed.url)
    expect(rotated).toMatchObject({ kind: "offering", offering_id: spin.id })
    const old = await fetchFeed(onApp(app, feed.url))
    expect([old.status, old.type, old.text]).toEqual([404, "text/plain; charset=utf-8", "not found"])
    expect((await fetchFeed(onApp(app, rotated.url))).status).toBe(200)
    expectError(await org.call("POST", `/feeds/${feed.id}/rotate`), 404, "not_found")

    const revoked = ok(await org.call("DELETE", `/feeds/${rotated.id}`))
    expect(revoked.revoked_at).not.toBeNull()
    expect((await fetchFeed(onApp(app, rotated.url))).status).toBe(404)
    expect(ok(await org.call("GET", `/feeds?offering_id=${spin.id}`)).data).toEqual([])
    for (const junk of ["nothing", "cal_short", `cal_${"A".repeat(43)}`, "%E0%A4%A"])
      expect((await fetchFeed(`${app.url}/feeds/${junk}.ics`)).status).toBe(404)
  })

  it("staff manage their own member feed only; another org sees none of this org's feeds or times", async () => {
    const mine = ok(await other.call("POST", "/feeds", { kind: "member" }), 201)
    expect(mine.user_id).toBe(other.user_id)
    expectError(await other.call("POST", "/feeds", { kind: "member", user_id: teacher.user_id }), 403, "forbidden")
    const o = await org.offering({ kind: "class", name: "Pilates", capacity: 5, duration_minutes: 60 })
    expectError(await other.call("POST", "/feeds", { kind: "offering", offering_id: o.id }), 403, "forbidden")
    const theirs = ok(await teacher.call("POST", "/feeds", { kind: "member" }), 201)
    expectError(await other.call("DELETE", `/feeds/${theirs.id}`), 403, "forbidden")
    expect(ok(await other.call("GET", "/feeds")).data.map((f: Json) => f.id)).toEqual([mine.id])
    expectError(await other.call("GET", `/feeds?user_id=${teacher.user_id}`), 403, "forbidden")
    expect(ok(await org.call("GET", `/feeds?user_id=${teacher.user_id}`)).data.map((f: Json) => f.id)).toContain(
      theirs.id
    )

    // The platform's owner key belongs to no member: it names one.
    expectError(await org.call("POST", "/feeds", { kind: "member" }), 400, "invalid_user_id")
    expectError(await org.call("POST", "/feeds", { kind: "offering" }), 400, "invalid_offering_id")
    expectError(
      await org.call("POST", "/feeds", { kind: "member", user_id: teacher.user_id, offering_id: o.id }),
      400,
      "invalid_body"
    )
    expectError(await org.call("POST", "/feeds", { kind: "member", user_id: crypto.randomUUID() }), 400, "not_a_member")
    expectError(await org.call("POST", "/feeds", { kind: "calendar" }), 400, "invalid_kind")

    const second = await bookingsOrg(app, { timezone: "America/New_York" })
    expectError(await second.call("DELETE", `/feeds/${theirs.id}`), 404, "not_found")
    expectError(await second.call("POST", `/feeds/${theirs.id}/rotate`), 404, "not_found")
    expect(ok(await second.call("GET", "/feeds")).data).toEqual([])
    expectError(await second.call("POST", "/feeds", { kind: "offering", offering_id: o.id }), 404, "not_found")
    expectError(await second.call("POST", "/feeds", { kind: "member", user_id: teacher.user_id }), 400, "not_a_member")
    const run = await second.offering({ kind: "class", name: "Run", capacity: 5, duration_minutes: 60 })
    const time = ok(
      await second.call("POST", "/sessions", { offering_id: run.id, starts_at: "2040-03-12T11:00:00.000Z" }),
      201
    ).data[0]
    const feed = ok(await second.call("POST", "/feeds", { kind: "offering", offering_id: run.id }), 201)
    const parsed = parseFeed((await fetchFeed(onApp(app, feed.url))).text)
    // New York moved its clocks on 2040-03-11: 07:00 EDT.
    expect(parsed.zones).toEqual(["America/New_York"])
    expect(parsed.events.map((e) => [e.uid, e.start, e.startZone])).toEqual([
      [`${time.id}@${HOST(feed.url)}`, "2040-03-12T11:00:00.000Z", "America/New_York"]
    ])
  })

  it("the guest's own .ics is built the same way: it parses and matches the booking (UTC instants, the org's zone named)", async () => {
    const { offering, session: time } = await org.classWithSession(
      { name: "Kayak", capacity: 6, location: "Harbour", duration_minutes: 90 },
      24 * 90
    )
    const b = await org.booked({ offering_id: offering.id, session_id: time.id, customer: guest("ics2") })
    const res = await fetch(`${app.url}/b/${await org.handle(b.id)}/calendar.ics`)
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
    const text = await res.text()
    const parsed = parseFeed(text)
    expect(parsed.zones).toEqual([])
    expect(parsed.cal.getFirstPropertyValue("x-wr-timezone")).toBe("Europe/Amsterdam")
    expect(parsed.events).toHaveLength(1)
    expect(parsed.events[0]).toMatchObject({
      start: b.starts_at,
      end: b.ends_at,
      startZone: "UTC",
      endZone: "UTC",
      location: "Harbour",
      status: "CONFIRMED"
    })
    expect(parsed.events[0].uid).toMatch(new RegExp(`^${b.id}@`))
    expect(parsed.events[0].summary).toContain("Kayak")
    expect(parsed.events[0].description).toContain(b.reference)

    ok(await org.act(b.id, "cancel", {}))
    const cancelled = parseFeed(await (await fetch(`${app.url}/b/${await org.handle(b.id)}/calendar.ics`)).text())
    expect(cancelled.events.map((e) => [e.uid, e.status])).toEqual([[parsed.events[0].uid, "CANCELLED"]])
  })
})
