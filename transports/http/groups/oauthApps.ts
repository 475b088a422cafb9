import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { OAuthApp, OAuthAppPage } from "../../../engine/schema/oauth.ts"
import { Authentication } from "../security.ts"
import { IdParam } from "./common.ts"

/** Connector apps (OAuth clients at /mcp) the org approved, managed by an owner's key; a staff member's key gets 403. */
export const OAuthAppsGroup = HttpApiGroup.make("oauth_apps")
  .add(
    HttpApiEndpoint.get("list", "/oauth_apps")
      .addSuccess(OAuthAppPage)
      .annotate(OpenApi.Summary, "The connector apps (MCP clients signed in with OAuth) the org approved, revoked ones too; owners only")
  )
  .add(
    HttpApiEndpoint.del("revoke")`/oauth_apps/${IdParam}`
      .addSuccess(OAuthApp)
      .annotate(OpenApi.Summary, "Revoke a connector app: every access and refresh token it holds is refused from the moment this answers; owners only")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
