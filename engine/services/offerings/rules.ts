import { Effect } from "effect"
import {
  CalendarHasTimes,
  DepositConflict,
  GuestPriceNotSupported,
  InvalidEntry,
  NotAClass,
  ScheduleNotSupported,
  WaitlistConflict,
  WaitlistNotSupported,
  WaiverMissing
} from "../../errors/index.ts"
import type { Kind, OfferingUpdate } from "../../schema/offering.ts"

export interface RuleState {
  readonly kind: Kind
  readonly schedule: "hours" | "calendar" | null
  readonly course: boolean
  readonly waitlist_enabled: boolean
  readonly waiver_required: boolean
  readonly guest_price_cents: number | null
}

export interface RuleFacts {
  readonly orgHasWaiver: boolean
  /** Whether the offering's calendar has times to come (an appointment may move to hours only without). */
  readonly hasTimesToCome: boolean
  /** Repeating calendar entries without ends_on (counted when the offering would become a course). */
  readonly openEndedEntries?: number
}

/** The "Defaults and rules" of the spec, checked on the request and on the offering as it would become. */
export const checkRules = (input: OfferingUpdate, next: RuleState, previous: RuleState | null, facts: RuleFacts) =>
  Effect.gen(function* () {
    if (input.deposit_cents != null && input.deposit_percent != null) {
      return yield* new DepositConflict({ message: "deposit_cents and deposit_percent exclude each other; send one" })
    }
    if (input.schedule !== undefined && next.kind !== "appointment") {
      return yield* new ScheduleNotSupported({ message: "schedule applies to appointments only" })
    }
    if (input.guest_price_cents != null && next.kind !== "appointment") {
      return yield* new GuestPriceNotSupported({ message: "guest_price_cents applies to appointments only" })
    }
    if (input.course === true && next.kind !== "class") {
      return yield* new NotAClass({ message: "course is valid for classes only" })
    }
    if (input.course === true && (facts.openEndedEntries ?? 0) > 0) {
      return yield* new InvalidEntry({
        message: `a course's repeating entry needs ends_on: ${facts.openEndedEntries} calendar entr${facts.openEndedEntries === 1 ? "y repeats" : "ies repeat"} with no end; give ${facts.openEndedEntries === 1 ? "it" : "each"} an ends_on first`
      })
    }
    if (next.course && next.waitlist_enabled && (input.course === true || input.waitlist_enabled === true)) {
      return yield* new WaitlistConflict({ message: "a course has no waitlist" })
    }
    const onCalendar = next.kind === "class" || (next.kind === "appointment" && next.schedule === "calendar")
    if (next.waitlist_enabled && !onCalendar) {
      return yield* new WaitlistNotSupported({
        message: "waitlist_enabled needs times on a calendar (a class, or an appointment on its calendar)"
      })
    }
    if (input.waiver_required === true && !facts.orgHasWaiver) {
      return yield* new WaiverMissing({ message: "set the org's waiver text (PUT /waiver) before requiring it" })
    }
    if (previous?.schedule === "calendar" && next.schedule === "hours" && facts.hasTimesToCome) {
      return yield* new CalendarHasTimes({
        message: "an appointment moves to weekly hours only once its calendar has no times to come"
      })
    }
  })
