import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { waitFor } from "../../support/receiver.ts"
import { bookingsOrg, guest, ok } from "../bookings/helpers.ts"
import { startTwilioApp } from "./twilioServer.ts"

// A text written by messages.send is handed to Twilio once its transaction commits, whatever the clock: the test
// clock (which runs the background jobs only when it is moved) as the system clock. Neither app's clock is moved here.
const apps: Array<Awaited<ReturnType<typeof startTwilioApp>>> = []
afterAll(() => Promise.all(apps.map((a) => a.close())))

describe.each(["test", "system"] as const)("a text sent by messages.send, with CLOCK=%s", (clock) => {
  let app: TestApp
  let twilio: (typeof apps)[number]["twilio"]
  beforeAll(async () => {
    const started = await startTwilioApp({ clock })
    apps.push(started)
    ;({ app, twilio } = started)
  })

  it("reaches Twilio without the clock being moved, once", async () => {
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({})
    const phone = clock === "test" ? "+31 6 2100 0001" : "+31 6 2100 0002"
    const to = phone.replace(/\s/g, "")
    const b = ok(
      await org.book({ offering_id: offering.id, session_id: session.id, customer: { ...guest(clock), phone } }),
      201
    )
    const before = (await app.admin("GET", "/clock")).body.now
    const sent = ok(
      await org.call("POST", "/messages", { booking_id: b.id, body: "The van leaves at 9.", channel: "text" }),
      201
    )
    expect(sent.failed_at).toBeNull()
    const calls = () => twilio.calls.filter((c) => c.form.To === to && c.form.Body === "The van leaves at 9.")
    await waitFor(() => calls().length > 0, 10_000, "the text at Twilio")
    // The text is marked sent once Twilio's answer is back, a moment after Twilio has it.
    const stored = async () =>
      ok(await app.admin("GET", `/texts?to=${encodeURIComponent(to)}`)).data.filter(
        (t: { body: string }) => t.body === "The van leaves at 9."
      )
    await waitFor(async () => (await stored())[0]?.sent_at != null, 10_000, "the text marked sent")
    const [text] = await stored()
    expect(text.sent_at).not.toBeNull()
    expect(text.provider_id).toMatch(/^SM/)
    if (clock === "test") expect((await app.admin("GET", "/clock")).body.now).toBe(before)
    // Handed over once: a pass of the job afterwards finds nothing more to send.
    await new Promise((r) => setTimeout(r, 300))
    expect(calls()).toHaveLength(1)
  })
})
