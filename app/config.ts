import { Config, Option } from "effect"
import { DEFAULT_STREAM, DEFAULT_SUBJECT_PREFIX, isStreamName, isSubjectPrefix } from "../adapters/bus/subjects.ts"
import type { DraftSettings } from "../adapters/drafts/openai.ts"
import type { StripeSettings } from "../adapters/payments/stripe.ts"
import type { TwilioSettings } from "../adapters/texts/twilio.ts"
import { twilioConfig } from "./textsConfig.ts"

/** LOG_LEVEL, in any case; warn is warning. */
export const LOG_LEVELS = ["trace", "debug", "info", "warning", "error", "fatal", "none"] as const
export type LogLevelName = (typeof LOG_LEVELS)[number]

const logLevelOf = (raw: string): LogLevelName | undefined => {
  const name = raw.trim().toLowerCase()
  const level = name === "warn" ? "warning" : name
  return (LOG_LEVELS as ReadonlyArray<string>).includes(level) ? (level as LogLevelName) : undefined
}

export interface AppConfig {
  readonly port: number
  readonly host: string
  readonly databaseUrl: Option.Option<string>
  readonly dataDir: string
  readonly natsUrl: Option.Option<string>
  /** NATS_STREAM: the JetStream stream the relay publishes to (EVENTS); deployments may share one. */
  readonly natsStream?: string | undefined
  /** NATS_SUBJECT_PREFIX: events go to <prefix>.<org_id>.<type> (events). */
  readonly natsSubjectPrefix?: string | undefined
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
  /** RATE_LIMIT: requests per minute per API key (0: off); RATE_LIMIT_ANONYMOUS: per client address without a key. */
  readonly rateLimit?: number | undefined
  readonly rateLimitAnonymous?: number | undefined
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

const optionalString = (name: string) =>
  Config.string(name).pipe(Config.option, Config.map(Option.filter((s) => s.trim() !== "")))

/** An optional name checked by `valid`, `fallback` when unset or blank. */
const named = (name: string, fallback: string, message: string, valid: (s: string) => boolean) =>
  optionalString(name).pipe(
    Config.validate({ message, validation: Option.match({ onNone: () => true, onSome: valid }) }),
    Config.map(Option.getOrElse(() => fallback))
  )

/** A public service's base URL: http(s), "off" for none. */
const serviceUrl = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.validate({
      message: `${name} must be an http(s) URL or off`,
      validation: (u) => u.trim().toLowerCase() === "off" || /^https?:\/\/[^\s]+$/.test(u.trim())
    }),
    Config.map((u) => (u.trim().toLowerCase() === "off" ? undefined : u.trim().replace(/\/+$/, "")))
  )

export const appConfig: Config.Config<AppConfig> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  databaseUrl: optionalString("DATABASE_URL").pipe(
    Config.validate({
      message: "must be a postgres:// or postgresql:// URL",
      validation: Option.match({ onNone: () => true, onSome: (u) => /^postgres(ql)?:\/\//.test(u) })
    })
  ),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
  natsUrl: optionalString("NATS_URL").pipe(
    Config.validate({
      message: "must be a nats:// URL (or host:port)",
      validation: Option.match({ onNone: () => true, onSome: (u) => /^(nats|tls|wss?):\/\/|^[\w.-]+:\d+$/.test(u) })
    })
  ),
  natsStream: named(
    "NATS_STREAM",
    DEFAULT_STREAM,
    "NATS_STREAM must be a JetStream stream name such as EVENTS: no spaces, '.', '*', '>', '/' or '\\'",
    isStreamName
  ),
  natsSubjectPrefix: named(
    "NATS_SUBJECT_PREFIX",
    DEFAULT_SUBJECT_PREFIX,
    "NATS_SUBJECT_PREFIX must be dot-separated subject tokens such as events or acme.bookings: no spaces, '*' or '>'",
    isSubjectPrefix
  ),
  smtpUrl: optionalString("SMTP_URL").pipe(
    Config.validate({
      message: "must be an smtp:// or smtps:// URL",
      validation: Option.match({ onNone: () => true, onSome: (u) => /^smtps?:\/\//.test(u) })
    })
  ),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("bookings@localhost")),
  adminToken: optionalString("ADMIN_TOKEN").pipe(
    Config.validate({
      message: "must be at least 16 characters",
      validation: Option.match({ onNone: () => true, onSome: (t) => t.length >= 16 })
    })
  ),
  publicUrl: Config.string("PUBLIC_URL").pipe(Config.withDefault("")),
  logLevel: Config.string("LOG_LEVEL").pipe(
    Config.withDefault("info"),
    Config.validate({
      message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (or warn)`,
      validation: (s) => logLevelOf(s) !== undefined
    }),
    Config.map((s) => logLevelOf(s)!)
  ),
  webhookAllowInsecure: Config.literal(
    "0",
    "1",
    "true",
    "false"
  )("WEBHOOK_ALLOW_INSECURE").pipe(
    Config.withDefault("0" as const),
    Config.map((v) => v === "1" || v === "true")
  ),
  clock: Config.literal("system", "test")("CLOCK").pipe(Config.withDefault("system" as const)),
  bodyLimit: Config.integer("BODY_LIMIT").pipe(
    Config.validate({
      message: "BODY_LIMIT must be a number of bytes from 1024 to 104857600",
      validation: (n) => n >= 1024 && n <= 100 * 1024 * 1024
    }),
    Config.withDefault(2 * 1024 * 1024)
  ),
  maxInflight: Config.integer("MAX_INFLIGHT").pipe(
    Config.validate({
      message: "MAX_INFLIGHT must be a number of requests from 1 to 100000",
      validation: (n) => n >= 1 && n <= 100_000
    }),
    Config.withDefault(512)
  ),
  maxQueued: Config.integer("MAX_QUEUED").pipe(
    Config.validate({
      message: "MAX_QUEUED must be a number of requests from 0 (none wait) to 1000000",
      validation: (n) => n >= 0 && n <= 1_000_000
    }),
    Config.withDefault(10_000)
  ),
  queueTimeoutMs: Config.integer("QUEUE_TIMEOUT_MS").pipe(
    Config.validate({
      message: "QUEUE_TIMEOUT_MS must be milliseconds from 100 to 600000",
      validation: (n) => n >= 100 && n <= 600_000
    }),
    Config.withDefault(30_000)
  ),
  maxStreams: Config.integer("MAX_STREAMS").pipe(
    Config.validate({
      message: "MAX_STREAMS must be a number of streams from 1 to 100000",
      validation: (n) => n >= 1 && n <= 100_000
    }),
    Config.withDefault(1000)
  ),
  streamsPerOrg: Config.integer("STREAMS_PER_ORG").pipe(
    Config.validate({
      message: "STREAMS_PER_ORG must be a number of streams from 1 to 100000",
      validation: (n) => n >= 1 && n <= 100_000
    }),
    Config.withDefault(100)
  ),
  streamsPerKey: Config.integer("STREAMS_PER_KEY").pipe(
    Config.validate({
      message: "STREAMS_PER_KEY must be a number of streams from 1 to 100000",
      validation: (n) => n >= 1 && n <= 100_000
    }),
    Config.withDefault(20)
  ),
  shutdownGraceMs: Config.integer("SHUTDOWN_GRACE_MS").pipe(
    Config.validate({
      message: "SHUTDOWN_GRACE_MS must be milliseconds from 0 to 600000",
      validation: (n) => n >= 0 && n <= 600_000
    }),
    Config.withDefault(10_000)
  ),
  rateLimit: Config.integer("RATE_LIMIT").pipe(
    Config.validate({
      message: "RATE_LIMIT must be requests per minute from 0 (off) to 1000000",
      validation: (n) => n >= 0 && n <= 1_000_000
    }),
    Config.withDefault(1200)
  ),
  rateLimitAnonymous: Config.integer("RATE_LIMIT_ANONYMOUS").pipe(
    Config.validate({
      message: "RATE_LIMIT_ANONYMOUS must be requests per minute from 0 (off) to 1000000",
      validation: (n) => n >= 0 && n <= 1_000_000
    }),
    Config.withDefault(300)
  ),
  dbPoolSize: Config.integer("DB_POOL_SIZE").pipe(
    Config.validate({
      message: "DB_POOL_SIZE must be a number of connections from 1 to 500",
      validation: (n) => n >= 1 && n <= 500
    }),
    Config.withDefault(20)
  ),
  dbTimeoutMs: Config.integer("DB_TIMEOUT_MS").pipe(
    Config.validate({
      message: "DB_TIMEOUT_MS must be milliseconds from 100 to 600000",
      validation: (n) => n >= 100 && n <= 600_000
    }),
    Config.withDefault(3000)
  ),
  mailDomain: optionalString("MAIL_DOMAIN").pipe(
    Config.validate({
      message: "MAIL_DOMAIN must be a domain name such as mail.example.com",
      validation: Option.match({ onNone: () => true, onSome: (d) => /^[a-z0-9.-]+$/i.test(d) && !d.startsWith(".") })
    })
  ),
  inboundSmtpPort: Config.port("INBOUND_SMTP_PORT").pipe(Config.option),
  inboundEmailSecret: optionalString("INBOUND_EMAIL_SECRET").pipe(
    Config.validate({
      message: "INBOUND_EMAIL_SECRET must be at least 16 characters",
      validation: Option.match({ onNone: () => true, onSome: (s) => s.length >= 16 })
    })
  ),
  otelEndpoint: optionalString("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(
    Config.validate({
      message: "OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://collector:4318",
      validation: Option.match({ onNone: () => true, onSome: (u) => /^https?:\/\/\S+$/.test(u.trim()) })
    }),
    Config.map(Option.getOrUndefined)
  ),
  otelServiceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("booking-engine")),
  weatherUrl: serviceUrl("WEATHER_URL", "https://api.open-meteo.com"),
  gaugeUrl: serviceUrl("GAUGE_URL", "https://waterservices.usgs.gov"),
  stripeSecretKey: optionalString("STRIPE_SECRET_KEY"),
  stripeWebhookSecret: optionalString("STRIPE_WEBHOOK_SECRET"),
  draftsUrl: optionalString("DRAFTS_URL").pipe(
    Config.validate({
      message: "DRAFTS_URL must be the http(s) base URL of an OpenAI-compatible API, such as https://api.openai.com/v1",
      validation: Option.match({ onNone: () => true, onSome: (u) => /^https?:\/\/\S+$/.test(u.trim()) })
    })
  ),
  draftsModel: optionalString("DRAFTS_MODEL"),
  draftsApiKey: optionalString("DRAFTS_API_KEY"),
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
          ? {
              url: draftsUrl.value.trim(),
              model: draftsModel.value.trim(),
              apiKey: Option.getOrUndefined(draftsApiKey)
            }
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
