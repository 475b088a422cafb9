import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { AppConfig } from "../../app/config.ts"
import { AppLive, type DatabaseLayer, NodeServerLive } from "../../app/layers.ts"
import { ADMIN_TOKEN, testConfig } from "./config.ts"
import { TestDatabase } from "./database.ts"

export { ADMIN_TOKEN, testConfig }

export interface Reply<T = any> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export interface TestApp {
  readonly url: string
  readonly runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | HttpServer.HttpServer, never>
  readonly call: <T = any>(
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>
  ) => Promise<Reply<T>>
  readonly admin: <T = any>(method: string, path: string, body?: unknown) => Promise<Reply<T>>
  readonly newOrg: (input?: {
    timezone?: string
    currency?: string
    plan?: string
  }) => Promise<{ id: string; key: string; keyId: string }>
  readonly advance: (seconds: number) => Promise<void>
  readonly close: () => Promise<void>
}

/** The real app, in-process on a loopback port, over a fresh database and the test clock. */
export const startApp = async (
  overrides: Partial<AppConfig> = {},
  options: {
    readonly database?: string
    readonly databaseLayer?: DatabaseLayer
    /** Services the app is built with instead of its defaults (a Context.Reference such as QuickRefusals). */
    readonly with?: Layer.Layer<never>
  } = {}
): Promise<TestApp> => {
  const config = testConfig(overrides)
  const layer = AppLive(config, options.databaseLayer ?? TestDatabase(options.database)).pipe(
    Layer.provideMerge(
      NodeServerLive({
        port: overrides.port ?? 0,
        host: "127.0.0.1",
        maxInflight: overrides.maxInflight,
        maxQueued: overrides.maxQueued,
        queueTimeoutMs: overrides.queueTimeoutMs,
        shutdownGraceMs: overrides.shutdownGraceMs,
        bodyTimeoutMs: overrides.bodyTimeoutMs
      })
    ),
    (built) => (options.with === undefined ? built : Layer.provide(built, options.with))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<SqlClient.SqlClient | HttpServer.HttpServer>)
  const server = await runtime.runPromise(HttpServer.HttpServer)
  const address = server.address._tag === "TcpAddress" ? server.address : undefined
  const url = `http://127.0.0.1:${address?.port}`
  const call = async (
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ) => {
    const h: Record<string, string> = { ...headers }
    if (key !== null) h.authorization = `Bearer ${key}`
    if (body !== undefined) h["content-type"] = "application/json"
    const res = await fetch(`${url}${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers }
  }
  const admin = (method: string, path: string, body?: unknown) => call(ADMIN_TOKEN, method, `/admin/v1${path}`, body)
  let n = 0
  const newOrg = async (input: { timezone?: string; currency?: string; plan?: string } = {}) => {
    const res = await admin("POST", "/orgs", {
      name: `Org ${++n}`,
      timezone: input.timezone ?? "Europe/Amsterdam",
      currency: input.currency ?? "EUR",
      ...(input.plan ? { plan: input.plan } : {})
    })
    if (res.status !== 201) throw new Error(`org create failed: ${JSON.stringify(res.body)}`)
    return { id: res.body.org.id as string, key: res.body.api_key.key as string, keyId: res.body.api_key.id as string }
  }
  const advance = async (seconds: number) => {
    const res = await admin("POST", "/clock", { advance_seconds: seconds })
    if (res.status !== 200) throw new Error(`clock advance failed: ${JSON.stringify(res.body)}`)
  }
  return { url, runtime, call, admin, newOrg, advance, close: () => runtime.dispose() }
}

export const sql = <A>(app: TestApp, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.orDie))
