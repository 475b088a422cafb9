import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { EventPage, EventsQuery } from "../../../engine/schema/event.ts"
import { Authentication } from "../security.ts"

export const EventsGroup = HttpApiGroup.make("events")
  .annotate(
    OpenApi.Description,
    "The outbox: every change as an event with an increasing id, paged by cursor. The same events go to webhooks and the NATS bus; the event catalogue gives each type's data."
  )
  .add(
    HttpApiEndpoint.get("list", "/events")
      .setUrlParams(EventsQuery)
      .addSuccess(EventPage)
      .annotate(OpenApi.Summary, "Events oldest first (order=desc: newest first), served once 2 seconds old")
      .annotate(
        OpenApi.Description,
        "The org's events oldest first from after (0: the beginning), up to limit (default 50, at most 200), optionally of one type; order=desc serves newest first. booking_id (not in the spec, our extension) serves only the events about that booking: its booking.* events and those whose data.booking_id names it (waiver.signed, gift_card.refunded, message.*), read through an index of their own; another org's booking id serves none. Pass next_after back as after. An event is served once it is 2 seconds old, so a cursor never skips one still being written. Ids increase but are not consecutive. Each event's data is in the event catalogue (webhooks and components `…Event`). Reading emits nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
