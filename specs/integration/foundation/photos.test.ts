import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/app.ts"
import { tinyJpeg } from "../../support/jpeg.ts"
import { type BookingsOrg, bookingsOrg, expectError, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
let org: BookingsOrg
let other: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  other = await bookingsOrg(app)
})
afterAll(() => app.close())

const put = (key: string, id: string, body: Uint8Array | string, type = "image/jpeg") =>
  fetch(`${app.url}/api/v1/offerings/${id}/photo`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": type },
    body: body as BodyInit
  })
const reply = async (res: Response) => ({ status: res.status, body: (await res.json()) as any, headers: res.headers })

describe("an offering's photo (PUT/DELETE /api/v1/offerings/{id}/photo)", () => {
  it("takes a JPEG, serves it at an absolute photo_url that changes with each upload, and removes it", async () => {
    const o = await org.offering({ kind: "class", name: "Photographed" })
    const first = await reply(await put(org.key, o.id, tinyJpeg(800, 600)))
    expect(first.status).toBe(200)
    expect(first.body.photo_url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1/photos/${o.id}\\.jpg\\?v=[A-Za-z0-9_-]{16}$`)
    )
    expect(ok(await org.call("GET", `/offerings/${o.id}`)).photo_url).toBe(first.body.photo_url)
    const served = await fetch(`${app.url}${new URL(first.body.photo_url).pathname}`)
    expect(served.headers.get("content-type")).toBe("image/jpeg")
    expect(served.headers.get("cache-control")).toContain("immutable")
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(tinyJpeg(800, 600))
    expect(
      (await fetch(`${app.url}/photos/${o.id}.jpg`, { headers: { "if-none-match": served.headers.get("etag")! } }))
        .status
    ).toBe(304)
    const second = await reply(await put(org.key, o.id, tinyJpeg(400, 300)))
    expect(second.body.photo_url).not.toBe(first.body.photo_url)
    const gone = await reply(
      await fetch(`${app.url}/api/v1/offerings/${o.id}/photo`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${org.key}` }
      })
    )
    expect(gone).toMatchObject({ status: 200, body: { photo_url: null } })
    expect((await fetch(`${app.url}/photos/${o.id}.jpg`)).status).toBe(404)
    const types = (await org.events("offering.updated"))
      .filter((e: any) => e.data.id === o.id)
      .map((e: any) => (e.data.photo_url === null ? "removed" : "set"))
    expect(types).toEqual(["set", "set", "removed"])
  })

  it("refuses what is not a JPEG, the wrong content type, too large a body, another org's offering and no key", async () => {
    const o = await org.offering({ kind: "class", name: "Strict" })
    expectError(
      await reply(await put(org.key, o.id, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))),
      400,
      "invalid_photo"
    )
    expectError(await reply(await put(org.key, o.id, new Uint8Array())), 400, "invalid_photo")
    expectError(await reply(await put(org.key, o.id, "{}", "text/plain")), 415, "unsupported_media_type")
    expectError(await reply(await put(org.key, o.id, "{}", "application/json")), 400, "invalid_body")
    const big = new Uint8Array(5 * 1024 * 1024 + 1)
    big.set(tinyJpeg(10, 10))
    expectError(await reply(await put(org.key, o.id, big)), 413, "payload_too_large")
    expectError(await reply(await put(other.key, o.id, tinyJpeg(10, 10))), 404, "not_found")
    // An id that is no UUID is refused as in every operation of the contract.
    expectError(await reply(await put(org.key, "not-an-id", tinyJpeg(10, 10))), 400, "invalid_id")
    expect(
      (
        await fetch(`${app.url}/api/v1/offerings/${o.id}/photo`, {
          method: "PUT",
          headers: { "content-type": "image/jpeg" },
          body: tinyJpeg(10, 10) as BodyInit
        })
      ).status
    ).toBe(401)
    expect(ok(await org.call("GET", `/offerings/${o.id}`)).photo_url).toBeNull()
    expect((await fetch(`${app.url}/photos/nope.jpg`)).status).toBe(404)
  })
})
