import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ApiKeyCreate, ApiKeyCreated, ApiKeyPage, ApiKeyRevoked } from "../../../engine/schema/org.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

/** The org's API keys, managed by an owner's key; a staff member's key gets 403 forbidden. */
export const ApiKeysGroup = HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.get("list", "/api_keys")
      .addSuccess(ApiKeyPage)
      .annotate(OpenApi.Summary, "The org's API keys (never the secrets), revoked ones too; owners only")
  )
  .add(
    HttpApiEndpoint.post("create", "/api_keys")
      .setPayload(ApiKeyCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ApiKeyCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Make an API key, for a team member (carrying their role) or an owner key; the secret is returned once; owners only")
  )
  .add(
    HttpApiEndpoint.del("revoke")`/api_keys/${IdParam}`
      .addSuccess(ApiKeyRevoked)
      .annotate(OpenApi.Summary, "Revoke an API key: refused everywhere from the moment this answers; owners only")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
