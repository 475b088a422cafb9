import { Effect } from "effect"
import { Webhooks } from "../../../engine/services/webhooks/Webhooks.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const webhooksHandlers = defineGroup(Api, "webhooks", (h) =>
  Effect.map(Webhooks, (webhooks) =>
    h
      .handle("create", ({ payload }) => webhooks.create(payload))
      .handle("list", () => webhooks.list)
      .handle("get", ({ path }) => webhooks.get(path.id))
      .handle("delete", ({ path }) => webhooks.remove(path.id))
      .handle("deliveries", ({ path }) => webhooks.deliveries(path.id))
      .handle("redeliver", ({ path, payload }) => webhooks.redeliver(path.id, payload.event_id))
  )
)
