import { randomUUID } from "node:crypto"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { expect } from "vitest"
import { decideBooking, startBooking } from "../../../engine/machines/booking.ts"
import { stateText } from "../../../engine/store/bookingRow.ts"
import { wallOf } from "../../property/time/intl.ts"
import { type Reply, sql, startApp, type TestApp } from "../../support/app.ts"

export type Json = Record<string, any>

/**
 * Every calendar suite runs on a pinned engine clock, so dates in tests are literal: Monday 2 January 2040,
 * 12:00 UTC (13:00 in Amsterdam, 07:00 in New York, 23:00 on Lord Howe: the same local date in all three).
 */
export const PIN = new Date("2040-01-02T12:00:00Z")
export const TODAY = "2040-01-02"
const MAX_STEP = 400 * 86400

export const clockNow = async (app: TestApp) => new Date((await app.admin("GET", "/clock")).body.now)

/** Moves the engine clock forward to `at` (within a second), in steps the admin API accepts. */
export const advanceTo = async (app: TestApp, at: Date) => {
  let left = Math.ceil((at.getTime() - (await clockNow(app)).getTime()) / 1000)
  if (left < 0) throw new Error(`the engine clock is already past ${at.toISOString()}; move PIN forward`)
  while (left > 0) {
    const step = Math.min(left, MAX_STEP)
    await app.advance(step)
    left -= step
  }
}

export const startPinned = async () => {
  const app = await startApp()
  await advanceTo(app, PIN)
  return app
}

/** Asserts the spec's error shape with an exact status and code. */
export const expectError = (res: Reply, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code })
  expect(res.body.error.message.length).toBeGreaterThan(0)
}

export const ok = <T = Json>(res: Reply, status = 200): T => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as T
}

/** Local wall date and HH:MM of an ISO instant in a zone (read from Intl, not engine/time). */
export const wall = (iso: string, zone: string) => {
  const w = wallOf(new Date(iso), zone)
  return { date: w.date, time: w.time.slice(0, 5) }
}
export const wallString = (iso: string, zone: string) => {
  const w = wall(iso, zone)
  return `${w.date} ${w.time}`
}

export const qs = (query: Record<string, string | number | boolean | undefined>) => {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) p.set(k, String(v))
  const s = p.toString()
  return s === "" ? "" : `?${s}`
}

export type Org = Awaited<ReturnType<typeof newOrg>>

/** An org with its key and the calendar operations bound to it. */
export const newOrg = async (app: TestApp, timezone = "Europe/Amsterdam") => {
  const org = await app.newOrg({ timezone })
  const call = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    app.call<T>(org.key, method, `/api/v1${path}`, body, headers)
  const offering = async (body: Json) =>
    ok(await call("POST", "/offerings", { name: "Offering", ...body }), 201) as Json & { id: string }
  return {
    ...org,
    timezone,
    call,
    offering,
    /** A class (capacity 10, 60 minutes unless told). */
    klass: (body: Json = {}) => offering({ kind: "class", ...body }),
    /** An appointment on weekly hours. */
    onHours: async (body: Json, hours: ReadonlyArray<Json>) => {
      const o = await offering({ kind: "appointment", ...body })
      ok(await call("PATCH", `/offerings/${o.id}`, { schedule: "hours" }))
      ok(await call("PUT", `/offerings/${o.id}/hours`, { hours }))
      return o
    },
    member: async (email: string, name?: string) => {
      const res = await app.admin("POST", `/orgs/${org.id}/members`, {
        email,
        role: "staff",
        ...(name ? { name } : {})
      })
      return ok(res, 201).user_id as string
    },
    series: {
      create: (body: Json) => call("POST", "/series", body),
      make: async (body: Json) => ok(await call("POST", "/series", body), 201) as Json & { id: string },
      list: (offeringId: string) => call("GET", `/series${qs({ offering_id: offeringId })}`),
      update: (id: string, body: Json) => call("PATCH", `/series/${id}`, body),
      remove: (id: string, cancelBookings?: boolean) =>
        call("DELETE", `/series/${id}${qs({ cancel_bookings: cancelBookings })}`)
    },
    sessions: {
      create: (body: Json) => call("POST", "/sessions", body),
      make: async (body: Json) => (ok(await call("POST", "/sessions", body), 201) as { data: Json[] }).data,
      list: async (query: Record<string, string | undefined>) =>
        (ok(await call("GET", `/sessions${qs(query)}`)) as { data: Json[] }).data,
      update: (id: string, body: Json) => call("PATCH", `/sessions/${id}`, body),
      cancel: (id: string, body: Json = {}) => call("POST", `/sessions/${id}/cancel`, body)
    },
    availability: (id: string, query: Record<string, string | undefined> = {}) =>
      call("GET", `/offerings/${id}/availability${qs(query)}`),
    slots: async (id: string, query: Record<string, string | undefined> = {}) =>
      (ok(await call("GET", `/offerings/${id}/availability${qs(query)}`)) as { timezone: string; data: Json[] }).data,
    /** Events of one type, oldest first (moves the engine clock 3 s so they are served). */
    events: async (type: string) => {
      await app.advance(3)
      const out: Json[] = []
      let after = 0
      for (;;) {
        const page = ok(await call("GET", `/events${qs({ after, limit: 200, type })}`))
        if (page.data.length === 0) return out
        out.push(...page.data)
        after = page.next_after
      }
    }
  }
}

/** The sessions of an offering (all statuses), soonest first. */
export const sessionsOf = (org: Org, offeringId: string, query: Record<string, string> = {}) =>
  org.sessions.list({ offering_id: offeringId, ...query })

export type Seat = {
  readonly offering_id: string
  readonly starts_at: string | Date
  readonly ends_at: string | Date
  readonly session_id?: string | null
  readonly series_id?: string | null
  readonly quantity?: number
  readonly status?: "held" | "confirmed" | "cancelled"
  /** For a hold: when it stops keeping its place. */
  readonly expires_at?: string | Date | null
  readonly keeps_place?: boolean
}

/** The booking machine's row for a seat: confirmed, held (keeping its place until expires_at) or cancelled. */
const machineOf = (s: Seat, status: "held" | "confirmed" | "cancelled", at: Date) => {
  const times = {
    starts_at: new Date(s.starts_at).toISOString(),
    ends_at: new Date(s.ends_at).toISOString(),
    session_id: s.session_id ?? null
  }
  const expires = s.expires_at == null ? null : new Date(s.expires_at).toISOString()
  const started = startBooking({
    ...times,
    at: at.toISOString(),
    hold: status === "held",
    series_id: s.series_id ?? null,
    is_reseller: false,
    expires_at: expires
  })
  if (status !== "cancelled") return { state: stateText(started.state), context: started.context }
  const cancelled = decideBooking(
    { value: started.state, context: started.context },
    { type: "cancel", at: at.toISOString() }
  )
  if (!cancelled.ok) throw new Error(cancelled.message)
  return { state: stateText(cancelled.state), context: cancelled.context }
}

/**
 * Writes bookings straight into the table (the calendar's tests do not go through the bookings API):
 * confirmed and keeping their place unless told. Returns their ids.
 */
export const seedBookings = async (app: TestApp, orgId: string, seats: ReadonlyArray<Seat>) => {
  const customerId = randomUUID()
  const at = await clockNow(app)
  const ids = [...new Set(seats.map((s) => s.offering_id))]
  const kinds = new Map(
    ids.length === 0
      ? []
      : (
          await sql(
            app,
            (s) => s<{ id: string; kind: string }>`select id, kind from offerings where id in ${s.in(ids)}`
          )
        ).map((o) => [o.id, o.kind])
  )
  const rows = seats.map((s) => {
    const status = s.status ?? "confirmed"
    const machine = machineOf(s, status, at)
    return {
      id: randomUUID(),
      org_id: orgId,
      offering_id: s.offering_id,
      customer_id: customerId,
      session_id: s.session_id ?? null,
      series_id: s.series_id ?? null,
      starts_at: new Date(s.starts_at),
      ends_at: new Date(s.ends_at),
      quantity: s.quantity ?? 1,
      places: kinds.get(s.offering_id) === "appointment" ? 1 : (s.quantity ?? 1),
      state: machine.state,
      machine: JSON.stringify(machine.context),
      status,
      keeps_place: s.keeps_place ?? status !== "cancelled",
      expires_at: s.expires_at == null ? null : new Date(s.expires_at),
      confirmed_at: status === "confirmed" ? at : null,
      cancelled_at: status === "cancelled" ? at : null,
      total_cents: 0,
      reference: randomUUID().slice(0, 8).toUpperCase(),
      handle: randomUUID(),
      source: "api",
      created_at: at
    }
  })
  await sql(
    app,
    (s) =>
      s`insert into customers ${s.insert({ id: customerId, org_id: orgId, email: `${customerId}@example.com`, name: "Guest", created_at: at })}`
  )
  if (rows.length > 0) await sql(app, (s) => s`insert into bookings ${s.insert(rows)}`)
  return rows.map((r) => r.id)
}

/** Books one seat (or `quantity`) of a session as a confirmed booking. */
export const bookSession = (app: TestApp, orgId: string, session: Json, extra: Partial<Seat> = {}) =>
  seedBookings(app, orgId, [
    {
      offering_id: session.offering_id,
      session_id: session.id,
      starts_at: session.starts_at,
      ends_at: session.ends_at,
      ...extra
    }
  ])

/** An MCP client on the app's /mcp with an API key; `call` returns the parsed first text content. */
export const mcpClient = async (app: TestApp, key: string) => {
  const client = new Client({ name: "calendar-tests", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } }
    })
  )
  const call = async (name: string, args: Json = {}) => {
    const res = await client.callTool({ name, arguments: args })
    const content = res.content as Array<{ type: string; text: string }>
    return {
      isError: res.isError === true,
      json: JSON.parse(content[0].text),
      structured: res.structuredContent as any
    }
  }
  return { client, call, close: () => client.close() }
}

export type { TestApp }

/** A local date n days after another (plain calendar arithmetic). */
export const addDaysTo = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
