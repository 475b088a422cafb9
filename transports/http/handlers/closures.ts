import { Effect } from "effect"
import { Closures } from "../../../engine/services/calendar/Closures.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const closuresHandlers = defineGroup(Api, "closures", (h) =>
  Effect.map(Closures, (closures) =>
    h
      .handle("list", ({ urlParams }) => closures.list(urlParams))
      .handle("get", ({ path }) => closures.get(path.id))
      .handle("preview", ({ payload }) => closures.preview(payload))
      .handle("create", ({ payload }) => closures.create(payload))
      .handle("delete", ({ path }) => closures.remove(path.id))
  )
)
