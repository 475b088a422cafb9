import { createServer, Socket } from "node:net"

/** A loopback port nothing listens on now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/** Whether something accepts connections on the loopback port. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket()
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => (socket.destroy(), resolve(false)))
    socket.connect(port, "127.0.0.1")
  })

/** Waits until `ok` holds, checking every `everyMs`; throws with `what` after `ms`. */
export const until = async (ok: () => Promise<boolean> | boolean, ms: number, what: string, everyMs = 50) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await Promise.resolve(ok()).catch(() => false)) return
    await new Promise((r) => setTimeout(r, everyMs))
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`)
}
