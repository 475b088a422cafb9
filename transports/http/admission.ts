/**
 * Requests past MAX_INFLIGHT wait here for a turn, first come first served (transports/http/server.ts): up to `max`
 * of them, each for at most `timeoutMs`. A waiting request holds its socket and its parsed headers, nothing more: its
 * body is read once it starts. So a sale's crowd larger than the instance's budget is answered in the order it came,
 * each guest truly, instead of a share of it being told 503 `overloaded` to come back into the crowd.
 */
export interface Waiting {
  readonly since: number
  readonly start: () => void
  /** Answers it without a turn: 503 overloaded, or shutting_down when the instance drains. */
  readonly shed: (shutdown: boolean) => void
  /** Started, shed, or its client went away. */
  done: boolean
}

export interface Admission {
  /** Requests waiting now. */
  readonly size: () => number
  /** Queues a request, or answers undefined when `max` already wait. */
  readonly push: (start: () => void, shed: (shutdown: boolean) => void) => Waiting | undefined
  /** Its client went away before its turn: it leaves the queue (a no-op once it started). */
  readonly leave: (w: Waiting) => void
  /** Starts waiting requests, oldest first, while `free()` says a turn is free. */
  readonly admit: (free: () => boolean) => void
  /** Sheds the requests that waited `timeoutMs` or longer. */
  readonly expire: () => void
  /** Sheds every waiting request as the instance shuts down. */
  readonly drain: () => void
}

export const makeAdmission = (max: number, timeoutMs: number, now: () => number = () => performance.now()) => {
  let items: Array<Waiting> = []
  let head = 0
  let size = 0
  const compact = () => {
    if (size === 0) {
      items = []
      head = 0
    } else if (head > 1024 && head * 2 > items.length) {
      items = items.slice(head)
      head = 0
    }
  }
  /** The oldest request still waiting, taken off the queue; undefined when none waits. */
  const take = () => {
    while (head < items.length) {
      const w = items[head++]
      if (w.done) continue
      w.done = true
      size--
      return w
    }
    return undefined
  }
  const oldest = () => {
    while (head < items.length && items[head].done) head++
    return head < items.length ? items[head] : undefined
  }
  const admission: Admission = {
    size: () => size,
    push: (start, shed) => {
      if (size >= max) return undefined
      const w: Waiting = { since: now(), start, shed, done: false }
      items.push(w)
      size++
      return w
    },
    leave: (w) => {
      if (w.done) return
      w.done = true
      size--
      compact()
    },
    admit: (free) => {
      while (size > 0 && free()) take()?.start()
      compact()
    },
    expire: () => {
      const limit = now() - timeoutMs
      for (let w = oldest(); w !== undefined && w.since <= limit; w = oldest()) take()?.shed(false)
      compact()
    },
    drain: () => {
      for (let w = take(); w !== undefined; w = take()) w.shed(true)
      compact()
    }
  }
  return admission
}
