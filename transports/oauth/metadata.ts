import type { IncomingMessage } from "node:http"

/** Where this server is reached: PUBLIC_URL, else the Host the request came to. */
export const baseUrl = (publicUrl: string, req: IncomingMessage) =>
  publicUrl !== "" ? publicUrl.replace(/\/+$/, "") : `http://${req.headers.host ?? "localhost"}`
export const resourceUrl = (base: string) => `${base}/mcp`
export const resourceMetadataUrl = (base: string) => `${base}/.well-known/oauth-protected-resource`
/** The challenge a 401 from /mcp carries (RFC 9728 §5.1), so a connector finds the authorization server. */
export const bearerChallenge = (base: string) => `Bearer resource_metadata="${resourceMetadataUrl(base)}"`

/** RFC 9728: the MCP server at /mcp and the authorization server that guards it (this engine). */
export const protectedResource = (base: string) => ({
  resource: resourceUrl(base),
  authorization_servers: [base],
  bearer_methods_supported: ["header"],
  resource_name: "Booking engine MCP server",
  resource_documentation: `${base}/api/v1/openapi.json`
})

/** RFC 8414. */
export const authorizationServer = (base: string) => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  registration_endpoint: `${base}/oauth/register`,
  revocation_endpoint: `${base}/oauth/revoke`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
  revocation_endpoint_auth_methods_supported: ["none", "client_secret_post"]
})
