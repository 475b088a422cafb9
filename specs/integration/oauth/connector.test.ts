import { auth } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js"
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grant, mcpStatus, startOAuthApp, type TestApp, TestProvider } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startOAuthApp()
})
afterAll(() => app.close())

const toolText = (res: Awaited<ReturnType<Client["callTool"]>>) =>
  JSON.parse((res.content as Array<{ text: string }>)[0].text)

describe("a connector signs in to /mcp with OAuth", () => {
  it("publishes the protected resource and the authorization server, and a 401 from /mcp points at them", async () => {
    const resource = await (await fetch(`${app.url}/.well-known/oauth-protected-resource`)).json()
    expect(OAuthProtectedResourceMetadataSchema.parse(resource)).toMatchObject({
      resource: `${app.url}/mcp`,
      authorization_servers: [app.url]
    })
    expect(await (await fetch(`${app.url}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual(resource)
    const server = await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json()
    expect(OAuthMetadataSchema.parse(server)).toMatchObject({
      issuer: app.url,
      authorization_endpoint: `${app.url}/oauth/authorize`,
      token_endpoint: `${app.url}/oauth/token`,
      registration_endpoint: `${app.url}/oauth/register`,
      revocation_endpoint: `${app.url}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post"]
    })
    for (const bearer of ["nope", "mcp_at_unknown"]) {
      const refused = await mcpStatus(app, bearer)
      expect(refused.status).toBe(401)
      expect(refused.challenge).toBe(`Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource"`)
    }
  })

  it("runs the SDK's own flow: discovery, registration, consent by a signed-in owner, PKCE, then tools with the org's data", async () => {
    const org = await app.newOrg()
    const other = await app.newOrg()
    const mine = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Morning yoga",
      kind: "class",
      capacity: 8
    })
    expect(mine.status).toBe(201)
    expect(
      (
        await app.call(other.key, "POST", "/api/v1/offerings", {
          name: "Someone else's class",
          kind: "class",
          capacity: 8
        })
      ).status
    ).toBe(201)

    const provider = new TestProvider(app, org.key, "Claude (test)")
    const serverUrl = `${app.url}/mcp`
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT")
    expect(provider.info?.client_id).toMatch(/^mcp_client_/)
    expect(provider.consentPage).toContain("Claude (test)")
    expect(provider.consentPage).toContain("127.0.0.1:9")
    expect(provider.consentPage).not.toContain("<script")
    expect(provider.code).toBeDefined()
    expect(await auth(provider, { serverUrl, authorizationCode: provider.code })).toBe("AUTHORIZED")
    expect(provider.saved?.access_token).toMatch(/^mcp_at_/)
    expect(provider.saved?.refresh_token).toMatch(/^mcp_rt_/)
    expect(provider.saved?.expires_in).toBe(3600)

    const client = new Client({ name: "oauth-tests", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }))
    const tools = await client.listTools()
    expect(tools.tools.map((t) => t.name)).toContain("offerings_list")
    const listed = toolText(await client.callTool({ name: "offerings_list", arguments: {} }))
    expect(listed.data.map((o: { name: string }) => o.name)).toEqual(["Morning yoga"])
    // The token acts as an owner: it reads the org's keys, as only an owner's key may.
    const keys = await client.callTool({ name: "keys_list", arguments: {} })
    expect(keys.isError).not.toBe(true)
    const apps = toolText(await client.callTool({ name: "oauth_apps_list", arguments: {} }))
    expect(apps.data).toMatchObject([
      { client_id: provider.info?.client_id, client_name: "Claude (test)", revoked_at: null }
    ])
    await client.close()

    // The SDK refreshes with the rotating refresh token once the access token has expired.
    await app.advance(3601)
    expect((await mcpStatus(app, provider.saved!.access_token)).status).toBe(401)
    const before = provider.saved!
    expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED")
    expect(provider.saved!.access_token).not.toBe(before.access_token)
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token)
    const again = new Client({ name: "oauth-tests", version: "1.0.0" })
    await again.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }))
    expect(
      toolText(await again.callTool({ name: "offerings_list", arguments: {} })).data.map(
        (o: { name: string }) => o.name
      )
    ).toEqual(["Morning yoga"])
    await again.close()
  })

  it("with an access token, is served statelessly without a session id, and in a session is told when a booking changes", async () => {
    const org = await app.newOrg()
    const { tokens } = await grant(app, org.key)
    expect((await mcpStatus(app, tokens.access_token)).status).toBe(200)
    const { body: offering } = await app.call(org.key, "POST", "/api/v1/offerings", {
      name: "Yoga",
      kind: "class",
      capacity: 3
    })
    const now = new Date((await app.admin("GET", "/clock")).body.now)
    const startsAt = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + 48 * 3_600_000).toISOString()
    const { body: sessions } = await app.call(org.key, "POST", "/api/v1/sessions", {
      offering_id: offering.id,
      starts_at: startsAt
    })
    const booked = await app.call(org.key, "POST", "/api/v1/bookings", {
      offering_id: offering.id,
      session_id: sessions.data[0].id,
      quantity: 1,
      customer: { name: "Cy", email: "cy@example.com" }
    })
    expect(booked.status).toBe(201)

    const client = new Client({ name: "oauth-subscriber", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } }
    })
    await client.connect(transport)
    const updates: string[] = []
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri))
    try {
      expect(transport.sessionId).toBeDefined()
      const uri = `booking-engine://bookings/${booked.body.id}`
      await client.subscribeResource({ uri })
      expect((await app.call(org.key, "POST", `/api/v1/bookings/${booked.body.id}/cancel`, {})).status).toBe(200)
      const until = Date.now() + 10_000
      while (updates.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
      expect([...new Set(updates)]).toEqual([uri])
    } finally {
      await client.close()
    }
  })
})
