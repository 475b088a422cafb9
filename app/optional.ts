import { Effect, Layer, Option } from "effect"
import { MemoryBusLive } from "../adapters/bus/memory.ts"
import { LogMailerLive } from "../adapters/mail/log.ts"
import { SandboxLive } from "../adapters/payments/sandbox.ts"
import { LogTexterLive } from "../adapters/texts/log.ts"
import type { AppConfig } from "./config.ts"

/**
 * An adapter only some deployments use (NATS, SMTP, Stripe, inbound SMTP), loaded when it is configured: the bundle a
 * start compiles then leaves out their libraries (about 3 MB of the 7; scripts/bundle.mjs splits them into chunks).
 */
export const lazyLayer = <A, E, R>(load: () => Promise<Layer.Layer<A, E, R>>) =>
  Layer.unwrapEffect(Effect.promise(load))

export const BusLive = (
  config: Pick<AppConfig, "natsUrl" | "natsStream" | "natsSubjectPrefix" | "natsStreamReplicas">
) =>
  Option.match(config.natsUrl, {
    onNone: () => MemoryBusLive,
    onSome: (url) =>
      lazyLayer(() =>
        import("../adapters/bus/nats.ts").then((m) =>
          m
            .NatsBusLive(url, {
              stream: config.natsStream,
              subjectPrefix: config.natsSubjectPrefix,
              replicas: config.natsStreamReplicas
            })
            .pipe(Layer.orDie)
        )
      )
  })

export const MailerLive = (config: Pick<AppConfig, "smtpUrl" | "mailFrom">) =>
  Option.match(config.smtpUrl, {
    onNone: () => LogMailerLive(config.mailFrom),
    onSome: (url) =>
      lazyLayer(() => import("../adapters/mail/smtp.ts").then((m) => m.SmtpMailerLive(url, config.mailFrom)))
  })

/** Texts through Twilio with TWILIO_ACCOUNT_SID (and its token and sender), else the log. */
export const TexterLive = (config: Pick<AppConfig, "twilio">) => {
  const twilio = config.twilio
  return twilio
    ? lazyLayer(() => import("../adapters/texts/twilio.ts").then((m) => m.TwilioTexterLive(twilio)))
    : LogTexterLive
}

/** The payment processor: Stripe with STRIPE_SECRET_KEY, else the built-in sandbox. */
export const ProcessorLive = (config: Pick<AppConfig, "stripe">) => {
  const stripe = config.stripe
  return stripe
    ? lazyLayer(() => import("../adapters/payments/stripe.ts").then((m) => m.StripeLive(stripe)))
    : SandboxLive
}
