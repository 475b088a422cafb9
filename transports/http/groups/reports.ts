import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  AttendanceReport,
  OccupancyReport,
  ReportQuery,
  RevenueQuery,
  RevenueReport,
  WaitlistReport
} from "../../../engine/schema/report.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"

const RANGE =
  "Between two local dates of the org's zone (default the last 30 days; at most 3660 days; to before from: 400 invalid_to), in the org's currency, computed from the bookings, times and waitlist kept. Emits nothing."

export const ReportsGroup = HttpApiGroup.make("reports")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "The figures an owner runs the business by: revenue, occupancy, attendance, waitlist.")
  .add(
    HttpApiEndpoint.get("revenue", "/reports/revenue")
      .setUrlParams(RevenueQuery)
      .addSuccess(RevenueReport)
      .annotate(OpenApi.Summary, "Revenue by day, week, month or offering")
      .annotate(
        OpenApi.Description,
        `Bookings confirmed at some point, by the local date they were made (by day, ISO week, month) or by offering: charged online, refunded, net, paid by gift card, promo discounts, and deposits still due. ${RANGE}`
      )
  )
  .add(
    HttpApiEndpoint.get("occupancy", "/reports/occupancy")
      .setUrlParams(ReportQuery)
      .addSuccess(OccupancyReport)
      .annotate(OpenApi.Summary, "Places sold against places offered, per offering and hour of day")
      .annotate(
        OpenApi.Description,
        `Scheduled times on calendars starting in the range, per offering and local hour they start: how many, the places they offer and those taken (confirmed and held). ${RANGE}`
      )
  )
  .add(
    HttpApiEndpoint.get("attendance", "/reports/attendance")
      .setUrlParams(ReportQuery)
      .addSuccess(AttendanceReport)
      .annotate(OpenApi.Summary, "No-shows and cancellations per offering")
      .annotate(
        OpenApi.Description,
        `Bookings confirmed at some point whose time starts in the range, per offering: how many, cancelled, checked in, no-shows. ${RANGE}`
      )
  )
  .add(
    HttpApiEndpoint.get("waitlist", "/reports/waitlist")
      .setUrlParams(ReportQuery)
      .addSuccess(WaitlistReport)
      .annotate(OpenApi.Summary, "Waitlist joins and how many got a place")
      .annotate(
        OpenApi.Description,
        `Waitlist joins made in the range per offering, and those that ended booked. ${RANGE}`
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
