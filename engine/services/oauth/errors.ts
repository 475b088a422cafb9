import { Data } from "effect"

/** An OAuth error as RFC 6749 names it: the wire shape is `{ error, error_description }`. */
export class OAuthError extends Data.TaggedError("OAuthError")<{
  readonly status: number
  readonly error: string
  readonly description: string
}> {}

export const oauthError = (error: string, description: string, status = 400) =>
  new OAuthError({ status, error, description })
export const invalidRequest = (description: string) => oauthError("invalid_request", description)
export const invalidGrant = (description: string) => oauthError("invalid_grant", description)
export const invalidClient = (description: string) => oauthError("invalid_client", description, 401)

export const errorBody = (e: OAuthError) => ({ error: e.error, error_description: e.description })
