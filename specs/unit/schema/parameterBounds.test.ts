import { HttpApi } from "@effect/platform"
import { JSONSchema, Option, Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { Api } from "../../../transports/http/Api.ts"
import { adminDocument, openApiDocument } from "../../../transports/http/openapi.ts"

type Json = Record<string, any>

const BOUNDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "enum"
]

/** The bounds a decoded value of a property must keep (the Type side of its Schema), found through unions. */
const boundsOf = (ast: SchemaAST.AST): Json => {
  const members = SchemaAST.isUnion(ast) ? ast.types.filter((t) => !SchemaAST.isUndefinedKeyword(t)) : [ast]
  const out: Json = {}
  for (const m of members) {
    let json: Json
    try {
      json = JSONSchema.make(Schema.make(SchemaAST.typeAST(m))) as Json
    } catch {
      continue // a decoded value JSON cannot say (a Date): its text is described by the encoded side
    }
    const body = typeof json.$ref === "string" ? json.$defs[json.$ref.split("/").pop() as string] : json
    for (const k of BOUNDS) if (body[k] !== undefined) out[k] = body[k]
    if (body.type === "integer") out.type = "integer"
  }
  return out
}

/** Every query and path parameter of the contract, with the bounds its Schema decodes to. */
const parameters = () => {
  const out: Array<{ op: string; name: string; bounds: Json }> = []
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint, group }) {
      for (const schema of [endpoint.urlParamsSchema, endpoint.pathSchema]) {
        const ast = Option.getOrUndefined(schema)?.ast
        if (ast === undefined) continue
        const literal = SchemaAST.typeAST(ast)
        if (!SchemaAST.isTypeLiteral(literal)) continue
        const encoded = SchemaAST.encodedAST(ast)
        for (const ps of SchemaAST.isTypeLiteral(encoded) ? encoded.propertySignatures : []) {
          const typed = literal.propertySignatures.find((p) => p.name === ps.name)
          if (typed === undefined) continue
          out.push({ op: `${group.identifier}.${endpoint.name}`, name: String(ps.name), bounds: boundsOf(typed.type) })
        }
      }
    }
  })
  return out
}

const documented = (doc: Json, op: string, name: string): Json | undefined => {
  for (const item of Object.values<Json>(doc.paths))
    for (const o of Object.values<Json>(item)) {
      if (o.operationId !== op) continue
      const p = (o.parameters ?? []).find((x: Json) => x.name === name)
      if (p === undefined) return undefined
      const s = p.schema
      return typeof s.$ref === "string" ? doc.components.schemas[s.$ref.split("/").pop()] : s
    }
  return undefined
}

describe("OpenAPI keeps the bounds of every parameter", () => {
  const doc = openApiDocument("")
  const admin = adminDocument()
  const params = parameters()

  it("finds the pages' limits among them", () => {
    const limits = params.filter((p) => p.name === "limit").map((p) => [p.op, p.bounds.minimum, p.bounds.maximum])
    expect(limits).toEqual(
      expect.arrayContaining([
        ["events.list", 1, 200],
        ["bookings.list", 1, 500],
        ["customers.list", 1, 500]
      ])
    )
  })

  it("each parameter's schema in the document says what its Schema decodes: numbers as integers, with bounds", () => {
    const lost: Array<string> = []
    for (const p of params) {
      const schema = documented(doc, p.op, p.name) ?? documented(admin, p.op, p.name)
      if (schema === undefined) continue
      for (const [k, v] of Object.entries(p.bounds)) {
        if (k === "type" ? schema.type !== "integer" : JSON.stringify(schema[k]) !== JSON.stringify(v))
          lost.push(`${p.op} ${p.name}: ${k} ${JSON.stringify(v)}, documented ${JSON.stringify(schema[k])}`)
      }
    }
    expect(lost).toEqual([])
  })
})
