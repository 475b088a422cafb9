import { startAuthentication, startRegistration } from "@simplewebauthn/browser"
import { ApiError, request, Said, setCsrf } from "./api.ts"
import type { Session } from "./types.ts"

/** People's side of /auth/v1: the session, mailed links, passkeys. Nothing here is kept in the browser's storage. */

export const loadSession = async (): Promise<Session | undefined> => {
  try {
    const s = await request<Session>("GET", "/auth/v1/session")
    setCsrf(s.csrf_token)
    return s
  } catch {
    setCsrf(undefined)
    return undefined
  }
}

export const mailLink = (email: string) => request<unknown>("POST", "/auth/v1/links", { email })

export const signOut = () => request<unknown>("DELETE", "/auth/v1/session")

export const switchOrg = (org_id: string) => request<unknown>("POST", "/auth/v1/session/org", { org_id })

/**
 * What the browser's refusal of a passkey means, in words: an IP address cannot hold passkeys (they need a host name,
 * such as localhost), the passkey is already registered, or it was not used. The API's own errors pass through.
 */
export const passkeyError = (e: unknown, host = location.hostname): unknown => {
  if (e instanceof ApiError || !(e instanceof Error)) return e
  const code = (e as { code?: string }).code
  if (code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID" || e.name === "SecurityError")
    return new Said(
      /^[\d.]+$|:/.test(host)
        ? `Passkeys need a host name, not an IP address (${host}): open the console at a name such as localhost.`
        : `This browser does not allow passkeys for ${host}: open the console at the address it is set up for.`
    )
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || e.name === "InvalidStateError")
    return new Said("This passkey is already registered for your account.")
  if (e.name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED")
    return new Said("The passkey was not used: it was cancelled or took too long.")
  return new Said(`The browser refused the passkey: ${e.message}`)
}

export const signInWithPasskey = async () => {
  const optionsJSON = await request<any>("POST", "/auth/v1/passkey_sign_in/options", {})
  const response = await startAuthentication({ optionsJSON }).catch((e: unknown) => {
    throw passkeyError(e)
  })
  await request<unknown>("POST", "/auth/v1/passkey_sign_in", { response })
}

export const addPasskey = async (name: string) => {
  const optionsJSON = await request<any>("POST", "/auth/v1/passkeys/options", {})
  const response = await startRegistration({ optionsJSON }).catch((e: unknown) => {
    throw passkeyError(e)
  })
  await request<unknown>("POST", "/auth/v1/passkeys", { response, ...(name === "" ? {} : { name }) })
}
