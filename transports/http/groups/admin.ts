import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyPage,
  ApiKeyRevoked,
  Member,
  MemberCreate,
  Org,
  OrgAdminUpdate,
  OrgCreate,
  OrgPage,
  OrgsQuery,
  OrgsWithoutOwner
} from "../../../engine/schema/org.ts"
import { AdminAuth } from "../security.ts"

const OrgIdParam = HttpApiSchema.param("org_id", Schema.UUID)
const KeyIdParam = HttpApiSchema.param("id", Schema.UUID)
const ClockNow = Schema.Struct({ now: Schema.String })
const SentMail = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      org_id: Schema.String,
      to: Schema.String,
      kind: Schema.String,
      subject: Schema.String,
      text: Schema.String,
      reply_to: Schema.NullOr(Schema.String),
      booking_id: Schema.NullOr(Schema.String),
      created_at: Schema.String,
      sent_at: Schema.NullOr(Schema.String),
      links: Schema.Array(Schema.String)
    })
  )
})

const SentTexts = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      org_id: Schema.String,
      to: Schema.String,
      kind: Schema.String,
      body: Schema.String,
      booking_id: Schema.NullOr(Schema.String),
      segments: Schema.Int,
      encoding: Schema.String,
      created_at: Schema.String,
      sent_at: Schema.NullOr(Schema.String),
      delivered_at: Schema.NullOr(Schema.String),
      failed_at: Schema.NullOr(Schema.String),
      failure_reason: Schema.NullOr(Schema.String),
      provider_id: Schema.NullOr(Schema.String)
    })
  ),
  opted_out: Schema.NullOr(Schema.Struct({ keyword: Schema.String, at: Schema.String }))
})

/** For platform teams: Bearer ADMIN_TOKEN. Not part of the public contract (excluded from OpenAPI and MCP). */
export const AdminGroup = HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("create_org", "/orgs")
      .setPayload(OrgCreate)
      .addSuccess(Schema.Struct({ org: Org, api_key: ApiKeyCreated }), { status: 201 })
  )
  .add(HttpApiEndpoint.get("list_orgs", "/orgs").setUrlParams(OrgsQuery).addSuccess(OrgPage))
  .add(HttpApiEndpoint.get("orgs_without_owner", "/orgs_without_owner").addSuccess(OrgsWithoutOwner))
  .add(HttpApiEndpoint.get("get_org")`/orgs/${OrgIdParam}`.addSuccess(Org))
  .add(HttpApiEndpoint.patch("update_org")`/orgs/${OrgIdParam}`.setPayload(OrgAdminUpdate).addSuccess(Org))
  .add(HttpApiEndpoint.get("list_keys")`/orgs/${OrgIdParam}/api_keys`.addSuccess(ApiKeyPage))
  .add(
    HttpApiEndpoint.post("create_key")`/orgs/${OrgIdParam}/api_keys`
      .setPayload(ApiKeyCreate)
      .addSuccess(ApiKeyCreated, { status: 201 })
  )
  .add(HttpApiEndpoint.del("revoke_key")`/api_keys/${KeyIdParam}`.addSuccess(ApiKeyRevoked))
  .add(
    HttpApiEndpoint.post("add_member")`/orgs/${OrgIdParam}/members`
      .setPayload(MemberCreate)
      .addSuccess(Member, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("mail", "/mail")
      .setUrlParams(Schema.Struct({ to: Schema.String.pipe(Schema.minLength(3), Schema.maxLength(320)) }))
      .addSuccess(SentMail)
  )
  .add(
    HttpApiEndpoint.get("texts", "/texts")
      .setUrlParams(Schema.Struct({ to: Schema.String.pipe(Schema.minLength(3), Schema.maxLength(40)) }))
      .addSuccess(SentTexts)
  )
  .add(HttpApiEndpoint.get("get_clock", "/clock").addSuccess(ClockNow))
  .add(
    HttpApiEndpoint.post("advance_clock", "/clock")
      .setPayload(
        Schema.Struct({ advance_seconds: Schema.Int.pipe(Schema.between(0, 400 * 86400)) }).annotations({
          parseOptions: { onExcessProperty: "error" }
        })
      )
      .addSuccess(ClockNow)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Exclude, true)
