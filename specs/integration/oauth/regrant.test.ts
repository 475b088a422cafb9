import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  consent,
  form,
  mcpStatus,
  pkce,
  REDIRECT,
  register,
  type Signed,
  signIn,
  startOAuthApp,
  type TestApp
} from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startOAuthApp()
})
afterAll(() => app.close())

/** The consent page answered by `who` for the client: the code it sends back and the verifier that goes with it. */
const approve = async (clientId: string, who: Signed) => {
  const { verifier, challenge } = pkce()
  const answered = await consent(app, { client_id: clientId, code_challenge: challenge }, who)
  expect(answered.status).toBe(303)
  return { code: answered.location!.searchParams.get("code")!, verifier }
}

const exchange = (clientId: string, approved: { code: string; verifier: string }) =>
  form(app, "/oauth/token", {
    grant_type: "authorization_code",
    code: approved.code,
    code_verifier: approved.verifier,
    redirect_uri: REDIRECT,
    client_id: clientId
  })

const tokensOf = async (clientId: string, approved: { code: string; verifier: string }) => {
  const res = await exchange(clientId, approved)
  expect(res.status).toBe(200)
  return (await res.json()) as { access_token: string; refresh_token: string }
}

describe("approving the same app again", () => {
  it("replaces the grant: one key for the app, the earlier tokens and unused codes stop, the new ones work", async () => {
    const org = await app.newOrg()
    for (const [email, role] of [
      ["ada@example.com", "owner"],
      ["bo@example.com", "owner"]
    ])
      expect((await app.admin("POST", `/orgs/${org.id}/members`, { email, role })).status).toBe(201)
    const [ada, bo] = [await signIn(app, "ada@example.com"), await signIn(app, "bo@example.com")]
    const client = await register(app, { client_name: "Twice connector" })
    const keys = async () =>
      ((await app.call(org.key, "GET", "/api/v1/api_keys")).body.data as Array<Record<string, any>>).filter(
        (k) => k.name === "OAuth: Twice connector"
      )
    const live = async () => (await keys()).filter((k) => k.revoked_at === null)

    const first = await tokensOf(client.client_id, await approve(client.client_id, ada))
    expect(await live()).toHaveLength(1)
    const firstKey = (await live())[0].id
    expect((await mcpStatus(app, first.access_token)).status).toBe(200)

    // The same owner approves again: the key is kept, no second one is made; the first grant's tokens stop.
    const pending = await approve(client.client_id, ada)
    const second = await tokensOf(client.client_id, await approve(client.client_id, ada))
    expect((await keys()).map((k) => [k.id, k.revoked_at])).toEqual([[firstKey, null]])
    expect((await mcpStatus(app, first.access_token)).status).toBe(401)
    expect((await mcpStatus(app, second.access_token)).status).toBe(200)
    const refreshed = await form(app, "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: client.client_id
    })
    expect(refreshed.status).toBe(400)
    // A code handed out before the newer approval is no longer good.
    const stale = await exchange(client.client_id, pending)
    expect([stale.status, (await stale.json()).error]).toEqual([400, "invalid_grant"])
    expect((await mcpStatus(app, second.access_token)).status).toBe(200)

    // Another owner approves: the app now reaches through a key of theirs, and the earlier key is revoked.
    const third = await tokensOf(client.client_id, await approve(client.client_id, bo))
    const after = await keys()
    expect(after).toHaveLength(2)
    expect(after.find((k) => k.id === firstKey)?.revoked_at).not.toBeNull()
    expect(await live()).toHaveLength(1)
    expect((await mcpStatus(app, second.access_token)).status).toBe(401)
    expect((await mcpStatus(app, third.access_token)).status).toBe(200)
    // Still one app for the client in the org.
    const apps = (await app.call(org.key, "GET", "/api/v1/oauth_apps")).body.data as Array<{ client_id: string }>
    expect(apps.map((a) => a.client_id)).toEqual([client.client_id])
  })
})
