import { parseArgs } from "node:util"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { SystemClockLive } from "../../adapters/clock.ts"
import { MigrateLive } from "../../adapters/db/migrate.ts"
import { SignalsLive } from "../../adapters/signals/postgres.ts"
import { Wakeups } from "../../engine/ports/Wakeups.ts"
import { ApiKeyCreate, OrgAdminUpdate, OrgCreate, OrgsQuery } from "../../engine/schema/org.ts"
import { orgsWithoutOwner } from "../../engine/services/auth/withoutOwner.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { transaction } from "../../engine/store/transaction.ts"
import { loadConfig } from "../config.ts"
import { DatabaseLive } from "../layers.ts"
import { type Command, commands } from "./commands.ts"

export const usage = `usage:
  booking-engine                         start the server (same as npm start)
  booking-engine --version               the installed version
${commands.map((c) => `  booking-engine ${c.usage}`).join("\n")}
  booking-engine <command> --help        what a command does and its flags

With BOOKING_ENGINE_URL (the running server, e.g. http://127.0.0.1:3000) and ADMIN_TOKEN set, commands go through
its admin API. Otherwise they work on DATABASE_URL, or on the embedded database in DATA_DIR when no server holds it.
Prints JSON.`

type Failure = { readonly code: string; readonly message: string }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Flags that name a row by id: checked before they reach SQL. */
const ID_FLAGS = new Set(["org", "id", "user", "after"])
const refuse = (message: string): Effect.Effect<never, Failure> => Effect.fail({ code: "usage", message })

const decode = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Schema.decodeUnknown(schema)(input, { onExcessProperty: "ignore" }).pipe(
    Effect.mapError((e): Failure => ({ code: "invalid_input", message: e.message }))
  )

/** A command's flags as given; a missing required flag is refused by name. */
const flagsOf = (command: Command, args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const parsed = yield* Effect.try({
      try: () =>
        parseArgs({
          args: [...args],
          allowPositionals: true,
          strict: true,
          options: {
            ...Object.fromEntries(Object.keys(command.flags).map((k) => [k, { type: "string" as const }])),
            help: { type: "boolean", short: "h" }
          }
        }),
      catch: (e): Failure => ({
        code: "usage",
        message: `${(e as Error).message.split("\n")[0]}; see booking-engine ${command.name} --help`
      })
    })
    const values = parsed.values as Record<string, string | boolean | undefined>
    if (values.help === true) return Option.none()
    for (const [flag, spec] of Object.entries(command.flags)) {
      if (spec.required && typeof values[flag] !== "string")
        return yield* refuse(`${command.name} needs --${flag} (${spec.text})`)
      if (ID_FLAGS.has(flag) && typeof values[flag] === "string" && !UUID.test(values[flag] as string)) {
        return yield* Effect.fail<Failure>({
          code: "invalid_input",
          message: `--${flag} must be an id such as 3f1c0d1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f`
        })
      }
    }
    return Option.some(values as Record<string, string | undefined>)
  })

/** The command done on the database directly, through the same engine service the admin API calls. */
const direct = (name: string, f: Record<string, string | undefined>) =>
  Effect.gen(function* () {
    const orgs = yield* Orgs
    switch (name) {
      case "org create": {
        // Without the server the owner joins the team (no welcome mail): they sign in at /dashboard by email.
        const { owner_email, ...input } = yield* decode(OrgCreate, { ...f, owner_email: f["owner-email"] })
        const sql = yield* SqlClient.SqlClient
        return yield* Effect.gen(function* () {
          const created = yield* orgs.create(input)
          if (owner_email === undefined) return created
          return { ...created, owner: yield* orgs.addMember(created.org.id, { email: owner_email, role: "owner" }) }
        }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
      }
      case "org without-owner":
        return yield* orgsWithoutOwner
      case "org list":
        return yield* orgs.listOrgs(yield* decode(OrgsQuery, f))
      case "org get":
        return yield* orgs.adminGet(f.org!)
      case "org plan":
        return yield* orgs.adminUpdate(f.org!, yield* decode(OrgAdminUpdate, { plan: f.plan }))
      case "key create":
        return yield* orgs.createKey(
          f.org!,
          yield* decode(ApiKeyCreate, { name: f.name, user_id: f.user, kind: f.kind })
        )
      case "key list":
        return yield* orgs.listKeys(f.org!)
      default:
        return yield* orgs.revokeKey(f.id!)
    }
  })

/** The same command sent to a running server's admin API. */
const remote = (base: string, token: string, command: Command, f: Record<string, string | undefined>) =>
  Effect.gen(function* () {
    const { method, path, body } = command.request(f)
    const response = yield* Effect.tryPromise({
      try: () =>
        fetch(new URL(path, base.endsWith("/") ? base : `${base}/`), {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { "content-type": "application/json" })
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }),
      catch: (e): Failure => ({
        code: "unreachable",
        message: `could not reach ${base}: ${(e as Error).cause ?? (e as Error).message}`
      })
    })
    const json = yield* Effect.tryPromise({
      try: () => response.json() as Promise<{ error?: Failure }>,
      catch: (): Failure => ({
        code: "bad_answer",
        message: `${base} answered ${response.status} without JSON: is it a booking-engine?`
      })
    })
    if (!response.ok)
      return yield* Effect.fail(
        json.error ?? { code: `http_${response.status}`, message: `the server answered ${response.status}` }
      )
    return json
  })

const database = Effect.gen(function* () {
  const config = yield* loadConfig
  return Orgs.Default.pipe(
    Layer.provideMerge(MigrateLive),
    Layer.provideMerge(SignalsLive),
    Layer.provideMerge(Layer.mergeAll(DatabaseLive(config), SystemClockLive, Wakeups.Default))
  )
})

const run = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const words = args
      .filter((a) => !a.startsWith("-"))
      .slice(0, 2)
      .join(" ")
    const command = commands.find((c) => c.name === words)
    if (command === undefined) {
      if (args.includes("--help") || args.includes("-h") || args.length === 0) return { help: usage }
      const group = commands.filter((c) => c.name.startsWith(`${words.split(" ")[0]} `)).map((c) => c.name)
      return yield* refuse(
        group.length > 0 && !words.includes(" ")
          ? `"${words}" needs a command: ${group.join(", ")}`
          : `unknown command "${words || args[0]}": booking-engine --help lists the commands`
      )
    }
    const flags = yield* flagsOf(command, args)
    if (Option.isNone(flags)) return { help: `usage: booking-engine ${command.usage}\n\n${command.help}` }
    const url = (process.env.BOOKING_ENGINE_URL ?? "").trim()
    if (url !== "") {
      const token = (process.env.ADMIN_TOKEN ?? "").trim()
      if (token === "")
        return yield* refuse("BOOKING_ENGINE_URL is set: set ADMIN_TOKEN to the server's admin token as well")
      return yield* remote(url, token, command, flags.value)
    }
    const layer = yield* database.pipe(
      Effect.mapError((e): Failure => ({ code: "invalid_config", message: e.message }))
    )
    return yield* direct(command.name, flags.value).pipe(
      Effect.provide(layer),
      Effect.provide(NodeContext.layer),
      Effect.catchTag("DataDirInUse", (e) => Effect.fail<Failure>({ code: "data_dir_in_use", message: e.message })),
      Effect.catchTag("SqlError", (e) => Effect.fail<Failure>({ code: "database_unreachable", message: e.message }))
    )
  })

/** Runs one CLI command; returns the exit code and the text to print (JSON, or plain usage for --help). */
export const runCli = (args: ReadonlyArray<string>) =>
  run(args).pipe(
    Effect.match({
      onSuccess: (out) =>
        "help" in out && typeof out.help === "string"
          ? { code: 0, text: out.help }
          : { code: 0, text: JSON.stringify(out, null, 2) },
      // One line, so a script (or a person) reads the whole failure at once.
      onFailure: (e: Failure | { _tag: string; message: string }) => ({
        code: 1,
        text: JSON.stringify({
          error: "code" in e ? { code: e.code, message: e.message } : { code: "failed", message: e.message }
        })
      })
    })
  )
