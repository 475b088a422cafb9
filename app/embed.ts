import type { IncomingMessage, ServerResponse } from "node:http"
import { ConfigProvider, Effect, Either, Layer, Logger, ManagedRuntime } from "effect"
import { Mailer, MailFailed, type OutgoingMail } from "../engine/ports/Mailer.ts"
import { RequestHandler } from "../transports/http/server.ts"
import { type AppConfig, loadConfig } from "./config.ts"
import { EmbeddedLive } from "./layers.ts"
import { asEnvironment, inOptionTerms, type Settings } from "./options.ts"

/**
 * Every setting of the engine (app/options.ts: each the option of an environment variable, validated as the server
 * validates it), and what only an embedded engine has. Options the call leaves out are read from the environment
 * (`env`), so a host's DATABASE_URL or TWILIO_* reach its engine as they reach the server.
 */
export interface EngineOptions extends Settings {
  /**
   * Where guests reach the engine: the base of every link in guest mail, with the prefix it is mounted under
   * (PUBLIC_URL); needed, from here or the environment.
   */
  readonly publicUrl?: string
  /** Guest mail through a sender of your own (else smtpUrl; without either, mail is logged). */
  readonly sendMail?: (mail: OutgoingMail) => Promise<void>
  /**
   * For a plain node:http server: the path the engine is mounted under ("/booking"), stripped from each request's
   * URL; requests outside it go to `next` (or get 404). Frameworks that strip their mount path (Express's app.use)
   * need none.
   */
  readonly prefix?: string
  /**
   * Where settings the options leave out come from: the process's environment (the default), another set of
   * variables, or `false` for none (the options and the defaults only). Without dataDir (option or DATA_DIR), PGlite
   * is kept in memory.
   */
  readonly env?: false | Readonly<Record<string, string | undefined>>
}

export interface Engine {
  /** (req, res[, next]): mount it in node:http, Express, Connect, or Fastify/Hono through their node adapters. */
  readonly handler: (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void
  /** Stops the background work (jobs, relay, webhook delivery, mail) and closes the database; in-flight calls finish first. */
  readonly stop: () => Promise<void>
}

/** The options and the environment through the one configuration schema; a value that will not do is one line. */
const configOf = (options: EngineOptions): AppConfig => {
  const { sendMail: _, prefix, env, ...settings } = options
  if (prefix !== undefined && !/^\/[^?#]*[^/?#]$/.test(prefix))
    throw new Error("createEngine: prefix must look like /booking (no trailing slash)")
  const given = asEnvironment(settings)
  const environment = env === false ? {} : (env ?? process.env)
  const variables = new Map<string, string>([["DATA_DIR", ""]])
  for (const [k, v] of Object.entries(environment)) if (v !== undefined) variables.set(k, v)
  for (const [k, v] of given) variables.set(k, v)
  const names = new Set(given.keys())
  if ((variables.get("PUBLIC_URL") ?? "").trim() === "")
    throw new Error("createEngine: publicUrl is needed: the http(s) URL guests reach the engine at (or PUBLIC_URL)")
  const loaded = Effect.runSync(Effect.either(Effect.withConfigProvider(loadConfig, ConfigProvider.fromMap(variables))))
  if (Either.isLeft(loaded)) throw new Error(`createEngine: ${inOptionTerms(loaded.left.message, names)}`)
  return loaded.right
}

/**
 * The booking engine inside your own app: migrations run, background work starts, and the returned handler serves
 * the same REST, MCP, admin and guest routes as the standalone server.
 *
 *   const engine = await createEngine({ publicUrl: "https://example.com/booking", twilio: { accountSid, authToken, from } })
 *   app.use("/booking", engine.handler)   // Express
 */
export const createEngine = async (options: EngineOptions): Promise<Engine> => {
  const config = configOf(options)
  const mailer =
    options.sendMail === undefined
      ? undefined
      : Layer.succeed(Mailer, {
          send: (mail) =>
            Effect.tryPromise({
              try: () => options.sendMail!(mail),
              catch: (e) => new MailFailed({ message: e instanceof Error ? e.message : String(e) })
            }).pipe(Effect.asVoid)
        })
  const layer = EmbeddedLive(config, mailer).pipe(Layer.provide(Logger.json))
  const runtime = ManagedRuntime.make(layer as Layer.Layer<RequestHandler>)
  const handle = await runtime.runPromise(RequestHandler)
  const prefix = options.prefix
  return {
    handler: (req, res, next) => {
      if (prefix !== undefined) {
        const url = req.url ?? "/"
        if (url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) {
          if (next) return next()
          res
            .writeHead(404, { "content-type": "application/json" })
            .end(JSON.stringify({ error: { code: "not_found", message: "no such route" } }))
          return
        }
        req.url = url.slice(prefix.length) || "/"
      }
      handle(req, res)
    },
    stop: () => runtime.dispose()
  }
}
