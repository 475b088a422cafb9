import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PromoCode, PromoCodeCreate, PromoCodePage, PromoCodeUpdate } from "../../../engine/schema/promo.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const PromoCodesGroup = HttpApiGroup.make("promo_codes")
  .add(HttpApiEndpoint.get("list", "/promo_codes").addSuccess(PromoCodePage).annotate(OpenApi.Summary, "The org's promo codes with their uses"))
  .add(
    HttpApiEndpoint.post("create", "/promo_codes")
      .setPayload(PromoCodeCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(PromoCode, { status: 201 })
      .annotate(OpenApi.Summary, "Add a promo code: percent_off or amount_off_cents, with an optional limit, dates and offerings")
  )
  .add(HttpApiEndpoint.get("get")`/promo_codes/${IdParam}`.addSuccess(PromoCode).annotate(OpenApi.Summary, "Get a promo code"))
  .add(
    HttpApiEndpoint.patch("update")`/promo_codes/${IdParam}`
      .setPayload(PromoCodeUpdate)
      .addSuccess(PromoCode)
      .annotate(OpenApi.Summary, "Switch a promo code on or off, or change its limit, dates or offerings")
  )
  .add(
    HttpApiEndpoint.del("delete")`/promo_codes/${IdParam}`
      .addSuccess(PromoCode)
      .annotate(OpenApi.Summary, "Delete a promo code; bookings made with it keep promo_code and discount_cents")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
