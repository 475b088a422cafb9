import { type AddressInfo, createServer as createNetServer } from "node:net"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { startApp, type TestApp } from "../../../support/app.ts"
import { launch } from "../../../support/browser.ts"
import { lastLink } from "../../auth/helpers.ts"
import { advanceTo, clockNow, PIN } from "../../bookings/helpers.ts"

export { clockNow }

/**
 * The app on a known port with PUBLIC_URL its own address (the console's origin, as in production), pinned in time
 * (unless `clock` is "system").
 */
export const consoleApp = async (host = "127.0.0.1", clock: "test" | "system" = "test") => {
  // The port is chosen before the app listens on it, so another process may take it in between: try another then.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const app = await startApp({ port, publicUrl: `http://${host}:${port}`, clock }).catch((e: unknown) => {
      if (attempt < 5 && String(e).includes("EADDRINUSE")) return undefined
      throw e
    })
    if (app === undefined) continue
    if (clock === "test") await advanceTo(app, PIN)
    return app
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as AddressInfo).port
      s.close(() => resolve(p))
    })
  })

/** An org in a zone with people on its team (added by the admin API). */
export const orgWith = async (
  app: TestApp,
  people: Record<string, "owner" | "staff">,
  timezone = "Europe/Amsterdam"
) => {
  const org = await app.newOrg({ timezone, plan: "scale" })
  for (const [email, role] of Object.entries(people))
    expect((await app.admin("POST", `/orgs/${org.id}/members`, { email, role })).status).toBe(201)
  const call = (method: string, path: string, body?: unknown) => app.call(org.key, method, `/api/v1${path}`, body)
  return { ...org, call }
}

export const pinClock = async (app: TestApp, page: Page) => page.clock.setFixedTime(await clockNow(app))

/** Signs in through the console's own screen: email, the link from the mail, back on /dashboard. */
export const signIn = async (app: TestApp, page: Page, email: string, base = app.url) => {
  // Mails of one engine instant have no order: a second on, this link is the newest.
  await app.advance(1)
  await pinClock(app, page)
  await page.goto(`${base}/dashboard`)
  await page.getByLabel("Email").fill(email)
  await page.getByRole("button", { name: "Email me a sign-in link" }).click()
  await page.getByRole("heading", { name: "Check your mail" }).waitFor()
  await page.goto(`${base}${await lastLink(app, email)}`)
  expect(new URL(page.url()).pathname).toBe("/dashboard")
  await page.getByRole("button", { name: "Sign out", exact: true }).waitFor()
}

/** Engine events become readable once settled (2 s of engine time): moves the clock so they are served. */
export const settle = (app: TestApp) => app.advance(3)

/**
 * A browser suite of the console: the app and Chromium are started before the file's tests and closed after them.
 * `suite.app` and `suite.browser` are read inside tests (they exist once beforeAll has run).
 */
export const consoleSuite = (host = "127.0.0.1") => {
  let app: TestApp | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    app = await consoleApp(host)
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
  })
  const suite = {
    get app(): TestApp {
      if (app === undefined) throw new Error("the app starts in beforeAll")
      return app
    },
    get browser(): Browser {
      if (browser === undefined) throw new Error("the browser starts in beforeAll")
      return browser
    },
    /** A fresh browser context at 1280 × 900, British English. */
    newPage: async (): Promise<Page> =>
      (await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })).newPage(),
    /** An org with this person as its owner, signed in on a new page. */
    owner: async (email: string) => {
      const org = await orgWith(suite.app, { [email]: "owner" })
      const page = await suite.newPage()
      await signIn(suite.app, page, email)
      return { org, page }
    }
  }
  return suite
}
