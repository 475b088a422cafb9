import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../../support/app.ts"
import { expectAccessible, launch, screenshots } from "../../../support/browser.ts"
import { consoleApp, orgWith, pinClock, signIn } from "./helpers.ts"

let app: TestApp
let browser: Browser
let base: string

beforeAll(async () => {
  // WebAuthn takes a domain as the relying party, never an IP address: the console is at localhost here.
  app = await consoleApp("localhost")
  base = app.url.replace("127.0.0.1", "localhost")
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const AUTHENTICATOR = {
  protocol: "ctap2",
  transport: "internal",
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true
} as const

/** A page with Chromium's virtual authenticator (WebAuthn over the DevTools protocol), as a laptop's would be. */
const withAuthenticator = async (b: Browser) => {
  const ctx = await b.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
  const page = await ctx.newPage()
  const cdp = await ctx.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", { options: AUTHENTICATOR })
  return { page, cdp, authenticatorId }
}

describe("passkeys", () => {
  it("a signed-in owner adds a passkey, signs out, and signs in with it (Chromium's virtual authenticator)", async () => {
    await orgWith(app, { "keys@example.com": "owner" })
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true
      }
    })
    await signIn(app, page, "keys@example.com", base)
    await page.getByRole("link", { name: "keys@example.com" }).click()
    await page.getByRole("heading", { name: "Your account" }).waitFor()
    await page.getByLabel("Name for the new passkey (optional)").fill("Test laptop")
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page.getByText("Passkey added.").waitFor()
    await page.getByText(/^Test laptop, added/).waitFor()
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    await expectAccessible(page)
    await screenshots(page, "console-account")
    await page.getByRole("button", { name: "Sign out", exact: true }).click()
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor()
    await pinClock(app, page)
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page.getByRole("button", { name: "Sign out", exact: true }).waitFor()
    expect(await page.getByRole("link", { name: "keys@example.com" }).count()).toBe(1)
    // Another browser without the passkey cannot use it.
    const other = await (await browser.newContext()).newPage()
    const ocdp = await other.context().newCDPSession(other)
    await ocdp.send("WebAuthn.enable")
    await ocdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true
      }
    })
    await other.goto(`${base}/dashboard`)
    await other.getByRole("button", { name: "Sign in with a passkey" }).click()
    await other.getByRole("alert").waitFor()
    expect(await other.getByRole("button", { name: "Sign out", exact: true }).count()).toBe(0)
  })
  it("a passkey already on this authenticator is refused in plain words, and the one kept works", async () => {
    await orgWith(app, { "twice@example.com": "owner" })
    const { page, cdp, authenticatorId } = await withAuthenticator(browser)
    await signIn(app, page, "twice@example.com", base)
    await page.goto(`${base}/dashboard/account`)
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page.getByText("Passkey added.").waitFor()
    // The server lists the passkeys the person has: the browser finds one of them here and refuses a second.
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page.getByRole("alert").filter({ hasText: "already registered" }).waitFor()
    expect(await page.getByRole("alert").first().textContent()).toBe(
      "This passkey is already registered for your account."
    )
    expect(await page.getByText("Could not reach the server").count()).toBe(0)
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1)
    expect(await page.getByText(/^Passkey, added/).count()).toBe(1)
    await expectAccessible(page)
  })

  it("at an IP address the console says passkeys need a host name such as localhost", async () => {
    const byIp = await consoleApp("127.0.0.1")
    try {
      await orgWith(byIp, { "ip@example.com": "owner" })
      const { page } = await withAuthenticator(browser)
      await page.goto(`${byIp.url}/dashboard`)
      await page.getByRole("button", { name: "Sign in with a passkey" }).click()
      const said = page.getByRole("alert").filter({ hasText: "host name" })
      await said.waitFor()
      expect(await said.textContent()).toBe(
        "Passkeys need a host name, not an IP address (127.0.0.1): open the console at a name such as localhost."
      )
      // Signed in by a link, adding one says the same.
      await signIn(byIp, page, "ip@example.com")
      await page.goto(`${byIp.url}/dashboard/account`)
      await page.getByRole("button", { name: "Add a passkey" }).click()
      await page.getByRole("alert").filter({ hasText: "not an IP address (127.0.0.1)" }).waitFor()
      await expectAccessible(page)
    } finally {
      await byIp.close()
    }
  })
})
