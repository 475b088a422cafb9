/**
 * Text no field may hold, whatever surface it came through (REST, MCP, OCTO, OAuth, the guest's and checkout forms):
 * a NUL character, which Postgres refuses (a 500 if it got that far), or half of a surrogate pair on its own, which is
 * not Unicode and which the database would store as U+FFFD, so that two different values become one.
 */
const LONE_SURROGATE = /\p{Cs}/u

/** What is wrong with a string as text, or undefined when nothing is. */
export const badText = (s: string): string | undefined =>
  s.includes("\u0000")
    ? "must not contain NUL characters"
    : LONE_SURROGATE.test(s)
      ? "must be valid Unicode (no lone surrogates)"
      : undefined

export type TextPath = ReadonlyArray<string | number>

/** The first string or key of a parsed JSON value holding a NUL or a lone surrogate: where, and what is wrong with it. */
export const findBadText = (
  u: unknown,
  path: TextPath = []
): { readonly path: TextPath; readonly problem: string } | undefined => {
  if (typeof u === "string") {
    const problem = badText(u)
    return problem === undefined ? undefined : { path, problem }
  }
  if (Array.isArray(u)) {
    for (let i = 0; i < u.length; i++) {
      const found = findBadText(u[i], [...path, i])
      if (found) return found
    }
    return undefined
  }
  if (typeof u === "object" && u !== null) {
    for (const k of Object.keys(u)) {
      const problem = badText(k)
      if (problem !== undefined) return { path: [...path, k], problem }
      const found = findBadText((u as Record<string, unknown>)[k], [...path, k])
      if (found) return found
    }
  }
  return undefined
}

/** A path as a field name: `contact.fullName`, `unitItems[0].uuid`. */
export const fieldName = (path: TextPath) =>
  path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
    .join("")
    .replace(/^\./, "")
