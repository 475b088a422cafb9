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
 * Every input property of every tool (nested ones too: object properties as `tool.a.b`, array items' as
 * `tool.questions[].type`, a union's members') whose schema says nothing of what it means: no `description` on it,
 * nor on the definition its `$ref` names.
 */
const undescribed = (tools: ReadonlyArray<{ name: string; inputSchema: Node }>) => {
  const missing: string[] = []
  for (const tool of tools) {
    const defs = (tool.inputSchema.$defs ?? {}) as Record<string, Node>
    const resolve = (s: Node): Node =>
      typeof s.$ref === "string" ? { ...resolve(defs[s.$ref.split("/").pop()!] ?? {}), ...s } : s
    const walk = (raw: Node, at: string, depth: number) => {
      if (depth > 8) return
      const schema = resolve(raw)
      for (const k of ["anyOf", "oneOf", "allOf"])
        for (const member of (schema[k] ?? []) as Node[]) walk(member, at, depth + 1)
      if (schema.items !== undefined) walk(schema.items as Node, `${at}[]`, depth + 1)
      for (const [name, p] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
        const prop = resolve(p)
        if (typeof prop.description !== "string" || prop.description.trim() === "") missing.push(`${at}.${name}`)
        walk(prop, `${at}.${name}`, depth + 1)
      }
    }
    walk(tool.inputSchema, tool.name, 0)
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
    expect(tools.map((t) => t.name)).toContain("events_stream")
  })
})
