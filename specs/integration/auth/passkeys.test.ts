import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { softAuthenticator } from "./authenticator.ts"
import { browser, teamOrg } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const ORIGIN = "http://127.0.0.1"

describe("passkeys", () => {
  it("a signed-in person registers a passkey, then signs in with it in a fresh browser", async () => {
    const org = await teamOrg(app, "pk")
    const b = browser(app)
    await b.signIn(org.owner)
    const key = softAuthenticator(ORIGIN)
    const options = await b.request("POST", "/auth/v1/passkeys/options")
    expect(options.status).toBe(200)
    expect(options.body).toMatchObject({ rp: { id: "127.0.0.1" }, authenticatorSelection: { residentKey: "required" } })
    const added = await b.request("POST", "/auth/v1/passkeys", { response: key.register(options.body), name: "Laptop" })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ name: "Laptop", last_used_at: null })
    expect((await b.request("GET", "/auth/v1/passkeys")).body.data).toEqual([added.body])
    // The same options cannot be answered twice.
    const again = await b.request("POST", "/auth/v1/passkeys", { response: key.register(options.body) })
    expect([again.status, again.body.error.code]).toEqual([400, "passkey_refused"])

    const fresh = browser(app)
    const signIn = await fresh.request("POST", "/auth/v1/passkey_sign_in/options")
    expect(signIn.status).toBe(200)
    expect(signIn.body.allowCredentials ?? []).toEqual([])
    const signed = await fresh.request("POST", "/auth/v1/passkey_sign_in", { response: key.assert(signIn.body) })
    expect(signed.status).toBe(200)
    expect(signed.body).toMatchObject({ user: { email: org.owner }, org: { id: org.id }, role: "owner" })
    expect(signed.cookies.some((c) => c.startsWith("session="))).toBe(true)
    expect((await fresh.session()).body.user.email).toBe(org.owner)
    expect((await fresh.api("GET", "/org")).status).toBe(200)
    expect((await b.request("GET", "/auth/v1/passkeys")).body.data[0].last_used_at).not.toBeNull()
  })

  it("refuses an assertion for another origin, a replayed challenge, an unknown key and a removed passkey", async () => {
    const org = await teamOrg(app, "pk2")
    const b = browser(app)
    await b.signIn(org.owner)
    const key = softAuthenticator(ORIGIN)
    const options = (await b.request("POST", "/auth/v1/passkeys/options")).body
    const added = (await b.request("POST", "/auth/v1/passkeys", { response: key.register(options) })).body

    const other = browser(app)
    const o1 = (await other.request("POST", "/auth/v1/passkey_sign_in/options")).body
    const phished = await other.request("POST", "/auth/v1/passkey_sign_in", {
      response: key.assert(o1, "https://evil.example")
    })
    expect([phished.status, phished.body.error.code]).toEqual([400, "passkey_refused"])
    // That challenge is used up, even by a right answer.
    const replay = await other.request("POST", "/auth/v1/passkey_sign_in", { response: key.assert(o1) })
    expect(replay.status).toBe(400)
    const o2 = (await other.request("POST", "/auth/v1/passkey_sign_in/options")).body
    const stranger = softAuthenticator(ORIGIN)
    stranger.register(options)
    const unknown = await other.request("POST", "/auth/v1/passkey_sign_in", { response: stranger.assert(o2) })
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "passkey_refused"])

    expect((await b.request("DELETE", `/auth/v1/passkeys/${added.id}`)).status).toBe(204)
    const o3 = (await other.request("POST", "/auth/v1/passkey_sign_in/options")).body
    const removed = await other.request("POST", "/auth/v1/passkey_sign_in", { response: key.assert(o3) })
    expect(removed.status).toBe(400)
    expect((await other.session()).status).toBe(401)
  })

  it("refuses a sign-in whose userHandle is not the passkey's owner, as it refuses an unknown passkey", async () => {
    const org = await teamOrg(app, "pk4")
    const b = browser(app)
    await b.signIn(org.owner)
    const key = softAuthenticator(ORIGIN)
    const options = (await b.request("POST", "/auth/v1/passkeys/options")).body
    expect((await b.request("POST", "/auth/v1/passkeys", { response: key.register(options) })).status).toBe(201)
    const staff = browser(app)
    await staff.signIn(org.staff)
    const staffId = (await staff.session()).body.user.id as string
    // The handle a passkey is made with is its owner's user id.
    expect(options.user.id).toBe(Buffer.from((await b.session()).body.user.id).toString("base64url"))

    const answer = async (handle: string | null) => {
      const fresh = browser(app)
      const o = (await fresh.request("POST", "/auth/v1/passkey_sign_in/options")).body
      const r = await fresh.request("POST", "/auth/v1/passkey_sign_in", { response: key.assert(o, undefined, handle) })
      return { status: r.status, body: r.body, session: (await fresh.session()).status }
    }
    const unknown = await (async () => {
      const fresh = browser(app)
      const o = (await fresh.request("POST", "/auth/v1/passkey_sign_in/options")).body
      const r = await fresh.request("POST", "/auth/v1/passkey_sign_in", {
        response: softAuthenticator(ORIGIN).assert(o)
      })
      return { status: r.status, body: r.body, session: (await fresh.session()).status }
    })()
    expect(unknown).toMatchObject({ status: 400, session: 401 })
    // Another person's id, a made-up one, and none at all: each answered exactly as an unknown passkey is.
    for (const handle of [
      Buffer.from(staffId).toString("base64url"),
      Buffer.from("nobody").toString("base64url"),
      null
    ])
      expect(await answer(handle)).toEqual(unknown)
    // The owner's own handle still signs in.
    const own = await answer(options.user.id)
    expect([own.status, own.session]).toEqual([200, 200])
    expect(own.body.user.email).toBe(org.owner)
  })

  it("registration needs a session and its CSRF token", async () => {
    const org = await teamOrg(app, "pk3")
    expect((await browser(app).request("POST", "/auth/v1/passkeys/options")).status).toBe(401)
    const b = browser(app)
    await b.signIn(org.owner)
    const noToken = await b.request("POST", "/auth/v1/passkeys/options", undefined, { "x-csrf-token": "" })
    expect([noToken.status, noToken.body.error.code]).toEqual([403, "csrf_failed"])
  })
})
