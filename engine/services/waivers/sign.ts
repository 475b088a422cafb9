import { randomUUID } from "node:crypto"
import type { WaiverSignature } from "../../store/bookingRow.ts"
import type { NewEvent } from "../Events.ts"

/** Signatures for people on a booking, and a waiver.signed event for each, counting on from those held. */
export const newSignatures = (
  booking: { readonly id: string; readonly reference: string },
  held: ReadonlyArray<WaiverSignature>,
  people: ReadonlyArray<{ readonly name: string; readonly for: WaiverSignature["for"] }>,
  needed: number,
  version: number,
  at: Date
) => {
  const added: Array<WaiverSignature> = people.map((p) => ({
    id: randomUUID(),
    name: p.name,
    for: p.for,
    version,
    signed_at: at.toISOString()
  }))
  const events: Array<NewEvent> = added.map((s, i) => ({
    type: "waiver.signed",
    data: {
      booking_id: booking.id,
      reference: booking.reference,
      signature_id: s.id,
      signed: held.length + i + 1,
      needed
    }
  }))
  return { signatures: [...held, ...added], added, events }
}
