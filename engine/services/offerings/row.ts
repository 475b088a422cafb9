import { Schema } from "effect"
import { Offering } from "../../schema/offering.ts"
import type { OfferingRow } from "../../store/offerings.ts"

export type { OfferingRow }

const strip = Schema.encodeSync(Offering)

/** The resource as the API shows it (and as events carry it): only the contract's fields. */
export const toOffering = ({ state, created_at, updated_at, ...r }: OfferingRow): Offering =>
  strip({
    ...r,
    active: state === "active",
    created_at: created_at.toISOString(),
    updated_at: updated_at?.toISOString() ?? null
  })
