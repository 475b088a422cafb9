import { Effect } from "effect"
import { Waivers } from "../../../engine/services/waivers/Waivers.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const waiversHandlers = defineGroup(Api, "waivers", (h) =>
  Effect.map(Waivers, (waivers) =>
    h
      .handle("get", ({ path }) => waivers.get(path.waiver_token))
      .handle("sign", ({ path, payload }) => waivers.sign(path.waiver_token, payload))
  )
)
