import { badText, fieldName, findBadText, type TextPath } from "../../engine/schema/text.ts"
import { BadRequest } from "./errors.ts"

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
  message.replace(/"((?:[^"\\]|\\.)*)"/g, (whole, inner: string) =>
    inner.length > MAX_ECHO ? `"${inner.slice(0, MAX_ECHO)}…"` : whole
  )

type Path = TextPath

export { badText }

/** A name as a message may quote it (never a code): control characters and lone surrogates as "?", clipped. */
export const printable = (s: string) => clip(s.replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, "?"))

const printablePath = (path: Path): Path => path.map((p) => (typeof p === "string" ? printable(p) : p))

/** The 400 codes an operation documents (its `x-error-codes`): a refusal answers one of them and nothing else. */
export type Documented = ReadonlySet<string>

/**
 * The code of a refusal that names `field` (what was sent: any string): `invalid_<field>` only when the operation
 * documents that code, so never a code made of what a client chose to send; else the first of `generic` it documents
 * (the last when it documents none, or when the operation is not known).
 */
export const codeFor = (
  documented: Documented | undefined,
  field: string | undefined,
  generic: ReadonlyArray<string>
): string => {
  if (field !== undefined && documented?.has(`invalid_${field}`)) return `invalid_${field}`
  return (documented === undefined ? generic[0] : generic.find((c) => documented.has(c))) ?? generic[generic.length - 1]
}

/** Bad text in a body: its top-level field's code, else the body's (a key the operation does not take is unknown). */
const refuse = (found: { path: Path; problem: string }, documented: Documented | undefined) =>
  new BadRequest({
    code:
      found.path.length === 0
        ? codeFor(documented, undefined, ["invalid_body", "invalid_json"])
        : codeFor(documented, String(found.path[0]), ["unknown_field", "invalid_body", "invalid_json"]),
    message: `${fieldName(printablePath(found.path)) || "body"}: ${found.problem}`
  })

/** NUL characters and lone surrogates anywhere in a parsed body: 400 naming the field, the same for every operation. */
export const refuseBadText = (u: unknown, documented?: Documented): BadRequest | undefined => {
  const found = findBadText(u)
  return found && refuse(found, documented)
}

/** A %-encoded URL part (a path segment, a query name or value; `+` is a space in a query) decoded, or undefined when its %-encoding is not UTF-8. */
export const decodeUrlPart = (s: string, plusIsSpace = false): string | undefined => {
  try {
    return decodeURIComponent(plusIsSpace ? s.replace(/\+/g, " ") : s)
  } catch {
    return undefined
  }
}

/** A path segment as text: decoded, or why it cannot be (%-encoding that is not UTF-8, a NUL, a lone surrogate). */
export const pathSegment = (
  raw: string
): { readonly ok: true; readonly value: string } | { readonly ok: false; readonly problem: string } => {
  const value = decodeUrlPart(raw)
  if (value === undefined) return { ok: false, problem: "must be valid UTF-8 %-encoding" }
  const problem = badText(value)
  return problem === undefined ? { ok: true, value } : { ok: false, problem }
}

const QUERY_UNICODE = "must be valid Unicode (UTF-8, no lone surrogates)"

/**
 * The first query parameter (of `search`, without its `?`; a form body is the same) that is not text: its %-encoding
 * is not UTF-8 (a surrogate escaped as %ED%A0%80, which would otherwise be read as U+FFFD), or it holds a NUL or a
 * lone surrogate. `name` is the parameter's name as sent (quote it with printable()), or undefined when the name is
 * not UTF-8.
 */
export const findBadQuery = (
  search: string
): { readonly name: string | undefined; readonly problem: string } | undefined => {
  if (search === "") return undefined
  for (const part of search.split("&")) {
    const eq = part.indexOf("=")
    const k = decodeUrlPart(eq === -1 ? part : part.slice(0, eq), true)
    const v = eq === -1 ? "" : decodeUrlPart(part.slice(eq + 1), true)
    if (k === undefined) return { name: undefined, problem: QUERY_UNICODE }
    const bad = badText(k)
    if (bad !== undefined) return { name: k, problem: bad }
    if (v === undefined) return { name: k, problem: QUERY_UNICODE }
    const problem = badText(v)
    if (problem !== undefined) return { name: k, problem }
  }
  return undefined
}

/**
 * The same check for query parameters (name and value). A surrogate escaped in the query (%ED%A0%80) is not UTF-8, and
 * is refused the same way rather than read as U+FFFD.
 */
export const refuseBadQuery = (search: string, documented?: Documented): BadRequest | undefined => {
  const found = findBadQuery(search)
  return (
    found &&
    new BadRequest({
      code: codeFor(documented, found.name, ["invalid_query"]),
      message: `${found.name === undefined ? "query" : printable(found.name)}: ${found.problem}`
    })
  )
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

/** A request body: JSON, at most MAX_DEPTH deep, no NUL or lone surrogate in any string (codes from `documented`). */
export const parseBody = (text: string, documented?: Documented): Parsed => {
  if (depthOver(text)) {
    return {
      ok: false,
      error: new BadRequest({
        code: "invalid_json",
        message: `the body nests arrays and objects deeper than ${MAX_DEPTH} levels`
      })
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return {
      ok: false,
      error: new BadRequest({
        code: "invalid_json",
        message: "the body is not valid JSON: send a JSON document with Content-Type: application/json"
      })
    }
  }
  const bad = refuseBadText(value, documented)
  return bad ? { ok: false, error: bad } : { ok: true, value }
}
