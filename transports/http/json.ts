import { BadRequest } from "../../engine/schema/errors.ts"

/** Bodies nest at most this deep (arrays and objects); deeper is 400 before parsing, so nothing recurses without end. */
export const MAX_DEPTH = 32
/** An error message quotes at most this many characters of what was sent. */
export const MAX_ECHO = 100

const OPEN_BRACE = 123
const OPEN_BRACKET = 91
const CLOSE_BRACE = 125
const CLOSE_BRACKET = 93
const QUOTE = 34
const BACKSLASH = 92

/** The deepest nesting of arrays and objects in a JSON text, stopping as soon as it passes `max`. */
export const depthOver = (text: string, max = MAX_DEPTH) => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
  return false
}

/** At most MAX_ECHO characters of a value, for an error message. */
export const clip = (s: string) => (s.length > MAX_ECHO ? `${s.slice(0, MAX_ECHO)}…` : s)

/** Shortens every quoted value in a message to MAX_ECHO characters. */
export const clipQuoted = (message: string) =>
  message.replace(/"((?:[^"\\]|\\.)*)"/g, (whole, inner: string) => (inner.length > MAX_ECHO ? `"${inner.slice(0, MAX_ECHO)}…"` : whole))

type Path = ReadonlyArray<string | number>

/** Half of a surrogate pair on its own (as a `\\ud800` escape can make): not Unicode, and Postgres refuses it. */
const LONE_SURROGATE = /\p{Cs}/u

export const badText = (s: string): string | undefined =>
  s.includes("\u0000") ? "must not contain NUL characters" : LONE_SURROGATE.test(s) ? "must be valid Unicode (no lone surrogates)" : undefined

/** The first string or key holding a NUL or a lone surrogate, with what is wrong with it. */
const badPath = (u: unknown, path: Path): { path: Path; problem: string } | undefined => {
  if (typeof u === "string") {
    const problem = badText(u)
    return problem === undefined ? undefined : { path, problem }
  }
  if (Array.isArray(u)) {
    for (let i = 0; i < u.length; i++) {
      const found = badPath(u[i], [...path, i])
      if (found) return found
    }
    return undefined
  }
  if (typeof u === "object" && u !== null) {
    for (const k of Object.keys(u)) {
      const problem = badText(k)
      if (problem !== undefined) return { path: [...path, clip(k)], problem }
      const found = badPath((u as Record<string, unknown>)[k], [...path, k])
      if (found) return found
    }
  }
  return undefined
}

const fieldName = (path: Path) => path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("").replace(/^\./, "")

const refuse = (found: { path: Path; problem: string }) =>
  new BadRequest({
    code: found.path.length === 0 ? "invalid_body" : `invalid_${found.path[0]}`,
    message: `${fieldName(found.path) || "body"}: ${found.problem}`
  })

/** NUL characters and lone surrogates anywhere in a parsed body: 400 naming the field, the same for every operation. */
export const refuseBadText = (u: unknown): BadRequest | undefined => {
  const found = badPath(u, [])
  return found && refuse(found)
}

const decodes = (s: string) => {
  try {
    decodeURIComponent(s.replace(/\+/g, " "))
    return true
  } catch {
    return false
  }
}

/**
 * The same check for query parameters (name and value). A surrogate escaped in the query (%ED%A0%80) is not UTF-8, and
 * is refused the same way rather than read as U+FFFD.
 */
export const refuseBadQuery = (search: string, query: URLSearchParams): BadRequest | undefined => {
  if (search !== "" && !decodes(search)) {
    for (const part of search.split("&")) {
      const [k, v = ""] = part.split("=", 2)
      if (!decodes(k) || !decodes(v)) {
        return refuse({ path: [decodes(k) ? clip(decodeURIComponent(k.replace(/\+/g, " "))) : "query"], problem: "must be valid Unicode (UTF-8, no lone surrogates)" })
      }
    }
  }
  for (const [k, v] of query) {
    const problem = badText(k) ?? badText(v)
    if (problem !== undefined) return refuse({ path: [badText(k) === undefined ? k : clip(k.replace(/[^\x20-\x7e]/g, "?"))], problem })
  }
  return undefined
}

/** JSON with object keys sorted at every level: equal for the same data whatever order the keys came in. */
export const canonicalJson = (u: unknown): string => {
  if (Array.isArray(u)) return `[${u.map(canonicalJson).join(",")}]`
  if (typeof u === "object" && u !== null) {
    const keys = Object.keys(u).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((u as Record<string, unknown>)[k])}`).join(",")}}`
  }
  return JSON.stringify(u) ?? "null"
}

export type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: BadRequest }

/** A request body: JSON, at most MAX_DEPTH deep, no NUL or lone surrogate in any string. */
export const parseBody = (text: string): Parsed => {
  if (depthOver(text)) {
    return { ok: false, error: new BadRequest({ code: "invalid_json", message: `the body nests arrays and objects deeper than ${MAX_DEPTH} levels` }) }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, error: new BadRequest({ code: "invalid_json", message: "the body is not valid JSON: send a JSON document with Content-Type: application/json" }) }
  }
  const bad = refuseBadText(value)
  return bad ? { ok: false, error: bad } : { ok: true, value }
}
