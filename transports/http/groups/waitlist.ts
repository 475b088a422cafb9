import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { WaitlistEntry, WaitlistJoin, WaitlistPage, WaitlistQuery } from "../../../engine/schema/waitlist.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const WaitlistGroup = HttpApiGroup.make("waitlist")
  .annotate(OpenApi.Description, "Guests waiting for a place at a full calendar time; emailed when one opens.")
  .add(
    HttpApiEndpoint.post("join", "/waitlist")
      .setPayload(WaitlistJoin)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WaitlistEntry, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Put a guest on the waitlist of a full calendar time for a party of `places` (409 has_room when it fits: book instead)"
      )
      .annotate(
        OpenApi.Description,
        "Puts a guest (found or added by email) on the waitlist of a full calendar time, by session_id or offering_id and starts_at, for a party of places. Only offerings with waitlist_enabled and times on a calendar; a time with room is 409 has_room (book it instead); a course has none (waitlist_conflict). Joining again changes the places. Emits waitlist.joined, and customer.updated for a new customer."
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/waitlist")
      .setUrlParams(WaitlistQuery)
      .addSuccess(WaitlistPage)
      .annotate(OpenApi.Summary, "Guests waiting, first come first, by offering or time")
      .annotate(OpenApi.Description, "Guests waiting, first come first, by offering or time. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.del("remove")`/waitlist/${IdParam}`
      .addSuccess(WaitlistEntry)
      .annotate(OpenApi.Summary, "Take a guest off the waitlist (waitlist.left, reason removed)")
      .annotate(OpenApi.Description, "Takes a guest off the waitlist. Emits waitlist.left with reason removed.")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
