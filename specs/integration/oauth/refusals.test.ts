import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql } from "../../support/app.ts"
import {
  consent,
  form,
  grant,
  mcpStatus,
  pkce,
  REDIRECT,
  register,
  signIn,
  startOAuthApp,
  type TestApp
} from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startOAuthApp()
})
afterAll(() => app.close())

const token = (fields: Record<string, string>) => form(app, "/oauth/token", fields)
const oauthError = async (res: Response, status: number, error: string) => {
  expect(res.status).toBe(status)
  const body = await res.json()
  expect(body.error).toBe(error)
  expect(typeof body.error_description).toBe("string")
  return body
}

describe("registration", () => {
  it("takes https and loopback http redirect URIs, refuses the rest, and gives a secret only to confidential clients", async () => {
    const made = await register(app, {
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "http://localhost:6274/cb"]
    })
    expect(made).toMatchObject({
      client_id: expect.stringMatching(/^mcp_client_/),
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"]
    })
    expect(made).not.toHaveProperty("client_secret")
    const confidential = await register(app, { token_endpoint_auth_method: "client_secret_post" })
    expect(confidential.client_secret).toMatch(/^mcp_cs_/)
    for (const [body, error] of [
      [{ redirect_uris: ["http://evil.example/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://ok.example/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], client_name: "x".repeat(201) }, "invalid_client_metadata"]
    ] as const) {
      const res = await fetch(`${app.url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      await oauthError(res, 400, error)
    }
  })
})

describe("the authorization endpoint", () => {
  it("shows an error page, never a redirect, for an unknown client or a redirect URI it did not register", async () => {
    const client = await register(app)
    const { challenge } = pkce()
    const base = { response_type: "code", code_challenge: challenge, code_challenge_method: "S256", state: "s" }
    for (const q of [
      { ...base, client_id: "mcp_client_nope", redirect_uri: REDIRECT },
      { ...base, client_id: client.client_id, redirect_uri: "https://evil.example/cb" }
    ]) {
      const res = await fetch(`${app.url}/oauth/authorize?${new URLSearchParams(q)}`, { redirect: "manual" })
      expect(res.status).toBe(400)
      expect(res.headers.get("location")).toBeNull()
      expect(await res.text()).toContain("Cannot connect this app")
    }
    const posted = await consent(app, {
      client_id: client.client_id,
      redirect_uri: "https://evil.example/cb",
      code_challenge: challenge,
      api_key: "bk_live_x"
    })
    expect(posted.status).toBe(400)
    expect(posted.location).toBeUndefined()
  })

  it("refuses plain PKCE or none by redirecting with invalid_request; denying redirects with access_denied", async () => {
    const org = await app.newOrg()
    const client = await register(app)
    const { challenge } = pkce()
    for (const method of ["plain", ""]) {
      const res = await consent(app, {
        client_id: client.client_id,
        code_challenge: challenge,
        code_challenge_method: method,
        api_key: org.key
      })
      expect(res.status).toBe(303)
      expect(res.location!.searchParams.get("error")).toBe("invalid_request")
      expect(res.location!.searchParams.get("state")).toBe("st-1")
      expect(res.location!.searchParams.get("code")).toBeNull()
    }
    const denied = await consent(app, {
      client_id: client.client_id,
      code_challenge: challenge,
      api_key: org.key,
      decision: "deny"
    })
    expect(denied.status).toBe(303)
    expect(`${denied.location!.origin}${denied.location!.pathname}`).toBe(REDIRECT)
    expect(denied.location!.searchParams.get("error")).toBe("access_denied")
    expect(denied.location!.searchParams.get("state")).toBe("st-1")
  })

  it("approves only for a signed-in owner, from the page itself: no session, staff and a forged answer are refused", async () => {
    const org = await app.newOrg()
    await app.admin("POST", `/orgs/${org.id}/members`, { email: "sam@example.com", role: "staff" })
    await app.admin("POST", `/orgs/${org.id}/members`, { email: "olga@example.com", role: "owner" })
    const [staff, owner] = [await signIn(app, "sam@example.com"), await signIn(app, "olga@example.com")]
    const client = await register(app)
    const { challenge } = pkce()
    const ask = { client_id: client.client_id, code_challenge: challenge }
    const nobody = await consent(app, ask)
    expect([nobody.status, nobody.location]).toEqual([401, undefined])
    expect(nobody.page).toContain("signed-in owner")
    const byStaff = await consent(app, ask, staff)
    expect([byStaff.status, byStaff.location]).toEqual([403, undefined])
    expect(byStaff.page).toContain("Only an owner")
    expect(byStaff.page).toContain('role="alert"')
    // The page shows the app, the org and what it may do; no field asks for a key.
    const consentShown = await fetch(
      `${app.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", code_challenge_method: "S256", redirect_uri: REDIRECT, ...ask })}`,
      { headers: { cookie: owner.cookie } }
    )
    const consentPage = await consentShown.text()
    expect(consentPage).toContain("Raw connector")
    expect(consentPage).toContain("Org ")
    expect(consentPage).toContain("bookings")
    expect(consentPage).not.toContain("api_key")
    expect(consentPage).not.toContain("password")
    // A forged answer: another site's page, or the right site without the session's token.
    const forged = await consent(app, ask, { ...owner, csrf: "forged" })
    expect([forged.status, forged.location]).toEqual([403, undefined])
    expect((await consent(app, ask, owner)).status).toBe(303)
    // The page escapes what the client registered.
    const sly = await register(app, { client_name: "<img src=x onerror=alert(1)>" })
    const shown = await fetch(
      `${app.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: sly.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" })}`,
      { headers: { cookie: owner.cookie } }
    )
    const html = await shown.text()
    expect(shown.status).toBe(200)
    expect(html).toContain("&#60;img")
    expect(html).not.toContain("<img")
    expect(shown.headers.get("x-frame-options")).toBe("DENY")
  })
})

describe("the token endpoint", () => {
  it("checks the verifier, the redirect URI and the client; a code is single use, and a reused code revokes what it gave", async () => {
    const org = await app.newOrg()
    const client = await register(app)
    const other = await register(app)
    const { verifier, challenge } = pkce()
    const approved = await consent(app, { client_id: client.client_id, code_challenge: challenge, api_key: org.key })
    const code = approved.location!.searchParams.get("code")!
    const base = {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: client.client_id
    }
    await oauthError(await token({ ...base, code_verifier: pkce().verifier }), 400, "invalid_grant")
    await oauthError(await token({ ...base, redirect_uri: "http://127.0.0.1:9/other" }), 400, "invalid_grant")
    await oauthError(await token({ ...base, client_id: other.client_id }), 400, "invalid_grant")
    await oauthError(await token({ ...base, client_id: "mcp_client_nope" }), 401, "invalid_client")
    await oauthError(await token({ ...base, grant_type: "password" }), 400, "unsupported_grant_type")
    const json = await fetch(`${app.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(base)
    })
    await oauthError(json, 400, "invalid_request")

    const first = await token(base)
    expect(first.status).toBe(200)
    expect(first.headers.get("cache-control")).toBe("no-store")
    const tokens = await first.json()
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600 })
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)

    const reused = await oauthError(await token(base), 400, "invalid_grant")
    expect(reused.error_description).toContain("already used")
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(401)
    await oauthError(
      await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id }),
      400,
      "invalid_grant"
    )
    // Only hashes are stored.
    const stored = await sql(
      app,
      (s) =>
        s<{
          n: number
        }>`select count(*)::int as n from oauth_tokens where hash = ${tokens.access_token} or hash = ${code}`
    )
    expect(stored[0].n).toBe(0)
  })

  it("a code lasts ten minutes", async () => {
    const org = await app.newOrg()
    const client = await register(app)
    const { verifier, challenge } = pkce()
    const code = (
      await consent(app, { client_id: client.client_id, code_challenge: challenge, api_key: org.key })
    ).location!.searchParams.get("code")!
    await app.advance(601)
    const res = await oauthError(
      await token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: client.client_id
      }),
      400,
      "invalid_grant"
    )
    expect(res.error_description).toContain("expired")
  })

  it("an access token lasts an hour on the engine clock; refresh tokens rotate and an old one presented again ends the grant", async () => {
    const org = await app.newOrg()
    const { client, tokens } = await grant(app, org.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    await app.advance(3599)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    await app.advance(2)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(401)

    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.client_id
    })
    expect(refreshed.status).toBe(200)
    const next = await refreshed.json()
    expect(next.refresh_token).not.toBe(tokens.refresh_token)
    expect((await mcpStatus(app, next.access_token)).status).toBe(200)
    const replay = await oauthError(
      await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id }),
      400,
      "invalid_grant"
    )
    expect(replay.error_description).toContain("already used")
    // The replay revoked the grant: the rotated tokens stop too.
    expect((await mcpStatus(app, next.access_token)).status).toBe(401)
    await oauthError(
      await token({ grant_type: "refresh_token", refresh_token: next.refresh_token, client_id: client.client_id }),
      400,
      "invalid_grant"
    )
  })

  it("a confidential client must send its secret", async () => {
    const org = await app.newOrg()
    const client = await register(app, { token_endpoint_auth_method: "client_secret_post" })
    const { verifier, challenge } = pkce()
    const code = (
      await consent(app, { client_id: client.client_id, code_challenge: challenge, api_key: org.key })
    ).location!.searchParams.get("code")!
    const base = {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: client.client_id
    }
    await oauthError(await token(base), 401, "invalid_client")
    await oauthError(await token({ ...base, client_secret: "mcp_cs_wrong" }), 401, "invalid_client")
    expect((await token({ ...base, client_secret: client.client_secret! })).status).toBe(200)
  })
})

describe("where a token reaches, and revocation", () => {
  it("an access token reaches /mcp only: /api/v1 and the OCTO API refuse it", async () => {
    const org = await app.newOrg()
    const { tokens } = await grant(app, org.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    for (const path of ["/api/v1/offerings", "/api/v1/org", "/api/v1/oauth_apps", "/api/v1/public/offerings"]) {
      const res = await app.call(tokens.access_token, "GET", path)
      expect(res.status, path).toBe(401)
      expect(res.body.error.code).toBe("unauthorized")
    }
    expect((await app.call(tokens.access_token, "GET", "/api/octo/products")).status).not.toBe(200)
    expect((await app.call(tokens.refresh_token, "GET", "/api/v1/offerings")).status).toBe(401)
    expect((await mcpStatus(app, tokens.refresh_token)).status).toBe(401)
  })

  it("RFC 7009: a client revokes its access token, or its refresh token with the grant", async () => {
    const org = await app.newOrg()
    const { client, tokens } = await grant(app, org.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    const revoked = await form(app, "/oauth/revoke", { token: tokens.access_token, client_id: client.client_id })
    expect(revoked.status).toBe(200)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(401)
    // Unknown tokens are no error; another client cannot revoke this one's tokens.
    expect((await form(app, "/oauth/revoke", { token: "mcp_at_nothing", client_id: client.client_id })).status).toBe(
      200
    )
    const second = await grant(app, org.key)
    const stranger = await register(app)
    expect(
      (await form(app, "/oauth/revoke", { token: second.tokens.access_token, client_id: stranger.client_id })).status
    ).toBe(200)
    expect((await mcpStatus(app, second.tokens.access_token)).status).toBe(200)
    expect(
      (await form(app, "/oauth/revoke", { token: second.tokens.refresh_token, client_id: second.client.client_id }))
        .status
    ).toBe(200)
    expect((await mcpStatus(app, second.tokens.access_token)).status).toBe(401)
  })

  it("the org lists its apps and revokes one: its tokens stop at once; staff get 403, another org 404", async () => {
    const org = await app.newOrg()
    const other = await app.newOrg()
    const staff = await app.admin("POST", `/orgs/${org.id}/members`, { email: "sam@example.com", role: "staff" })
    const staffKey = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: staff.body.user_id })).body
      .key as string
    const { client, tokens } = await grant(app, org.key)
    const otherGrant = await grant(app, other.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)

    const listed = await app.call(org.key, "GET", "/api/v1/oauth_apps")
    expect(listed.status).toBe(200)
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        client_id: client.client_id,
        client_name: "Raw connector",
        redirect_uris: [REDIRECT],
        revoked_at: null
      })
    ])
    const id = listed.body.data[0].id as string
    expect((await app.call(staffKey, "GET", "/api/v1/oauth_apps")).status).toBe(403)
    expect((await app.call(staffKey, "DELETE", `/api/v1/oauth_apps/${id}`)).status).toBe(403)
    expect((await app.call(other.key, "DELETE", `/api/v1/oauth_apps/${id}`)).status).toBe(404)
    expect(
      (await app.call(other.key, "GET", "/api/v1/oauth_apps")).body.data.map((a: { client_id: string }) => a.client_id)
    ).toEqual([otherGrant.client.client_id])
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)

    const revoked = await app.call(org.key, "DELETE", `/api/v1/oauth_apps/${id}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked_at).not.toBeNull()
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(401)
    await oauthError(
      await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id }),
      400,
      "invalid_grant"
    )
    expect((await mcpStatus(app, otherGrant.tokens.access_token)).status).toBe(200)
    // Approving again makes a new app with new tokens.
    const again = await grant(app, org.key)
    expect((await mcpStatus(app, again.tokens.access_token)).status).toBe(200)
  })

  it("the owner who approved leaving the team, or stopping being an owner, stops the app's tokens", async () => {
    const org = await app.newOrg()
    const { tokens } = await grant(app, org.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string }>
    // Another owner first: the last owner can be neither made staff nor removed.
    await app.admin("POST", `/orgs/${org.id}/members`, { email: "second-owner@example.com", role: "owner" })
    expect((await app.call(org.key, "PATCH", `/api/v1/team/${team[0].user_id}`, { role: "staff" })).status).toBe(200)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(401)
    const other = await app.newOrg()
    const second = await grant(app, other.key)
    const members = (await app.call(other.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string }>
    await app.admin("POST", `/orgs/${other.id}/members`, { email: "third-owner@example.com", role: "owner" })
    expect((await app.call(other.key, "DELETE", `/api/v1/team/${members[0].user_id}`)).status).toBe(200)
    expect((await mcpStatus(app, second.tokens.access_token)).status).toBe(401)
  })
})
