import { HttpServer } from "@effect/platform"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Context, Effect, Layer, Logger } from "effect"
import { embeddedAdminToken } from "./adminToken.ts"
import { ConfigProblem, loadConfig } from "./config.ts"
import { demoOrg } from "./demo.ts"
import { AppLive, NodeServerLive } from "./layers.ts"

/** The server's entry point (`npm start`, dist/server.mjs): the configuration, the app on its listener, the demo. */

/** The one line a failed start leaves: JSON, like every other log line, with a plain message. */
const startFailed = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause)
  const text = (error instanceof Error ? error.message : Cause.pretty(cause).split("\n")[0]).replace(/^Error: /, "")
  const message =
    error instanceof ConfigProblem ? `configuration error: ${text}` : `could not start: ${text.split("\n")[0]}`
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level: "FATAL", message })}\n`)
  process.exit(1)
}

const program = Effect.gen(function* () {
  const given = yield* loadConfig
  const { config, made } = yield* Effect.try({ try: () => embeddedAdminToken(given), catch: (e) => e as Error })
  const app = AppLive(config).pipe(Layer.provideMerge(NodeServerLive(config)))
  yield* Layer.launch(
    Layer.effectDiscard(demoOrg(given, made)).pipe(
      Layer.provideMerge(app),
      Layer.tap((ctx) => {
        const address = Context.get(ctx, HttpServer.HttpServer).address
        const url = address._tag === "TcpAddress" ? `http://${address.hostname}:${address.port}` : address.path
        return Effect.logInfo(`booking-engine listening on ${url}`).pipe(Effect.annotateLogs({ url }))
      })
    )
  )
}).pipe(
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause) ? Effect.void : Effect.sync(() => startFailed(cause))
  ),
  Effect.provide(Logger.json)
)

NodeRuntime.runMain(program as Effect.Effect<void>, { disablePrettyLogger: true })
