import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "../../../engine/schema/common.ts"
import { Feed, FeedCreate, FeedCreated, FeedsQuery } from "../../../engine/schema/feed.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

const WHO =
  "Owners manage every feed of the org; a staff member only their own member feed (403 forbidden otherwise). Emits nothing (as API keys: a feed is a credential, not an event)."

const CONTENTS =
  "GET the URL (no key; 404 once revoked) for an iCalendar document of 30 days back to 365 days ahead, in the org's time zone (TZID with its VTIMEZONE): a member feed has the class times they teach (places booked and left) and the appointment bookings on times they take (the guest's name only); an offering feed its class times, or its bookings for an appointment or rental. Cancelled ones in that window are STATUS:CANCELLED."

export const FeedsGroup = HttpApiGroup.make("feeds")
  .annotate(
    OpenApi.Description,
    `Calendar feeds: a secret iCalendar URL per team member or offering, for Google, Apple or Outlook calendars to subscribe to. ${CONTENTS}`
  )
  .add(
    HttpApiEndpoint.get("list", "/feeds")
      .setUrlParams(FeedsQuery)
      .addSuccess(ListOf(Feed))
      .annotate(OpenApi.Summary, "The org's open calendar feeds (never their URLs)")
      .annotate(
        OpenApi.Description,
        `The feeds not revoked, oldest first (at most 1000), optionally one member's or one offering's; never their secret URLs. A staff member sees their own. ${WHO}`
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/feeds")
      .setPayload(FeedCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(FeedCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Make a calendar feed; its secret URL is in this answer only")
      .annotate(
        OpenApi.Description,
        `Makes a feed for a team member (kind member; user_id, default the key's own member: 400 invalid_user_id for a key of none, 400 not_a_member for someone not on the team) or an offering (kind offering, offering_id: 400 invalid_offering_id without it). The answer's url is shown once: only a hash of its secret is kept. ${CONTENTS} ${WHO}`
      )
  )
  .add(
    HttpApiEndpoint.post("rotate")`/feeds/${IdParam}/rotate`
      .setHeaders(IdempotencyHeaders)
      .addSuccess(FeedCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Make a feed's URL again: the old one revoked, a new one for the same calendar")
      .annotate(
        OpenApi.Description,
        `Revokes the feed and makes a new one for the same member or offering, in one step; the new url is in this answer only. A revoked feed is 404. ${WHO}`
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/feeds/${IdParam}`
      .addSuccess(Feed)
      .annotate(OpenApi.Summary, "Revoke a calendar feed: its URL answers 404 from now on")
      .annotate(
        OpenApi.Description,
        `Revokes the feed (answered with revoked_at); calendars subscribed to it get 404 from the moment this answers. Revoking a revoked feed answers it as it is. ${WHO}`
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
