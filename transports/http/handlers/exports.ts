import { Effect } from "effect"
import { Exports } from "../../../engine/services/exports/Exports.ts"
import type { CsvExport } from "../../../engine/services/exports/plan.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

/** An export is written by the dispatcher as it is read (exportReply.ts); the contract names what the client gets. */
const asFile = (plan: CsvExport) => plan as unknown as string

export const exportsHandlers = defineGroup(Api, "exports", (h) =>
  Effect.map(Exports, (exports) =>
    h
      .handle("bookings", ({ urlParams }) => Effect.map(exports.bookings(urlParams), asFile))
      .handle("payments", ({ urlParams }) => Effect.map(exports.payments(urlParams), asFile))
      .handle("guests", ({ urlParams }) => Effect.map(exports.guests(urlParams), asFile))
  )
)
