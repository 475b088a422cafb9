import { randomUUID } from "node:crypto"

/** The channel a barrier's own NOTIFY goes round on. */
export const SYNC_CHANNEL = "engine_sync"
/**
 * A barrier not back within this long counts as failed (the caller then trusts nothing it remembers). A slow answer is
 * still a true one (a busy process reads it late), and a listener that dropped fails its barrier at once, so this is
 * only a backstop: a frozen database drops the listener first (its ping, DB_TIMEOUT_MS).
 */
const BARRIER_TIMEOUT_MS = 10_000

/**
 * Proof that every message committed before a call has been delivered: the listening client sends a NOTIFY of its
 * own and waits for it to come back. Postgres delivers notifications in commit order, so once it is back every
 * commit that came before it has been heard. Callers that arrive while one is out wait for the next, so any number
 * of them cost one round trip at a time. `send` answers undefined when there is no listening client.
 */
export const makeBarrier = (send: (payload: string) => Promise<unknown> | undefined) => {
  const id = randomUUID().slice(0, 8)
  let count = 0
  let out: { token: string; done: Array<(ok: boolean) => void>; timer: ReturnType<typeof setTimeout> } | undefined
  let next: Array<(ok: boolean) => void> = []

  const settle = (ok: boolean) => {
    const flying = out
    if (flying === undefined) return
    out = undefined
    clearTimeout(flying.timer)
    for (const done of flying.done) done(ok)
    kick()
  }

  const kick = () => {
    if (out !== undefined || next.length === 0) return
    const done = next
    next = []
    const token = `${id}:${++count}`
    const sent = send(token)
    if (sent === undefined) {
      for (const d of done) d(false)
      return
    }
    const timer = setTimeout(() => out?.token === token && settle(false), BARRIER_TIMEOUT_MS)
    timer.unref()
    out = { token, done, timer }
    sent.catch(() => out?.token === token && settle(false))
  }

  return {
    /** Resolves true once everything committed before the call has been heard. */
    wait: () =>
      new Promise<boolean>((resolve) => {
        next.push(resolve)
        kick()
      }),
    /** A message on SYNC_CHANNEL arrived. */
    heard: (payload: string) => {
      if (out?.token === payload) settle(true)
    },
    /** The listening client dropped: no barrier out now can come back. */
    fail: () => settle(false)
  }
}
