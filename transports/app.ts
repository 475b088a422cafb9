import { HttpApiBuilder } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Option, Schedule } from "effect"
import { createServer } from "node:http"
import { MemoryBusLive } from "../adapters/bus/memory.ts"
import { LogMailerLive } from "../adapters/mail/log.ts"
import { SmtpMailerLive } from "../adapters/mail/smtp.ts"
import { NatsBusLive } from "../adapters/bus/nats.ts"
import { SystemClockLive, TestClockLive } from "../adapters/clock.ts"
import { MigrateLive } from "../adapters/db/migrate.ts"
import { PgliteLive } from "../adapters/db/pglite.ts"
import { PostgresLive } from "../adapters/db/postgres.ts"
import { Customers } from "../engine/services/customers/Customers.ts"
import { Availability } from "../engine/services/calendar/Availability.ts"
import { Bookings } from "../engine/services/bookings/Bookings.ts"
import { BookingJobsLive, CalendarBookingsLive, OfferingHooksLive } from "../engine/services/bookings/live.ts"
import { Series } from "../engine/services/calendar/Series.ts"
import { Sessions } from "../engine/services/calendar/Sessions.ts"
import { Events } from "../engine/services/Events.ts"
import { Mail } from "../engine/services/mail/Mail.ts"
import { Idempotency } from "../engine/services/Idempotency.ts"
import { Jobs } from "../engine/services/Jobs.ts"
import { Links } from "../engine/services/Links.ts"
import { Offerings } from "../engine/services/offerings/Offerings.ts"
import { Orgs } from "../engine/services/Orgs.ts"
import type { AppConfig } from "./config.ts"
import { Api } from "./http/Api.ts"
import { DecodeErrorsLive } from "./http/decodeErrors.ts"
import { AdminHandlers } from "./http/handlers/admin.ts"
import { AvailabilityHandlers, SeriesHandlers, SessionsHandlers } from "./http/handlers/calendar.ts"
import { BookingsHandlers } from "./http/handlers/bookings.ts"
import { CustomersHandlers } from "./http/handlers/customers.ts"
import { OfferingsHandlers } from "./http/handlers/offerings.ts"
import { EventsHandlers, OrgHandlers, TeamHandlers, WaiverHandlers } from "./http/handlers/org.ts"
import { IdempotencyLive } from "./http/idempotency.ts"
import { AdminAuthLive, AuthenticationLive } from "./http/security.ts"
import { HealthRoutes, ServeLive } from "./http/server.ts"
import { WebhooksHandlers } from "./http/handlers/webhooks.ts"
import { WebhooksLive } from "./webhooks/live.ts"

export const DatabaseLive = (config: Pick<AppConfig, "databaseUrl" | "dataDir">) =>
  Option.match(config.databaseUrl, { onNone: () => PgliteLive(config.dataDir), onSome: (url) => PostgresLive(url) })

export const BusLive = (config: Pick<AppConfig, "natsUrl">) =>
  Option.match(config.natsUrl, { onNone: () => MemoryBusLive, onSome: (url) => NatsBusLive(url).pipe(Layer.orDie) })

export const MailerLive = (config: Pick<AppConfig, "smtpUrl" | "mailFrom">) =>
  Option.match(config.smtpUrl, { onNone: () => LogMailerLive(config.mailFrom), onSome: (url) => SmtpMailerLive(url, config.mailFrom) })

export const ClockLive = (config: Pick<AppConfig, "clock">) => (config.clock === "test" ? TestClockLive() : SystemClockLive)

/** Bookings answer for what offerings and calendars cancel; built over the shared Events and Mail. */
const BookingHooksLive = Layer.mergeAll(OfferingHooksLive, CalendarBookingsLive).pipe(Layer.provide([Events.Default, Mail.Default]))

/** Every engine service, over a database, a clock and a mailer. */
export const EngineLive = Layer.mergeAll(
  Orgs.Default,
  Offerings.Default,
  Events.Default,
  Jobs.Default,
  Idempotency.Default,
  Customers.Default,
  Mail.Default,
  Series.Default,
  Sessions.Default,
  Availability.Default,
  Bookings.Default,
  BookingJobsLive.pipe(Layer.provide([Events.Default, Jobs.Default, Mail.Default]))
).pipe(Layer.provide(BookingHooksLive))

export const ApiLive = (config: Pick<AppConfig, "adminToken">) =>
  HttpApiBuilder.api(Api).pipe(
    Layer.provide([OfferingsHandlers, CustomersHandlers, EventsHandlers, OrgHandlers, TeamHandlers, WaiverHandlers, AdminHandlers]),
    Layer.provide([AvailabilityHandlers, SeriesHandlers, SessionsHandlers, BookingsHandlers]),
    Layer.provide(WebhooksHandlers),
    Layer.provide([AuthenticationLive, AdminAuthLive(config.adminToken)])
  )

/** The HTTP app without a listener: routes, middleware, contract. Needs an HttpServer. */
export const HttpAppLive = (config: Pick<AppConfig, "adminToken">) =>
  ServeLive.pipe(
    Layer.provide([DecodeErrorsLive, IdempotencyLive, HealthRoutes, HttpApiBuilder.middlewareOpenApi({ path: "/api/v1/openapi.json" })]),
    Layer.provide(ApiLive(config)),
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer])
  )

/** Runs due background jobs every second on the system clock (CLOCK=test runs them when advanced). */
export const SchedulerLive = (config: Pick<AppConfig, "clock">) =>
  config.clock === "test"
    ? Layer.empty
    : Layer.scopedDiscard(Effect.gen(function*() {
      const jobs = yield* Jobs
      yield* Effect.forkScoped(Effect.repeat(jobs.runDue, Schedule.spaced("1 second")))
    }))

export const ready = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select 1`)

export const NodeServerLive = (config: Pick<AppConfig, "port" | "host">) =>
  NodeHttpServer.layer(createServer, { port: config.port, host: config.host })

type DatabaseLayer = ReturnType<typeof PostgresLive>

const levels = { debug: LogLevel.Debug, info: LogLevel.Info, warning: LogLevel.Warning, error: LogLevel.Error } as const
export const LogLevelLive = (config: Pick<AppConfig, "logLevel">) => Logger.minimumLogLevel(levels[config.logLevel])

/** Engine + HTTP app over the configured database, clock and bus; migrations run first. */
export const AppLive = (config: AppConfig, database: DatabaseLayer = DatabaseLive(config)) =>
  Layer.mergeAll(HttpAppLive(config), SchedulerLive(config)).pipe(
    Layer.provideMerge(EngineLive),
    Layer.provideMerge(WebhooksLive(config)),
    Layer.provideMerge(BusLive(config)),
    Layer.provideMerge(MigrateLive),
    Layer.provideMerge(Layer.mergeAll(database.pipe(Layer.orDie), ClockLive(config), MailerLive(config), Layer.succeed(Links, { publicUrl: config.publicUrl }), LogLevelLive(config)))
  )
