import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { WaitlistEntry, WaitlistJoin, WaitlistPage, WaitlistQuery } from "../../../engine/schema/waitlist.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const WaitlistGroup = HttpApiGroup.make("waitlist")
  .add(
    HttpApiEndpoint.post("join", "/waitlist")
      .setPayload(WaitlistJoin)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WaitlistEntry, { status: 201 })
      .annotate(OpenApi.Summary, "Put a guest on the waitlist of a full calendar time for a party of `places` (409 has_room when it fits: book instead)")
  )
  .add(
    HttpApiEndpoint.get("list", "/waitlist")
      .setUrlParams(WaitlistQuery)
      .addSuccess(WaitlistPage)
      .annotate(OpenApi.Summary, "Guests waiting, first come first, by offering or time")
  )
  .add(
    HttpApiEndpoint.del("remove")`/waitlist/${IdParam}`
      .addSuccess(WaitlistEntry)
      .annotate(OpenApi.Summary, "Take a guest off the waitlist (waitlist.left, reason removed)")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
