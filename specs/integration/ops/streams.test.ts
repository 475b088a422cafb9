import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

/**
 * Event streams have a budget of their own: capped per key, per org and per instance, outside MAX_INFLIGHT. Before,
 * 512 streams of one key filled the request budget and every other org got 503 while /readyz said 200.
 */
let app: TestApp
const opened: Array<AbortController> = []
beforeAll(async () => {
  app = await startApp({ maxInflight: 2, maxStreams: 6, streamsPerOrg: 5, streamsPerKey: 3 })
})
afterAll(async () => {
  for (const c of opened) c.abort()
  await app.close()
})

/** Opens GET /api/v1/events/stream and keeps it open; answers the status and the error code when refused. */
const openStream = async (key: string) => {
  const controller = new AbortController()
  const res = await fetch(`${app.url}/api/v1/events/stream`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal
  })
  if (res.status !== 200) {
    const body = (await res.json()) as { error: { code: string } }
    return {
      status: res.status,
      code: body.error.code,
      retryAfter: res.headers.get("retry-after"),
      close: () => undefined
    }
  }
  opened.push(controller)
  return { status: 200, code: undefined, retryAfter: null, close: () => controller.abort() }
}

const secondKey = async (key: string) =>
  (await app.call(key, "POST", "/api/v1/api_keys", { name: "second" })).body.key as string

describe("long-lived streams", () => {
  it("are capped per key, per org and per instance, outside the request budget, and freed when closed", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const c = await app.newOrg()
    const aSecond = await secondKey(a.key)

    const firstThree = await Promise.all([openStream(a.key), openStream(a.key), openStream(a.key)])
    expect(firstThree.map((s) => s.status)).toEqual([200, 200, 200])
    // The key's fourth: 429 too_many_streams with Retry-After.
    expect(await openStream(a.key)).toMatchObject({ status: 429, code: "too_many_streams", retryAfter: "10" })
    // Another key of the same org takes the org's two places left, then the org is full.
    expect((await openStream(aSecond)).status).toBe(200)
    expect((await openStream(aSecond)).status).toBe(200)
    expect(await openStream(aSecond)).toMatchObject({ status: 429, code: "too_many_streams" })

    // Five streams open and MAX_INFLIGHT is 2: other orgs' requests are served, and the instance is ready.
    for (let i = 0; i < 4; i++) expect((await app.call(b.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200)

    // The instance's sixth stream is another org's; its seventh is refused as overloaded.
    expect((await openStream(b.key)).status).toBe(200)
    expect(await openStream(c.key)).toMatchObject({ status: 503, code: "overloaded" })

    // A closed stream gives its place back.
    firstThree[0].close()
    let again = await openStream(c.key)
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100))
      again = await openStream(c.key)
    }
    expect(again.status).toBe(200)
  })
})
