import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { IdempotencyHeaders, IdParam } from "./common.ts"
import { ListOf } from "../../../engine/schema/common.ts"
import { Invite, InviteAccept, InviteCreate, Member, MemberUpdate, Org, OrgUpdate, TeamPage, Waiver, WaiverSet } from "../../../engine/schema/org.ts"
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

const UserIdParam = HttpApiSchema.param("user_id", Schema.UUID)
const TokenParam = HttpApiSchema.param("token", Schema.String.pipe(Schema.pattern(/^inv_[A-Za-z0-9_-]{32}$/)))

export const TeamGroup = HttpApiGroup.make("team")
  .add(HttpApiEndpoint.get("list", "/team").addSuccess(TeamPage).annotate(OpenApi.Summary, "The org's team and its waiting invites"))
  .add(
    HttpApiEndpoint.post("invite", "/team/invites")
      .setPayload(InviteCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Invite, { status: 201 })
      .annotate(OpenApi.Summary, "Invite someone by email as owner or staff; they are emailed a link that works for 7 days (owners only)")
  )
  .add(
    HttpApiEndpoint.del("revoke_invite")`/team/invites/${IdParam}`
      .addSuccess(Invite)
      .annotate(OpenApi.Summary, "Revoke a waiting invite (owners only)")
  )
  .add(
    HttpApiEndpoint.patch("update")`/team/${UserIdParam}`
      .setPayload(MemberUpdate)
      .addSuccess(Member)
      .annotate(OpenApi.Summary, "Change a member's role or name; the last owner cannot be made staff (owners only)")
  )
  .add(
    HttpApiEndpoint.del("remove")`/team/${UserIdParam}`
      .addSuccess(Member)
      .annotate(OpenApi.Summary, "Remove a member: their keys are revoked and their times keep no teacher; never the last owner (owners only)")
  )
  .middleware(Authentication)
  .prefix("/api/v1")

/** The invitee's side: the token from the invite mail is the credential, no API key. */
export const InvitesGroup = HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.post("accept")`/invites/${TokenParam}/accept`
      .setPayload(InviteAccept)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Member, { status: 201 })
      .annotate(OpenApi.Summary, "Join the team with the invite's token (no API key)")
  )
  .add(
    HttpApiEndpoint.post("decline")`/invites/${TokenParam}/decline`
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Invite)
      .annotate(OpenApi.Summary, "Decline an invite with its token (no API key)")
  )
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

