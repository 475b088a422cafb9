import { currencyDecimals } from "../../engine/schema/currency.ts"
import { placesOf } from "../../engine/services/bookings/placement.ts"
import type { OfferingRow } from "../../engine/services/offerings/row.ts"
import { DEFAULT_HOURS } from "../../engine/time/hours.ts"
import { toLocal, weekdayOf } from "../../engine/time/local.ts"
import type * as Octo from "./schema.ts"

/**
 * The option every product has, and the unit every option has: one per seat (class), person (appointment) or item
 * (rental).
 */
export const OPTION_ID = "DEFAULT"
export const UNIT_ID = "adult"
const MINUTE_MS = 60_000

/** OCTO's UTC form: seconds, no fraction, Z. */
export const utc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z")

/** A local date-time in the zone with its offset, as OCTO writes them: 2026-12-01T07:00:00+01:00. */
export const localIso = (instant: Date, zone: string) => {
  const l = toLocal(instant, zone)
  const asUtc = Date.parse(`${l.date}T${l.time}Z`)
  const offset = Math.round((asUtc - instant.getTime()) / MINUTE_MS)
  const abs = Math.abs(offset)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${l.date}T${l.time}${offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
}

/** Times on hours (rentals) are sold as opening hours; sessions and appointment slots as start times. */
export const availabilityType = (o: Pick<OfferingRow, "kind">): Octo.Product["availabilityType"] =>
  o.kind === "rental" ? "OPENING_HOURS" : "START_TIME"

/** What the n-th unit of a booking costs: an appointment's guests after the first at guest_price_cents. */
export const unitPrice = (o: Pick<OfferingRow, "kind" | "price_cents" | "guest_price_cents">, n: number) =>
  o.kind === "appointment" && n > 0 ? (o.guest_price_cents ?? o.price_cents) : o.price_cents

export const pricing = (cents: number, currency: string): Octo.Pricing => ({
  original: cents,
  retail: cents,
  net: null,
  currency,
  currencyPrecision: currencyDecimals(currency),
  includedTaxes: []
})

export interface Ctx {
  readonly zone: string
  readonly currency: string
  readonly locale: string
  /** The caller asked for octo/pricing. */
  readonly pricing: boolean
}

export const unit = (o: OfferingRow, ctx: Ctx): Octo.Unit => ({
  id: UNIT_ID,
  internalName: o.kind === "rental" ? "Item" : "Adult",
  reference: null,
  type: "ADULT",
  restrictions: {
    minAge: 0,
    maxAge: 100,
    idRequired: false,
    minQuantity: null,
    maxQuantity: o.max_per_booking,
    paxCount: 1,
    accompaniedBy: []
  },
  requiredContactFields: [],
  ...(ctx.pricing ? { pricingFrom: [pricing(Math.min(unitPrice(o, 0), unitPrice(o, 1)), ctx.currency)] } : {})
})

export const product = (o: OfferingRow, startTimes: ReadonlyArray<string>, ctx: Ctx): Octo.Product => ({
  id: o.id,
  internalName: o.name,
  reference: null,
  locale: ctx.locale,
  timeZone: ctx.zone,
  allowFreesale: false,
  instantConfirmation: true,
  instantDelivery: true,
  availabilityRequired: true,
  availabilityType: availabilityType(o),
  deliveryFormats: ["QRCODE"],
  deliveryMethods: ["VOUCHER"],
  redemptionMethod: "DIGITAL",
  options: [
    {
      id: OPTION_ID,
      default: true,
      internalName: "Default",
      reference: null,
      availabilityLocalStartTimes: startTimes,
      cancellationCutoff: "0 hours",
      cancellationCutoffAmount: 0,
      cancellationCutoffUnit: "hour",
      requiredContactFields: [],
      restrictions: { minUnits: 1, maxUnits: o.max_per_booking },
      units: [unit(o, ctx)],
      ...(ctx.pricing ? { pricingFrom: [pricing(unitPrice(o, 0), ctx.currency)] } : {})
    }
  ],
  ...(ctx.pricing
    ? { defaultCurrency: ctx.currency, availableCurrencies: [ctx.currency], pricingPer: "UNIT" as const }
    : {})
})

export interface Slot {
  readonly starts_at: string
  readonly ends_at: string
  readonly capacity: number
  readonly remaining: number
  readonly session_id?: string | undefined
}

/** SOLD_OUT with no place left, LIMITED once any is taken, else AVAILABLE. */
export const statusOf = (remaining: number, capacity: number): Octo.AvailabilityStatus =>
  remaining <= 0 ? "SOLD_OUT" : remaining < capacity ? "LIMITED" : "AVAILABLE"

/** The weekly hours of an OPENING_HOURS product on a local date (start times have none). */
export const openingHoursOf = (o: OfferingRow, date: string) =>
  availabilityType(o) === "OPENING_HOURS"
    ? (o.hours ?? DEFAULT_HOURS)
        .filter((h) => h.weekday === weekdayOf(date))
        .map((h) => ({ from: h.start_time.slice(0, 5), to: h.end_time.slice(0, 5) }))
    : []

/** A time the engine offers, as an OCTO availability; its id is its local start (the form OCTO's examples use). */
export const availability = (o: OfferingRow, s: Slot, ctx: Ctx): Octo.Availability => {
  const start = new Date(s.starts_at)
  const end = new Date(s.ends_at)
  const status = statusOf(s.remaining, s.capacity)
  const price = unitPrice(o, 0)
  return {
    id: localIso(start, ctx.zone),
    localDateTimeStart: localIso(start, ctx.zone),
    localDateTimeEnd: localIso(end, ctx.zone),
    utcCutoffAt: utc(new Date(start.getTime() - o.min_notice_minutes * MINUTE_MS)),
    allDay: o.kind === "rental" && o.duration_minutes % 1440 === 0,
    available: status !== "SOLD_OUT",
    status,
    vacancies: s.remaining,
    capacity: s.capacity,
    maxUnits: o.kind === "appointment" ? o.max_per_booking : Math.min(o.max_per_booking, Math.max(0, s.remaining)),
    openingHours: openingHoursOf(o, toLocal(start, ctx.zone).date),
    ...(ctx.pricing
      ? { unitPricing: [{ ...pricing(price, ctx.currency), unitId: UNIT_ID }], pricing: pricing(price, ctx.currency) }
      : {})
  }
}

/** Whether a time has room for `units` of this offering (an appointment takes one place whatever its party). */
export const fits = (o: OfferingRow, s: Slot, units: number) => units === 0 || placesOf(o, units) <= s.remaining
