import { Context, Effect, Option } from "effect"

/** The forecast at a meeting point for the hour a booking starts. */
export interface Weather {
  readonly at: string
  readonly temperature_c: number
  readonly precipitation_mm: number
  readonly wind_kmh: number
  /** WMO weather code, and its words. */
  readonly code: number
  readonly summary: string
}

/** The latest reading of a river gauge. */
export interface GaugeReading {
  readonly site: string
  readonly name: string
  readonly parameter: string
  readonly value: number
  readonly unit: string
  readonly at: string
}

/**
 * Public services about the outdoors (the weather at a meeting point, a river's gauge), shown on the guest page when
 * they answer. Each answers none rather than fail: the page never waits on them long nor breaks for them.
 */
export class Outdoors extends Context.Reference<Outdoors>()("Outdoors", {
  defaultValue: (): {
    /** The forecast for the hour of `at`, seen from `now` (the engine's clock). */
    readonly weather: (lat: number, lon: number, at: Date, now: Date) => Effect.Effect<Option.Option<Weather>>
    readonly gauge: (site: string) => Effect.Effect<Option.Option<GaugeReading>>
  } => ({ weather: () => Effect.succeed(Option.none()), gauge: () => Effect.succeed(Option.none()) })
}) {}
