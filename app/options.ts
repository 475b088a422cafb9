/**
 * Every setting of the engine, in one place: each is an option of `createEngine` (typed here, nested where several
 * variables belong together) and an environment variable of the server and the CLI (`ENV` below). One schema
 * (app/config.ts) validates them, whichever way they come, with the same one-line messages. No imports: a consumer's
 * type-check of `booking-engine` reads this file and nothing of the engine's insides.
 */
export interface Settings {
  /** PORT: where the server listens (3000). createEngine has no listener of its own and ignores it. */
  readonly port?: number
  /** HOST: the address the server (and the inbound SMTP listener) binds (127.0.0.1). */
  readonly host?: string
  /** PUBLIC_URL: where guests reach the engine, the base of every link in guest mail (http://HOST:PORT). */
  readonly publicUrl?: string
  /** DATABASE_URL: postgres:// URL; unset, PGlite in `dataDir`. */
  readonly databaseUrl?: string
  /** DATABASE_DIRECT_URL: with DATABASE_URL on a transaction pooler (PgBouncer), Postgres itself, for what needs a session (LISTEN). */
  readonly databaseDirectUrl?: string
  /** DB_PREPARED_STATEMENTS: named prepared statements on the hot paths (true); false behind a pooler that cannot keep them. */
  readonly dbPreparedStatements?: boolean
  /** DB_POOL_SIZE: connections to Postgres per instance, 1 to 500 (20). */
  readonly dbPoolSize?: number
  /** DB_TIMEOUT_MS: how long a Postgres that answers nothing may hold a request before a 503, 100 to 600000 (3000). */
  readonly dbTimeoutMs?: number
  /** DATA_DIR: PGlite's directory (./.data for the server; createEngine keeps PGlite in memory unless given one). */
  readonly dataDir?: string
  /** NATS_URL: nats:// URL, or several comma-separated (a cluster's nodes); committed events also go to JetStream. Unset, they stay in process. */
  readonly natsUrl?: string
  /** NATS_STREAM_REPLICAS: copies JetStream keeps of the stream, 1 to 5 (1); 3 on a three-node cluster. */
  readonly natsStreamReplicas?: number
  /** NATS_STREAM: the JetStream stream (EVENTS). */
  readonly natsStream?: string
  /** NATS_SUBJECT_PREFIX: events go to <prefix>.<org_id>.<type> (events). */
  readonly natsSubjectPrefix?: string
  /** ADMIN_TOKEN: Bearer token of the admin API (/admin/v1), at least 24 characters and no documented placeholder; unset, the admin API is off. */
  readonly adminToken?: string
  /** LOG_LEVEL: trace, debug, info, warn (warning), error, fatal or none, in any case (info). */
  readonly logLevel?: "trace" | "debug" | "info" | "warn" | "warning" | "error" | "fatal" | "none"
  /** CLOCK: "test" moves the engine clock only through the admin API (system). */
  readonly clock?: "system" | "test"
  /** BODY_LIMIT: the largest request body in bytes, 1024 to 104857600 (2097152); larger is 413. */
  readonly bodyLimit?: number
  /** MAX_INFLIGHT: requests served at once, 1 to 100000 (512); more wait for a turn. */
  readonly maxInflight?: number
  /** MAX_QUEUED: requests that wait for a turn past maxInflight, 0 to 1000000 (10000); more are 503 at once. */
  readonly maxQueued?: number
  /** QUEUE_TIMEOUT_MS: how long a request waits for its turn before a 503, 100 to 600000 (30000). */
  readonly queueTimeoutMs?: number
  /** MAX_STREAMS: event streams (SSE) open at once, 1 to 100000 (1000). */
  readonly maxStreams?: number
  /** STREAMS_PER_ORG: event streams open at once per org (100). */
  readonly streamsPerOrg?: number
  /** STREAMS_PER_KEY: event streams open at once per key (20). */
  readonly streamsPerKey?: number
  /** SHUTDOWN_GRACE_MS: on stop, how long requests in flight may take, 0 to 600000 (10000). */
  readonly shutdownGraceMs?: number
  /** BODY_TIMEOUT_MS: how long a request's body may take to arrive, a second more per 16 KiB, 100 to 600000 (10000); slower is 408. */
  readonly bodyTimeoutMs?: number
  /** RATE_LIMIT: requests per minute per API key, 0 (off) to 1000000 (1200). */
  readonly rateLimit?: number
  /** RATE_LIMIT_ANONYMOUS: requests per minute per client address without a known key, 0 (off) to 1000000 (300). */
  readonly rateLimitAnonymous?: number
  /** TRUST_PROXY: addresses or CIDRs of the balancers in front, comma-separated; from them X-Forwarded-For names the client (none). */
  readonly trustProxy?: string
  /** WEBHOOK_ALLOW_INSECURE: allow http and loopback webhook and photo URLs (development and tests only; false). */
  readonly webhookAllowInsecure?: boolean
  /** SMTP_URL: smtp:// or smtps:// URL of the mail server; unset, guest mail is logged and kept. */
  readonly smtpUrl?: string
  /** MAIL_FROM: the sender of guest mail (bookings@localhost). */
  readonly mailFrom?: string
  /** MAIL_DOMAIN: the domain of guest reply addresses, reply+<token>@MAIL_DOMAIN (MAIL_FROM's domain). */
  readonly mailDomain?: string
  /** INBOUND_SMTP_PORT: where the listener for guest replies and bounces accepts mail; unset, it is off. */
  readonly inboundSmtpPort?: number
  /** INBOUND_EMAIL_SECRET: signs mail providers post to POST /inbound/email, at least 16 characters; unset, off. */
  readonly inboundEmailSecret?: string
  /** WEATHER_URL: Open-Meteo's base URL for the guest page, or "off" (https://api.open-meteo.com). */
  readonly weatherUrl?: string
  /** GAUGE_URL: USGS Water Services' base URL for the guest page, or "off" (https://waterservices.usgs.gov). */
  readonly gaugeUrl?: string
  /** Traces over OTLP/HTTP (JSON); unset, none. */
  readonly tracing?: {
    /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL, such as http://collector:4318. */
    readonly endpoint?: string
    /** OTEL_SERVICE_NAME: the service name on every span (booking-engine). */
    readonly serviceName?: string
  }
  /** Payments through Stripe; unset, the built-in sandbox processor takes them. */
  readonly stripe?: {
    /** STRIPE_SECRET_KEY: the account's secret key (sk_live_… or sk_test_…). */
    readonly secretKey?: string
    /** STRIPE_WEBHOOK_SECRET: the webhook endpoint's signing secret (whsec_…). */
    readonly webhookSecret?: string
  }
  /** Replies drafted for guest messages by an OpenAI-compatible API; unset, off. */
  readonly drafts?: {
    /** DRAFTS_URL: the API's base URL, such as https://api.openai.com/v1. */
    readonly url?: string
    /** DRAFTS_MODEL: the model, such as gpt-4o-mini. */
    readonly model?: string
    /** DRAFTS_API_KEY: its key, sent as a Bearer token. */
    readonly apiKey?: string
  }
  /** Texts through Twilio; unset, texts are logged and kept. */
  readonly twilio?: {
    /** TWILIO_ACCOUNT_SID: the account's SID, AC followed by 32 hex digits. */
    readonly accountSid?: string
    /** TWILIO_AUTH_TOKEN: the account's auth token (it also checks Twilio's webhooks). */
    readonly authToken?: string
    /** TWILIO_FROM: the sender, a number of the account, typed any way (+1 415 555 2671). */
    readonly from?: string
    /** TWILIO_MESSAGING_SERVICE_SID: or a messaging service as the sender, MG followed by 32 hex digits. */
    readonly messagingServiceSid?: string
    /** TWILIO_API_URL: another base URL for Twilio's API (a proxy, or a test's server). */
    readonly apiUrl?: string
  }
}

type Leaf = string | number | boolean | ReadonlyArray<string>
/** Each setting's path: `maxInflight`, `twilio.accountSid`. */
export type SettingPath = {
  [K in keyof Settings & string]-?: NonNullable<Settings[K]> extends Leaf
    ? K
    : `${K}.${keyof NonNullable<Settings[K]> & string}`
}[keyof Settings & string]

/** The environment variable of every setting. */
export const ENV = {
  port: "PORT",
  host: "HOST",
  publicUrl: "PUBLIC_URL",
  databaseUrl: "DATABASE_URL",
  databaseDirectUrl: "DATABASE_DIRECT_URL",
  dbPreparedStatements: "DB_PREPARED_STATEMENTS",
  dbPoolSize: "DB_POOL_SIZE",
  dbTimeoutMs: "DB_TIMEOUT_MS",
  dataDir: "DATA_DIR",
  natsUrl: "NATS_URL",
  natsStream: "NATS_STREAM",
  natsStreamReplicas: "NATS_STREAM_REPLICAS",
  natsSubjectPrefix: "NATS_SUBJECT_PREFIX",
  adminToken: "ADMIN_TOKEN",
  logLevel: "LOG_LEVEL",
  clock: "CLOCK",
  bodyLimit: "BODY_LIMIT",
  maxInflight: "MAX_INFLIGHT",
  maxQueued: "MAX_QUEUED",
  queueTimeoutMs: "QUEUE_TIMEOUT_MS",
  maxStreams: "MAX_STREAMS",
  streamsPerOrg: "STREAMS_PER_ORG",
  streamsPerKey: "STREAMS_PER_KEY",
  shutdownGraceMs: "SHUTDOWN_GRACE_MS",
  bodyTimeoutMs: "BODY_TIMEOUT_MS",
  rateLimit: "RATE_LIMIT",
  rateLimitAnonymous: "RATE_LIMIT_ANONYMOUS",
  trustProxy: "TRUST_PROXY",
  webhookAllowInsecure: "WEBHOOK_ALLOW_INSECURE",
  smtpUrl: "SMTP_URL",
  mailFrom: "MAIL_FROM",
  mailDomain: "MAIL_DOMAIN",
  inboundSmtpPort: "INBOUND_SMTP_PORT",
  inboundEmailSecret: "INBOUND_EMAIL_SECRET",
  weatherUrl: "WEATHER_URL",
  gaugeUrl: "GAUGE_URL",
  "tracing.endpoint": "OTEL_EXPORTER_OTLP_ENDPOINT",
  "tracing.serviceName": "OTEL_SERVICE_NAME",
  "stripe.secretKey": "STRIPE_SECRET_KEY",
  "stripe.webhookSecret": "STRIPE_WEBHOOK_SECRET",
  "drafts.url": "DRAFTS_URL",
  "drafts.model": "DRAFTS_MODEL",
  "drafts.apiKey": "DRAFTS_API_KEY",
  "twilio.accountSid": "TWILIO_ACCOUNT_SID",
  "twilio.authToken": "TWILIO_AUTH_TOKEN",
  "twilio.from": "TWILIO_FROM",
  "twilio.messagingServiceSid": "TWILIO_MESSAGING_SERVICE_SID",
  "twilio.apiUrl": "TWILIO_API_URL"
} as const satisfies { readonly [P in SettingPath]: string }

/** The settings given as options, as the environment variables they stand for (lists comma-separated). */
export const asEnvironment = (settings: Settings): Map<string, string> => {
  const out = new Map<string, string>()
  const names = ENV as Readonly<Record<string, string>>
  const put = (path: string, value: unknown) => {
    if (value === undefined || value === null) return
    if (typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) put(`${path}.${k}`, v)
      return
    }
    const name = names[path]
    if (name === undefined) throw new Error(`createEngine: ${path} is not an option`)
    out.set(name, Array.isArray(value) ? value.join(",") : String(value))
  }
  for (const [k, v] of Object.entries(settings)) put(k, v)
  return out
}

/** A message about variables, naming instead the options that were given for them ("maxInflight must be …"). */
export const inOptionTerms = (message: string, given: ReadonlySet<string>) =>
  Object.entries(ENV).reduce(
    (m, [path, name]) => (given.has(name) ? m.replace(new RegExp(`\\b${name}\\b`, "g"), path) : m),
    message
  )
