/**
 * The load generator, run as a child process (fork) so it never shares an event loop with the server it measures.
 * Receives one LoadJob, answers with one LoadResult and exits.
 */
import autocannon from "autocannon"

export interface LoadJob {
  readonly url: string
  readonly key: string
  readonly offeringId: string
  readonly sessions: ReadonlyArray<string>
  readonly connections: number
  readonly duration: number
  /** Makes every customer email of the run unique: `${tag}-${n}@bench.example`. */
  readonly tag: string
}

export interface LoadResult {
  readonly ok: number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly duration: number
  readonly rps: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
  readonly mean: number
  readonly statuses: Record<string, number>
}

export const load = async (job: LoadJob): Promise<LoadResult> => {
  let n = 0
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/api/v1/bookings",
        headers: { authorization: `Bearer ${job.key}`, "content-type": "application/json" },
        setupRequest: (request) => {
          const i = n++
          return {
            ...request,
            body: JSON.stringify({
              offering_id: job.offeringId,
              session_id: job.sessions[i % job.sessions.length],
              customer: { email: `${job.tag}-${i}@bench.example`, name: "Bench Guest" }
            })
          }
        }
      }
    ]
  })
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)])
  )
  return {
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration: result.duration,
    rps: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    mean: result.latency.mean,
    statuses
  }
}

if (process.send !== undefined) {
  process.once("message", (job: LoadJob) => {
    load(job).then(
      (result) => process.send!({ result }, () => process.exit(0)),
      (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1))
    )
  })
}
