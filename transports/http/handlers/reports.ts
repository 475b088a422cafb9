import { Effect } from "effect"
import { Reports } from "../../../engine/services/reports/Reports.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const reportsHandlers = defineGroup(Api, "reports", (h) =>
  Effect.map(Reports, (reports) =>
    h
      .handle("revenue", ({ urlParams }) => reports.revenue(urlParams))
      .handle("occupancy", ({ urlParams }) => reports.occupancy(urlParams))
      .handle("attendance", ({ urlParams }) => reports.attendance(urlParams))
      .handle("waitlist", ({ urlParams }) => reports.waitlist(urlParams))
  )
)
