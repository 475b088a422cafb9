import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"

// docs/events.md: ids increase but are not consecutive (a shared sequence, rolled-back transactions, and after a
// crash Postgres resumes the sequence up to 32 ahead). A cursor carries on across any gap.
let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const page = async (key: string, after: number) => {
  const res = await app.call(key, "GET", `/api/v1/events?after=${after}`)
  expect(res.status).toBe(200)
  return res.body as { data: Array<{ id: number; type: string }>; next_after: number }
}

describe("event ids with gaps", () => {
  it("a jump of 28 in the sequence (as after a crash recovery) loses nothing: the cursor serves the next event", async () => {
    const org = await app.newOrg()
    const create = (name: string) => app.call(org.key, "POST", "/api/v1/offerings", { name, kind: "class" })
    expect((await create("Before")).status).toBe(201)
    await sql(app, (s) => s`select nextval('events_id_seq') from generate_series(1, 28)`)
    expect((await create("After")).status).toBe(201)
    await app.advance(3)
    const first = await page(org.key, 0)
    expect(first.data.map((e) => e.type)).toEqual(["offering.created", "offering.created"])
    const [a, b] = first.data.map((e) => e.id)
    expect(b - a).toBe(29)
    const fromA = await page(org.key, a)
    expect(fromA.data.map((e) => e.id)).toEqual([b])
    expect(fromA.next_after).toBe(b)
    expect((await page(org.key, b)).data).toEqual([])
  })
})
