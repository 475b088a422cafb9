import { Effect, Layer, Option, Schema } from "effect"
import { type GaugeReading, Outdoors, type Weather } from "../../engine/ports/Outdoors.ts"

/** How long the guest page waits for one of these services, and how long an answer is reused. */
const TIMEOUT_MS = 1_500
const CACHE_MS = 10 * 60_000

const WMO: Record<number, string> = {
  0: "Clear sky",
  1: "Mainly clear",
  2: "Partly cloudy",
  3: "Overcast",
  45: "Fog",
  48: "Rime fog",
  51: "Light drizzle",
  53: "Drizzle",
  55: "Dense drizzle",
  61: "Light rain",
  63: "Rain",
  65: "Heavy rain",
  66: "Freezing rain",
  67: "Heavy freezing rain",
  71: "Light snow",
  73: "Snow",
  75: "Heavy snow",
  77: "Snow grains",
  80: "Rain showers",
  81: "Heavy rain showers",
  82: "Violent rain showers",
  85: "Snow showers",
  86: "Heavy snow showers",
  95: "Thunderstorm",
  96: "Thunderstorm with hail",
  99: "Thunderstorm with heavy hail"
}

// Open-Meteo's forecast API (https://open-meteo.com/en/docs): hourly arrays in UTC.
const Forecast = Schema.Struct({
  hourly: Schema.Struct({
    time: Schema.Array(Schema.String),
    temperature_2m: Schema.Array(Schema.NullOr(Schema.Number)),
    precipitation: Schema.Array(Schema.NullOr(Schema.Number)),
    weather_code: Schema.Array(Schema.NullOr(Schema.Number)),
    wind_speed_10m: Schema.Array(Schema.NullOr(Schema.Number))
  })
})

// USGS Water Services, instantaneous values (https://waterservices.usgs.gov/docs/instantaneous-values/), JSON.
const Usgs = Schema.Struct({
  value: Schema.Struct({
    timeSeries: Schema.Array(
      Schema.Struct({
        sourceInfo: Schema.Struct({ siteName: Schema.String }),
        variable: Schema.Struct({
          variableName: Schema.String,
          unit: Schema.Struct({ unitCode: Schema.String }),
          noDataValue: Schema.optional(Schema.NullOr(Schema.Number))
        }),
        values: Schema.Array(
          Schema.Struct({ value: Schema.Array(Schema.Struct({ value: Schema.String, dateTime: Schema.String })) })
        )
      })
    )
  })
})

const getJson = (url: string) =>
  Effect.tryPromise({
    try: async (signal) => {
      const res = await fetch(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
        headers: { accept: "application/json" }
      })
      if (!res.ok) throw new Error(`${res.status}`)
      return res.json() as Promise<unknown>
    },
    catch: (e) => e
  })

const cached = <A>(fetcher: (key: string) => Effect.Effect<Option.Option<A>>) => {
  const memo = new Map<string, { at: number; value: Option.Option<A> }>()
  return (key: string) =>
    Effect.suspend(() => {
      const hit = memo.get(key)
      if (hit && Date.now() - hit.at < CACHE_MS) return Effect.succeed(hit.value)
      return Effect.tap(fetcher(key), (value) =>
        Effect.sync(() => {
          if (memo.size > 10_000) memo.clear()
          memo.set(key, { at: Date.now(), value })
        })
      )
    })
}

/** Open-Meteo and USGS over HTTP (their base URLs configurable, so tests and mirrors can stand in). */
export const OutdoorsLive = (urls: { readonly weather?: string | undefined; readonly gauge?: string | undefined }) => {
  const weather = cached<Weather>((key) => {
    const [lat, lon, hour] = key.split("|")
    const day = hour.slice(0, 10)
    const url = `${urls.weather}/v1/forecast?latitude=${lat}&longitude=${lon}&hourly=temperature_2m,precipitation,weather_code,wind_speed_10m&timezone=UTC&start_date=${day}&end_date=${day}`
    return getJson(url).pipe(
      Effect.flatMap(Schema.decodeUnknown(Forecast)),
      Effect.map(({ hourly: h }) => {
        const i = h.time.findIndex((t) => t.slice(0, 13) === hour.slice(0, 13))
        const [t, p, c, w] = [h.temperature_2m[i], h.precipitation[i], h.weather_code[i], h.wind_speed_10m[i]]
        return i === -1 || t == null || p == null || c == null || w == null
          ? Option.none<Weather>()
          : Option.some({
              at: new Date(`${h.time[i]}Z`).toISOString(),
              temperature_c: t,
              precipitation_mm: p,
              wind_kmh: w,
              code: c,
              summary: WMO[c] ?? "Weather"
            })
      }),
      Effect.orElseSucceed(() => Option.none<Weather>())
    )
  })
  const gauge = cached<GaugeReading>((site) =>
    getJson(
      `${urls.gauge}/nwis/iv/?format=json&sites=${encodeURIComponent(site)}&parameterCd=00060,00065&siteStatus=active`
    ).pipe(
      Effect.flatMap(Schema.decodeUnknown(Usgs)),
      Effect.map(({ value }) => {
        for (const series of value.timeSeries) {
          const latest = series.values[0]?.value.at(-1)
          const n = latest ? Number(latest.value) : NaN
          if (latest && Number.isFinite(n) && n !== series.variable.noDataValue) {
            return Option.some({
              site,
              name: series.sourceInfo.siteName,
              parameter: series.variable.variableName.split(",")[0],
              value: n,
              unit: series.variable.unit.unitCode,
              at: new Date(latest.dateTime).toISOString()
            })
          }
        }
        return Option.none<GaugeReading>()
      }),
      Effect.orElseSucceed(() => Option.none<GaugeReading>())
    )
  )
  return Layer.succeed(Outdoors, {
    weather: (lat, lon, at, now) => {
      // Forecasts reach 16 days ahead; a past hour has nothing to tell a guest.
      const ahead = at.getTime() - now.getTime()
      if (urls.weather === undefined || ahead < -3_600_000 || ahead > 15 * 86_400_000)
        return Effect.succeed(Option.none())
      return weather(`${lat.toFixed(3)}|${lon.toFixed(3)}|${at.toISOString().slice(0, 13)}`)
    },
    gauge: (site) => (urls.gauge === undefined ? Effect.succeed(Option.none()) : gauge(site))
  })
}
