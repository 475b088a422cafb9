import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { compact, pruneDefs, toolsOf } from "../../../transports/mcp/tools.ts"

const Thing = Schema.Struct({ id: Schema.String, count: Schema.Int, note: Schema.NullOr(Schema.String) }).annotations({
  identifier: "Thing"
})

class TestApi extends HttpApi.make("test").add(
  HttpApiGroup.make("things")
    .add(
      HttpApiEndpoint.get("get", "/things")
        .addSuccess(Thing)
        .annotate(OpenApi.Summary, "Get a thing")
        .annotate(OpenApi.Description, "Gets the one thing, with its count")
    )
    .add(
      HttpApiEndpoint.get("names", "/names")
        .addSuccess(Schema.Array(Schema.String))
        .annotate(OpenApi.Summary, "The names")
    )
    .add(HttpApiEndpoint.del("remove", "/things").annotate(OpenApi.Summary, "Remove it"))
    .add(
      HttpApiEndpoint.post("make", "/things")
        .setPayload(Schema.Struct({ count: Schema.Int.annotations({ description: "How many" }) }))
        .addSuccess(Thing, { status: 201 })
    )
) {}

const byName = Object.fromEntries(toolsOf(TestApi).map((t) => [t.name, t]))

describe("toolsOf", () => {
  it("describes a tool by the operation's description, else its summary, else its method and path", () => {
    expect(byName.things_get.description).toBe("Gets the one thing, with its count")
    expect(byName.things_names.description).toBe("The names")
    expect(byName.things_make.description).toBe("POST /things")
    expect((byName.things_make.inputSchema.properties as any).count.description).toBe("How many")
  })

  it("gives an object answer's schema as outputSchema, a non-object one as {result}, and no body as {}", () => {
    expect(byName.things_get.wrapped).toBe(false)
    expect(byName.things_get.outputSchema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, count: { type: "integer" }, note: { type: ["string", "null"] } }
    })
    expect(byName.things_make.outputSchema).toEqual(byName.things_get.outputSchema)
    expect(byName.things_names.wrapped).toBe(true)
    expect(byName.things_names.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "array", items: { type: "string" } } }
    })
    expect(byName.things_remove.outputSchema).toEqual({ type: "object", properties: {} })
  })
})

describe("pruneDefs and compact", () => {
  it("keep only the definitions referred to, transitively", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: { A: { type: "array", items: { $ref: "#/$defs/B" } }, B: { type: "string" }, C: { type: "number" } }
    }
    expect(pruneDefs(schema).$defs).toEqual({ A: schema.$defs.A, B: schema.$defs.B })
    expect(pruneDefs({ type: "object", $defs: { C: {} } })).toEqual({ type: "object" })
  })

  it("write a nullable as a type list (null joins an enum), inline small leaf definitions, and drop titles", () => {
    const schema = {
      type: "object",
      properties: {
        n: { anyOf: [{ $ref: "#/$defs/Int", minimum: 1, title: "positive" }, { type: "null" }] },
        e: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
        title: { type: "string", description: "a property named title stays" },
        o: {
          type: "object",
          properties: {},
          examples: [{ title: "kept", description: "kept" }],
          default: { title: "kept" }
        }
      },
      $defs: { Int: { type: "integer", description: "an integer", title: "int" } }
    }
    expect(compact(schema, { descriptions: true })).toEqual({
      type: "object",
      properties: {
        n: { type: ["integer", "null"], description: "an integer", minimum: 1 },
        e: { type: ["string", "null"], enum: ["a", "b", null] },
        title: { type: "string", description: "a property named title stays" },
        o: {
          type: "object",
          properties: {},
          examples: [{ title: "kept", description: "kept" }],
          default: { title: "kept" }
        }
      }
    })
    // An outputSchema: types and nesting only.
    expect(compact(schema, { descriptions: false }).properties).toEqual({
      n: { type: ["integer", "null"], minimum: 1 },
      e: { type: ["string", "null"], enum: ["a", "b", null] },
      title: { type: "string" },
      o: { type: "object", properties: {}, default: { title: "kept" } }
    })
  })
})
