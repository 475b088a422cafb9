import { randomUUID } from "node:crypto"
import type { OfferingRow } from "../../engine/services/offerings/row.ts"
import type { ResellerBooking } from "../../engine/services/resellers/Resellers.ts"
import { type Ctx, localIso, OPTION_ID, pricing, UNIT_ID, unitPrice, utc } from "./map.ts"
import type { ContactInput, UnitItemInput } from "./requests.ts"
import type * as Octo from "./schema.ts"

/** A booking as the OCTO API reads it: the row, its guest, and what the reseller sent (its uuid, contact, items). */
export type OctoRow = ResellerBooking

/** A unit item's uuid and reference, as the reseller sent them (kept on the booking in this shape). */
export interface UnitRef {
  readonly uuid: string
  readonly resellerReference: string | null
}

/** The guest with no contact sent (a reservation made before the reseller knows who comes). */
export const PLACEHOLDER_EMAIL = "guest@octo.invalid"

/** Text sent, trimmed; null when absent or blank. */
export const nullable = (s: string | null | undefined) =>
  s === undefined || s === null || s.trim() === "" ? null : s.trim()

/** The contact as OCTO returns it: every field present, a full name made from the parts when only they were sent. */
export const contactFrom = (c: ContactInput | undefined): Octo.Contact => {
  const first = nullable(c?.firstName)
  const last = nullable(c?.lastName)
  const parts = first !== null || last !== null ? [first, last].filter((x) => x !== null).join(" ") : null
  return {
    fullName: nullable(c?.fullName) ?? parts,
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

/** The unit items' uuids and references: those sent, else those kept before, else new uuids. */
export const unitRefs = (
  items: ReadonlyArray<UnitItemInput>,
  before: ReadonlyArray<UnitRef> = []
): ReadonlyArray<UnitRef> =>
  items.map((u, i) => ({
    uuid: u.uuid ?? before[i]?.uuid ?? randomUUID(),
    resellerReference: u.resellerReference ?? before[i]?.resellerReference ?? null
  }))
export const refsOf = (b: OctoRow): ReadonlyArray<UnitRef> => (b.reseller_units ?? []) as ReadonlyArray<UnitRef>

/** A hold past its expiry is EXPIRED (it keeps no place), whether or not the lapse job reached it yet. */
export const octoStatus = (b: OctoRow, now: Date): Octo.BookingStatus =>
  b.status === "cancelled"
    ? "CANCELLED"
    : b.status === "confirmed"
      ? b.checked_in_at !== null
        ? "REDEEMED"
        : "CONFIRMED"
      : !b.keeps_place || (b.expires_at !== null && b.expires_at.getTime() <= now.getTime())
        ? "EXPIRED"
        : "ON_HOLD"

export const contactOf = (b: OctoRow): Octo.Contact => {
  const sent = b.reseller_contact as Octo.Contact | null
  if (sent !== null) return sent
  const email = b.c_email === PLACEHOLDER_EMAIL ? null : b.c_email
  return {
    fullName: email === null ? null : b.c_name,
    firstName: null,
    lastName: null,
    emailAddress: email,
    phoneNumber: email === null ? null : b.c_phone,
    locales: [],
    postalCode: null,
    country: null,
    notes: null
  }
}

export const booking = (
  b: OctoRow,
  o: OfferingRow,
  availability: Octo.Availability | null,
  now: Date,
  ctx: Ctx
): Octo.Booking => {
  const status = octoStatus(b, now)
  const contact = contactOf(b)
  const units = refsOf(b)
  const delivered = status === "CONFIRMED" || status === "REDEEMED"
  const redeemed = b.checked_in_at && utc(b.checked_in_at)
  const ticket = (value: string) =>
    delivered
      ? {
          redemptionMethod: "DIGITAL" as const,
          utcRedeemedAt: redeemed,
          deliveryOptions: [{ deliveryFormat: "QRCODE" as const, deliveryValue: value }]
        }
      : null
  return {
    id: b.id,
    uuid: b.reseller_uuid,
    testMode: false,
    resellerReference: b.reseller_reference,
    supplierReference: b.reference,
    status,
    utcCreatedAt: utc(b.created_at),
    utcUpdatedAt: utc(b.updated_at ?? b.created_at),
    utcExpiresAt: status === "ON_HOLD" || status === "EXPIRED" ? b.expires_at && utc(b.expires_at) : null,
    utcRedeemedAt: redeemed,
    utcConfirmedAt: b.confirmed_at && utc(b.confirmed_at),
    productId: b.offering_id,
    optionId: OPTION_ID,
    cancellable: (status === "ON_HOLD" || status === "CONFIRMED") && b.starts_at.getTime() > now.getTime(),
    cancellation:
      status === "CANCELLED"
        ? {
            refund: "FULL",
            reason: b.cancel_reason,
            utcCancelledAt: utc(b.cancelled_at ?? b.updated_at ?? b.created_at)
          }
        : null,
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
      utcRedeemedAt: redeemed,
      contact,
      ticket: ticket(`${b.reference}-${i + 1}`),
      ...(ctx.pricing ? { pricing: pricing(unitPrice(o, i), ctx.currency) } : {})
    })),
    ...(ctx.pricing ? { pricing: pricing(b.total_cents, ctx.currency) } : {})
  }
}
