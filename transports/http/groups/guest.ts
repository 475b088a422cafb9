import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Availability, AvailabilityQuery } from "../../../engine/schema/calendar.ts"
import { GuestMessage, GuestMove, GuestThread, GuestView, GuestWrite } from "../../../engine/schema/guest.ts"

const HandleParam = HttpApiSchema.param("handle", Schema.String)

/** The guest page's API: the booking's handle (from the guest's email) is the credential, no API key. */
export const GuestGroup = HttpApiGroup.make("guest")
  .add(HttpApiEndpoint.get("get")`/guest/${HandleParam}`.addSuccess(GuestView).annotate(OpenApi.Summary, "The guest's booking, with what they may do now"))
  .add(
    HttpApiEndpoint.post("confirm")`/guest/${HandleParam}/confirm`
      .addSuccess(GuestView)
      .annotate(OpenApi.Summary, "Confirm a hold made for the guest (by an assistant) when there is nothing to pay (actions.can_confirm)")
  )
  .add(
    HttpApiEndpoint.post("cancel")`/guest/${HandleParam}/cancel`
      .addSuccess(GuestView)
      .annotate(OpenApi.Summary, "Cancel as the guest, within the org's rule (actions.cancel_until); what was paid online goes back")
  )
  .add(
    HttpApiEndpoint.post("move")`/guest/${HandleParam}/move`
      .setPayload(GuestMove)
      .addSuccess(GuestView)
      .annotate(OpenApi.Summary, "Move to another time as the guest (actions.move_until), or pick one after a call-off")
  )
  .add(
    HttpApiEndpoint.get("availability")`/guest/${HandleParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .addSuccess(Availability)
      .annotate(OpenApi.Summary, "The booking's offering's times, to move to (as availability.get)")
  )
  .add(HttpApiEndpoint.get("messages")`/guest/${HandleParam}/messages`.addSuccess(GuestThread).annotate(OpenApi.Summary, "The messages between the guest and the business about this booking"))
  .add(
    HttpApiEndpoint.post("write")`/guest/${HandleParam}/messages`
      .setPayload(GuestWrite)
      .addSuccess(GuestMessage, { status: 201 })
      .annotate(OpenApi.Summary, "Write to the business about this booking")
  )
  .prefix("/api/v1")
