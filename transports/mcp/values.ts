/** Small helpers over the JSON the MCP endpoint reads. */

export const none = (): undefined => undefined

export const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => isObject(m) && m.method === "initialize")

export const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}
export const isObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)
