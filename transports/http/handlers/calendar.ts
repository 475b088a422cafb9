import { Effect } from "effect"
import { Availability } from "../../../engine/services/calendar/Availability.ts"
import { Series } from "../../../engine/services/calendar/Series.ts"
import { Sessions } from "../../../engine/services/calendar/Sessions.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const availabilityHandlers = defineGroup(Api, "availability", (h) =>
  Effect.map(Availability, (availability) =>
    h.handle("get", ({ path, urlParams }) => availability.get(path.id, urlParams))
  )
)

export const seriesHandlers = defineGroup(Api, "series", (h) =>
  Effect.map(Series, (series) =>
    h
      .handle("list", ({ urlParams }) => series.list(urlParams.offering_id))
      .handle("create", ({ payload }) => series.create(payload))
      .handle("update", ({ path, payload }) => series.update(path.id, payload))
      .handle("delete", ({ path, urlParams }) => series.remove(path.id, urlParams.cancel_bookings))
  )
)

export const sessionsHandlers = defineGroup(Api, "sessions", (h) =>
  Effect.map(Sessions, (sessions) =>
    h
      .handle("list", ({ urlParams }) => sessions.list(urlParams))
      .handle("create", ({ payload }) => sessions.create(payload))
      .handle("update", ({ path, payload }) => sessions.update(path.id, payload))
      .handle("cancel", ({ path, payload }) => sessions.cancel(path.id, payload))
  )
)
