import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { mcpClient } from "../foundation/fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

describe("API key cache", () => {
  it("refuses a revoked key on the next request, REST and MCP, though it was just used", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    for (let i = 0; i < 3; i++) expect((await app.call(org.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await mcp.call("offerings_list")).isError).toBe(false)
    expect((await app.admin("DELETE", `/api_keys/${org.keyId}`)).status).toBe(200)
    expect((await app.call(org.key, "GET", "/api/v1/offerings")).status).toBe(401)
    expect(
      (await app.call(org.key, "POST", "/api/v1/offerings", { name: "x", kind: "class" }, { "idempotency-key": "k1" }))
        .status
    ).toBe(401)
    await expect(mcp.call("offerings_list")).rejects.toThrow()
    await mcp.close().catch(() => {})
  })

  it("keeps other keys of the org working after one is revoked", async () => {
    const org = await app.newOrg()
    const second = await app.admin("POST", `/orgs/${org.id}/api_keys`)
    expect((await app.call(second.body.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await app.admin("DELETE", `/api_keys/${org.keyId}`)).status).toBe(200)
    expect((await app.call(second.body.key, "GET", "/api/v1/offerings")).status).toBe(200)
    expect((await app.call(org.key, "GET", "/api/v1/offerings")).status).toBe(401)
  })
})
