import { Effect } from "effect"
import { Bookings } from "../../../engine/services/bookings/Bookings.ts"
import { Payments } from "../../../engine/services/payments/Payments.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const bookingsHandlers = defineGroup(Api, "bookings", (h) =>
  Effect.map(Effect.all([Bookings, Payments]), ([bookings, payments]) =>
    h
      .handle("list", ({ urlParams }) => bookings.list(urlParams))
      .handle("get", ({ path }) => bookings.get(path.id))
      .handle("create", ({ payload }) => bookings.take(payload))
      .handle("confirm", ({ path }) => bookings.confirm(path.id))
      .handle("cancel", ({ path, payload }) => bookings.cancel(path.id, payload))
      .handle("move", ({ path, payload }) => bookings.move(path.id, payload))
      .handle("set_attendance", ({ path, payload }) => bookings.setAttendance(path.id, payload.attendance))
      .handle("mark_paid", ({ path, payload }) => bookings.markPaid(path.id, payload.paid_cents))
      .handle("mark_unpaid", ({ path }) => bookings.markUnpaid(path.id))
      .handle("resend", ({ path }) => bookings.resend(path.id))
      .handle("nudge", ({ path }) => bookings.nudge(path.id))
      .handle("retry_refund", ({ path }) => payments.retryRefund(path.id))
  )
)
