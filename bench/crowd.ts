/**
 * The flash bench's crowd: `size` guests POST a booking of one time at once, each on its own connection (no agent,
 * no keep-alive), spread round-robin over the instances; guests told sold_out join the waitlist when asked to. Meanwhile
 * widget pollers (the public API, with a publishable key) read the time's availability over keep-alive connections
 * until the last guest has an answer.
 */
import http from "node:http"
import { performance } from "node:perf_hooks"

export interface Answer {
  readonly status: number
  readonly code: string
  readonly ms: number
  /** When the answer came, ms from the crowd's start. */
  readonly at: number
}

const post = (url: string, path: string, key: string, body: unknown, agent: http.Agent | false, t0: number) =>
  new Promise<Answer>((resolve) => {
    const started = performance.now()
    const payload = JSON.stringify(body)
    const done = (status: number, code: string) => {
      const now = performance.now()
      resolve({ status, code, ms: now - started, at: now - t0 })
    }
    const req = http.request(
      `${url}${path}`,
      {
        method: body === undefined ? "GET" : "POST",
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) })
        }
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          let code = String(res.statusCode)
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"))
            code = parsed?.error?.code ?? JSON.stringify(parsed).slice(0, 2000)
          } catch {}
          done(res.statusCode ?? 0, code)
        })
      }
    )
    req.on("error", (e: NodeJS.ErrnoException) => done(0, e.code ?? e.message))
    req.end(body === undefined ? undefined : payload)
  })

export interface CrowdRun {
  readonly urls: ReadonlyArray<string>
  readonly key: string
  readonly surface: "rest" | "public"
  readonly offeringId: string
  readonly sessionId: string
  readonly startsAt: string
  readonly size: number
  readonly tag: string
  readonly waitlist: boolean
  readonly pollers: number
  readonly pollKey: string
  readonly cap: number
}

export interface CrowdResult {
  readonly answers: ReadonlyArray<Answer>
  readonly joins: ReadonlyArray<Answer>
  readonly polls: ReadonlyArray<Answer & { remaining: number; sentAt: number }>
  /** Polls that showed more places left than the truth when they were sent (201s answered before). */
  readonly stale: number
}

export const crowd = async (run: CrowdRun): Promise<CrowdResult> => {
  const base = run.surface === "rest" ? "/api/v1" : "/api/v1/public"
  const t0 = performance.now()
  let finished = false
  const booked: number[] = []
  const polls: Array<Answer & { remaining: number; sentAt: number }> = []
  const day = run.startsAt.slice(0, 10)
  const poller = async (i: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const url = run.urls[i % run.urls.length]
    while (!finished) {
      const sentAt = performance.now() - t0
      const a = await post(
        url,
        `/api/v1/public/offerings/${run.offeringId}/availability?from=${day}&to=${day}`,
        run.pollKey,
        undefined,
        agent,
        t0
      )
      let remaining = -1
      try {
        const slots = JSON.parse(a.code) as { data?: Array<{ session_id?: string; remaining: number }> }
        remaining = slots.data?.find((s) => s.session_id === run.sessionId)?.remaining ?? 0
      } catch {}
      polls.push({ ...a, code: a.status === 200 ? "ok" : a.code, remaining, sentAt })
      await new Promise((r) => setTimeout(r, 20))
    }
    agent.destroy()
  }
  const polling = Array.from({ length: run.pollers }, (_, i) => poller(i))
  const joins: Answer[] = []
  const guests = Array.from({ length: run.size }, async (_, i) => {
    const url = run.urls[i % run.urls.length]
    const customer = { email: `${run.tag}-${i}@example.com`, name: `Guest ${i}` }
    const a = await post(
      url,
      `${base}/bookings`,
      run.key,
      { offering_id: run.offeringId, session_id: run.sessionId, customer },
      false,
      t0
    )
    if (a.status === 201) booked.push(a.at)
    if (run.waitlist && a.code === "sold_out") {
      joins.push(await post(url, `${base}/waitlist`, run.key, { session_id: run.sessionId, customer }, false, t0))
    }
    return a
  })
  const answers = await Promise.all(guests)
  finished = true
  await Promise.all(polling)
  booked.sort((x, y) => x - y)
  const bookedBefore = (t: number) => booked.filter((b) => b <= t).length
  const stale = polls.filter((p) => p.remaining >= 0 && p.remaining > run.cap - bookedBefore(p.sentAt)).length
  return { answers, joins, polls, stale }
}
