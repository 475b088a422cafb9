import { NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Cause, Console, Effect, Layer, Logger, Option } from "effect"
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

const program = Effect.gen(function*() {
  const config = yield* appConfig
  const app = AppLive(config).pipe(Layer.provide(NodeServerLive(config)))
  yield* Layer.launch(Layer.effectDiscard(demoOrg(config)).pipe(
    Layer.provideMerge(app),
    Layer.tap(() => Effect.logInfo(`booking-engine listening on ${config.publicUrl}`))
  ))
}).pipe(
  Effect.catchTag("ConfigError", (e) =>
    Console.error(`Configuration error: ${Cause.pretty(Cause.fail(e)).split("\n")[0]}`).pipe(Effect.zipRight(Effect.sync(() => process.exit(2))))),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(program as Effect.Effect<void>, { disablePrettyLogger: true })
