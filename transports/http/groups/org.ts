import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ListOf } from "../../../engine/schema/common.ts"
import { Member, Org, OrgUpdate, Waiver, WaiverSet } from "../../../engine/schema/org.ts"
import { Authentication } from "../security.ts"

export const OrgGroup = HttpApiGroup.make("org")
  .add(HttpApiEndpoint.get("get", "/org").addSuccess(Org).annotate(OpenApi.Summary, "The org of the API key"))
  .add(
    HttpApiEndpoint.patch("update", "/org")
      .setPayload(OrgUpdate)
      .addSuccess(Org)
      .annotate(OpenApi.Summary, "Change the org's name, time zone or currency")
  )
  .middleware(Authentication)
  .prefix("/api/v1")

export const TeamGroup = HttpApiGroup.make("team")
  .add(HttpApiEndpoint.get("list", "/team").addSuccess(ListOf(Member)).annotate(OpenApi.Summary, "The org's team"))
  .middleware(Authentication)
  .prefix("/api/v1")

export const WaiverGroup = HttpApiGroup.make("waiver")
  .add(HttpApiEndpoint.get("get", "/waiver").addSuccess(Waiver).annotate(OpenApi.Summary, "The org's waiver text"))
  .add(
    HttpApiEndpoint.put("set", "/waiver")
      .setPayload(WaiverSet)
      .addSuccess(Waiver)
      .annotate(OpenApi.Summary, "Save the waiver text as a new version (null removes it)")
  )
  .middleware(Authentication)
  .prefix("/api/v1")

