import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { tinyJpeg } from "../../support/jpeg.ts"
import { browser, teamOrg } from "../auth/helpers.ts"
import { mcpClient } from "./fixtures.ts"

// offerings.set_photo and offerings.delete_photo: the same operation by a JPEG body, by JSON (url or base64) and as
// MCP tools, owner-only everywhere; a URL is read under the webhook targets' rules.

let app: TestApp
let strict: TestApp
let images: Server
let imagesUrl: string
let connections = 0
const JPEG = tinyJpeg(640, 480)

beforeAll(async () => {
  images = createServer((req, res) => {
    if (req.url === "/kayak.jpg") return res.writeHead(200, { "content-type": "image/jpeg" }).end(JPEG)
    if (req.url === "/page.html") return res.writeHead(200, { "content-type": "text/html" }).end("<html></html>")
    if (req.url === "/moved.jpg") return res.writeHead(302, { location: "/kayak.jpg" }).end()
    res.writeHead(404).end()
  })
  images.on("connection", () => connections++)
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve))
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  // The suites' app allows local targets (WEBHOOK_ALLOW_INSECURE, as the webhook suites do); strict is production's.
  ;[app, strict] = await Promise.all([startApp(), startApp({ webhookAllowInsecure: false })])
})
afterAll(async () => {
  images.closeAllConnections()
  await Promise.all([app.close(), strict.close(), new Promise((r) => images.close(r))])
})

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
const offering = async (a: TestApp, key: string) =>
  (await a.call(key, "POST", "/api/v1/offerings", { name: "Kayak", kind: "rental" })).body.id as string
const servedBytes = async (a: TestApp, photoUrl: string) =>
  new Uint8Array(await (await fetch(`${a.url}${new URL(photoUrl).pathname}${new URL(photoUrl).search}`)).arrayBuffer())

describe("offerings_set_photo and offerings_delete_photo (MCP)", () => {
  it("are listed with every input described: id, and exactly one of url and base64", async () => {
    const org = await app.newOrg()
    const mcp = await mcpClient(app, org.key)
    try {
      const tools = (await mcp.client.listTools()).tools
      const set = tools.find((t) => t.name === "offerings_set_photo")!
      expect(Object.keys(set.inputSchema.properties ?? {}).sort()).toEqual(["base64", "id", "url"])
      // Every tool's every input is described (mcp-descriptions.test.ts); here, what each source means.
      const props = set.inputSchema.properties as Record<string, { description: string }>
      expect(props.url.description).toMatch(/https.*private/)
      expect(props.base64.description).toMatch(/base64.*MiB/)
      expect(set.inputSchema.required).toEqual(["id"])
      expect(set.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
      const del = tools.find((t) => t.name === "offerings_delete_photo")!
      expect(Object.keys(del.inputSchema.properties ?? {})).toEqual(["id"])
      expect(del.annotations?.destructiveHint).toBe(true)
    } finally {
      await mcp.close()
    }
  })

  it("sets the photo from base64: the offering shows its photo_url, which serves the same bytes; delete removes it", async () => {
    const org = await app.newOrg()
    const id = await offering(app, org.key)
    const mcp = await mcpClient(app, org.key)
    try {
      const set = await mcp.call("offerings_set_photo", { id, base64: base64(JPEG) })
      expect(set.isError).toBe(false)
      expect(set.structured.photo_url).toMatch(new RegExp(`/photos/${id}\\.jpg\\?v=[A-Za-z0-9_-]{16}$`))
      const got = (await app.call(org.key, "GET", `/api/v1/offerings/${id}`)).body
      expect(got.photo_url).toBe(set.structured.photo_url)
      expect(await servedBytes(app, got.photo_url)).toEqual(JPEG)
      const removed = await mcp.call("offerings_delete_photo", { id })
      expect([removed.isError, removed.structured.photo_url]).toEqual([false, null])
      expect((await app.call(org.key, "GET", `/api/v1/offerings/${id}`)).body.photo_url).toBeNull()
      expect((await fetch(`${app.url}/photos/${id}.jpg`)).status).toBe(404)
    } finally {
      await mcp.close()
    }
  })

  it("sets the photo from a URL, read once, and serves the same bytes; REST's JSON body does the same", async () => {
    const org = await app.newOrg()
    const id = await offering(app, org.key)
    const mcp = await mcpClient(app, org.key)
    try {
      const set = await mcp.call("offerings_set_photo", { id, url: `${imagesUrl}/kayak.jpg` })
      expect(set.isError).toBe(false)
      expect(await servedBytes(app, set.structured.photo_url)).toEqual(JPEG)
    } finally {
      await mcp.close()
    }
    const other = await offering(app, org.key)
    const rest = await app.call(org.key, "PUT", `/api/v1/offerings/${other}/photo`, { url: `${imagesUrl}/kayak.jpg` })
    expect(rest.status).toBe(200)
    expect(await servedBytes(app, rest.body.photo_url)).toEqual(JPEG)
  })

  it.each([
    [{ base64: base64(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) }, "invalid_photo"],
    [{ base64: "not base64!" }, "invalid_base64"],
    [{ url: "PAGE" }, "invalid_photo"],
    [{ url: "MISSING" }, "photo_unreachable"],
    [{ url: "MOVED" }, "photo_unreachable"],
    [{ url: "http://127.0.0.1:1/x.jpg" }, "photo_unreachable"],
    [{ url: "ftp://images.example.com/x.jpg" }, "invalid_url"],
    [{ url: "https://user:pw@images.example.com/x.jpg" }, "invalid_url"],
    [{}, "invalid_body"],
    [{ url: "https://images.example.com/x.jpg", base64: base64(JPEG) }, "invalid_body"]
  ])("refuses %j with 400 %s, over MCP and REST alike, and changes nothing", async (input, code) => {
    const args = Object.fromEntries(
      Object.entries(input).map(([k, v]) => [
        k,
        v === "PAGE"
          ? `${imagesUrl}/page.html`
          : v === "MISSING"
            ? `${imagesUrl}/none.jpg`
            : v === "MOVED"
              ? `${imagesUrl}/moved.jpg`
              : v
      ])
    )
    const org = await app.newOrg()
    const id = await offering(app, org.key)
    const mcp = await mcpClient(app, org.key)
    try {
      const res = await mcp.call("offerings_set_photo", { id, ...args })
      expect([res.isError, res.json.error.code]).toEqual([true, code])
      expect(res.json.error.message.length).toBeGreaterThan(0)
    } finally {
      await mcp.close()
    }
    const rest = await app.call(org.key, "PUT", `/api/v1/offerings/${id}/photo`, args)
    expect([rest.status, rest.body.error.code]).toEqual([400, code])
    expect((await app.call(org.key, "GET", `/api/v1/offerings/${id}`)).body.photo_url).toBeNull()
  })

  it.each([
    "http://images.example.com/x.jpg",
    "https://127.0.0.1:PORT/kayak.jpg",
    "https://localhost:PORT/kayak.jpg",
    "https://[::ffff:127.0.0.1]:PORT/kayak.jpg",
    "https://10.1.2.3/x.jpg",
    "https://169.254.169.254/latest/meta-data"
  ])("without WEBHOOK_ALLOW_INSECURE refuses %s with 400 invalid_url, connecting to nothing", async (template) => {
    const url = template.replace("PORT", new URL(imagesUrl).port)
    const org = await strict.newOrg()
    const id = await offering(strict, org.key)
    const before = connections
    const mcp = await mcpClient(strict, org.key)
    try {
      const res = await mcp.call("offerings_set_photo", { id, url })
      expect([res.isError, res.json.error.code]).toEqual([true, "invalid_url"])
    } finally {
      await mcp.close()
    }
    expect(connections).toBe(before)
    expect((await strict.call(org.key, "GET", `/api/v1/offerings/${id}`)).body.photo_url).toBeNull()
  })

  it("reads no URL for an offering of another org (404)", async () => {
    const [a, b] = [await app.newOrg(), await app.newOrg()]
    const id = await offering(app, a.key)
    const before = connections
    const res = await app.call(b.key, "PUT", `/api/v1/offerings/${id}/photo`, { url: `${imagesUrl}/kayak.jpg` })
    expect([res.status, res.body.error.code]).toEqual([404, "not_found"])
    expect(connections).toBe(before)
  })
})

describe("the photo operations are an owner's, as offerings.update is", () => {
  it("a staff key and a staff session get 403 forbidden by JPEG body, JSON, DELETE and MCP; the owner's session uploads a JPEG", async () => {
    const org = await teamOrg(app, "photos")
    const id = await offering(app, org.key)
    const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ user_id: string; email: string }>
    const staffId = team.find((m) => m.email === org.staff)!.user_id
    const staffKey = (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: staffId })).body.key as string
    const path = `/api/v1/offerings/${id}/photo`
    const jpegPut = (headers: Record<string, string>) =>
      fetch(`${app.url}${path}`, {
        method: "PUT",
        headers: { "content-type": "image/jpeg", ...headers },
        body: JPEG as BodyInit
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    const forbidden = (r: { status: number; body: any }) => [r.status, r.body?.error?.code]

    expect(forbidden(await jpegPut({ authorization: `Bearer ${staffKey}` }))).toEqual([403, "forbidden"])
    expect(forbidden(await app.call(staffKey, "PUT", path, { base64: base64(JPEG) }))).toEqual([403, "forbidden"])
    expect(forbidden(await app.call(staffKey, "DELETE", path))).toEqual([403, "forbidden"])
    const mcp = await mcpClient(app, staffKey)
    try {
      const res = await mcp.call("offerings_set_photo", { id, base64: base64(JPEG) })
      expect([res.isError, res.json.error.code]).toEqual([true, "forbidden"])
    } finally {
      await mcp.close()
    }

    // A session, as the console sends it: the cookie and the CSRF token.
    const asSession = async (email: string) => {
      const b = browser(app)
      const csrf = (await b.signIn(email)).csrf_token as string
      const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ")
      return { cookie, "x-csrf-token": csrf, origin: "http://127.0.0.1" }
    }
    expect(forbidden(await jpegPut(await asSession(org.staff)))).toEqual([403, "forbidden"])
    expect((await app.call(org.key, "GET", `/api/v1/offerings/${id}`)).body.photo_url).toBeNull()
    const byOwner = await jpegPut(await asSession(org.owner))
    expect(byOwner.status).toBe(200)
    expect(await servedBytes(app, byOwner.body.photo_url)).toEqual(JPEG)
  })
})
