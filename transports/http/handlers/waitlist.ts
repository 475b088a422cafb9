import { Effect } from "effect"
import { Waitlist } from "../../../engine/services/waitlist/Waitlist.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const waitlistHandlers = defineGroup(Api, "waitlist", (h) =>
  Effect.map(Waitlist, (waitlist) =>
    h
      .handle("join", ({ payload }) => waitlist.join(payload))
      .handle("list", ({ urlParams }) => waitlist.list(urlParams))
      .handle("remove", ({ path }) => waitlist.remove(path.id))
  )
)
