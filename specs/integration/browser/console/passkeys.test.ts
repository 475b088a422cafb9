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
})
