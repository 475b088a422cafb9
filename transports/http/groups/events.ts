import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { EventPage, EventsQuery } from "../../../engine/schema/event.ts"
import { Authentication } from "../security.ts"

export const EventsGroup = HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/events")
      .setUrlParams(EventsQuery)
      .addSuccess(EventPage)
      .annotate(OpenApi.Summary, "Events oldest first (order=desc: newest first), served once 2 seconds old")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
