import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PromoCode, PromoCodeCreate, PromoCodePage, PromoCodeUpdate } from "../../../engine/schema/promo.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const PromoCodesGroup = HttpApiGroup.make("promo_codes")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "Discount codes a guest brings to a booking.")
  .add(
    HttpApiEndpoint.get("list", "/promo_codes")
      .addSuccess(PromoCodePage)
      .annotate(OpenApi.Summary, "The org's promo codes with their uses")
      .annotate(OpenApi.Description, "The org's promo codes with their uses. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.post("create", "/promo_codes")
      .setPayload(PromoCodeCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(PromoCode, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Add a promo code: percent_off or amount_off_cents, with an optional limit, dates and offerings"
      )
      .annotate(
        OpenApi.Description,
        "Adds a code (unique in the org in any case) with exactly one of percent_off and amount_off_cents (minor units), an optional max_uses, local starts_on and ends_on, and offering_ids it is limited to. Emits promo_code.created."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/promo_codes/${IdParam}`
      .addSuccess(PromoCode)
      .annotate(OpenApi.Summary, "Get a promo code")
      .annotate(OpenApi.Description, "One promo code with its uses. Emits nothing.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/promo_codes/${IdParam}`
      .setPayload(PromoCodeUpdate)
      .addSuccess(PromoCode)
      .annotate(OpenApi.Summary, "Switch a promo code on or off, or change its limit, dates or offerings")
      .annotate(
        OpenApi.Description,
        "Switches a code on or off, or changes its limit (never below its uses: 409 max_uses_below_uses), dates or offerings. Emits promo_code.updated."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/promo_codes/${IdParam}`
      .addSuccess(PromoCode)
      .annotate(OpenApi.Summary, "Delete a promo code; bookings made with it keep promo_code and discount_cents")
      .annotate(
        OpenApi.Description,
        "Deletes a code; bookings made with it keep promo_code and discount_cents. Emits promo_code.deleted."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
