import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  BookingsExportQuery,
  EXPORT_PAGE_ROWS,
  GuestsExportQuery,
  MCP_EXPORT_ROWS,
  PaymentsExportQuery
} from "../../../engine/schema/export.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"

/** The file as REST answers it (an MCP call answers a page of it as JSON: transports/mcp/tools.ts). */
export const CsvFile = HttpApiSchema.Text({ contentType: "text/csv" }).annotations({
  description:
    "UTF-8 CSV with a byte order mark, CRLF line ends, one header line; an attachment named <org slug>-<what>-<dates>.csv"
})

const FILE = `A CSV file (text/csv; charset=utf-8), streamed as it is read (${EXPORT_PAGE_ROWS} rows at a time, so a year of a busy org is never held in memory): a UTF-8 byte order mark, one header line, CRLF line ends, fields quoted as RFC 4180 says. Times are the org's wall clock, YYYY-MM-DD HH:mm, with a timezone column naming the zone; money is a decimal of the currency (19.99), with a currency column. A text cell that a spreadsheet would run as a formula (starting =, +, -, @) is opened with a '. after takes the id of the last row received, to carry on after a cut download; limit stops after that many rows. As an MCP tool it answers JSON { csv, rows, next }: the header and at most ${MCP_EXPORT_ROWS} rows (limit, fewer), next to pass as after (null: the last page). Owners only. A refusal comes before the file, as JSON; an error once the file has begun cuts it short (the response ends incomplete). Emits nothing.`

export const ExportsGroup = HttpApiGroup.make("exports")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "The org's bookings, payments and refunds, and guests as CSV files, for spreadsheets.")
  .add(
    HttpApiEndpoint.get("bookings", "/exports/bookings.csv")
      .setUrlParams(BookingsExportQuery)
      .addSuccess(CsvFile)
      .annotate(OpenApi.Summary, "The bookings as CSV, with the list's filters")
      .annotate(
        OpenApi.Description,
        `The bookings bookings.list finds for the same filters (from and to by start, status, offering, guest, time, reference, q), in its order (by start; order=desc latest first), one row each: its times, guest, offering, money (total, discount, gift card, paid, charged online, refunded) and when it was made, confirmed, cancelled, checked in or marked no-show. ${FILE}`
      )
  )
  .add(
    HttpApiEndpoint.get("payments", "/exports/payments.csv")
      .setUrlParams(PaymentsExportQuery)
      .addSuccess(CsvFile)
      .annotate(OpenApi.Summary, "Payments and refunds as CSV")
      .annotate(
        OpenApi.Description,
        `The money that landed online, oldest first: one row per payment (kind payment, at when it landed) and one per refund of it (kind refund, its status pending, taken, refunded or failed, at when it was refunded or failed; one still on its way shows its payment's time), between local dates from and to of the org's zone (to before from: 400 invalid_to), of one kind or one booking. Payments taken by hand are the bookings' paid column (exports.bookings). after: payment:<id> or refund:<id> of the last row. ${FILE}`
      )
  )
  .add(
    HttpApiEndpoint.get("guests", "/exports/guests.csv")
      .setUrlParams(GuestsExportQuery)
      .addSuccess(CsvFile)
      .annotate(OpenApi.Summary, "The guests as CSV, with the list's search")
      .annotate(
        OpenApi.Description,
        `The guests customers.list finds (q: name, email or phone), in its order (oldest first), one row each: name, email, phone, when added and last changed. Erased guests are left out. ${FILE}`
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
