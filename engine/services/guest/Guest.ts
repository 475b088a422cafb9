import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { GuestCannotCancel, GuestCannotConfirm, GuestCannotMove, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { guestPage, Links, payAgainPage, waiverPage } from "../../ports/Links.ts"
import { Outdoors } from "../../ports/Outdoors.ts"
import { minorUnits } from "../../schema/currency.ts"
import type { GuestView } from "../../schema/guest.ts"
import { fn } from "../../tracing.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { CurrentOrg, RequestSurface } from "../CurrentOrg.ts"
import { Availability } from "../calendar/Availability.ts"
import { uidHost } from "../feeds/ical.ts"
import { Messages } from "../messages/Messages.ts"
import { chargeOf } from "../payments/refunds.ts"
import { type GuestActions, guestActions } from "./policy.ts"
import { icsOf, mapUrl, type Row } from "./view.ts"

export { icsOf, mapUrl } from "./view.ts"

/**
 * The guest's own page's side (/b/{handle} and /api/v1/guest/{handle}): the handle is the credential and reaches
 * only its booking. The guest reads it, cancels or moves it within the rules (policy.ts), picks another time while a
 * called-off booking's choose_by runs, and writes to the business. Every change goes through the same operations
 * as the API's, acting for the booking's org; a wrong handle is 404 like any unknown booking.
 */
export class Guest extends Effect.Service<Guest>()("Guest", {
  dependencies: [Bookings.Default, Availability.Default, Messages.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const bookings = yield* Bookings
    const availability = yield* Availability
    const messages = yield* Messages
    const links = yield* Links

    const load = (handle: string) =>
      Effect.gen(function* () {
        if (!/^[A-Za-z0-9_-]{16,64}$/.test(handle)) return yield* notFound("booking")
        const [row] = yield* sql<Row>`
          select b.*, o.name as o_name, o.kind as o_kind, o.location as o_location, o.lat as o_lat, o.lon as o_lon, o.place_id as o_place_id,
            o.gauge_site as o_gauge_site, o.deposit_cents as o_deposit_cents, o.deposit_percent as o_deposit_percent, g.name as g_name, g.timezone as g_timezone, g.currency as g_currency, g.locale as g_locale,
            g.plan as g_plan, g.guest_cancel_hours as g_cancel_hours, g.payments as g_payments, c.name as c_name, c.email as c_email
          from bookings b join offerings o on o.id = b.offering_id join orgs g on g.id = b.org_id left join customers c on c.id = b.customer_id
          where b.handle = ${handle}`.pipe(Effect.orDie)
        return row === undefined ? yield* notFound("booking") : row
      })

    /** Runs an operation as the booking's org, from the guest page. */
    const asOrg = <A, E, R>(r: Row, effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        Effect.provideService(CurrentOrg, {
          id: r.org_id,
          timezone: r.g_timezone,
          currency: r.g_currency,
          plan: r.g_plan,
          apiKeyId: "guest",
          role: "staff",
          userId: null
        }),
        Effect.provideService(RequestSurface, "widget")
      )

    const paidOf = (r: Row) => r.paid_cents ?? 0
    const actionsOf = (r: Row, now: Date): GuestActions =>
      guestActions(
        {
          status: r.status,
          keeps_place: r.keeps_place,
          expires_at: r.expires_at,
          starts_at: r.starts_at,
          choose_by: r.choose_by,
          series_id: r.series_id,
          guest_cancel_hours: r.guest_cancel_hours,
          due_online_cents:
            r.status === "held" && r.g_payments === "online" && r.checkout_url !== null
              ? Math.max(0, r.total_cents - r.gift_cents)
              : 0,
          nothing_to_pay: r.total_cents - r.gift_cents <= 0
        },
        r.g_cancel_hours,
        now
      )

    const view = (r: Row, now: Date): GuestView => {
      const actions = actionsOf(r, now)
      return {
        reference: r.reference,
        status: r.status,
        offering: {
          id: r.offering_id,
          name: r.o_name,
          kind: r.o_kind,
          location: r.o_location,
          map_url: mapUrl(r),
          lat: r.o_lat,
          lon: r.o_lon,
          gauge_site: r.o_gauge_site
        },
        org: {
          name: r.g_name,
          timezone: r.g_timezone,
          currency: r.g_currency,
          currency_minor_units: minorUnits(r.g_currency),
          locale: r.g_locale
        },
        guest: { name: r.c_name, email: r.c_email },
        starts_at: r.starts_at.toISOString(),
        ends_at: r.ends_at.toISOString(),
        quantity: r.quantity,
        total_cents: r.total_cents,
        discount_cents: r.discount_cents,
        gift_cents: r.gift_cents,
        paid_cents: paidOf(r),
        due_cents: r.status === "cancelled" ? 0 : Math.max(0, r.total_cents - paidOf(r)),
        expires_at: r.expires_at?.toISOString() ?? null,
        choose_by: r.choose_by?.toISOString() ?? null,
        cancelled_at: r.cancelled_at?.toISOString() ?? null,
        refund_cents: r.status === "cancelled" ? (r.refund_cents ?? r.charged_cents ?? 0) : null,
        refunded_at: r.refunded_at?.toISOString() ?? null,
        waiver:
          r.waiver_token === null || r.status === "cancelled"
            ? null
            : {
                needed: r.waiver_needed ?? r.quantity,
                signed: r.waiver_signed,
                url: waiverPage(links.publicUrl, r.waiver_token)
              },
        actions: {
          cancel_until: actions.cancel_until?.toISOString() ?? null,
          move_until: actions.move_until?.toISOString() ?? null,
          cancel_refunds_cents: actions.cancel_until === null ? 0 : (r.charged_cents ?? 0),
          pay_url: actions.pay ? payAgainPage(links.publicUrl, r.handle) : null,
          pay_cents: actions.pay
            ? chargeOf(r.total_cents - r.gift_cents, {
                deposit_cents: r.o_deposit_cents,
                deposit_percent: r.o_deposit_percent
              })
            : 0,
          can_confirm: actions.confirm,
          why_not: actions.why_not
        },
        page_url: guestPage(links.publicUrl, r.handle),
        calendar_url: `${guestPage(links.publicUrl, r.handle)}/calendar.ics`
      }
    }

    const get = (handle: string) => Effect.flatMap(load(handle), (r) => Effect.map(clock.now, (now) => view(r, now)))

    /** The row again after a change, as the guest sees it. */
    const reread = (handle: string) => get(handle)

    const cancel = fn("Guest.cancel")(function* (handle: string) {
      const r = yield* load(handle)
      const now = yield* clock.now
      const actions = actionsOf(r, now)
      if (actions.cancel_until === null)
        return yield* new GuestCannotCancel({ message: actions.why_not ?? "this booking cannot be cancelled here" })
      yield* asOrg(r, bookings.cancel(r.id, { reason: "guest" }))
      return yield* reread(handle)
    })

    /** Confirms a hold that waits for the guest (made by an assistant, nothing to pay). */
    const confirm = fn("Guest.confirm")(function* (handle: string) {
      const r = yield* load(handle)
      if (!actionsOf(r, yield* clock.now).confirm) {
        return yield* new GuestCannotConfirm({
          message:
            r.status === "confirmed"
              ? "this booking is confirmed already"
              : "this booking has nothing for you to confirm (a hold with something to pay is confirmed by paying)"
        })
      }
      yield* asOrg(r, bookings.confirm(r.id))
      return yield* reread(handle)
    })

    const move = fn("Guest.move")(function* (
      handle: string,
      to: { starts_at?: Date | undefined; session_id?: string | undefined }
    ) {
      const r = yield* load(handle)
      const now = yield* clock.now
      const actions = actionsOf(r, now)
      if (actions.move_until === null) {
        return yield* new GuestCannotMove({
          message:
            r.series_id !== null
              ? "a course booking holds every time of its course and cannot move"
              : (actions.why_not ?? "this booking cannot move here")
        })
      }
      yield* asOrg(
        r,
        bookings.move(r.id, {
          ...(to.starts_at ? { starts_at: to.starts_at } : {}),
          ...(to.session_id ? { session_id: to.session_id } : {})
        })
      )
      return yield* reread(handle)
    })

    /** The offering's bookable times, to move to. */
    const times = (handle: string, query: { from?: string | undefined; to?: string | undefined }) =>
      Effect.flatMap(load(handle), (r) =>
        asOrg(
          r,
          availability.get(r.offering_id, {
            ...(query.from ? { from: query.from } : {}),
            ...(query.to ? { to: query.to } : {})
          })
        )
      )

    const thread = (handle: string) =>
      Effect.flatMap(load(handle), (r) =>
        Effect.map(asOrg(r, messages.list({ booking_id: r.id })), (page) => ({
          data: page.data.map((m) => ({
            id: m.id,
            from: m.direction === "inbound" ? ("guest" as const) : ("business" as const),
            body: m.body,
            created_at: m.created_at
          }))
        }))
      )

    const write = fn("Guest.write")(function* (handle: string, body: string) {
      const r = yield* load(handle)
      const m = yield* messages.fromPage({ org_id: r.org_id, booking_id: r.id, customer_id: r.customer_id, text: body })
      return { id: m.id, from: "guest" as const, body: m.body, created_at: m.created_at }
    })

    /** The booking as an iCalendar event (RFC 5545), to add to a calendar. */
    const ics = (handle: string) =>
      Effect.flatMap(load(handle), (r) =>
        Effect.map(clock.now, (now) => icsOf(r, guestPage(links.publicUrl, r.handle), uidHost(links.publicUrl), now))
      )

    /** The weather at the meeting point for the start, and the river gauge's latest reading: each when it answers. */
    const outdoors = (handle: string) =>
      Effect.gen(function* () {
        const r = yield* load(handle)
        const now = yield* clock.now
        const port = yield* Outdoors
        if (r.status === "cancelled") return { weather: Option.none(), gauge: Option.none() }
        return yield* Effect.all(
          {
            weather:
              r.o_lat !== null && r.o_lon !== null
                ? port.weather(r.o_lat, r.o_lon, r.starts_at, now)
                : Effect.succeed(Option.none()),
            gauge: r.o_gauge_site !== null ? port.gauge(r.o_gauge_site) : Effect.succeed(Option.none())
          },
          { concurrency: 2 }
        )
      })

    return { get, confirm, cancel, move, times, thread, write, ics, outdoors } as const
  })
}) {}
