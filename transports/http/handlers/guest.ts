import { Effect } from "effect"
import { Guest } from "../../../engine/services/guest/Guest.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const guestHandlers = defineGroup(Api, "guest", (h) =>
  Effect.map(Guest, (guest) =>
    h
      .handle("get", ({ path }) => guest.get(path.handle))
      .handle("confirm", ({ path }) => guest.confirm(path.handle))
      .handle("cancel", ({ path }) => guest.cancel(path.handle))
      .handle("move", ({ path, payload }) => guest.move(path.handle, payload))
      .handle("availability", ({ path, urlParams }) => guest.times(path.handle, urlParams))
      .handle("messages", ({ path }) => guest.thread(path.handle))
      .handle("write", ({ path, payload }) => guest.write(path.handle, payload.body))
  )
)
