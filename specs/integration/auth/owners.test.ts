import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { browser, mailsTo } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const linkIn = (body: string, path: RegExp) => new URL(path.exec(body)![0]).pathname

describe("an org's owner", () => {
  it("owner_email on admin create: the owner joins at once and the welcome mail's link signs them in, once", async () => {
    const made = await app.admin("POST", "/orgs", {
      name: "Yoga Loft",
      timezone: "UTC",
      currency: "EUR",
      owner_email: "Olga@Example.com"
    })
    expect(made.status).toBe(201)
    const team = (await app.call(made.body.api_key.key, "GET", "/api/v1/team")).body.data
    expect(team).toMatchObject([{ email: "olga@example.com", role: "owner" }])
    await app.advance(3) // the feed shows an event once its clock has passed
    const events = (await app.call(made.body.api_key.key, "GET", "/api/v1/events?after=0")).body.data
    expect(events.map((e: { type: string }) => e.type)).toContain("member.joined")
    const [welcome] = await mailsTo(app, "olga@example.com", "auth.owner_welcome")
    const link = linkIn(welcome.body, /http\S+\/auth\/v1\/links\/\S+/)
    // Any browser may use it, but only through the page's button: opening it changes nothing.
    const b = browser(app)
    const opened = await b.request("GET", link)
    expect(opened.status).toBe(200)
    expect(opened.text).toContain("olga@example.com")
    expect(opened.cookies).toEqual([])
    const crossSite = await b.request("POST", link, "", { origin: "https://evil.example" })
    expect(crossSite.status).toBe(403)
    const signed = await b.request("POST", link, "")
    expect([signed.status, signed.headers.get("location")]).toEqual([303, "/dashboard"])
    expect((await b.session()).body).toMatchObject({ org: { id: made.body.org.id, name: "Yoga Loft" }, role: "owner" })
    expect((await browser(app).request("POST", link, "")).status).toBe(400)
    expect((await browser(app).request("GET", link)).status).toBe(400)
  })

  it("the admin API lists the orgs without an owner", async () => {
    const bare = await app.newOrg()
    const owned = await app.admin("POST", "/orgs", {
      name: "Owned",
      timezone: "UTC",
      currency: "EUR",
      owner_email: "o2@example.com"
    })
    const ids = (await app.admin("GET", "/orgs_without_owner")).body.data.map((o: { id: string }) => o.id)
    expect(ids).toContain(bare.id)
    expect(ids).not.toContain(owned.body.org.id)
    const bad = await app.admin("POST", "/orgs", { name: "X", timezone: "UTC", currency: "EUR", owner_email: "nope" })
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_owner_email"])
  })

  it("an invite's link joins the team and signs the invitee in (staff), through a page's button", async () => {
    const made = await app.admin("POST", "/orgs", {
      name: "Studio",
      timezone: "UTC",
      currency: "EUR",
      owner_email: "boss@example.com"
    })
    const owner = browser(app)
    await owner.request(
      "POST",
      linkIn((await mailsTo(app, "boss@example.com", "auth.owner_welcome"))[0].body, /http\S+\/auth\/v1\/links\/\S+/),
      ""
    )
    await owner.session()
    expect((await owner.api("POST", "/team/invites", { email: "sam@example.com", role: "staff" })).status).toBe(201)
    const [mail] = await mailsTo(app, "sam@example.com", "member.invited")
    const link = linkIn(mail.body, /http\S+\/auth\/v1\/invites\/inv_[A-Za-z0-9_-]+/)
    const sam = browser(app)
    const page = await sam.request("GET", link)
    expect(page.status).toBe(200)
    expect(page.text).toContain("Studio")
    const joined = await sam.request("POST", link, "name=Sam")
    expect([joined.status, joined.headers.get("location")]).toEqual([303, "/dashboard"])
    expect((await sam.session()).body).toMatchObject({
      user: { email: "sam@example.com" },
      org: { id: made.body.org.id },
      role: "staff"
    })
    const team = (await owner.api("GET", "/team")).body.data
    expect(team.find((m: { email: string }) => m.email === "sam@example.com")).toMatchObject({
      name: "Sam",
      role: "staff"
    })
    expect((await browser(app).request("POST", link, "")).status).toBe(400)
    expect((await browser(app).request("GET", link)).status).toBe(400)
  })
})
