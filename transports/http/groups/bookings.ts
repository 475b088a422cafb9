import { HttpApiGroup, OpenApi } from "@effect/platform"
import { Authentication } from "../security.ts"
import {
  markPaidEndpoint,
  markUnpaidEndpoint,
  moveEndpoint,
  nudgeEndpoint,
  resendEndpoint,
  retryRefundEndpoint,
  setAttendanceEndpoint
} from "./bookingActions.ts"
import { cancelEndpoint, confirmEndpoint, createEndpoint, getEndpoint, listEndpoint } from "./bookingEndpoints.ts"

export const BookingsGroup = HttpApiGroup.make("bookings")
  .annotate(
    OpenApi.Description,
    "Bookings and their lifecycle: held, confirmed, cancelled; moves, attendance, payments by hand, refunds."
  )
  .add(listEndpoint)
  .add(getEndpoint)
  .add(createEndpoint)
  .add(confirmEndpoint)
  .add(cancelEndpoint)
  .add(moveEndpoint)
  .add(setAttendanceEndpoint)
  .add(markPaidEndpoint)
  .add(markUnpaidEndpoint)
  .add(resendEndpoint)
  .add(nudgeEndpoint)
  .add(retryRefundEndpoint)
  .middleware(Authentication)
  .prefix("/api/v1")
