import { Schema } from "effect"

/** A connector app the org approved: an OAuth client (MCP connector) acting at /mcp as an owner of the org. */
export const OAuthApp = Schema.Struct({
  id: Schema.String,
  client_id: Schema.String.annotations({
    description: "The client's id from dynamic registration (POST /oauth/register)"
  }),
  client_name: Schema.String,
  redirect_uris: Schema.Array(Schema.String),
  created_at: Schema.String,
  revoked_at: Schema.NullOr(Schema.String).annotations({
    description: "Set once revoked: from then on every token of the app is refused"
  })
}).annotations({ identifier: "OAuthApp" })

export const OAuthAppPage = Schema.Struct({ data: Schema.Array(OAuthApp) })
