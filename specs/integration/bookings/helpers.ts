import { expect } from "vitest"
import { type Reply, sql, type TestApp } from "../../support/app.ts"
import { advanceTo, clockNow, expectError, type Json, ok, PIN, qs, startPinned } from "../calendar/helpers.ts"

export type { Json, Reply, TestApp }
export { advanceTo, clockNow, expectError, ok, PIN, qs, startPinned }

const HOUR = 3_600_000
const DAY = 86_400_000

/** A guest: the same n is the same person. */
export const guest = (n: number | string, name = `Guest ${n}`) => ({ email: `guest${n}@example.com`, name })

/** The UTC date `days` after the engine clock's date, at `time` (HH:MM) UTC; orgs here run on UTC unless told. */
export const utcAt = (now: Date, days: number, time: string) =>
  new Date(`${new Date(now.getTime() + days * DAY).toISOString().slice(0, 10)}T${time}:00.000Z`)
/** The next whole hour at least `hours` after now. */
export const hoursAhead = (now: Date, hours: number) => new Date(Math.ceil(now.getTime() / HOUR) * HOUR + hours * HOUR)

export type BookingsOrg = Awaited<ReturnType<typeof bookingsOrg>>

/**
 * An org (UTC and the scale plan unless told, so quotas never get in the way) with its key and the
 * operations the bookings suites use, bound to it.
 */
export const bookingsOrg = async (
  app: TestApp,
  options: { timezone?: string; plan?: string; currency?: string } = {}
) => {
  const org = await app.newOrg({
    timezone: options.timezone ?? "UTC",
    plan: options.plan ?? "scale",
    ...(options.currency ? { currency: options.currency } : {})
  })
  const call = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    app.call<T>(org.key, method, `/api/v1${path}`, body, headers)
  const offering = async (body: Json) =>
    ok(await call("POST", "/offerings", { name: "Offering", ...body }), 201) as Json & { id: string }
  const self = {
    ...org,
    call,
    offering,
    now: () => clockNow(app),
    /** A class with one session `hours` ahead (48 unless told). */
    classWithSession: async (body: Json = {}, hours = 48) => {
      const o = await offering({ kind: "class", capacity: 10, ...body })
      const session = await self.session(o.id, hoursAhead(await clockNow(app), hours))
      return { offering: o, session }
    },
    session: async (offeringId: string, startsAt: Date, extra: Json = {}) =>
      (
        ok(
          await call("POST", "/sessions", { offering_id: offeringId, starts_at: startsAt.toISOString(), ...extra }),
          201
        ) as { data: Json[] }
      ).data[0],
    sessions: async (offeringId: string, query: Record<string, string> = {}) =>
      (ok(await call("GET", `/sessions${qs({ offering_id: offeringId, ...query })}`)) as { data: Json[] }).data,
    /** A course: a daily entry of `times` times (from the day after tomorrow), 10:00-11:00 UTC. */
    course: async (body: Json = {}, times = 3) => {
      const o = await offering({ kind: "class", course: true, capacity: 10, ...body })
      const now = await clockNow(app)
      const startsOn = utcAt(now, 2, "00:00").toISOString().slice(0, 10)
      const endsOn = utcAt(now, 1 + times, "00:00")
        .toISOString()
        .slice(0, 10)
      const entry = ok(
        await call("POST", "/series", {
          offering_id: o.id,
          starts_on: startsOn,
          start_time: "10:00",
          end_time: "11:00",
          repeat: "daily",
          ends_on: endsOn
        }),
        201
      )
      const sessions = await self.sessions(o.id)
      expect(sessions.length).toBe(times)
      return { offering: o, series: entry as Json & { id: string }, sessions }
    },
    /** An appointment on its calendar with one time `hours` ahead. */
    calendarAppointment: async (body: Json = {}, hours = 48) => {
      const o = await offering({ kind: "appointment", min_notice_minutes: 0, ...body })
      const session = await self.session(o.id, hoursAhead(await clockNow(app), hours))
      return { offering: o, session }
    },
    /** An appointment on weekly hours (open every day 09:00-17:00 unless told). */
    hoursAppointment: async (body: Json = {}, hours?: ReadonlyArray<Json>) => {
      const o = await offering({ kind: "appointment", min_notice_minutes: 0, duration_minutes: 60, ...body })
      ok(await call("PATCH", `/offerings/${o.id}`, { schedule: "hours" }))
      if (hours) ok(await call("PUT", `/offerings/${o.id}/hours`, { hours }))
      return o
    },
    rental: (body: Json = {}) => offering({ kind: "rental", capacity: 3, ...body }),
    book: (body: Json, headers?: Record<string, string>) =>
      call("POST", "/bookings", { customer: guest(1), ...body }, headers),
    booked: async (body: Json) => ok(await self.book(body), 201) as Json & { id: string },
    get: (id: string) => call("GET", `/bookings/${id}`),
    act: (id: string, op: string, body: unknown = {}) => call("POST", `/bookings/${id}/${op}`, body),
    list: (query: Record<string, string | number | undefined> = {}) => call("GET", `/bookings${qs(query)}`),
    /** Events of the org (one type, or all), oldest first; moves the clock 3 s so they are served. */
    events: async (type?: string) => {
      await app.advance(3)
      const out: Json[] = []
      let after = 0
      for (;;) {
        const page = ok(await call("GET", `/events${qs({ after, limit: 200, type })}`))
        if (page.data.length === 0) return out
        out.push(...page.data)
        after = page.next_after
      }
    },
    /** Mail rows written for a booking, oldest first. */
    mails: (bookingId: string) =>
      sql(
        app,
        (s) => s<{ kind: string; to_address: string; subject: string; body: string }>`
        select kind, to_address, subject, body from mail_outbox where booking_id = ${bookingId} order by created_at, id`
      ),
    /** Kinds of the mail rows written for a booking, sorted (rows written at one engine instant have no order). */
    mailKinds: async (bookingId: string) => (await self.mails(bookingId)).map((m) => m.kind).sort(),
    /** The booking's guest page handle, read from the database (the API never shows it). */
    handle: async (bookingId: string) =>
      (await sql(app, (s) => s<{ handle: string }>`select handle from bookings where id = ${bookingId}`))[0].handle
  }
  return self
}

/** Seats (or bookings, for an appointment) that live bookings hold in a session, as sessions.list reports. */
export const bookedIn = async (org: BookingsOrg, offeringId: string, sessionId: string) =>
  (await org.sessions(offeringId)).find((s) => s.id === sessionId)?.booked as number

/** Makes a hold look as if its expires_at passed while the lapse job has not run yet (the row and the machine agree). */
export const expireInPlace = (app: TestApp, bookingId: string, at: Date) =>
  sql(
    app,
    (s) => s`update bookings set expires_at = ${at},
    machine = jsonb_set(machine, '{expires_at}', to_jsonb(${at.toISOString()}::text)) where id = ${bookingId}`
  )

export const codeOf = (res: Reply) => `${res.status} ${res.body?.error?.code ?? ""}`.trim()
