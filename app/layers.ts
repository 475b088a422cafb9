import * as NodeContext from "@effect/platform-node/NodeContext"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Option } from "effect"
import { SystemClockLive, TestClockLive } from "../adapters/clock.ts"
import type { DataDirInUse } from "../adapters/db/dataDirInUse.ts"
import { MigrateLive } from "../adapters/db/migrate.ts"
import { PgliteLive } from "../adapters/db/pglite.ts"
import { PostgresLive } from "../adapters/db/postgres.ts"
import { PreparedLive } from "../adapters/db/prepared.ts"
import { OpenAiDrafterLive } from "../adapters/drafts/openai.ts"
import { OutdoorsLive } from "../adapters/outdoors/http.ts"
import { SignalsLive } from "../adapters/signals/postgres.ts"
import { TracingLive } from "../adapters/telemetry/otlp.ts"
import { Links } from "../engine/ports/Links.ts"
import type { Mailer } from "../engine/ports/Mailer.ts"
import { Wakeups } from "../engine/ports/Wakeups.ts"
import { Assistant } from "../engine/services/assistant/Assistant.ts"
import { Auth } from "../engine/services/auth/Auth.ts"
import { InviteSignIn } from "../engine/services/auth/Invites.ts"
import { Owners } from "../engine/services/auth/Owners.ts"
import { Passkeys } from "../engine/services/auth/Passkeys.ts"
import { Profile } from "../engine/services/auth/Profile.ts"
import { Bookings } from "../engine/services/bookings/Bookings.ts"
import { BookingJobsLive, CalendarBookingsLive, OfferingHooksLive } from "../engine/services/bookings/live.ts"
import { BookingReactionsLive } from "../engine/services/bookings/reactions.ts"
import { Availability } from "../engine/services/calendar/Availability.ts"
import { Closures } from "../engine/services/calendar/Closures.ts"
import { Series } from "../engine/services/calendar/Series.ts"
import { Sessions } from "../engine/services/calendar/Sessions.ts"
import { Customers } from "../engine/services/customers/Customers.ts"
import { Events } from "../engine/services/Events.ts"
import { Exports } from "../engine/services/exports/Exports.ts"
import { Feeds } from "../engine/services/feeds/Feeds.ts"
import { GiftCards } from "../engine/services/gifts/GiftCards.ts"
import { Guest } from "../engine/services/guest/Guest.ts"
import { Idempotency } from "../engine/services/Idempotency.ts"
import { Jobs } from "../engine/services/Jobs.ts"
import { Mail } from "../engine/services/mail/Mail.ts"
import { Inbox } from "../engine/services/messages/Inbox.ts"
import { Messages } from "../engine/services/messages/Messages.ts"
import { Orgs } from "../engine/services/Orgs.ts"
import { OAuth } from "../engine/services/oauth/OAuth.ts"
import { Offerings } from "../engine/services/offerings/Offerings.ts"
import { Photos } from "../engine/services/offerings/Photos.ts"
import { Parked } from "../engine/services/Parked.ts"
import { GiftPurchases } from "../engine/services/payments/GiftPurchases.ts"
import { Payments } from "../engine/services/payments/Payments.ts"
import { Promos } from "../engine/services/promos/Promos.ts"
import { Hosted } from "../engine/services/public/Hosted.ts"
import { Public } from "../engine/services/public/Public.ts"
import { Reports } from "../engine/services/reports/Reports.ts"
import { Resellers } from "../engine/services/resellers/Resellers.ts"
import { Team } from "../engine/services/team/Team.ts"
import { Texts } from "../engine/services/texts/Texts.ts"
import { Waitlist } from "../engine/services/waitlist/Waitlist.ts"
import { Waivers } from "../engine/services/waivers/Waivers.ts"
import { databaseAnswers } from "../engine/store/probes.ts"
import { InboundEmailSecret } from "../transports/http/inbound.ts"
import { RateLimits } from "../transports/http/limits.ts"
import { FrontedHandlerLive, ListenOptions, ServeLive } from "../transports/http/server.ts"
import { Octo } from "../transports/octo/Octo.ts"
import { proxyList, TrustedProxies } from "../transports/shared/proxies.ts"
import { StreamLimits } from "../transports/shared/streams.ts"
import { PhotoFetcherLive } from "../transports/webhooks/fetch.ts"
import { WebhooksLive } from "../transports/webhooks/live.ts"
import type { AppConfig } from "./config.ts"
import { BusLive, lazyLayer, MailerLive, ProcessorLive, TexterLive } from "./optional.ts"
import { SchedulerLive } from "./scheduler.ts"

export { SchedulerLive }

/** A database layer: Postgres, or PGlite (which may also fail with DataDirInUse). */
export type DatabaseLayer = Layer.Layer<
  Layer.Layer.Success<ReturnType<typeof PostgresLive>>,
  Layer.Layer.Error<ReturnType<typeof PostgresLive>> | DataDirInUse
>

/** The SqlClient over a database layer, with the named statements of the hot paths over the same pool. */
export const withPrepared = (database: DatabaseLayer) => PreparedLive.pipe(Layer.provideMerge(database))

export const DatabaseLive = (config: Pick<AppConfig, "databaseUrl" | "dataDir">) =>
  withPrepared(
    Option.match(config.databaseUrl, { onNone: () => PgliteLive(config.dataDir), onSome: (url) => PostgresLive(url) })
  )

export { BusLive, MailerLive, ProcessorLive, TexterLive }

export const ClockLive = (c: Pick<AppConfig, "clock">) => (c.clock === "test" ? TestClockLive() : SystemClockLive)

/** Bookings answer for what offerings and calendars cancel; built over the shared Events, Mail and Payments. */
const BookingHooksLive = Layer.mergeAll(OfferingHooksLive, CalendarBookingsLive).pipe(
  Layer.provide([Events.Default, Mail.Default, Payments.Default])
)

/** Every engine service, over a database, a clock and a mailer. */
const Services = Layer.mergeAll(
  Orgs.Default,
  Offerings.Default,
  Events.Default,
  Jobs.Default,
  Idempotency.Default,
  Customers.Default,
  Mail.Default,
  Series.Default,
  Sessions.Default,
  Closures.Default,
  Feeds.Default,
  Reports.Default,
  Exports.Default.pipe(Layer.provide([Bookings.Default, Customers.Default])),
  Availability.Default,
  Bookings.Default,
  BookingJobsLive.pipe(Layer.provide([Events.Default, Jobs.Default, Mail.Default])),
  Payments.Default,
  Promos.Default,
  GiftCards.Default,
  GiftPurchases.Default,
  Team.Default,
  Waivers.Default,
  Messages.Default,
  Texts.Default,
  Inbox.Default,
  Waitlist.Default,
  Public.Default,
  Guest.Default,
  Resellers.Default,
  Octo.Default,
  Assistant.Default,
  Hosted.Default,
  Photos.Default,
  OAuth.Default,
  Auth.Default,
  InviteSignIn.Default,
  Passkeys.Default,
  Profile.Default,
  Owners.Default
).pipe(Layer.provide(BookingHooksLive))

/** The services with what a booking's change does elsewhere (engine/services/bookings/reactions.ts), which they all share. */
export const EngineLive = Services.pipe(Layer.provideMerge(BookingReactionsLive))

/** The listener for guest replies and bounces, when INBOUND_SMTP_PORT is set. */
export const InboundMailLive = (config: Pick<AppConfig, "inboundSmtpPort" | "host">) =>
  config.inboundSmtpPort === undefined
    ? Layer.empty
    : lazyLayer(() =>
        import("../transports/mail/smtp.ts").then((m) => m.InboundSmtpLive(config.inboundSmtpPort!, config.host))
      )

/** The HTTP app (REST, admin, MCP, health) on its own node:http listener, opened once the engine is ready. */
export const HttpAppLive = (config: Pick<AppConfig, "adminToken">) => ServeLive(config.adminToken)

export const ready = Effect.flatMap(SqlClient.SqlClient, databaseAnswers)

/** Where the app listens (AppLive provides the HttpServer with its address once it listens). */
export const NodeServerLive = (
  config: Pick<AppConfig, "port" | "host"> &
    Partial<
      Pick<
        AppConfig,
        "bodyLimit" | "maxInflight" | "maxQueued" | "queueTimeoutMs" | "shutdownGraceMs" | "bodyTimeoutMs"
      >
    >
) =>
  Layer.merge(
    Layer.succeed(ListenOptions, {
      port: config.port,
      host: config.host,
      bodyLimit: config.bodyLimit,
      maxInflight: config.maxInflight,
      maxQueued: config.maxQueued,
      queueTimeoutMs: config.queueTimeoutMs,
      shutdownGraceMs: config.shutdownGraceMs,
      bodyTimeoutMs: config.bodyTimeoutMs
    }),
    NodeContext.layer
  )

const levels = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
} as const
export const LogLevelLive = (config: Pick<AppConfig, "logLevel">) => Logger.minimumLogLevel(levels[config.logLevel])

/** The configured database: Postgres with DATABASE_URL, else PGlite in DATA_DIR. */
export const configuredDatabase = (
  config: Pick<
    AppConfig,
    "databaseUrl" | "dataDir" | "dbPoolSize" | "dbTimeoutMs" | "databaseDirectUrl" | "dbPreparedStatements"
  >
): DatabaseLayer =>
  Option.match(config.databaseUrl, {
    onNone: () => PgliteLive(config.dataDir),
    onSome: (url) =>
      PostgresLive(url, config.dbPoolSize ?? 20, config.dbTimeoutMs, {
        directUrl: config.databaseDirectUrl,
        prepared: config.dbPreparedStatements
      })
  })

/** Engine + HTTP app over the configured database, clock and bus; migrations run first. */
export const AppLive = (config: AppConfig, database: DatabaseLayer = configuredDatabase(config)) =>
  Composed(config, database, HttpAppLive(config))

/** The engine with its request handler only (no listener of its own): what createEngine mounts in a host app. */
export const EmbeddedLive = (config: AppConfig, mailer: Layer.Layer<Mailer> = MailerLive(config)) =>
  Composed(config, configuredDatabase(config), FrontedHandlerLive(config.adminToken, config), mailer)

const Composed = <A, E, R>(
  config: AppConfig,
  database: DatabaseLayer,
  front: Layer.Layer<A, E, R>,
  mailer: Layer.Layer<Mailer> = MailerLive(config)
) =>
  Layer.mergeAll(front, SchedulerLive(config), InboundMailLive(config)).pipe(
    Layer.provideMerge(EngineLive),
    Layer.provideMerge(ProcessorLive(config)),
    Layer.provideMerge(WebhooksLive(config)),
    Layer.provideMerge(BusLive(config)),
    Layer.provideMerge(MigrateLive),
    Layer.provideMerge(SignalsLive),
    Layer.provideMerge(
      Layer.mergeAll(
        withPrepared(database).pipe(Layer.orDie),
        Wakeups.Default,
        Parked.Default,
        ClockLive(config),
        mailer,
        TexterLive(config),
        OutdoorsLive({ weather: config.weatherUrl, gauge: config.gaugeUrl }),
        PhotoFetcherLive({ allowInsecure: config.webhookAllowInsecure }),
        config.drafts ? OpenAiDrafterLive(config.drafts) : Layer.empty,
        TracingLive(config.otelEndpoint, config.otelServiceName ?? "booking-engine"),
        Layer.succeed(Links, { publicUrl: config.publicUrl, mailDomain: config.mailDomain }),
        LogLevelLive(config),
        Layer.succeed(TrustedProxies, { list: proxyList(config.trustProxy) }),
        Layer.succeed(InboundEmailSecret, { secret: config.inboundEmailSecret }),
        Layer.succeed(RateLimits, {
          perKey: config.rateLimit ?? 1200,
          perAddress: config.rateLimitAnonymous ?? 300,
          windowSeconds: config.rateLimitWindowSeconds ?? 60
        }),
        Layer.succeed(StreamLimits, {
          max: config.maxStreams ?? 1000,
          perOrg: config.streamsPerOrg ?? 100,
          perKey: config.streamsPerKey ?? 20
        })
      )
    )
  )
