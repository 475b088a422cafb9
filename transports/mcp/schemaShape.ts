export type JsonSchema = {
  type?: string
  properties?: Record<string, unknown>
  required?: string[]
  $defs?: Record<string, unknown>
} & Record<string, unknown>

/** Every `#/$defs/<name>` a JSON value refers to. */
const refsIn = (node: unknown, out: Set<string>): Set<string> => {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out)
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) out.add(v.slice("#/$defs/".length))
      else refsIn(v, out)
    }
  }
  return out
}

/**
 * The schema with only the `$defs` it refers to, transitively (none at all when it refers to none): a tool's schema
 * carries no definition nothing uses.
 */
export const pruneDefs = (schema: JsonSchema): JsonSchema => {
  const { $defs, ...rest } = schema
  if ($defs === undefined) return schema
  const kept = new Set<string>()
  const todo = [...refsIn(rest, new Set())]
  while (todo.length > 0) {
    const name = todo.pop()!
    if (kept.has(name) || !(name in $defs)) continue
    kept.add(name)
    todo.push(...refsIn($defs[name], new Set()))
  }
  if (kept.size === 0) return rest
  return { ...rest, $defs: Object.fromEntries(Object.entries($defs).filter(([k]) => kept.has(k))) }
}

const ANNOTATIONS = new Set(["title", "description", "examples", "default"])
const isObj = (u: unknown): u is JsonSchema => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The same schema in fewer bytes, validating exactly the same values: `title`s dropped (Effect's own, such as
 * "between(1, 10000)", which the bounds beside them already say), small leaf `$defs` (Int) written in place, and
 * `anyOf [X, null]` as `type: [x, "null"]`. With `descriptions: false` (outputSchemas) an object keeps its properties'
 * types and nesting, and loses descriptions, examples, `required` lists and `additionalProperties: false`: what a
 * field means is said where a tool takes it and in the OpenAPI document, and an answer that gains a field still
 * conforms. Values (enum, const, examples, default) are never rewritten.
 */
export const compact = (schema: JsonSchema, options: { readonly descriptions: boolean }): JsonSchema => {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>
  const leaf = (name: string): JsonSchema | undefined => {
    const def = defs[name]
    return def !== undefined && refsIn(def, new Set()).size === 0 && JSON.stringify(def).length <= 160 ? def : undefined
  }
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (!isObj(node)) return node
    let out: JsonSchema = {}
    for (const [k, v] of Object.entries(node)) {
      if (k === "title" || ((k === "description" || k === "examples") && !options.descriptions)) continue
      // properties and $defs are maps of names to schemas: a property named "title" is kept.
      out[k] =
        k === "properties" || k === "$defs" || k === "patternProperties"
          ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, walk(s)]))
          : k === "enum" || k === "const" || k === "required" || k === "examples" || k === "default"
            ? v
            : walk(v)
    }
    if (typeof out.$ref === "string" && out.$ref.startsWith("#/$defs/")) {
      const def = leaf(out.$ref.slice("#/$defs/".length))
      const { $ref: _, ...siblings } = out
      // In place only where no validation keyword of the definition meets one beside the $ref.
      if (def !== undefined && Object.keys(siblings).every((k) => ANNOTATIONS.has(k) || !(k in def))) {
        out = { ...(walk(def) as JsonSchema), ...siblings }
      }
    }
    const any = out.anyOf
    if (Array.isArray(any) && any.length === 2 && Object.keys(out).length === 1) {
      const nul = any.findIndex((m) => isObj(m) && m.type === "null" && Object.keys(m).length === 1)
      const other = any[1 - nul] as JsonSchema | undefined
      if (nul !== -1 && isObj(other) && typeof other.type === "string" && !("const" in other) && !("$ref" in other)) {
        out = {
          ...other,
          type: [other.type, "null"],
          ...(Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {})
        } as unknown as JsonSchema
      }
    }
    if (!options.descriptions && (out.type === "object" || "properties" in out) && isObj(out.properties)) {
      delete out.required
      if (out.additionalProperties === false) delete out.additionalProperties
    }
    return out
  }
  return pruneDefs(walk(schema) as JsonSchema)
}
