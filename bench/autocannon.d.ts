// autocannon ships no types; the part of its programmatic API the benches use.
declare module "autocannon" {
  namespace autocannon {
    interface Histogram {
      readonly average: number
      readonly mean: number
      readonly stddev: number
      readonly min: number
      readonly max: number
      readonly total: number
      readonly p50: number
      readonly p90: number
      readonly p97_5: number
      readonly p99: number
      readonly p99_9: number
    }
    interface Request {
      method?: string
      path?: string
      headers?: Record<string, string>
      body?: string
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void
    }
    interface Options {
      url: string
      connections?: number
      duration?: number
      amount?: number
      pipelining?: number
      timeout?: number
      method?: string
      headers?: Record<string, string>
      body?: string
      requests?: Request[]
      title?: string
    }
    interface Result {
      readonly title?: string
      readonly url: string
      readonly requests: Histogram
      readonly latency: Histogram
      readonly throughput: Histogram
      readonly duration: number
      readonly errors: number
      readonly timeouts: number
      readonly non2xx: number
      readonly connections: number
      readonly "2xx": number
      readonly statusCodeStats: Record<string, { count: number }>
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>
  export = autocannon
}
