import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { ConfigProvider, Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appConfig } from "../../../app/config.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { advanceTo, type BookingsOrg, bookingsOrg, guest, PIN } from "../bookings/helpers.ts"
import { handleOf } from "./helpers.ts"

// Stand-ins for Open-Meteo and USGS Water Services, answering in their wire formats; `mode` makes them fail or hang.
let mode: "ok" | "error" | "hang" = "ok"
const asked: string[] = []
let services: Server
const forecast = (req: IncomingMessage) => {
  const u = new URL(req.url!, "http://x")
  const day = u.searchParams.get("start_date")!
  const hours = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`)
  return {
    latitude: Number(u.searchParams.get("latitude")),
    longitude: Number(u.searchParams.get("longitude")),
    generationtime_ms: 0.1,
    utc_offset_seconds: 0,
    timezone: "GMT",
    timezone_abbreviation: "GMT",
    elevation: 2,
    hourly_units: {
      time: "iso8601",
      temperature_2m: "°C",
      precipitation: "mm",
      weather_code: "wmo code",
      wind_speed_10m: "km/h"
    },
    hourly: {
      time: hours,
      temperature_2m: hours.map((_, h) => 10 + h / 2),
      precipitation: hours.map(() => 0.2),
      weather_code: hours.map(() => 61),
      wind_speed_10m: hours.map(() => 18)
    }
  }
}
const usgs = {
  name: "ns1:timeSeriesResponseType",
  declaredType: "org.cuahsi.waterml.TimeSeriesResponseType",
  scope: "javax.xml.bind.JAXBElement$GlobalScope",
  value: {
    queryInfo: { queryURL: "http://waterservices.usgs.gov/nwis/iv/format=json&sites=01646500&parameterCd=00060,00065" },
    timeSeries: [
      {
        sourceInfo: {
          siteName: "POTOMAC RIVER NEAR WASH, DC LITTLE FALLS PUMP STA",
          siteCode: [{ value: "01646500", network: "NWIS", agencyCode: "USGS" }]
        },
        variable: {
          variableCode: [{ value: "00060" }],
          variableName: "Streamflow, ft&#179;/s",
          unit: { unitCode: "ft3/s" },
          noDataValue: -999999.0
        },
        values: [
          {
            value: [
              { value: "11900", qualifiers: ["P"], dateTime: "2040-01-02T06:30:00.000-05:00" },
              { value: "12400", qualifiers: ["P"], dateTime: "2040-01-02T06:45:00.000-05:00" }
            ]
          }
        ],
        name: "USGS:01646500:00060:00000"
      }
    ]
  },
  nil: false,
  globalScope: true,
  typeSubstituted: false
}

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  services = createServer((req, res) => {
    asked.push(req.url!)
    if (mode === "hang") return
    if (mode === "error") return res.writeHead(500).end("oops")
    const body = req.url!.startsWith("/v1/forecast")
      ? forecast(req)
      : req.url!.startsWith("/nwis/iv/")
        ? usgs
        : undefined
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(body ?? {}))
  })
  await new Promise<void>((r) => services.listen(0, "127.0.0.1", r))
  const base = `http://127.0.0.1:${(services.address() as AddressInfo).port}`
  app = await startApp({ weatherUrl: base, gaugeUrl: base })
  await advanceTo(app, PIN)
  org = await bookingsOrg(app)
})
afterAll(async () => {
  await app.close()
  services.closeAllConnections()
  await new Promise((r) => services.close(r))
})

const pageOf = async (hours: number, extra: Record<string, unknown> = {}) => {
  const { offering, session } = await org.classWithSession(
    { name: "River trip", capacity: 8, lat: 38.9498, lon: -77.1276, gauge_site: "01646500", ...extra },
    hours
  )
  const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(`o${hours}`) })
  const started = Date.now()
  const html = await (await fetch(`${app.url}/b/${await handleOf(app, b.id)}`)).text()
  return { html, ms: Date.now() - started, b }
}

describe("the guest page's conditions (Open-Meteo, USGS)", () => {
  it("shows the forecast for the start hour at the meeting point and the gauge's latest reading", async () => {
    mode = "ok"
    asked.length = 0
    const { html, b } = await pageOf(30)
    const hour = new Date(b.starts_at).getUTCHours()
    expect(html).toContain("<h2>Conditions</h2>")
    expect(html).toContain(
      `Light rain, ${new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(10 + hour / 2)} °C, wind 18 km/h, 0.2 mm rain`
    )
    expect(html).toContain("POTOMAC RIVER NEAR WASH, DC LITTLE FALLS PUMP STA: Streamflow 12,400 ft3/s")
    const f = new URL(asked.find((u) => u.startsWith("/v1/forecast"))!, "http://x").searchParams
    expect({
      lat: f.get("latitude"),
      lon: f.get("longitude"),
      day: f.get("start_date"),
      tz: f.get("timezone")
    }).toEqual({ lat: "38.950", lon: "-77.128", day: b.starts_at.slice(0, 10), tz: "UTC" })
    expect(asked.find((u) => u.startsWith("/nwis/iv/"))).toContain("sites=01646500")
  })

  it("leaves them out, and the page whole, when the services fail or do not answer in time", async () => {
    mode = "error"
    const failed = await pageOf(40, { gauge_site: "01646502" })
    expect(failed.html).toContain("River trip")
    expect(failed.html).not.toContain("Conditions")
    mode = "hang"
    const slow = await pageOf(50, { gauge_site: "01646503" })
    expect(slow.html).toContain("River trip")
    expect(slow.html).not.toContain("Conditions")
    expect(slow.ms).toBeLessThan(10_000)
    mode = "ok"
  })

  it("asks for no forecast beyond 16 days ahead, nor for an offering without a place", async () => {
    mode = "ok"
    asked.length = 0
    await pageOf(24 * 20)
    expect(asked.filter((u) => u.startsWith("/v1/forecast"))).toEqual([])
    asked.length = 0
    await pageOf(60, { lat: null, lon: null, gauge_site: null })
    expect(asked).toEqual([])
  })

  it("is configured by WEATHER_URL and GAUGE_URL: the public services by default, off, or a clear error", () => {
    const read = (env: Record<string, string>) =>
      Effect.runSync(
        Effect.either(
          Effect.withConfigProvider(
            Effect.map(appConfig, (c) => [c.weatherUrl, c.gaugeUrl]),
            ConfigProvider.fromMap(new Map(Object.entries(env)))
          )
        )
      )
    expect(read({})).toEqual(Either.right(["https://api.open-meteo.com", "https://waterservices.usgs.gov"]))
    expect(read({ WEATHER_URL: "OFF", GAUGE_URL: "http://mirror.local:8080/" })).toEqual(
      Either.right([undefined, "http://mirror.local:8080"])
    )
    const bad = read({ WEATHER_URL: "ftp://x" })
    expect(Either.isLeft(bad) && String(bad.left)).toContain("WEATHER_URL must be an http(s) URL or off")
  })
})
