import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

describe("a running engine", () => {
  it("creates an org through the admin API and an offering through REST", async () => {
    const org = await app.newOrg()
    const created = await app.call(org.key, "POST", "/api/v1/offerings", { name: "Yoga", kind: "class" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: "Yoga", kind: "class", capacity: 10, active: true, org_id: org.id })
    const listed = await app.call(org.key, "GET", "/api/v1/offerings")
    expect(listed.body.data.map((o: { id: string }) => o.id)).toEqual([created.body.id])
  })

  it("answers health and readiness", async () => {
    expect((await app.call(null, "GET", "/healthz")).status).toBe(200)
    expect((await app.call(null, "GET", "/readyz")).body).toEqual({ status: "ready" })
  })
})
