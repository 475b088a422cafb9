import type { Plan } from "../CurrentOrg.ts"

/**
 * Bookings per org per calendar month (org time), by plan. Every booking created counts, holds included; cancelling
 * does not give it back. WRITE counts it on the org's event clock row (org_events.used, migration 0094), whose check
 * `used <= quota` refuses the booking past it: 402 plan_quota_exceeded, and the whole booking rolls back.
 */
export const MONTHLY_QUOTA: Record<Plan, number> = { free: 25, pro: 1_000, growth: 5_000, scale: 15_000 }
