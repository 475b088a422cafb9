import { Effect, FiberRef, type Tracer } from "effect"

/**
 * `Effect.withSpan`, made only while the tracer is on (OTEL_EXPORTER_OTLP_ENDPOINT set). With the tracer off,
 * `Effect.withSpan` still makes a no-op span and provides it as the parent span, which copies the fiber's whole
 * context and its fiber refs. A booking paid for three of them (the booking, its mail, the mail's sending): with the
 * log mailer's line, about 100 of the 248 KB a booking allocated inside the effect runtime (`bench/alloc.ts`).
 */
export const traced = (name: string, options?: Tracer.SpanOptions) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, Tracer.ParentSpan>> =>
  Effect.flatMap(
    FiberRef.get(FiberRef.currentTracerEnabled),
    (on): Effect.Effect<A, E, Exclude<R, Tracer.ParentSpan>> =>
      on ? Effect.withSpan(self, name, options) : (self as Effect.Effect<A, E, Exclude<R, Tracer.ParentSpan>>)
  )
