import { startAuthentication, startRegistration } from "@simplewebauthn/browser"
import { request, setCsrf } from "./api.ts"
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

export const signInWithPasskey = async () => {
  const optionsJSON = await request<any>("POST", "/auth/v1/passkey_sign_in/options", {})
  const response = await startAuthentication({ optionsJSON })
  await request<unknown>("POST", "/auth/v1/passkey_sign_in", { response })
}

export const addPasskey = async (name: string) => {
  const optionsJSON = await request<any>("POST", "/auth/v1/passkeys/options", {})
  const response = await startRegistration({ optionsJSON })
  await request<unknown>("POST", "/auth/v1/passkeys", { response, ...(name === "" ? {} : { name }) })
}
