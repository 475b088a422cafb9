import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../../support/app.ts"
import { expectAccessible, launch, screenshots } from "../../../support/browser.ts"
import { form, pkce, REDIRECT, register } from "../../oauth/helpers.ts"
import { consoleApp, orgWith, signIn } from "./helpers.ts"

let app: TestApp
let browser: Browser

beforeAll(async () => {
  app = await consoleApp()
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** A browser whose visits to the connector's redirect URI land on a stand-in page (nothing listens there). */
const connectorBrowser = async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
  const back: Array<URL> = []
  await ctx.route(`${new URL(REDIRECT).origin}/**`, (route) => {
    back.push(new URL(route.request().url()))
    return route.fulfill({ status: 200, contentType: "text/html", body: "<title>Connector</title><p>Back</p>" })
  })
  return { ctx, back, page: await ctx.newPage() }
}

/** The URL a connector sends the owner to: its client, PKCE challenge and state. */
const authorizeUrl = (clientId: string, challenge: string, state: string) =>
  `${app.url}/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${app.url}/mcp`
  })}`

/** Clicks a button of the consent form and waits for the form's answer: its status (a 303 is followed). */
const answer = async (page: Page, button: "Approve" | "Deny") => {
  const posted = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/oauth/authorize"
  )
  await page.getByRole("button", { name: button }).click()
  return (await posted).status()
}

const toolText = (res: Awaited<ReturnType<Client["callTool"]>>) =>
  JSON.parse((res.content as Array<{ text: string }>)[0].text)

describe("approving an OAuth app in Chromium", () => {
  it("an owner reads the consent screen and approves; the connector's code becomes a token that reaches the org's operations", async () => {
    const org = await orgWith(app, { "olive@example.com": "owner", "stan@example.com": "staff" })
    const orgName = (await org.call("GET", "/org")).body.name as string
    const client = await register(app, { client_name: "Chromium connector" })
    const { verifier, challenge } = pkce()

    const { back, page } = await connectorBrowser()
    await signIn(app, page, "olive@example.com")
    await page.goto(authorizeUrl(client.client_id, challenge, "st-chromium"))
    await page.getByRole("heading", { name: "Connect Chromium connector" }).waitFor()
    // What is asked, of which org, by whom, and what it may do.
    const terms = (await page.locator("dl").textContent()) ?? ""
    expect(terms).toContain("Chromium connector")
    expect(terms).toContain(orgName)
    expect(terms).toContain("olive@example.com (owner)")
    expect(terms).toContain("127.0.0.1:9")
    await page.getByText("read, make, move and cancel bookings, with refunds").waitFor()
    await page.getByText("as the org's owner would").waitFor()
    await expectAccessible(page)
    await screenshots(page, "console-oauth-consent")

    expect(await answer(page, "Approve")).toBe(303)
    await page.waitForURL((u) => u.href.startsWith(REDIRECT))
    expect(back).toHaveLength(1)
    expect(back[0].searchParams.get("state")).toBe("st-chromium")
    const code = back[0].searchParams.get("code")
    expect(code).toMatch(/^mcp_ac_/)

    const exchanged = await form(app, "/oauth/token", {
      grant_type: "authorization_code",
      code: code!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: client.client_id
    })
    expect(exchanged.status).toBe(200)
    const tokens = (await exchanged.json()) as { access_token: string; token_type: string }
    expect(tokens.token_type).toBe("Bearer")

    // The token runs the org's /api/v1 operations as MCP tools (docs/oauth.md: an access token reaches /mcp only).
    const mcp = new Client({ name: "chromium-oauth", version: "1.0.0" })
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } }
      })
    )
    expect(toolText(await mcp.callTool({ name: "org_get", arguments: {} }))).toMatchObject({ id: org.id })
    const apps = toolText(await mcp.callTool({ name: "oauth_apps_list", arguments: {} }))
    expect(apps.data).toMatchObject([{ client_id: client.client_id, client_name: "Chromium connector" }])
    await mcp.close()
    expect((await app.call(tokens.access_token, "GET", "/api/v1/org")).status).toBe(401)

    // The owner sees the app in the console and can revoke it there, after being told what stops.
    await page.goto(`${app.url}/dashboard/developers`)
    await page.getByRole("button", { name: "Revoke… Chromium connector" }).click()
    await page.getByText(/The app loses its access to this organisation at once/).waitFor()
    await page.getByRole("button", { name: "Revoke Chromium connector" }).waitFor()
  })

  it("a staff member is refused at approval; denying sends access_denied back to the connector", async () => {
    const org = await orgWith(app, { "opal@example.com": "owner", "sky@example.com": "staff" })
    const client = await register(app, { client_name: "Refused connector" })
    const { challenge } = pkce()

    const staff = await connectorBrowser()
    await signIn(app, staff.page, "sky@example.com")
    await staff.page.goto(authorizeUrl(client.client_id, challenge, "st-staff"))
    await staff.page.getByRole("heading", { name: "Connect Refused connector" }).waitFor()
    expect(await answer(staff.page, "Approve")).toBe(403)
    await staff.page.getByRole("alert").getByText("Only an owner").waitFor()
    expect(staff.back).toEqual([])
    expect((await org.call("GET", "/oauth_apps")).body.data).toEqual([])

    const owner = await connectorBrowser()
    await signIn(app, owner.page, "opal@example.com")
    await owner.page.goto(authorizeUrl(client.client_id, challenge, "st-deny"))
    expect(await answer(owner.page, "Deny")).toBe(303)
    await owner.page.waitForURL((u) => u.href.startsWith(REDIRECT))
    expect(
      owner.back.map((u) => [u.searchParams.get("error"), u.searchParams.get("state"), u.searchParams.get("code")])
    ).toEqual([["access_denied", "st-deny", null]])
    expect((await org.call("GET", "/oauth_apps")).body.data).toEqual([])
  })

  it("another site cannot approve for a signed-in owner (CSRF): its forged consent form is refused", async () => {
    const org = await orgWith(app, { "otto@example.com": "owner" })
    const client = await register(app, { client_name: "Forged connector" })
    const { challenge } = pkce()
    const { ctx, back, page } = await connectorBrowser()
    await signIn(app, page, "otto@example.com")
    const fields = new URLSearchParams(new URL(authorizeUrl(client.client_id, challenge, "st-forged")).search)
    fields.set("decision", "approve")
    fields.set("csrf_token", "guessed")
    const refused = await forgedPost(ctx, fields)
    expect([401, 403]).toContain(refused)
    expect(back).toEqual([])
    // Without a token at all, too.
    fields.delete("csrf_token")
    expect([401, 403]).toContain(await forgedPost(ctx, fields))
    expect(back).toEqual([])
    expect((await org.call("GET", "/oauth_apps")).body.data).toEqual([])
  })
})

/** A page of another origin (localhost for 127.0.0.1) that submits a consent form to the engine on load. */
const forgedPost = async (ctx: BrowserContext, fields: URLSearchParams) => {
  const evil = await ctx.newPage()
  await evil.goto(`${app.url.replace("127.0.0.1", "localhost")}/healthz`)
  const posted = evil.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/oauth/authorize"
  )
  await evil.evaluate(
    ({ action, entries }) => {
      const f = document.createElement("form")
      f.method = "POST"
      f.action = action
      for (const [name, value] of entries) {
        const input = document.createElement("input")
        input.type = "hidden"
        input.name = name
        input.value = value
        f.appendChild(input)
      }
      document.body.appendChild(f)
      f.submit()
    },
    { action: `${app.url}/oauth/authorize`, entries: [...fields.entries()] }
  )
  const status = (await posted).status()
  await evil.close()
  return status
}
