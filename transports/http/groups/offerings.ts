import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ListOf } from "../../../engine/schema/common.ts"
import { DeleteResult, HoursBody, HoursList, Kind, Offering, OfferingCreate, OfferingUpdate } from "../../../engine/schema/offering.ts"
import { Authentication } from "../security.ts"
import { BooleanFromString, IdempotencyHeaders, IdParam } from "./common.ts"

export const OfferingsGroup = HttpApiGroup.make("offerings")
  .add(
    HttpApiEndpoint.get("list", "/offerings")
      .setUrlParams(Schema.Struct({ kind: Schema.optional(Kind) }))
      .addSuccess(ListOf(Offering))
      .annotate(OpenApi.Summary, "List offerings, paused ones included")
  )
  .add(
    HttpApiEndpoint.post("create", "/offerings")
      .setPayload(OfferingCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Offering, { status: 201 })
      .annotate(OpenApi.Summary, "Create an offering (name and kind required)")
  )
  .add(HttpApiEndpoint.get("get")`/offerings/${IdParam}`.addSuccess(Offering).annotate(OpenApi.Summary, "Get an offering"))
  .add(
    HttpApiEndpoint.patch("update")`/offerings/${IdParam}`
      .setPayload(OfferingUpdate)
      .addSuccess(Offering)
      .annotate(OpenApi.Summary, "Update an offering (any field except kind)")
  )
  .add(
    HttpApiEndpoint.del("delete")`/offerings/${IdParam}`
      .setUrlParams(Schema.Struct({ cancel_bookings: Schema.optional(BooleanFromString) }))
      .addSuccess(DeleteResult)
      .annotate(OpenApi.Summary, "Delete an offering; cancel_bookings=true when it has upcoming bookings or live holds")
  )
  .add(
    HttpApiEndpoint.get("get_hours")`/offerings/${IdParam}/hours`
      .addSuccess(HoursList)
      .annotate(OpenApi.Summary, "Weekly hours in org local time")
  )
  .add(
    HttpApiEndpoint.put("set_hours")`/offerings/${IdParam}/hours`
      .setPayload(HoursBody)
      .addSuccess(HoursList)
      .annotate(OpenApi.Summary, "Replace the weekly hours of a rental or an appointment on weekly hours")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
