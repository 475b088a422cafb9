import { SqlClient, type Statement } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type * as O from "../../schema/octo.ts"
import { addDays, toLocal, walkDays } from "../../time/local.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { Availability } from "../calendar/Availability.ts"
import { EngineClock } from "../Clock.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { customerStore } from "../../store/customers.ts"
import { bookingStore } from "../../store/bookings.ts"
import { Events } from "../Events.ts"
import { Links } from "../Links.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { Orgs } from "../Orgs.ts"
import { booking, type OctoRow, PLACEHOLDER_EMAIL, type UnitRef } from "./booking.ts"
import * as E from "./errors.ts"
import { availability, type Ctx, fits, OPTION_ID, openingHoursOf, pricing as priced, product, type Slot, statusOf, UNIT_ID, unitPrice } from "./map.ts"
import { fn, traced } from "../../tracing.ts"
import { transaction } from "../../store/transaction.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const AVAILABILITY_ID = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
/** A reservation is held this long unless the reseller asks for another expirationMinutes (1 to 1440). */
export const OCTO_HOLD_MINUTES = 30
const MINUTE_MS = 60_000
const LIST_LIMIT = 500
const START_TIME_DAYS = 14

/** A refusal of the engine, in OCTO's words: the engine's codes stay in the message. */
const fromEngine = (onNotFound: () => E.OctoFailure) => (e: { readonly _tag: string; readonly code?: string; readonly message: string }) => {
  switch (e._tag) {
    case "OctoFailure":
      return e as E.OctoFailure
    case "NotFound":
      return onNotFound()
    case "BadRequest":
      return E.badRequest(`${e.code}: ${e.message}`)
    case "Forbidden":
      return E.forbiddenKey(e.message)
    default:
      return E.unprocessable(e.code === "sold_out" ? `sold out: ${e.message}` : `${e.code ?? "refused"}: ${e.message}`)
  }
}

const nullable = (s: string | null | undefined) => (s === undefined || s === null || s.trim() === "" ? null : s.trim())

/** The contact as OCTO returns it: every field present, a full name made from the parts when only they were sent. */
export const contactFrom = (c: O.ContactInput | undefined): O.Contact => {
  const first = nullable(c?.firstName)
  const last = nullable(c?.lastName)
  return {
    fullName: nullable(c?.fullName) ?? (first !== null || last !== null ? [first, last].filter((x) => x !== null).join(" ") : null),
    firstName: first,
    lastName: last,
    emailAddress: nullable(c?.emailAddress)?.toLowerCase() ?? null,
    phoneNumber: nullable(c?.phoneNumber),
    locales: [...(c?.locales ?? [])],
    postalCode: nullable(c?.postalCode),
    country: nullable(c?.country)?.toUpperCase() ?? null,
    notes: nullable(c?.notes)
  }
}

/**
 * The OCTO core API over the engine: an org's active offerings as products (one option DEFAULT, one unit adult),
 * the engine's times as availability, and reservations as held bookings of source `octo` made through the same
 * bookings.create path (capacity decided by the database), confirmed, extended, changed and cancelled by the reseller.
 */
export class Octo extends Effect.Service<Octo>()("Octo", {
  dependencies: [Availability.Default, Bookings.Default, Orgs.Default, Events.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const availabilities = yield* Availability
    const bookings = yield* Bookings
    const orgs = yield* Orgs
    const events = yield* Events
    const customers = yield* customerStore
    const store = yield* bookingStore

    const context = (pricing: boolean) =>
      Effect.gen(function*() {
        const org = yield* orgs.get
        return { zone: org.timezone, currency: org.currency, locale: org.locale, pricing } satisfies Ctx
      })

    /** A product: an active offering of the org that books single times (a course books a series: not offered here). */
    const offering = (id: string, active = true) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        if (!UUID.test(id)) return yield* E.invalidProduct(id)
        const [o] = yield* sql<OfferingRow & { readonly deleted_at: Date | null }>`select * from offerings where id = ${id}::uuid and org_id = ${org.id}
          ${active ? sql`and deleted_at is null and state = 'active' and not course` : sql``}`.pipe(Effect.orDie)
        return o === undefined ? yield* E.invalidProduct(id) : o
      })

    const option = (id: string) => (id === OPTION_ID ? Effect.void : Effect.fail(E.invalidOption(id)))

    /** How many units the items or unit counts ask for; every unit id must be the option's one unit. */
    const unitCount = (units: ReadonlyArray<{ readonly id?: string; readonly unitId?: string; readonly quantity?: number }>) =>
      Effect.gen(function*() {
        let n = 0
        for (const u of units) {
          const id = u.unitId ?? u.id ?? ""
          if (id !== UNIT_ID) return yield* E.invalidUnit(id)
          n += u.quantity ?? 1
        }
        return n
      })

    const slots = (o: OfferingRow, from: string, to: string) =>
      availabilities.get(o.id, { from, to }).pipe(
        Effect.map((a): ReadonlyArray<Slot> => a.data),
        Effect.mapError(fromEngine(() => E.invalidProduct(o.id)))
      )

    /** The time an availability id names (the local start with its offset), if the engine offers it now. */
    const findSlot = (o: OfferingRow, id: string, zone: string) =>
      Effect.gen(function*() {
        const at = AVAILABILITY_ID.test(id) ? Date.parse(id) : Number.NaN
        if (Number.isNaN(at)) return yield* E.invalidAvailability(id)
        const date = toLocal(new Date(at), zone).date
        const found = (yield* slots(o, date, date)).find((s) => Date.parse(s.starts_at) === at)
        return { at: new Date(at), slot: Option.fromNullable(found) }
      })

    const supplier = Effect.gen(function*() {
      const org = yield* orgs.get
      const { publicUrl } = yield* Links
      return { id: org.id, name: org.name, endpoint: `${publicUrl}/api/octo`, contact: { website: null, email: null, telephone: null, address: null } }
    }).pipe(traced("Octo.supplier"))

    /** Distinct local start times over the next two weeks, as the option's availabilityLocalStartTimes. */
    const toProduct = (o: OfferingRow, ctx: Ctx) =>
      Effect.gen(function*() {
        const today = toLocal(yield* clock.now, ctx.zone).date
        const times = (yield* slots(o, today, addDays(today, START_TIME_DAYS - 1))).map((s) => toLocal(new Date(s.starts_at), ctx.zone).time.slice(0, 5))
        return product(o, [...new Set(times)].sort(), ctx)
      })

    const products = fn("Octo.products")(function*(pricing: boolean) {
      const org = yield* CurrentOrg
      const ctx = yield* context(pricing)
      const rows = yield* sql<OfferingRow>`select * from offerings where org_id = ${org.id} and deleted_at is null and state = 'active' and not course
        order by created_at, id`.pipe(Effect.orDie)
      return yield* Effect.forEach(rows, (o) => toProduct(o, ctx))
    })

    const getProduct = fn("Octo.product")(function*(id: string, pricing: boolean) {
      return yield* toProduct(yield* offering(id), yield* context(pricing))
    })

    const calendar = fn("Octo.calendar")(function*(body: O.CalendarBody, pricing: boolean) {
      const o = yield* offering(body.productId)
      yield* option(body.optionId)
      const units = yield* unitCount(body.units ?? [])
      const ctx = yield* context(pricing)
      if (body.localDateEnd < body.localDateStart) return yield* E.badRequest("localDateEnd is before localDateStart")
      const all = yield* slots(o, body.localDateStart, body.localDateEnd)
      return walkDays(body.localDateStart, body.localDateEnd).map((date) => {
        const day = all.filter((s) => toLocal(new Date(s.starts_at), ctx.zone).date === date)
        const remaining = day.reduce((n, s) => n + Math.max(0, s.remaining), 0)
        const capacity = day.reduce((n, s) => n + s.capacity, 0)
        const open = day.some((s) => fits(o, s, Math.max(1, units)))
        const from = priced(unitPrice(o, 0), ctx.currency)
        return {
          localDate: date,
          available: open,
          status: day.length === 0 ? "CLOSED" as const : open ? statusOf(remaining, capacity) : "SOLD_OUT" as const,
          vacancies: remaining,
          capacity,
          openingHours: openingHoursOf(o, date),
          ...(ctx.pricing ? { unitPricingFrom: [{ ...from, unitId: UNIT_ID }], pricingFrom: from } : {})
        }
      })
    })

    const check = fn("Octo.availability")(function*(body: O.AvailabilityBody, pricing: boolean) {
      const o = yield* offering(body.productId)
      yield* option(body.optionId)
      const units = yield* unitCount(body.units ?? [])
      const ctx = yield* context(pricing)
      const keep = (s: Slot) => fits(o, s, units)
      if (body.availabilityIds !== undefined) {
        const found = yield* Effect.forEach(body.availabilityIds, (id) => findSlot(o, id, ctx.zone))
        return found.flatMap((f) => Option.isSome(f.slot) && keep(f.slot.value) ? [availability(o, f.slot.value, ctx)] : [])
      }
      if (body.localDateStart === undefined || body.localDateEnd === undefined) {
        return yield* E.badRequest("send localDateStart and localDateEnd, or availabilityIds")
      }
      if (body.localDateEnd < body.localDateStart) return yield* E.badRequest("localDateEnd is before localDateStart")
      return (yield* slots(o, body.localDateStart, body.localDateEnd)).filter(keep).map((s) => availability(o, s, ctx))
    })

    // Bookings

    const select = (where: Statement.Fragment) =>
      sql<OctoRow>`select b.id, b.offering_id, b.octo_uuid, b.octo_contact, b.octo_units, b.reseller_reference, b.reference, b.status,
          b.keeps_place, b.expires_at, b.starts_at, b.ends_at, b.session_id, b.quantity, b.total_cents, b.notes, b.cancel_reason,
          b.created_at, b.updated_at, b.confirmed_at, b.cancelled_at, b.checked_in_at, c.name as c_name, c.email as c_email, c.phone as c_phone
        from bookings b join customers c on c.id = b.customer_id
        where b.octo_uuid is not null and ${where}
        order by b.starts_at, b.id limit ${LIST_LIMIT}`.pipe(Effect.orDie)

    const byUuid = (uuid: string) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        const [row] = yield* select(sql`b.org_id = ${org.id} and b.octo_uuid = ${uuid}`)
        return Option.fromNullable(row)
      })
    const find = (uuid: string) => Effect.flatMap(byUuid(uuid), Option.match({ onNone: () => Effect.fail(E.invalidBooking(uuid)), onSome: Effect.succeed }))

    /** Rows as OCTO bookings; the time each holds is looked up once per product and day. */
    const render = (rows: ReadonlyArray<OctoRow>, ctx: Ctx) =>
      Effect.gen(function*() {
        const now = yield* clock.now
        const products = new Map<string, OfferingRow & { readonly deleted_at: Date | null }>()
        const days = new Map<string, ReadonlyArray<Slot>>()
        return yield* Effect.forEach(rows, (b) =>
          Effect.gen(function*() {
            const o = products.get(b.offering_id) ?? (yield* offering(b.offering_id, false))
            products.set(o.id, o)
            const date = toLocal(b.starts_at, ctx.zone).date
            const key = `${o.id}/${date}`
            const live = o.state === "active" && o.deleted_at === null
            const day = days.get(key) ?? (live ? yield* slots(o, date, date).pipe(Effect.orElseSucceed(() => [])) : [])
            days.set(key, day)
            const slot = day.find((s) => Date.parse(s.starts_at) === b.starts_at.getTime())
            return booking(b, o, slot === undefined ? null : availability(o, slot, ctx), now, ctx)
          }))
      })
    const one = (uuid: string, ctx: Ctx) => Effect.map(Effect.flatMap(find(uuid), (b) => render([b], ctx)), (r) => r[0])

    /** The guest the engine knows for a contact: found or made by email, as every path finds a guest. */
    const guestFor = (orgId: string, contact: O.Contact) =>
      Effect.gen(function*() {
        const found = yield* customers.findOrCreate(orgId, { email: contact.emailAddress!, name: contact.fullName ?? null, phone: contact.phoneNumber ?? null }, yield* clock.now)
        yield* events.append(orgId, found.events)
        return found.id
      })

    /** What the reseller sends besides places: contact (the booking moves to that guest), references, notes. */
    const remember = (b: OctoRow, changes: { contact?: O.Contact; resellerReference?: string; notes?: string | null; units?: ReadonlyArray<UnitRef> }) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        const now = yield* clock.now
        const customer = changes.contact?.emailAddress != null && changes.contact.emailAddress !== b.c_email?.toLowerCase()
          ? { customer_id: yield* guestFor(org.id, changes.contact) }
          : {}
        const set = {
          ...customer,
          ...(changes.contact !== undefined ? { octo_contact: JSON.stringify(changes.contact) } : {}),
          ...(changes.resellerReference !== undefined ? { reseller_reference: changes.resellerReference } : {}),
          ...(changes.notes !== undefined ? { notes: changes.notes ?? "" } : {}),
          ...(changes.units !== undefined ? { octo_units: JSON.stringify(changes.units) } : {})
        }
        if (Object.keys(set).length === 0) return
        yield* store.recordReseller(org.id, b.id, set, now)
      }).pipe(transaction(sql), Effect.orDie)

    const unitRefs = (items: ReadonlyArray<O.UnitItemInput>, before: ReadonlyArray<UnitRef> = []): ReadonlyArray<UnitRef> =>
      items.map((u, i) => ({ uuid: u.uuid ?? before[i]?.uuid ?? randomUUID(), resellerReference: u.resellerReference ?? before[i]?.resellerReference ?? null }))
    const refsOf = (b: OctoRow): ReadonlyArray<UnitRef> => (typeof b.octo_units === "string" ? JSON.parse(b.octo_units) : b.octo_units ?? [])

    /**
     * POST /bookings: a held booking (expirationMinutes, 30 unless asked) with its places taken. The uuid is the
     * idempotency key: a reservation with a uuid already used answers the booking made then, and makes nothing.
     */
    const reserve = fn("Octo.reserve")(function*(body: O.ReserveBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const uuid = body.uuid ?? randomUUID()
      if (Option.isSome(yield* byUuid(uuid))) return yield* one(uuid, ctx)
      const o = yield* offering(body.productId)
      yield* option(body.optionId)
      const units = yield* unitCount(body.unitItems)
      if (units > o.max_per_booking) return yield* E.unprocessable(`at most ${o.max_per_booking} units in one booking`)
      const { at, slot } = yield* findSlot(o, body.availabilityId, ctx.zone)
      // A time not listed may be full or may not exist: the engine tells them apart (sold_out, time_not_available).
      if (Option.isSome(slot) && !fits(o, slot.value, units)) return yield* E.unprocessable(`sold out: ${Math.max(0, slot.value.remaining)} left at ${body.availabilityId}`)
      const contact = contactFrom(body.contact)
      const org = yield* CurrentOrg
      const made = bookings.reserve({
        offering_id: o.id,
        ...(Option.isSome(slot) && slot.value.session_id !== undefined ? { session_id: slot.value.session_id } : { starts_at: at }),
        quantity: units,
        customer: { email: contact.emailAddress ?? PLACEHOLDER_EMAIL, name: contact.fullName ?? "OCTO guest", ...(contact.phoneNumber ? { phone: contact.phoneNumber } : {}) },
        ...(nullable(body.notes) !== null ? { notes: body.notes! } : {}),
        hold_minutes: body.expirationMinutes ?? OCTO_HOLD_MINUTES
      }).pipe(
        Effect.mapError((e) =>
          e._tag === "Conflict" && e.code === "time_not_available" ? E.invalidAvailability(body.availabilityId) : fromEngine(() => E.invalidProduct(o.id))(e)
        ),
        Effect.tap((b) =>
          Effect.flatMap(clock.now, (now) =>
            store.recordReseller(org.id, b.id, {
              octo_uuid: uuid,
              reseller_reference: body.resellerReference ?? null,
              octo_contact: body.contact === undefined ? null : JSON.stringify(contact),
              octo_units: JSON.stringify(unitRefs(body.unitItems))
            }, now))
        ),
        transaction(sql)
      )
      // The same uuid reserved at the same moment: the unique index refused this one, whose booking rolled back.
      yield* made.pipe(Effect.catchIf((e): e is SqlError => e instanceof SqlError, (e) =>
        Effect.flatMap(byUuid(uuid), Option.match({ onNone: () => Effect.die(e), onSome: () => Effect.void }))))
      return yield* one(uuid, ctx)
    })

    const held = (b: OctoRow, now: Date) => b.status === "held" && b.keeps_place && b.expires_at !== null && b.expires_at.getTime() > now.getTime()
    const statusText = (b: OctoRow, now: Date) =>
      b.status === "cancelled" ? "cancelled" : b.status === "confirmed" ? "confirmed" : held(b, now) ? "on hold" : "expired"

    /** A hold is given more time from now (its machine's extend_hold): only while it still keeps its place. */
    const extendHold = (b: OctoRow, minutes: number) =>
      Effect.gen(function*() {
        const org = yield* CurrentOrg
        const now = yield* clock.now
        const until = new Date(now.getTime() + minutes * MINUTE_MS)
        const extended = yield* store.lock(org.id, b.id).pipe(
          Effect.flatMap((row) => store.apply(row, { type: "extend_hold", at: now.toISOString(), expires_at: until.toISOString() }, now)),
          Effect.flatMap((applied) => events.append(org.id, applied.events)),
          transaction(sql),
          Effect.as(true),
          Effect.catchTags({ Conflict: () => Effect.succeed(false), NotFound: () => Effect.succeed(false), SqlError: Effect.die })
        )
        if (!extended) return yield* E.unprocessable(`only a booking ON_HOLD can be extended; this one is ${statusText(b, now)}`)
      })

    const extend = fn("Octo.extend")(function*(uuid: string, body: { readonly expirationMinutes?: number | undefined }, pricing: boolean) {
      const ctx = yield* context(pricing)
      yield* extendHold(yield* find(uuid), body.expirationMinutes ?? OCTO_HOLD_MINUTES)
      return yield* one(uuid, ctx)
    })

    const sameUnits = (b: OctoRow, items: ReadonlyArray<O.UnitItemInput> | undefined) =>
      Effect.gen(function*() {
        if (items === undefined) return
        const n = yield* unitCount(items)
        if (n !== b.quantity) return yield* E.unprocessable(`this booking has ${b.quantity} unit(s): to change how many, cancel it and reserve again`)
      })

    /** POST /bookings/{uuid}/confirm: the hold becomes a booking (a hold past its expiry is refused: reserve again). */
    const confirm = fn("Octo.confirm")(function*(uuid: string, body: O.ConfirmBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      const now = yield* clock.now
      if (b.status === "confirmed") return yield* one(uuid, ctx)
      if (!held(b, now)) return yield* E.unprocessable(`this booking is ${statusText(b, now)} and cannot be confirmed${b.status === "held" ? ": reserve again" : ""}`)
      yield* sameUnits(b, body.unitItems)
      const contact = contactFrom(body.contact)
      yield* remember(b, {
        contact,
        ...(body.resellerReference !== undefined ? { resellerReference: body.resellerReference } : {}),
        ...(body.unitItems !== undefined ? { units: unitRefs(body.unitItems, refsOf(b)) } : {})
      })
      yield* bookings.confirm(b.id, { quiet: body.emailReceipt !== true || contact.emailAddress === null }).pipe(Effect.mapError(fromEngine(() => E.invalidBooking(uuid))))
      return yield* one(uuid, ctx)
    })

    /** PATCH /bookings/{uuid}: references, notes, contact, the hold's expiry, and the time (a move, re-checked for room). */
    const update = fn("Octo.update")(function*(uuid: string, body: O.UpdateBody, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      const now = yield* clock.now
      if (b.status === "cancelled" || (b.status === "held" && !held(b, now))) return yield* E.unprocessable(`this booking is ${statusText(b, now)} and cannot change`)
      if (body.productId !== undefined && body.productId !== b.offering_id) {
        yield* offering(body.productId)
        return yield* E.unprocessable("a booking keeps its product: cancel it and reserve the other product")
      }
      if (body.optionId !== undefined) yield* option(body.optionId)
      yield* sameUnits(b, body.unitItems)
      if (body.expirationMinutes !== undefined && b.status !== "held") return yield* E.unprocessable("only a booking ON_HOLD has an expiry to change")
      if (body.availabilityId !== undefined) {
        const o = yield* offering(b.offering_id)
        const { at, slot } = yield* findSlot(o, body.availabilityId, ctx.zone)
        if (at.getTime() !== b.starts_at.getTime()) {
          yield* bookings.move(b.id, Option.isSome(slot) && slot.value.session_id !== undefined ? { session_id: slot.value.session_id } : { starts_at: at }, { quiet: true }).pipe(
            Effect.mapError((e) =>
              e._tag === "Conflict" && e.code === "time_not_available" ? E.invalidAvailability(body.availabilityId!) : fromEngine(() => E.invalidBooking(uuid))(e)
            )
          )
        }
      }
      if (body.expirationMinutes !== undefined) yield* extendHold(b, body.expirationMinutes)
      yield* remember(b, {
        ...(body.contact !== undefined ? { contact: contactFrom(body.contact) } : {}),
        ...(body.resellerReference !== undefined ? { resellerReference: body.resellerReference } : {}),
        ...(body.notes !== undefined ? { notes: nullable(body.notes) } : {}),
        ...(body.unitItems !== undefined ? { units: unitRefs(body.unitItems, refsOf(b)) } : {})
      })
      return yield* one(uuid, ctx)
    })

    /** POST /bookings/{uuid}/cancel: a hold is released, a booking cancelled (reason kept); the reseller tells its guest. */
    const cancel = fn("Octo.cancel")(function*(uuid: string, body: { readonly reason?: string | null | undefined }, pricing: boolean) {
      const ctx = yield* context(pricing)
      const b = yield* find(uuid)
      if (b.status === "cancelled") return yield* one(uuid, ctx)
      yield* bookings.cancel(b.id, { ...(nullable(body.reason) !== null ? { reason: body.reason! } : {}), quiet: true }).pipe(
        Effect.mapError(fromEngine(() => E.invalidBooking(uuid)))
      )
      return yield* one(uuid, ctx)
    })

    const get = fn("Octo.get")(function*(uuid: string, pricing: boolean) {
      return yield* one(uuid, yield* context(pricing))
    })

    /** GET /bookings by resellerReference or supplierReference, or by local start dates (and product); at most 500. */
    const list = fn("Octo.list")(function*(q: O.BookingsQuery, pricing: boolean) {
      const org = yield* CurrentOrg
      const ctx = yield* context(pricing)
      if (q.resellerReference === undefined && q.supplierReference === undefined && (q.localDateStart === undefined || q.localDateEnd === undefined)) {
        return yield* E.badRequest("send resellerReference, supplierReference, or localDateStart and localDateEnd")
      }
      if (q.optionId !== undefined) yield* option(q.optionId)
      if (q.productId !== undefined && !UUID.test(q.productId)) return yield* E.invalidProduct(q.productId)
      const filters = [
        sql`b.org_id = ${org.id}`,
        ...(q.resellerReference !== undefined ? [sql`b.reseller_reference = ${q.resellerReference}`] : []),
        ...(q.supplierReference !== undefined ? [sql`b.reference = ${q.supplierReference}`] : []),
        ...(q.productId !== undefined ? [sql`b.offering_id = ${q.productId}::uuid`] : []),
        ...(q.localDateStart !== undefined ? [sql`b.starts_at >= ${new Date(Date.parse(`${q.localDateStart}T00:00:00Z`) - 14 * 3_600_000)}`] : []),
        ...(q.localDateEnd !== undefined ? [sql`b.starts_at < ${new Date(Date.parse(`${addDays(q.localDateEnd, 1)}T00:00:00Z`) + 14 * 3_600_000)}`] : [])
      ]
      const rows = (yield* select(sql.and(filters))).filter((b) => {
        const date = toLocal(b.starts_at, ctx.zone).date
        return (q.localDateStart === undefined || date >= q.localDateStart) && (q.localDateEnd === undefined || date <= q.localDateEnd)
      })
      return yield* render(rows, ctx)
    })

    return { supplier, products, product: getProduct, calendar, availability: check, reserve, update, confirm, extend, cancel, get, list } as const
  })
}) {}
