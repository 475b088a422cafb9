import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { holdFirstFreeTime } from "../../../examples/assistant.ts"
import { connectAndList } from "../../../examples/connector.ts"
import { reserveAndConfirm } from "../../../examples/reseller.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, ok } from "../bookings/helpers.ts"
import { ownerOf } from "../oauth/helpers.ts"

// The README's runnable examples, run against the engine as a newcomer would.
let app: TestApp
let org: BookingsOrg
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
beforeAll(async () => {
  // The engine at its own address, as a connector finds it (OAuth metadata is under PUBLIC_URL).
  const port = await freePort()
  app = await startApp({ port, publicUrl: `http://127.0.0.1:${port}` })
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  await org.classWithSession({ name: "Example class", capacity: 6 }, 30)
})
afterAll(() => app.close())

describe("examples", () => {
  it("examples/assistant.ts holds a place for a guest through the assistant channel", async () => {
    ok(await org.call("PATCH", "/org", { slug: "example-school" }))
    const hold = await holdFirstFreeTime(app.url, "example-school", { name: "Ana", email: "ana@example.com" })
    expect(hold).toMatchObject({ offering: "Example class", status: "held" })
    const [b] = ok(await org.call("GET", "/bookings?status=held")).data
    expect(b).toMatchObject({ reference: hold.reference, source: "assistant" })
  })

  it("examples/reseller.ts reserves and confirms two adults through OCTO with a reseller key", async () => {
    const rk = ok(
      await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "reseller", name: "Example reseller" }),
      201
    ).key
    const booked = await reserveAndConfirm(app.url, rk, { fullName: "Ann Lee", emailAddress: "ann@example.com" })
    expect(booked.status).toBe("CONFIRMED")
    const listed = ok(await org.call("GET", "/bookings?status=confirmed")).data
    expect(listed.find((x: { source: string; quantity: number }) => x.source === "octo")).toMatchObject({ quantity: 2 })
  })
  it("examples/connector.ts signs in to /mcp with OAuth (a signed-in owner approving) and lists the org's offerings", async () => {
    const lines: string[] = []
    const owner = await ownerOf(app, org.key)
    const result = await connectAndList(app.url, { approveWith: owner!.cookie, log: (l) => lines.push(l) })
    expect(result.clientId).toMatch(/^mcp_client_/)
    expect(result.offerings).toEqual(["Example class"])
    expect(result.tools).toBeGreaterThan(50)
    const apps = ok(await org.call("GET", "/oauth_apps")).data
    expect(apps.map((a: { client_name: string }) => a.client_name)).toContain("Example connector")
    // Without an owner's session nothing is signed in: the consent page refuses and the example says so.
    await expect(connectAndList(app.url, { approveWith: `session=${"x".repeat(43)}`, log: () => {} })).rejects.toThrow(
      /consent page refused/
    )
  })
})
