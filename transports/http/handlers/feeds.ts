import { Effect } from "effect"
import { Feeds } from "../../../engine/services/feeds/Feeds.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const feedsHandlers = defineGroup(Api, "feeds", (h) =>
  Effect.map(Feeds, (feeds) =>
    h
      .handle("list", ({ urlParams }) => feeds.list(urlParams))
      .handle("create", ({ payload }) => feeds.create(payload))
      .handle("rotate", ({ path }) => feeds.rotate(path.id))
      .handle("delete", ({ path }) => feeds.remove(path.id))
  )
)
