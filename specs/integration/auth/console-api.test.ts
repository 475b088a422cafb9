import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"
import { browser } from "./helpers.ts"

/** What the console (a person's session cookie, no key) may do beyond plain /api/v1 calls. */
let app: TestApp
let org: BookingsOrg
let console_: ReturnType<typeof browser>
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await app.admin("POST", `/orgs/${org.id}/members`, { email: "console-owner@example.com", role: "owner" }), 201)
  console_ = browser(app)
  await console_.signIn("console-owner@example.com")
})
afterAll(() => app.close())

/** Reads an SSE response until an event of `type` arrives (moving the test clock so events settle), then stops. */
const firstEvent = async (res: Response, type: string) => {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  let found: { id: number; type: string; data: any } | undefined
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      text += decoder.decode(value, { stream: true })
      const block = text.split("\n\n").find((b) => b.includes(`event: ${type}\n`))
      if (block !== undefined) {
        found = JSON.parse(/^data: (.*)$/m.exec(block)![1])
        return
      }
    }
  })()
  for (let i = 0; i < 100 && found === undefined; i++) {
    await app.advance(1)
    await new Promise((r) => setTimeout(r, 50))
  }
  await reader.cancel()
  await reading.catch(() => undefined)
  return found
}

describe("the live event stream with a session cookie", () => {
  it("serves the session's org its events; without any credential it is still 401", async () => {
    const start = ok(await org.call("GET", "/events?order=desc&limit=1")).data[0]?.id ?? 0
    const cookie = [...console_.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const res = await fetch(`${app.url}/api/v1/events/stream?after=${start}`, { headers: { cookie } })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
    const { offering } = await org.classWithSession({ name: "Seen by the console", capacity: 5 })
    const event = await firstEvent(res, "offering.created")
    expect(event?.data).toMatchObject({ id: offering.id, name: "Seen by the console" })

    const none = await fetch(`${app.url}/api/v1/events/stream`)
    expect(none.status).toBe(401)
    expect((await none.json()).error.code).toBe("unauthorized")
    const ended = await fetch(`${app.url}/api/v1/events/stream`, { headers: { cookie: "session=not-a-session" } })
    expect(ended.status).toBe(401)
  })
})

describe("a booking's source", () => {
  it("is dashboard when the console books, and api when a key does", async () => {
    const { offering, session } = await org.classWithSession({ name: "Sources", capacity: 5 })
    const body = { offering_id: offering.id, session_id: session.id }
    const byConsole = ok(await console_.api("POST", "/bookings", { ...body, customer: guest("console1") }), 201)
    expect(byConsole.source).toBe("dashboard")
    expect(ok(await console_.api("GET", `/bookings/${byConsole.id}`)).source).toBe("dashboard")
    const byKey = await org.booked({ ...body, customer: guest("console2") })
    expect(byKey.source).toBe("api")
  })
})
