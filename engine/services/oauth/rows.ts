import type { OAuthError } from "./errors.ts"
import type { AuthMethod } from "./rules.ts"

export const REFRESH_TOKEN_PREFIX = "mcp_rt_"
export const CODE_PREFIX = "mcp_ac_"

export interface ClientRow {
  readonly id: string
  readonly client_name: string
  readonly redirect_uris: ReadonlyArray<string> | string
  readonly client_uri: string | null
  readonly secret_hash: string | null
  readonly auth_method: AuthMethod
  readonly created_at: Date
}

export interface Client {
  readonly id: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly clientUri: string | null
  readonly authMethod: AuthMethod
}

export const toClient = (r: ClientRow): Client => ({
  id: r.id,
  name: r.client_name,
  clientUri: r.client_uri,
  authMethod: r.auth_method,
  redirectUris: typeof r.redirect_uris === "string" ? JSON.parse(r.redirect_uris) : r.redirect_uris
})

/** What the authorization endpoint was asked, checked: the consent page shows it and the approval carries it. */
export interface AuthorizeRequest {
  readonly client: Client
  readonly redirectUri: string
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly resource: string | undefined
}

export type Checked =
  | { readonly _tag: "Unsafe"; readonly message: string }
  | {
      readonly _tag: "Refused"
      readonly redirectUri: string
      readonly state: string | undefined
      readonly error: OAuthError
    }
  | {
      readonly _tag: "Ok"
      readonly redirectUri: string
      readonly state: string | undefined
      readonly request: AuthorizeRequest
    }

export interface AppRow {
  readonly id: string
  readonly client_id: string
  readonly client_name: string
  readonly redirect_uris: ReadonlyArray<string> | string
  readonly created_at: Date
  readonly revoked_at: Date | null
}

export type Tokens = {
  readonly access_token: string
  readonly token_type: string
  readonly expires_in: number
  readonly refresh_token: string
}

export const toApp = (r: AppRow) => ({
  id: r.id,
  client_id: r.client_id,
  client_name: r.client_name,
  redirect_uris:
    typeof r.redirect_uris === "string" ? (JSON.parse(r.redirect_uris) as Array<string>) : [...r.redirect_uris],
  created_at: r.created_at.toISOString(),
  revoked_at: r.revoked_at?.toISOString() ?? null
})

/** Client credentials as the token and revocation endpoints received them (client_secret_post or a public client). */
export interface ClientCredentials {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
}

/**
 * OAuth 2.1 for MCP connector clients: dynamic registration, an owner's approval (the org's "app"), codes bound to
 * PKCE S256, and access and refresh tokens stored hashed. An access token authenticates through Orgs.authenticate as
 * an owner key of the org; revoking a token or an app drops it from every instance's key cache at once.
 */
