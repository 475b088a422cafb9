import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Layer, Logger, ManagedRuntime, Option } from "effect"
import { isStreamName, isSubjectPrefix } from "../adapters/bus/subjects.ts"
import { Mailer, MailFailed, type OutgoingMail } from "../engine/ports/Mailer.ts"
import { RequestHandler } from "../transports/http/server.ts"
import type { AppConfig, LogLevelName } from "./config.ts"
import { EmbeddedLive } from "./layers.ts"

export interface EngineOptions {
  /** postgres:// URL; without it the engine keeps its data in PGlite (in `dataDir`, or in memory without one). */
  readonly databaseUrl?: string
  readonly dataDir?: string
  /** nats:// URL: committed events also go to JetStream; without it they stay in process (webhooks still work). */
  readonly natsUrl?: string
  /** The JetStream stream ("EVENTS") and subject prefix ("events"), as NATS_STREAM and NATS_SUBJECT_PREFIX. */
  readonly natsStream?: string
  readonly natsSubjectPrefix?: string
  /** Where guests reach the engine: the base of every link in guest mail, with the prefix it is mounted under. */
  readonly publicUrl: string
  /** Bearer token of the admin API (/admin/v1), at least 16 characters; without it the admin API is off. */
  readonly adminToken?: string
  /** Guest mail: an SMTP URL, or your own sender; without either, mail is logged. */
  readonly smtpUrl?: string
  readonly mailFrom?: string
  readonly sendMail?: (mail: OutgoingMail) => Promise<void>
  /** Stripe keys; without them the built-in sandbox processor takes payments. */
  readonly stripe?: { readonly secretKey: string; readonly webhookSecret: string }
  /** "test": the engine clock moves only through the admin API (for your own tests). */
  readonly clock?: "system" | "test"
  readonly logLevel?: LogLevelName
  readonly bodyLimit?: number
  /**
   * For a plain node:http server: the path the engine is mounted under ("/booking"), stripped from each request's
   * URL; requests outside it go to `next` (or get 404). Frameworks that strip their mount path (Express's app.use)
   * need none.
   */
  readonly prefix?: string
}

export interface Engine {
  /** (req, res[, next]): mount it in node:http, Express, Connect, or Fastify/Hono through their node adapters. */
  readonly handler: (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void
  /** Stops the background work (jobs, relay, webhook delivery, mail) and closes the database; in-flight calls finish first. */
  readonly stop: () => Promise<void>
}

const configOf = (o: EngineOptions): AppConfig => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.fromNullable(o.databaseUrl),
  dataDir: o.dataDir ?? "",
  natsUrl: Option.fromNullable(o.natsUrl),
  natsStream: o.natsStream,
  natsSubjectPrefix: o.natsSubjectPrefix,
  smtpUrl: Option.fromNullable(o.smtpUrl),
  mailFrom: o.mailFrom ?? "bookings@localhost",
  adminToken: Option.fromNullable(o.adminToken),
  publicUrl: o.publicUrl.replace(/\/$/, ""),
  logLevel: o.logLevel ?? "info",
  webhookAllowInsecure: false,
  clock: o.clock ?? "system",
  bodyLimit: o.bodyLimit,
  stripe: o.stripe
})

/** Refuses options a person could get wrong, with one clear message each. */
const check = (o: EngineOptions) => {
  if (!/^https?:\/\//.test(o.publicUrl ?? ""))
    throw new Error("createEngine: publicUrl must be the http(s) URL guests reach the engine at")
  if (o.databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(o.databaseUrl))
    throw new Error("createEngine: databaseUrl must be a postgres:// URL")
  if (o.adminToken !== undefined && o.adminToken.length < 16)
    throw new Error("createEngine: adminToken must be at least 16 characters")
  if (o.natsStream !== undefined && !isStreamName(o.natsStream)) {
    throw new Error(
      "createEngine: natsStream must be a JetStream stream name such as EVENTS: " +
        "no spaces, '.', '*', '>', '/' or '\\'"
    )
  }
  if (o.natsSubjectPrefix !== undefined && !isSubjectPrefix(o.natsSubjectPrefix)) {
    throw new Error(
      "createEngine: natsSubjectPrefix must be dot-separated subject tokens such as events: " + "no spaces, '*' or '>'"
    )
  }
  if (o.prefix !== undefined && !/^\/[^?#]*[^/?#]$/.test(o.prefix))
    throw new Error("createEngine: prefix must look like /booking (no trailing slash)")
}

/**
 * The booking engine inside your own app: migrations run, background work starts, and the returned handler serves
 * the same REST, MCP, admin and guest routes as the standalone server.
 *
 *   const engine = await createEngine({ publicUrl: "https://example.com/booking", databaseUrl: process.env.DATABASE_URL })
 *   app.use("/booking", engine.handler)   // Express
 */
export const createEngine = async (options: EngineOptions): Promise<Engine> => {
  check(options)
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
