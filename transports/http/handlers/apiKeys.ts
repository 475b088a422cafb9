import { Effect } from "effect"
import { Orgs } from "../../../engine/services/Orgs.ts"
import { Hosted } from "../../../engine/services/public/Hosted.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const keysHandlers = defineGroup(Api, "keys", (h) =>
  Effect.map(Effect.all([Orgs, Hosted]), ([orgs, hosted]) =>
    h
      .handle("list", () => orgs.ownKeys)
      .handle("create", ({ payload }) => orgs.createOwnKey(payload))
      .handle("revoke", ({ path }) => orgs.revokeOwnKey(path.id))
      .handle("widget_key", () => hosted.widgetKey)
  )
)
