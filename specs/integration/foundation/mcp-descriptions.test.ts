import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../../support/app.ts"
import { mcpClient } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

type Node = { [k: string]: unknown }

/**
 * Every input property of every tool (nested object properties too, as `tool.a.b`) whose schema says nothing of what
 * it means: no `description` on it, nor on the definition its `$ref` names.
 */
const undescribed = (tools: ReadonlyArray<{ name: string; inputSchema: Node }>) => {
  const missing: string[] = []
  for (const tool of tools) {
    const defs = (tool.inputSchema.$defs ?? {}) as Record<string, Node>
    const resolve = (s: Node): Node =>
      typeof s.$ref === "string" ? { ...resolve(defs[s.$ref.split("/").pop()!] ?? {}), ...s } : s
    const walk = (schema: Node, at: string) => {
      for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
        const prop = resolve(raw)
        if (typeof prop.description !== "string" || prop.description.trim() === "") missing.push(`${at}.${name}`)
        if (prop.properties !== undefined) walk(prop, `${at}.${name}`)
      }
    }
    walk(tool.inputSchema, tool.name)
  }
  return missing
}

describe("MCP tools/list", () => {
  it("describes every input property of every tool", async () => {
    const mcp = await mcpClient(app, (await app.newOrg()).key)
    const { tools } = await mcp.client.listTools()
    await mcp.close()
    expect(tools.length).toBeGreaterThan(50)
    expect(undescribed(tools as never)).toEqual([])
  })
})
