import { Effect } from "effect"
import { Offerings } from "../../../engine/services/offerings/Offerings.ts"
import { Photos } from "../../../engine/services/offerings/Photos.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const offeringsHandlers = defineGroup(Api, "offerings", (h) =>
  Effect.gen(function* () {
    const offerings = yield* Offerings
    const photos = yield* Photos
    return h
      .handle("list", ({ urlParams }) => offerings.list(urlParams.kind))
      .handle("create", ({ payload }) => offerings.create(payload))
      .handle("get", ({ path }) => offerings.get(path.id))
      .handle("update", ({ path, payload }) => offerings.update(path.id, payload))
      .handle("delete", ({ path, urlParams }) => offerings.remove(path.id, urlParams.cancel_bookings))
      .handle("get_hours", ({ path }) => offerings.getHours(path.id))
      .handle("set_hours", ({ path, payload }) => offerings.setHours(path.id, payload.hours))
      .handle("set_photo", ({ path, payload }) =>
        payload instanceof Uint8Array ? photos.put(path.id, payload) : photos.set(path.id, payload)
      )
      .handle("delete_photo", ({ path }) => photos.remove(path.id))
  })
)
