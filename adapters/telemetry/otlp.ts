import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { FetchHttpClient } from "@effect/platform"
import { Layer } from "effect"
import { Tracing } from "../../engine/ports/Tracing.ts"

/**
 * Traces over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT (…/v1/traces), batched every second: one span per
 * operation, the services' spans and their SQL beneath. Without an endpoint, no spans are made at all (the tracer is
 * off, so `withSpan` and `Effect.fn` cost a no-op span instead of a recorded one).
 */
export const TracingLive = (endpoint: string | undefined, serviceName: string) =>
  endpoint === undefined
    ? Layer.setTracerEnabled(false)
    : Layer.mergeAll(
        OtlpTracer.layer({
          url: `${endpoint.replace(/\/+$/, "")}/v1/traces`,
          resource: { serviceName },
          exportInterval: "1 second"
        }).pipe(Layer.provide([FetchHttpClient.layer, OtlpSerialization.layerJson])),
        Layer.succeed(Tracing, { enabled: true })
      )
