import { Context, type Effect } from "effect"

/**
 * What offerings need to know from calendars and bookings, which own those tables. Each runs inside the
 * caller's transaction. The Live layer of the bookings and calendar services replaces the empty one.
 */
export class OfferingHooks extends Context.Tag("OfferingHooks")<
  OfferingHooks,
  {
    readonly hasTimesToCome: (offeringId: string) => Effect.Effect<boolean>
    readonly upcoming: (offeringId: string) => Effect.Effect<{ bookings: number; holds: number }>
    /** Cancels them, in the caller's transaction; answers how many, and the payments whose refunds are now due. */
    readonly cancelUpcoming: (
      offeringId: string
    ) => Effect.Effect<{ cancelled: number; payments: ReadonlyArray<string> }>
    /** Takes these payments' due refunds at the processor now (after the cancelling commit): what became of them. */
    readonly refundNow: (
      paymentIntentIds: ReadonlyArray<string>
    ) => Effect.Effect<{ refunded: number; refunding: number; refund_failed: number }>
    readonly waitlistClosed: (offeringId: string) => Effect.Effect<void>
    /** waiver_required changed: the offering's bookings to come follow what it asks now (docs/behaviour.md). */
    readonly waiverChanged: (offeringId: string, required: boolean, now: Date) => Effect.Effect<void>
  }
>() {}
