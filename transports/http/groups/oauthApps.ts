import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { OAuthApp, OAuthAppPage } from "../../../engine/schema/oauth.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdParam } from "./common.ts"

/** Connector apps (OAuth clients at /mcp) the org approved, managed by an owner's key; a staff member's key gets 403. */
export const OAuthAppsGroup = HttpApiGroup.make("oauth_apps")
  .annotate(RequiredRole, "owner")
  .annotate(OpenApi.Description, "Connector apps (MCP clients signed in with OAuth) the org approved.")
  .add(
    HttpApiEndpoint.get("list", "/oauth_apps")
      .addSuccess(OAuthAppPage)
      .annotate(
        OpenApi.Summary,
        "The connector apps (MCP clients signed in with OAuth) the org approved, revoked ones too; owners only"
      )
      .annotate(
        OpenApi.Description,
        "The connector apps (MCP clients signed in with OAuth) the org approved, revoked ones too. Owners only (403 for a staff member's key). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.del("revoke")`/oauth_apps/${IdParam}`
      .addSuccess(OAuthApp)
      .annotate(
        OpenApi.Summary,
        "Revoke a connector app: every access and refresh token it holds is refused from the moment this answers; owners only"
      )
      .annotate(
        OpenApi.Description,
        "Revokes a connector app: every access and refresh token it holds is refused from the moment this answers. Owners only. Emits nothing."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
