import { NodeContext } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { parseArgs } from "node:util"
import { SystemClockLive } from "../../adapters/clock.ts"
import { MigrateLive } from "../../adapters/db/migrate.ts"
import { OrgCreate } from "../../engine/schema/org.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { Wakeups } from "../../engine/services/Wakeups.ts"
import { DatabaseLive } from "../app.ts"
import { appConfig } from "../config.ts"

export const usage = `usage:
  booking-engine                         start the server (same as npm start)
  booking-engine org create --name N --timezone ZONE --currency CUR [--plan free|pro|growth|scale]
  booking-engine key create --org ORG_ID
  booking-engine key revoke --id KEY_ID
Works against DATABASE_URL, or the local PGlite in DATA_DIR when the server is not running. Prints JSON.`

const refuse = (message: string) => Effect.fail({ code: "usage", message })

const command = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { positionals, values } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: Object.fromEntries(["name", "timezone", "currency", "plan", "org", "id"].map((k) => [k, { type: "string" as const }]))
    })
    const orgs = yield* Orgs
    const what = positionals.join(" ")
    if (what === "org create") {
      const input = yield* Schema.decodeUnknown(OrgCreate)(values).pipe(
        Effect.mapError((e) => ({ code: "invalid_input", message: e.message }))
      )
      return yield* orgs.create(input)
    }
    if (what === "key create") return yield* (values.org ? orgs.createKey(values.org) : refuse("key create needs --org"))
    if (what === "key revoke") return yield* (values.id ? orgs.revokeKey(values.id) : refuse("key revoke needs --id"))
    return yield* refuse(usage)
  })

/** Runs one CLI command against the configured database; returns the exit code and the JSON to print. */
export const runCli = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const config = yield* appConfig
    const layer = Orgs.Default.pipe(
      Layer.provideMerge(MigrateLive),
      Layer.provideMerge(Layer.mergeAll(DatabaseLive(config).pipe(Layer.orDie), SystemClockLive, Wakeups.Default))
    )
    return yield* command(args).pipe(Effect.provide(layer), Effect.provide(NodeContext.layer))
  }).pipe(
    Effect.match({
      onSuccess: (out) => ({ code: 0, text: JSON.stringify(out, null, 2) }),
      onFailure: (e) => ({
        code: 1,
        text: JSON.stringify({ error: "code" in e ? { code: e.code, message: e.message } : { code: "invalid_config", message: String(e) } }, null, 2)
      })
    })
  )
