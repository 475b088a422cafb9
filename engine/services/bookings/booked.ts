import { Data } from "effect"
import type { CustomerRow } from "../../store/customerRow.ts"
import type { OfferingRow } from "../offerings/row.ts"
import type { PlacedOffering } from "./placement.ts"

export type Promo = { readonly id: string; readonly code: string; readonly discount: number }
export type Gift = { readonly id: string; readonly cents: number }
/** A gift card's balance changed between its check and its take: the booking is tried again. */
export class GiftChanged extends Data.TaggedError("GiftChanged") {}
/** WRITE wrote no booking (the time changed meanwhile): what the claims before it took is undone with it. */
export class NotWritten extends Data.TaggedError("NotWritten")<{ readonly written: number }> {}

/** What a booking reads of its offering: READ selects these columns only (the pg driver decodes every column it is sent). */
export type Booked = PlacedOffering &
  Pick<
    OfferingRow,
    | "name"
    | "state"
    | "max_per_booking"
    | "price_cents"
    | "guest_price_cents"
    | "questions"
    | "waiver_required"
    | "waitlist_enabled"
  >

export type Read = Booked & {
  readonly s_id: string | null
  readonly s_starts_at: Date | null
  readonly s_ends_at: Date | null
  readonly s_state: string | null
  readonly s_booked: number | null
  readonly s_cap: number | null
  /** A closure of the org or the offering lies within a day of the time (READ), so the booking reads them. */
  readonly s_closed_near: boolean | null
  readonly c_id: string | null
  readonly c_name: string | null
  readonly c_email: string | null
  readonly c_phone: string | null
  readonly c_created_at: Date | null
  readonly c_updated_at: Date | null
  readonly g_cancel_hours: number | null
}

/** What the gate keeps of a READ: nothing of the guest it was read for. */
export const NO_GUEST = {
  c_id: null,
  c_name: null,
  c_email: null,
  c_phone: null,
  c_created_at: null,
  c_updated_at: null
} as const

/** The guest as READ found them, if the org knows their email. */
export const foundGuest = (read: Read, orgId: string): CustomerRow | undefined =>
  read.c_id === null
    ? undefined
    : {
        id: read.c_id,
        org_id: orgId,
        email: read.c_email,
        name: read.c_name,
        phone: read.c_phone,
        created_at: read.c_created_at!,
        updated_at: read.c_updated_at,
        erased_at: null
      }
