import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ApiKeyCreate, ApiKeyCreated, ApiKeyPage, ApiKeyRevoked, WidgetKey } from "../../../engine/schema/org.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

/** The org's API keys, managed by an owner's key; a staff member's key gets 403 forbidden. */
export const ApiKeysGroup = HttpApiGroup.make("keys")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "The org's API keys (secret and publishable), managed with an owner's key.")
  .add(
    HttpApiEndpoint.get("list", "/api_keys")
      .addSuccess(ApiKeyPage)
      .annotate(OpenApi.Summary, "The org's API keys (never the secrets), revoked ones too; owners only")
      .annotate(
        OpenApi.Description,
        "The org's API keys with their kind, name, member and when they were revoked; never the secrets. Owners only (403 for a staff member's key). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/api_keys")
      .setPayload(ApiKeyCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ApiKeyCreated, { status: 201 })
      .annotate(
        OpenApi.Summary,
        "Make an API key, for a team member (carrying their role) or an owner key; the secret is returned once; owners only"
      )
      .annotate(
        OpenApi.Description,
        "Makes an API key: a secret key for a team member (user_id, carrying their role), an owner key, a publishable key (kind publishable, pk_live_…) for web pages, which reaches only /api/v1/public, or a reseller key (rk_live_…) for the OCTO API. The key is in this answer only. Owners only. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.del("revoke")`/api_keys/${IdParam}`
      .addSuccess(ApiKeyRevoked)
      .annotate(OpenApi.Summary, "Revoke an API key: refused everywhere from the moment this answers; owners only")
      .annotate(
        OpenApi.Description,
        "Revokes an API key: it is refused everywhere from the moment this answers, and every webhook endpoint it created is switched off. Owners only. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("widget_key", "/widget_key")
      .setHeaders(IdempotencyHeaders)
      .addSuccess(WidgetKey)
      .annotate(
        OpenApi.Summary,
        "The org's widget key: one publishable key, made on the first call and the same on every later one; owners only"
      )
      .annotate(
        OpenApi.Description,
        "The org's widget key: the publishable key (pk_live_…) the engine keeps for the org's own booking page (/book) and the console's preview of the widget, to paste into the embed code. Made on the first call (calls at once get the same key), the same key on every later call, a new one once it is revoked (DELETE /api_keys/{id}). Publishable keys are public by design, so unlike keys.create this answers the key every time. Owners only. Emits nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
