import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Availability, AvailabilityQuery } from "../../../engine/schema/calendar.ts"
import { GuestMessage, GuestMove, GuestThread, GuestView, GuestWrite } from "../../../engine/schema/guest.ts"

const HandleParam = HttpApiSchema.param(
  "handle",
  Schema.String.annotations({ description: "The booking's handle, from the link in the guest's email" })
)

/** The guest page's API: the booking's handle (from the guest's email) is the credential, no API key. */
export const GuestGroup = HttpApiGroup.make("guest")
  .annotate(
    OpenApi.Description,
    "The guest's own booking page API: the handle from the guest's email is the credential."
  )
  .add(
    HttpApiEndpoint.get("get")`/guest/${HandleParam}`
      .addSuccess(GuestView)
      .annotate(OpenApi.Summary, "The guest's booking, with what they may do now")
      .annotate(
        OpenApi.Description,
        "The guest's booking by the handle from their email (no API key), with what they may do now (actions: cancel_until, move_until, can_confirm, why_not). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("confirm")`/guest/${HandleParam}/confirm`
      .addSuccess(GuestView)
      .annotate(
        OpenApi.Summary,
        "Confirm a hold made for the guest (by an assistant) when there is nothing to pay (actions.can_confirm)"
      )
      .annotate(
        OpenApi.Description,
        "Confirms a hold made for the guest (by an assistant) when there is nothing to pay (actions.can_confirm; 409 guest_cannot_confirm otherwise). Emits booking.confirmed."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel")`/guest/${HandleParam}/cancel`
      .addSuccess(GuestView)
      .annotate(
        OpenApi.Summary,
        "Cancel as the guest, within the org's rule (actions.cancel_until); what was paid online goes back"
      )
      .annotate(
        OpenApi.Description,
        "Cancels as the guest, until actions.cancel_until under the org's rule (409 guest_cannot_cancel after); what was paid online goes back. Emits booking.cancelled, then booking.refunded."
      )
  )
  .add(
    HttpApiEndpoint.post("move")`/guest/${HandleParam}/move`
      .setPayload(GuestMove)
      .addSuccess(GuestView)
      .annotate(OpenApi.Summary, "Move to another time as the guest (actions.move_until), or pick one after a call-off")
      .annotate(
        OpenApi.Description,
        "Moves to another time as the guest until actions.move_until, or picks one after a call-off before choose_by (409 guest_cannot_move otherwise; a course never moves). Emits booking.moved."
      )
  )
  .add(
    HttpApiEndpoint.get("availability")`/guest/${HandleParam}/availability`
      .setUrlParams(AvailabilityQuery)
      .addSuccess(Availability)
      .annotate(OpenApi.Summary, "The booking's offering's times, to move to (as availability.get)")
      .annotate(OpenApi.Description, "The booking's offering's times, to move to (as availability.get). Emits nothing.")
  )
  .add(
    HttpApiEndpoint.get("messages")`/guest/${HandleParam}/messages`
      .addSuccess(GuestThread)
      .annotate(OpenApi.Summary, "The messages between the guest and the business about this booking")
      .annotate(
        OpenApi.Description,
        "The messages between the guest and the business about this booking, oldest first. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("write")`/guest/${HandleParam}/messages`
      .setPayload(GuestWrite)
      .addSuccess(GuestMessage, { status: 201 })
      .annotate(OpenApi.Summary, "Write to the business about this booking")
      .annotate(
        OpenApi.Description,
        "Writes to the business about this booking; the owner is emailed. Emits message.received (channel page), and message.sent (channel system) when the org acknowledges guests."
      )
  )
  .prefix("/api/v1")
