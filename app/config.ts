import { Config, Data, Effect, Option } from "effect"
import { DEFAULT_STREAM, DEFAULT_SUBJECT_PREFIX, isStreamName, isSubjectPrefix } from "../adapters/bus/subjects.ts"
import type { DraftSettings } from "../adapters/drafts/openai.ts"
import type { StripeSettings } from "../adapters/payments/stripe.ts"
import type { TwilioSettings } from "../adapters/texts/twilio.ts"
import { isProxyList } from "../transports/shared/proxies.ts"
import { adminTokenProblem } from "./adminTokenRule.ts"
import {
  checked,
  checkedBy,
  choice,
  configProblem,
  flag,
  httpUrl,
  integer,
  optionalInteger,
  serviceUrl,
  string,
  text
} from "./configKinds.ts"
import { ENV } from "./options.ts"
import { twilioConfig } from "./textsConfig.ts"

/**
 * The one configuration schema: every setting (app/options.ts names them, documents them and gives each its variable)
 * read and checked here, for the server and the CLI from the environment, for createEngine from its options (and the
 * environment unless told not to: app/embed.ts). A value that will not do is one sentence naming it (configProblem).
 */

/** LOG_LEVEL, in any case; warn is warning. */
export const LOG_LEVELS = ["trace", "debug", "info", "warning", "error", "fatal", "none"] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

export interface AppConfig {
  readonly port: number
  readonly host: string
  readonly databaseUrl: Option.Option<string>
  readonly dataDir: string
  /** DATABASE_DIRECT_URL: Postgres itself when DATABASE_URL is a transaction pooler; the session work (LISTEN) goes here. */
  readonly databaseDirectUrl?: string | undefined
  /** DB_PREPARED_STATEMENTS: named prepared statements on the hot paths (true); off behind PgBouncer before 1.21. */
  readonly dbPreparedStatements?: boolean | undefined
  readonly natsUrl: Option.Option<string>
  /** NATS_STREAM: the JetStream stream the relay publishes to (EVENTS); deployments may share one. */
  readonly natsStream?: string | undefined
  /** NATS_SUBJECT_PREFIX: events go to <prefix>.<org_id>.<type> (events). */
  readonly natsSubjectPrefix?: string | undefined
  /** NATS_STREAM_REPLICAS: the stream's replicas (1); an existing stream is changed to it where NATS allows. */
  readonly natsStreamReplicas?: number | undefined
  readonly smtpUrl: Option.Option<string>
  readonly mailFrom: string
  readonly adminToken: Option.Option<string>
  readonly publicUrl: string
  readonly logLevel: LogLevelName
  readonly webhookAllowInsecure: boolean
  readonly clock: "system" | "test"
  /** Largest request body in bytes (BODY_LIMIT, 2 MiB by default); larger is 413. */
  readonly bodyLimit?: number | undefined
  /** MAX_INFLIGHT: requests one instance serves at once; more wait for a turn (MAX_QUEUED, QUEUE_TIMEOUT_MS). */
  readonly maxInflight?: number | undefined
  /** MAX_QUEUED: requests that wait for a turn past MAX_INFLIGHT; more are 503 overloaded at once. */
  readonly maxQueued?: number | undefined
  /** QUEUE_TIMEOUT_MS: how long a request waits for a turn before it is 503 overloaded. */
  readonly queueTimeoutMs?: number | undefined
  /** MAX_STREAMS, STREAMS_PER_ORG, STREAMS_PER_KEY: long-lived streams (SSE) open at once, outside MAX_INFLIGHT. */
  readonly maxStreams?: number | undefined
  readonly streamsPerOrg?: number | undefined
  readonly streamsPerKey?: number | undefined
  /** SHUTDOWN_GRACE_MS: after SIGTERM, how long requests in flight may take before their connections close. */
  readonly shutdownGraceMs?: number | undefined
  /** BODY_TIMEOUT_MS: how long a request's body may take to arrive (a second more per 16 KiB); slower is 408. */
  readonly bodyTimeoutMs?: number | undefined
  /** RATE_LIMIT: requests per minute per API key (0: off); RATE_LIMIT_ANONYMOUS: per client address without a key. */
  readonly rateLimit?: number | undefined
  readonly rateLimitAnonymous?: number | undefined
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client (addresses or CIDRs); unset, none. */
  readonly trustProxy?: string | undefined
  /** The limits' window in seconds (60); tests widen it so a run never straddles two windows. */
  readonly rateLimitWindowSeconds?: number | undefined
  /** DB_POOL_SIZE: connections to Postgres per instance (20 unless set). */
  readonly dbPoolSize?: number | undefined
  /** DB_TIMEOUT_MS: the longest a request waits on Postgres for a connection or a statement (3000 unless set). */
  readonly dbTimeoutMs?: number | undefined
  /** The domain of guest reply addresses, reply+<token>@MAIL_DOMAIN (default: MAIL_FROM's domain). */
  readonly mailDomain?: string | undefined
  /** INBOUND_EMAIL_SECRET: signs mail that providers post to POST /inbound/email; unset, that route is off. */
  readonly inboundEmailSecret?: string | undefined
  /** INBOUND_SMTP_PORT: where the listener for guest replies and bounces accepts mail; unset, it is off. */
  readonly inboundSmtpPort?: number | undefined
  /** OTEL_EXPORTER_OTLP_ENDPOINT (http://collector:4318) and OTEL_SERVICE_NAME: traces over OTLP/HTTP; unset, none. */
  readonly otelEndpoint?: string | undefined
  readonly otelServiceName?: string | undefined
  /** WEATHER_URL and GAUGE_URL: Open-Meteo's and USGS Water Services' base URLs for the guest page; "off" turns one off. */
  readonly weatherUrl?: string | undefined
  readonly gaugeUrl?: string | undefined
  /** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET; without them the built-in sandbox processor takes payments. */
  readonly stripe?: StripeSettings | undefined
  /** DRAFTS_URL (an OpenAI-compatible API's base URL), DRAFTS_MODEL and DRAFTS_API_KEY: replies drafted for guest messages; unset, off. */
  readonly drafts?: DraftSettings | undefined
  /** TWILIO_*: texts through Twilio (app/textsConfig.ts); unset, texts are logged and kept. */
  readonly twilio?: TwilioSettings | undefined
}

const optionalPort = optionalInteger("inboundSmtpPort", "a port", 1, 65535)

const named = (path: Parameters<typeof text>[0], fallback: string, message: string, valid: (s: string) => boolean) =>
  checked(path, message, valid).pipe(Config.map(Option.getOrElse(() => fallback)))

export const appConfig: Config.Config<AppConfig> = Config.all({
  port: integer("port", "a port", 0, 65535, 3000),
  host: string("host", "127.0.0.1"),
  databaseUrl: checked("databaseUrl", "must be a postgres:// or postgresql:// URL", (u) =>
    /^postgres(ql)?:\/\//i.test(u)
  ),
  databaseDirectUrl: checked("databaseDirectUrl", "must be a postgres:// or postgresql:// URL", (u) =>
    /^postgres(ql)?:\/\//i.test(u)
  ).pipe(Config.map(Option.getOrUndefined)),
  dbPreparedStatements: flag("dbPreparedStatements", true),
  // Set but blank keeps PGlite in memory.
  dataDir: Config.string(ENV.dataDir).pipe(
    Config.withDefault("./.data"),
    Config.map((d) => d.trim())
  ),
  natsUrl: checked("natsUrl", "must be nats:// URLs (or host:port), comma-separated for a cluster", (u) =>
    u.split(",").every((one) => /^(nats|tls|wss?):\/\/\S+$|^[\w.-]+:\d+$/i.test(one.trim()))
  ),
  natsStreamReplicas: integer("natsStreamReplicas", "a number of replicas", 1, 5, 1),
  natsStream: named(
    "natsStream",
    DEFAULT_STREAM,
    "must be a JetStream stream name such as EVENTS: no spaces, '.', '*', '>', '/' or '\\'",
    isStreamName
  ),
  natsSubjectPrefix: named(
    "natsSubjectPrefix",
    DEFAULT_SUBJECT_PREFIX,
    "must be dot-separated subject tokens such as events or acme.bookings: no spaces, '*' or '>'",
    isSubjectPrefix
  ),
  smtpUrl: checked("smtpUrl", "must be an smtp:// or smtps:// URL", (u) => /^smtps?:\/\//i.test(u)),
  mailFrom: string("mailFrom", "bookings@localhost"),
  adminToken: checkedBy("adminToken", adminTokenProblem),
  publicUrl: httpUrl("publicUrl", "https://book.example.com").pipe(Config.map(Option.getOrElse(() => ""))),
  logLevel: choice("logLevel", LOG_LEVELS, "info", { warn: "warning" }),
  webhookAllowInsecure: flag("webhookAllowInsecure", false),
  clock: choice("clock", ["system", "test"], "system"),
  bodyLimit: integer("bodyLimit", "a number of bytes", 1024, 100 * 1024 * 1024, 2 * 1024 * 1024),
  maxInflight: integer("maxInflight", "a number of requests", 1, 100_000, 512),
  maxQueued: integer("maxQueued", "a number of requests", 0, 1_000_000, 10_000, "0 (none wait)"),
  queueTimeoutMs: integer("queueTimeoutMs", "milliseconds", 100, 600_000, 30_000),
  maxStreams: integer("maxStreams", "a number of streams", 1, 100_000, 1000),
  streamsPerOrg: integer("streamsPerOrg", "a number of streams", 1, 100_000, 100),
  streamsPerKey: integer("streamsPerKey", "a number of streams", 1, 100_000, 20),
  shutdownGraceMs: integer("shutdownGraceMs", "milliseconds", 0, 600_000, 10_000),
  bodyTimeoutMs: integer("bodyTimeoutMs", "milliseconds", 100, 600_000, 10_000),
  rateLimit: integer("rateLimit", "requests per minute", 0, 1_000_000, 1200, "0 (off)"),
  rateLimitAnonymous: integer("rateLimitAnonymous", "requests per minute", 0, 1_000_000, 300, "0 (off)"),
  trustProxy: checked(
    "trustProxy",
    "must be addresses or CIDRs of the proxies in front, comma-separated, such as 10.0.0.0/8,127.0.0.1",
    isProxyList
  ).pipe(Config.map(Option.getOrUndefined)),
  dbPoolSize: integer("dbPoolSize", "a number of connections", 1, 500, 20),
  dbTimeoutMs: integer("dbTimeoutMs", "milliseconds", 100, 600_000, 3000),
  mailDomain: checked(
    "mailDomain",
    "must be a domain name such as mail.example.com",
    (d) => /^[a-z0-9.-]+$/i.test(d) && !d.startsWith(".")
  ),
  inboundSmtpPort: optionalPort,
  inboundEmailSecret: checked("inboundEmailSecret", "must be at least 16 characters", (s) => s.length >= 16),
  otelEndpoint: httpUrl("tracing.endpoint", "http://collector:4318").pipe(Config.map(Option.getOrUndefined)),
  otelServiceName: string("tracing.serviceName", "booking-engine"),
  weatherUrl: serviceUrl("weatherUrl", "https://api.open-meteo.com"),
  gaugeUrl: serviceUrl("gaugeUrl", "https://waterservices.usgs.gov"),
  stripeSecretKey: text("stripe.secretKey"),
  stripeWebhookSecret: text("stripe.webhookSecret"),
  draftsUrl: httpUrl("drafts.url", "https://api.openai.com/v1"),
  draftsModel: text("drafts.model"),
  draftsApiKey: text("drafts.apiKey"),
  twilio: twilioConfig
}).pipe(
  Config.validate({
    message: "DRAFTS_URL needs DRAFTS_MODEL (the model that drafts replies, such as gpt-4o-mini)",
    validation: (c) => Option.isNone(c.draftsUrl) || Option.isSome(c.draftsModel)
  }),
  Config.validate({
    message: "STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (the endpoint's signing secret, whsec_...)",
    validation: (c) => Option.isNone(c.stripeSecretKey) || Option.isSome(c.stripeWebhookSecret)
  }),
  Config.validate({
    message: "STRIPE_WEBHOOK_SECRET needs STRIPE_SECRET_KEY (the account's secret key, sk_live_... or sk_test_...)",
    validation: (c) => Option.isNone(c.stripeWebhookSecret) || Option.isSome(c.stripeSecretKey)
  }),
  Config.map(
    ({
      stripeSecretKey,
      stripeWebhookSecret,
      mailDomain,
      inboundSmtpPort,
      inboundEmailSecret,
      draftsUrl,
      draftsModel,
      draftsApiKey,
      ...c
    }) => ({
      ...c,
      drafts:
        Option.isSome(draftsUrl) && Option.isSome(draftsModel)
          ? { url: draftsUrl.value, model: draftsModel.value, apiKey: Option.getOrUndefined(draftsApiKey) }
          : undefined,
      inboundEmailSecret: Option.getOrUndefined(inboundEmailSecret),
      mailDomain: Option.getOrElse(mailDomain, () => c.mailFrom.split("@").pop() || "localhost"),
      inboundSmtpPort: Option.getOrUndefined(inboundSmtpPort),
      publicUrl: c.publicUrl || `http://${c.host}:${c.port}`,
      stripe:
        Option.isSome(stripeSecretKey) && Option.isSome(stripeWebhookSecret)
          ? { secretKey: stripeSecretKey.value, webhookSecret: stripeWebhookSecret.value }
          : undefined
    })
  )
)

/** A configuration that will not do, as the one line the server, the CLI and createEngine print. */
export class ConfigProblem extends Data.TaggedError("ConfigProblem")<{ readonly message: string }> {}

/** The configuration from the current ConfigProvider (the environment unless one is given), its error one line. */
export const loadConfig: Effect.Effect<AppConfig, ConfigProblem> = Effect.mapError(
  appConfig,
  (e) => new ConfigProblem({ message: configProblem(e) })
)
