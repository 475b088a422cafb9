import { Effect } from "effect"
import { Promos } from "../../../engine/services/promos/Promos.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const promoCodesHandlers = defineGroup(Api, "promo_codes", (h) =>
  Effect.map(Promos, (promos) =>
    h
      .handle("list", () => promos.list)
      .handle("create", ({ payload }) => promos.create(payload))
      .handle("get", ({ path }) => promos.get(path.id))
      .handle("update", ({ path, payload }) => promos.update(path.id, payload))
      .handle("delete", ({ path }) => promos.remove(path.id))
  )
)
