import type { Entry, Session } from "../../schema/calendar.ts"
import type { Repeat } from "../../time/recurrence.ts"

export interface TeacherCols {
  readonly teacher_id: string | null
  readonly teacher_name: string | null
  readonly teacher_email: string | null
}

export interface SeriesRow extends TeacherCols {
  readonly id: string
  readonly org_id: string
  readonly offering_id: string
  readonly starts_on: string
  readonly start_time: string | null
  readonly end_time: string | null
  readonly span_days: number
  readonly repeat: Repeat
  readonly capacity: number | null
  readonly ends_on: string | null
  readonly made_until: string
  readonly created_at: Date
}

export interface SessionRow extends TeacherCols {
  readonly id: string
  readonly org_id: string
  readonly offering_id: string
  readonly series_id: string | null
  readonly occurs_on: string | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly capacity: number | null
  readonly state: "scheduled" | "cancelled" | "removed"
  readonly cancel_guests: "refund" | "choose" | null
  readonly cancel_note: string | null
  readonly cancelled_at: Date | null
  readonly created_at: Date
  readonly booked?: number
}

/** A teacher is named by their name, or the local part of their email until they set one. */
export const teacherOf = (r: TeacherCols) =>
  r.teacher_id === null
    ? null
    : { user_id: r.teacher_id, name: r.teacher_name ?? (r.teacher_email ?? "").split("@")[0] }

export const toEntry = (r: SeriesRow): Entry => ({
  id: r.id,
  org_id: r.org_id,
  offering_id: r.offering_id,
  starts_on: r.starts_on,
  start_time: r.start_time,
  end_time: r.end_time,
  span_days: r.span_days,
  repeat: r.repeat,
  capacity: r.capacity,
  ends_on: r.ends_on,
  made_until: r.made_until,
  teacher: teacherOf(r),
  created_at: r.created_at.toISOString()
})

export const toSession = (r: SessionRow): Session => ({
  id: r.id,
  org_id: r.org_id,
  offering_id: r.offering_id,
  starts_at: r.starts_at.toISOString(),
  ends_at: r.ends_at.toISOString(),
  capacity: r.capacity,
  status: r.state === "cancelled" ? "cancelled" : "scheduled",
  series_id: r.series_id,
  occurs_on: r.occurs_on,
  teacher: teacherOf(r),
  created_at: r.created_at.toISOString(),
  ...(r.booked === undefined ? {} : { booked: r.booked })
})
