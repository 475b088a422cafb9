import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Invite,
  InviteAccept,
  InviteCreate,
  Member,
  MemberUpdate,
  Org,
  OrgUpdate,
  TeamPage,
  Waiver,
  WaiverSet
} from "../../../engine/schema/org.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const OrgGroup = HttpApiGroup.make("org")
  .annotate(OpenApi.Description, "The org of the API key: name, time zone, currency and settings.")
  .add(
    HttpApiEndpoint.get("get", "/org")
      .addSuccess(Org)
      .annotate(OpenApi.Summary, "The org of the API key")
      .annotate(
        OpenApi.Description,
        "The org of the API key: name, time zone, currency, plan, messaging and guest rules. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/org")
      .annotate(RequiredRole, "owner")
      .setPayload(OrgUpdate)
      .addSuccess(Org)
      .annotate(OpenApi.Summary, "Change the org's name, time zone or currency")
      .annotate(
        OpenApi.Description,
        "Changes the org's name, time zone, currency, slug or messaging settings. The currency is locked once money has moved in it (409 currency_locked); a slug belongs to one org (409 slug_taken). Emits org.updated."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")

const UserIdParam = HttpApiSchema.param("user_id", Schema.UUID)
const TokenParam = HttpApiSchema.param("token", Schema.String.pipe(Schema.pattern(/^inv_[A-Za-z0-9_-]{32}$/)))

export const TeamGroup = HttpApiGroup.make("team")
  .annotate(
    OpenApi.Description,
    "Who is on the org's team (owners and staff) and the invites waiting; owners change it."
  )
  .add(
    HttpApiEndpoint.get("list", "/team")
      .addSuccess(TeamPage)
      .annotate(OpenApi.Summary, "The org's team and its waiting invites")
      .annotate(
        OpenApi.Description,
        "The org's members (user_id, email, name, role) and invites still waiting. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("invite", "/team/invites")
      .annotate(RequiredRole, "owner")
      .setPayload(InviteCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Invite, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Invite someone by email as owner or staff; they are emailed a link that works for 7 days (owners only)"
      )
      .annotate(
        OpenApi.Description,
        "Invites an email address as owner or staff; the invite mail carries a link that works for 7 days. Owners only (403 for a staff member's key). Emits member.invited."
      )
  )
  .add(
    HttpApiEndpoint.del("revoke_invite")`/team/invites/${IdParam}`
      .annotate(RequiredRole, "owner")
      .addSuccess(Invite)
      .annotate(OpenApi.Summary, "Revoke a waiting invite (owners only)")
      .annotate(
        OpenApi.Description,
        "Revokes an invite still waiting; its link stops working. Owners only. Emits member.invite_revoked."
      )
  )
  .add(
    HttpApiEndpoint.patch("update")`/team/${UserIdParam}`
      .annotate(RequiredRole, "owner")
      .setPayload(MemberUpdate)
      .addSuccess(Member)
      .annotate(OpenApi.Summary, "Change a member's role or name; the last owner cannot be made staff (owners only)")
      .annotate(
        OpenApi.Description,
        "Changes a member's role or name. The last owner cannot be made staff (409 last_owner). Owners only. Emits member.updated, once per field changed."
      )
  )
  .add(
    HttpApiEndpoint.del("remove")`/team/${UserIdParam}`
      .annotate(RequiredRole, "owner")
      .addSuccess(Member)
      .annotate(
        OpenApi.Summary,
        "Remove a member: their keys are revoked and their times keep no teacher; never the last owner (owners only)"
      )
      .annotate(
        OpenApi.Description,
        "Removes a member: their API keys are revoked (and the webhook endpoints those keys made switched off), and the times they taught keep no teacher. Never the last owner (409 last_owner). Owners only. Emits member.removed."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")

/** The invitee's side: the token from the invite mail is the credential, no API key. */
export const InvitesGroup = HttpApiGroup.make("invites")
  .annotate(
    OpenApi.Description,
    "The invitee's side of a team invite: the token from the invite mail is the credential."
  )
  .add(
    HttpApiEndpoint.post("accept")`/invites/${TokenParam}/accept`
      .setPayload(InviteAccept)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Member, { status: 201 })
      .annotate(OpenApi.Summary, "Join the team with the invite's token (no API key)")
      .annotate(
        OpenApi.Description,
        "The invitee joins the team with the token from their invite mail (no API key), with an optional name. An expired invite is 409 invite_expired; a used, revoked or unknown one 404. Emits member.joined."
      )
  )
  .add(
    HttpApiEndpoint.post("decline")`/invites/${TokenParam}/decline`
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Invite)
      .annotate(OpenApi.Summary, "Decline an invite with its token (no API key)")
      .annotate(
        OpenApi.Description,
        "The invitee declines with the token from their invite mail (no API key). Emits member.invite_revoked."
      )
  )
  .prefix("/api/v1")

export const WaiverGroup = HttpApiGroup.make("waiver")
  .annotate(OpenApi.Description, "The org's waiver text, versioned.")
  .add(
    HttpApiEndpoint.get("get", "/waiver")
      .addSuccess(Waiver)
      .annotate(OpenApi.Summary, "The org's waiver text")
      .annotate(
        OpenApi.Description,
        "The org's waiver text and its version (text null when there is none). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.put("set", "/waiver")
      .annotate(RequiredRole, "owner")
      .setPayload(WaiverSet)
      .addSuccess(Waiver)
      .annotate(OpenApi.Summary, "Save the waiver text as a new version (null removes it)")
      .annotate(
        OpenApi.Description,
        "Saves the waiver text as a new version, or removes it (text null). Signatures keep the version they accepted. Emits waiver.updated."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
