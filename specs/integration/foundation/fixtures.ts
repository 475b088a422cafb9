import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { expect } from "vitest"
import type { Reply, TestApp } from "../../support/app.ts"

export type Kind = "class" | "appointment" | "rental"
export type Json = Record<string, unknown>

export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"

/** A string of n characters. */
export const chars = (n: number, c = "a") => c.repeat(n)

/** Asserts the spec's error shape with an exact status and code. */
export const expectError = (res: Reply, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code })
  expect(typeof res.body.error.message).toBe("string")
  expect(res.body.error.message.length).toBeGreaterThan(0)
}

export const offerings = (app: TestApp, key: string) => ({
  create: async (body: Json, headers?: Record<string, string>) => {
    const res = await app.call(key, "POST", "/api/v1/offerings", body, headers)
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body as Json & { id: string }
  },
  post: (body: unknown, headers?: Record<string, string>) => app.call(key, "POST", "/api/v1/offerings", body, headers),
  get: (id: string) => app.call(key, "GET", `/api/v1/offerings/${id}`),
  patch: (id: string, body: unknown) => app.call(key, "PATCH", `/api/v1/offerings/${id}`, body),
  remove: (id: string, query = "") => app.call(key, "DELETE", `/api/v1/offerings/${id}${query}`),
  list: (query = "") => app.call(key, "GET", `/api/v1/offerings${query}`),
  getHours: (id: string) => app.call(key, "GET", `/api/v1/offerings/${id}/hours`),
  setHours: (id: string, body: unknown) => app.call(key, "PUT", `/api/v1/offerings/${id}/hours`, body)
})

/** Every event of the org so far (advances the engine clock past the 2 second rule). */
export const allEvents = async (app: TestApp, key: string, type?: string) => {
  await app.advance(3)
  const out: Array<{ id: number; type: string; data: any; created_at: string }> = []
  let after = 0
  for (;;) {
    const res = await app.call(key, "GET", `/api/v1/events?after=${after}&limit=200${type ? `&type=${type}` : ""}`)
    expect(res.status).toBe(200)
    out.push(...res.body.data)
    if (res.body.data.length === 0) return out
    after = res.body.next_after
  }
}

/** An MCP client connected to the app's /mcp with an API key. */
export const mcpClient = async (app: TestApp, key: string) => {
  const client = new Client({ name: "foundation-tests", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } }
    })
  )
  const call = async (name: string, args: Json = {}) => {
    const res = await client.callTool({ name, arguments: args })
    const content = res.content as Array<{ type: string; text: string }>
    return {
      isError: res.isError === true,
      text: content[0].text,
      json: JSON.parse(content[0].text),
      structured: res.structuredContent as any
    }
  }
  return { client, call, close: () => client.close() }
}
