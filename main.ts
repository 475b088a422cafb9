import { NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { HttpServer } from "@effect/platform"
import { Cause, Console, Context, Effect, Layer, Logger, Option } from "effect"
import { Orgs } from "./engine/services/Orgs.ts"
import { AppLive, NodeServerLive } from "./transports/app.ts"
import { appConfig, type AppConfig } from "./transports/config.ts"

/** A newcomer's first start: an empty embedded database and no admin token get a demo org and its key. */
const demoOrg = (config: AppConfig) =>
  Effect.gen(function*() {
    if (Option.isSome(config.databaseUrl) || Option.isSome(config.adminToken)) return
    const sql = yield* SqlClient.SqlClient
    const [{ n }] = yield* sql<{ n: number }>`select count(*)::int as n from orgs`
    if (n > 0) return
    const orgs = yield* Orgs
    const { org, api_key } = yield* orgs.create({ name: "Demo", timezone: "Europe/Amsterdam", currency: "EUR", plan: "free" })
    yield* Console.log(`\nDemo org ${org.id} created. Its API key (shown once):\n\n  ${api_key.key}\n\n` +
      `Try: curl -H "Authorization: Bearer ${api_key.key}" ${config.publicUrl}/api/v1/offerings\n`)
  }).pipe(Effect.orDie)

/** The one line a failed start leaves: JSON, like every other log line, with a plain message. */
const startFailed = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause)
  const text = (error instanceof Error ? error.message : Cause.pretty(cause).split("\n")[0]).replace(/^Error: /, "")
  const message = /^\(?Missing data|Invalid data|Expected/.test(text) || Cause.isFailType(cause) && (cause.error as { _tag?: string })?._tag === "ConfigError"
    ? `configuration error: ${text.replace(/\s+/g, " ")}`
    : `could not start: ${text.split("\n")[0]}`
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level: "FATAL", message })}\n`)
  process.exit(1)
}

const program = Effect.gen(function*() {
  const config = yield* appConfig
  const app = AppLive(config).pipe(Layer.provideMerge(NodeServerLive(config)))
  yield* Layer.launch(Layer.effectDiscard(demoOrg(config)).pipe(
    Layer.provideMerge(app),
    Layer.tap((ctx) => {
      const address = Context.get(ctx, HttpServer.HttpServer).address
      const url = address._tag === "TcpAddress" ? `http://${address.hostname}:${address.port}` : address.path
      return Effect.logInfo(`booking-engine listening on ${url}`).pipe(Effect.annotateLogs({ url }))
    })
  ))
}).pipe(
  Effect.catchAllCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.void : Effect.sync(() => startFailed(cause))),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(program as Effect.Effect<void>, { disablePrettyLogger: true })
