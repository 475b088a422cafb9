import type * as Octo from "../../schema/octo.ts"
import type { OfferingRow } from "../offerings/row.ts"
import { type Ctx, localIso, OPTION_ID, pricing, UNIT_ID, unitPrice, utc } from "./map.ts"

/** A booking as the OCTO API reads it: the row, its guest, and what the reseller sent. */
export interface OctoRow {
  readonly id: string
  readonly offering_id: string
  readonly octo_uuid: string
  readonly octo_contact: Octo.Contact | string | null
  readonly octo_units: ReadonlyArray<UnitRef> | string | null
  readonly reseller_reference: string | null
  readonly reference: string
  readonly status: "held" | "confirmed" | "cancelled"
  readonly keeps_place: boolean
  readonly expires_at: Date | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly session_id: string | null
  readonly quantity: number
  readonly total_cents: number
  readonly notes: string
  readonly cancel_reason: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
  readonly confirmed_at: Date | null
  readonly cancelled_at: Date | null
  readonly checked_in_at: Date | null
  readonly c_name: string | null
  readonly c_email: string | null
  readonly c_phone: string | null
}

export interface UnitRef {
  readonly uuid: string
  readonly resellerReference: string | null
}

const json = <A>(v: A | string | null): A | null => (typeof v === "string" ? JSON.parse(v) as A : v)

/** A hold past its expiry is EXPIRED (it keeps no place), whether or not the lapse job reached it yet. */
export const octoStatus = (b: OctoRow, now: Date): Octo.BookingStatus =>
  b.status === "cancelled"
    ? "CANCELLED"
    : b.status === "confirmed"
    ? b.checked_in_at !== null ? "REDEEMED" : "CONFIRMED"
    : !b.keeps_place || (b.expires_at !== null && b.expires_at.getTime() <= now.getTime())
    ? "EXPIRED"
    : "ON_HOLD"

/** The guest with no contact sent (a reservation made before the reseller knows who comes). */
export const PLACEHOLDER_EMAIL = "guest@octo.invalid"

export const contactOf = (b: OctoRow): Octo.Contact => {
  const sent = json<Octo.Contact>(b.octo_contact)
  if (sent !== null) return sent
  const email = b.c_email === PLACEHOLDER_EMAIL ? null : b.c_email
  return {
    fullName: email === null ? null : b.c_name, firstName: null, lastName: null, emailAddress: email, phoneNumber: email === null ? null : b.c_phone,
    locales: [], postalCode: null, country: null, notes: null
  }
}

export const booking = (b: OctoRow, o: OfferingRow, availability: Octo.Availability | null, now: Date, ctx: Ctx): Octo.Booking => {
  const status = octoStatus(b, now)
  const contact = contactOf(b)
  const units = json<ReadonlyArray<UnitRef>>(b.octo_units) ?? []
  const delivered = status === "CONFIRMED" || status === "REDEEMED"
  const ticket = (value: string) =>
    delivered ? { redemptionMethod: "DIGITAL" as const, utcRedeemedAt: b.checked_in_at && utc(b.checked_in_at), deliveryOptions: [{ deliveryFormat: "QRCODE" as const, deliveryValue: value }] } : null
  return {
    id: b.id,
    uuid: b.octo_uuid,
    testMode: false,
    resellerReference: b.reseller_reference,
    supplierReference: b.reference,
    status,
    utcCreatedAt: utc(b.created_at),
    utcUpdatedAt: utc(b.updated_at ?? b.created_at),
    utcExpiresAt: status === "ON_HOLD" || status === "EXPIRED" ? b.expires_at && utc(b.expires_at) : null,
    utcRedeemedAt: b.checked_in_at && utc(b.checked_in_at),
    utcConfirmedAt: b.confirmed_at && utc(b.confirmed_at),
    productId: b.offering_id,
    optionId: OPTION_ID,
    cancellable: (status === "ON_HOLD" || status === "CONFIRMED") && b.starts_at.getTime() > now.getTime(),
    cancellation: status === "CANCELLED" ? { refund: "FULL", reason: b.cancel_reason, utcCancelledAt: utc(b.cancelled_at ?? b.updated_at ?? b.created_at) } : null,
    freesale: false,
    availabilityId: localIso(b.starts_at, ctx.zone),
    availability,
    contact,
    notes: b.notes === "" ? null : b.notes,
    deliveryMethods: ["VOUCHER"],
    voucher: ticket(b.reference),
    unitItems: Array.from({ length: b.quantity }, (_, i) => ({
      uuid: units[i]?.uuid ?? `${b.id.slice(0, 24)}${String(i + 1).padStart(12, "0")}`,
      resellerReference: units[i]?.resellerReference ?? null,
      supplierReference: `${b.reference}-${i + 1}`,
      unitId: UNIT_ID,
      status,
      utcRedeemedAt: b.checked_in_at && utc(b.checked_in_at),
      contact,
      ticket: ticket(`${b.reference}-${i + 1}`),
      ...(ctx.pricing ? { pricing: pricing(unitPrice(o, i), ctx.currency) } : {})
    })),
    ...(ctx.pricing ? { pricing: pricing(b.total_cents, ctx.currency) } : {})
  }
}
