import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bookSession, mcpClient, newOrg, type Org, ok, sessionsOf, startPinned, type TestApp, wall } from "./helpers.ts"

let app: TestApp
let org: Org
let mcp: Awaited<ReturnType<typeof mcpClient>>
beforeAll(async () => {
  app = await startPinned()
  org = await newOrg(app, "Europe/Amsterdam")
  mcp = await mcpClient(app, org.key)
})
afterAll(async () => {
  await mcp.close()
  await app.close()
})

describe("calendar tools over MCP", () => {
  it("lists a tool for each calendar operation, read-only and destructive where they are", async () => {
    const { tools } = await mcp.client.listTools()
    const byName = new Map(tools.map((t) => [t.name, t]))
    const hints = [
      "series_list",
      "series_create",
      "series_update",
      "series_delete",
      "sessions_list",
      "sessions_create",
      "sessions_update",
      "sessions_cancel",
      "availability_get"
    ].map((n) => [n, byName.get(n)?.annotations?.readOnlyHint, byName.get(n)?.annotations?.destructiveHint])
    expect(hints).toEqual([
      ["series_list", true, false],
      ["series_create", false, false],
      ["series_update", false, false],
      ["series_delete", false, true],
      ["sessions_list", true, false],
      ["sessions_create", false, false],
      ["sessions_update", false, false],
      ["sessions_cancel", false, true],
      ["availability_get", true, false]
    ])
    expect(byName.get("series_create")!.inputSchema.required).toEqual(
      expect.arrayContaining(["starts_on", "offering_id"])
    )
  })

  it("runs an entry's whole life: create, list, slots, change, cancel a time, delete", async () => {
    const o = await org.klass({ capacity: 6 })
    const created = await mcp.call("series_create", {
      offering_id: o.id,
      starts_on: "2040-01-03",
      start_time: "18:00",
      end_time: "19:00",
      repeat: "weekly",
      ends_on: "2040-01-24"
    })
    expect(created.isError).toBe(false)
    expect(created.structured).toMatchObject({
      offering_id: o.id,
      start_time: "18:00:00",
      repeat: "weekly",
      made_until: "2040-01-24"
    })
    expect((await mcp.call("series_list", { offering_id: o.id })).structured.data).toEqual(
      ok(await org.series.list(o.id)).data
    )

    const sessions = (await mcp.call("sessions_list", { offering_id: o.id })).structured.data
    expect(sessions.map((s: any) => s.occurs_on)).toEqual(["2040-01-03", "2040-01-10", "2040-01-17", "2040-01-24"])
    const slots = (await mcp.call("availability_get", { id: o.id, from: "2040-01-01", to: "2040-01-31" })).structured
    expect(slots).toEqual(ok(await org.availability(o.id, { from: "2040-01-01", to: "2040-01-31" })))
    expect(slots.data.map((s: any) => s.session_id)).toEqual(sessions.map((s: any) => s.id))

    const changed = await mcp.call("series_update", {
      id: created.structured.id,
      start_time: "19:00",
      end_time: "20:00"
    })
    expect(changed.structured).toMatchObject({ id: created.structured.id, start_time: "19:00:00" })
    const remade = await sessionsOf(org, o.id)
    expect(remade.map((s) => wall(s.starts_at, org.timezone).time)).toEqual(["19:00", "19:00", "19:00", "19:00"])

    const cancelled = await mcp.call("sessions_cancel", { id: remade[1].id, guests: "choose", note: "Pool closed" })
    expect(cancelled.structured).toMatchObject({ id: remade[1].id, status: "cancelled" })

    await bookSession(app, org.id, remade[2])
    const refused = await mcp.call("series_delete", { id: created.structured.id })
    expect({ isError: refused.isError, code: refused.json.error.code }).toEqual({
      isError: true,
      code: "series_has_bookings"
    })
    const deleted = await mcp.call("series_delete", { id: created.structured.id, cancel_bookings: "true" })
    expect(deleted.isError).toBe(false)
    expect(Object.keys(deleted.structured)).toEqual(["cancelled"])
    expect((await sessionsOf(org, o.id)).map((s) => s.status)).toEqual(["cancelled"])
  })

  it("schedules times on their own and moves one", async () => {
    const o = await org.klass()
    const made = await mcp.call("sessions_create", {
      offering_id: o.id,
      starts_at: "2040-10-21T16:00:00Z",
      repeat_weeks: 1
    })
    expect(made.structured.data.map((s: any) => s.starts_at)).toEqual([
      "2040-10-21T16:00:00.000Z",
      "2040-10-28T17:00:00.000Z"
    ])
    const moved = await mcp.call("sessions_update", {
      id: made.structured.data[0].id,
      starts_at: "2040-10-22T16:00:00Z",
      ends_at: "2040-10-22T17:00:00Z"
    })
    expect(moved.structured).toMatchObject({ starts_at: "2040-10-22T16:00:00.000Z" })
  })

  it.each([
    [
      "series_create with repeat hourly",
      () => ({ name: "series_create", args: { offering_id: org.id, starts_on: "2040-01-10", repeat: "hourly" } }),
      "invalid_repeat"
    ],
    [
      "series_create on an offering that is not the org's",
      () => ({ name: "series_create", args: { offering_id: org.id, starts_on: "2040-01-10" } }),
      "not_found"
    ],
    [
      "sessions_cancel with a note of 201 characters",
      () => ({ name: "sessions_cancel", args: { id: "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11", note: "n".repeat(201) } }),
      "invalid_note"
    ],
    [
      "availability_get of an unknown offering",
      () => ({ name: "availability_get", args: { id: "5a0d7c4e-1b7e-4c9a-9a43-5b8f0a3c2d11" } }),
      "not_found"
    ]
  ])("answers %s with the REST error", async (_, request, code) => {
    const { name, args } = request()
    const res = await mcp.call(name, args)
    expect({ isError: res.isError, code: res.json.error.code }).toEqual({ isError: true, code })
  })

  it("refuses times sent without their end, as REST does", async () => {
    const o = await org.klass()
    const res = await mcp.call("series_create", { offering_id: o.id, starts_on: "2040-01-10", start_time: "18:00" })
    expect({ isError: res.isError, code: res.json.error.code }).toEqual({ isError: true, code: "invalid_times" })
    expect(ok(await org.series.list(o.id)).data).toEqual([])
  })

  it("keeps another org's calendar out of reach", async () => {
    const other = await newOrg(app)
    const theirs = await other.klass()
    const entry = await other.series.make({ offering_id: theirs.id, starts_on: "2040-01-10" })
    for (const [name, args] of [
      ["series_list", { offering_id: theirs.id }],
      ["series_update", { id: entry.id, span_days: 2 }],
      ["availability_get", { id: theirs.id }],
      ["sessions_list", { offering_id: theirs.id }]
    ] as const) {
      const res = await mcp.call(name, args)
      expect([name, res.isError, res.json.error?.code]).toEqual([name, true, "not_found"])
    }
  })

  it("replays series_create with the same idempotency_key instead of adding a second entry", async () => {
    const o = await org.klass()
    const args = {
      offering_id: o.id,
      starts_on: "2040-01-10",
      start_time: "18:00",
      end_time: "19:00",
      idempotency_key: "calendar-mcp-1"
    }
    const first = await mcp.call("series_create", args)
    const again = await mcp.call("series_create", args)
    expect(again.structured).toEqual(first.structured)
    expect(ok(await org.series.list(o.id)).data).toHaveLength(1)
    expect(await sessionsOf(org, o.id)).toHaveLength(1)
  })
})
