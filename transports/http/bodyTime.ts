import type { IncomingMessage } from "node:http"

/** BODY_TIMEOUT_MS unless set: how long a request's body may take to arrive (more for a large one, below). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000
/**
 * The floor rate of a body past its time-out, bytes a second: each 16 KiB that arrived earns one more second, so a
 * large upload on a slow link goes through, and one that trickles (a byte a second) is answered 408 at the time-out.
 */
export const BODY_FLOOR_BYTES_PER_SECOND = 16 * 1024

/**
 * Watches the arrival of one request's body (transports/http/server.ts): calls `late` once it has taken longer than
 * `timeoutMs` plus one second for every BODY_FLOOR_BYTES_PER_SECOND bytes received, unless `stop` came first. Bytes
 * are counted on the socket (the body's, once its headers were read), so the surface's reader is not disturbed.
 */
export const watchBody = (req: IncomingMessage, timeoutMs: number, late: () => void) => {
  const socket = req.socket
  const base = socket.bytesRead
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const check = () => {
    const allowed = timeoutMs + ((socket.bytesRead - base) / BODY_FLOOR_BYTES_PER_SECOND) * 1000
    const left = allowed - (performance.now() - started)
    if (left <= 0) {
      timer = undefined
      return late()
    }
    timer = setTimeout(check, Math.ceil(left))
    timer.unref()
  }
  timer = setTimeout(check, timeoutMs)
  timer.unref()
  return {
    stop: () => {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    }
  }
}
