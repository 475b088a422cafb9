import type { PromoCode } from "../../schema/promo.ts"
import type { PromoRow } from "../../store/promos.ts"

export type { PromoRow }

/** A date column as YYYY-MM-DD, whether the driver gives a string or a Date at UTC midnight. */
const day = (d: string | Date | null) =>
  d === null ? null : typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10)

export const toPromo = (r: PromoRow): PromoCode => ({
  id: r.id,
  code: r.code,
  percent_off: r.percent_off,
  amount_off_cents: r.amount_off_cents,
  max_uses: r.max_uses,
  uses: r.uses,
  starts_on: day(r.starts_on),
  ends_on: day(r.ends_on),
  offering_ids: r.offering_ids === null ? null : [...r.offering_ids],
  active: r.active,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null
})

/**
 * What a code takes off a total: percent_off rounded half up to a whole minor unit, or amount_off_cents; never more
 * than the total.
 */
export const discountOf = (p: Pick<PromoRow, "percent_off" | "amount_off_cents">, total: number) =>
  Math.min(total, p.percent_off !== null ? Math.floor((total * p.percent_off + 50) / 100) : (p.amount_off_cents ?? 0))

/** Why a code does not apply to a booking of this offering today (in the org's zone), or nothing when it does. */
export const refusalOf = (row: PromoRow | undefined, offeringId: string, today: string) => {
  if (row === undefined) return { code: "promo_code_unknown" as const, message: "promo_code: no such code" }
  if (!row.active) return { code: "promo_code_inactive" as const, message: `promo_code: ${row.code} is switched off` }
  const starts = day(row.starts_on)
  const ends = day(row.ends_on)
  if (starts !== null && today < starts)
    return { code: "promo_code_not_started" as const, message: `promo_code: ${row.code} applies from ${starts}` }
  if (ends !== null && today > ends)
    return { code: "promo_code_expired" as const, message: `promo_code: ${row.code} ended on ${ends}` }
  if (row.max_uses !== null && row.uses >= row.max_uses)
    return {
      code: "promo_code_used_up" as const,
      message: `promo_code: ${row.code} has been used ${row.max_uses} times, its limit`
    }
  if (row.offering_ids !== null && !row.offering_ids.includes(offeringId)) {
    return {
      code: "promo_code_not_for_offering" as const,
      message: `promo_code: ${row.code} does not apply to this offering`
    }
  }
  return undefined
}
