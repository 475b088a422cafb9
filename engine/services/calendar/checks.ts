import { Effect, Option } from "effect"
import { CapacityNotSupported, NotAMember, NotOnCalendar, ScheduleIsHours } from "../../errors/index.ts"
import { parseTimeInput } from "../../time/local.ts"
import { Orgs } from "../Orgs.ts"
import type { OfferingRow } from "../offerings/row.ts"

/** Times on a calendar belong to classes and to appointments whose schedule is the calendar. */
export const requireCalendar = (offering: OfferingRow) => {
  if (offering.kind === "rental")
    return Effect.fail(new NotOnCalendar({ message: "a rental takes its times from weekly hours, not a calendar" }))
  if (offering.kind === "appointment" && offering.schedule === "hours") {
    return Effect.fail(
      new ScheduleIsHours({
        message: "this appointment takes its times from weekly hours; set schedule to calendar first"
      })
    )
  }
  return Effect.void
}

export const requireClassForCapacity = (offering: OfferingRow, capacity: number | null | undefined) =>
  capacity != null && offering.kind !== "class"
    ? Effect.fail(new CapacityNotSupported({ message: "capacity on a calendar time is for classes only" }))
    : Effect.void

/** An unknown teacher (not on the org's team) is 400 not_a_member. */
export const requireMember = (orgId: string, teacher: string | null | undefined) =>
  Effect.gen(function* () {
    if (teacher == null) return
    const orgs = yield* Orgs
    if (Option.isNone(yield* orgs.member(orgId, teacher.toLowerCase()))) {
      return yield* new NotAMember({ message: `teacher ${teacher} is not on the org's team` })
    }
  })

/** HH:MM:SS from checked input (HH:MM, HH:MM:00, 24:00); null stays null. */
export const full = (t: string | null | undefined) => (t == null ? null : (parseTimeInput(t) ?? t))
