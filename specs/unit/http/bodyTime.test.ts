import type { IncomingMessage } from "node:http"
import { describe, expect, it } from "vitest"
import { BODY_FLOOR_BYTES_PER_SECOND, watchBody } from "../../../transports/http/bodyTime.ts"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const request = () => {
  const socket = { bytesRead: 300 }
  return { socket, req: { socket } as unknown as IncomingMessage }
}

describe("a body's time to arrive", () => {
  it("is late once the time-out passes with little of it in", async () => {
    const { req, socket } = request()
    let late = 0
    watchBody(req, 200, () => late++)
    socket.bytesRead += 10
    await sleep(400)
    expect(late).toBe(1)
  })

  it("gets a second more for each 16 KiB that arrived: a large body at the floor rate or faster is never late", async () => {
    const { req, socket } = request()
    let late = 0
    const watch = watchBody(req, 200, () => late++)
    // Eight times the floor rate (still above it were each pause to take four times as long), past the time-out.
    const every = 50
    for (let i = 0; i < 16; i++) {
      socket.bytesRead += Math.ceil((8 * BODY_FLOOR_BYTES_PER_SECOND * every) / 1000)
      await sleep(every)
    }
    watch.stop()
    expect(late).toBe(0)
  })

  it("is not late once stopped (the body is in)", async () => {
    const { req } = request()
    let late = 0
    watchBody(req, 100, () => late++).stop()
    await sleep(250)
    expect(late).toBe(0)
  })
})
