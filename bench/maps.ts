import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import sourceMap from "source-map-js"

/**
 * Maps a profile's frame (the built file's URL, 0-based line and column) back to the source, through that file's own
 * source map: dist/server.mjs and each of dist/chunks/*.mjs has one. Undefined for a frame outside a built file.
 */
export const sourceMapper = () => {
  const maps = new Map<string, sourceMap.SourceMapConsumer | null>()
  return (
    url: string,
    line: number,
    column: number
  ): { readonly source: string; readonly line: number } | undefined => {
    if (!url.endsWith(".mjs")) return undefined
    let map = maps.get(url)
    if (map === undefined) {
      const file = `${url.startsWith("file:") ? fileURLToPath(url) : url}.map`
      map = existsSync(file) ? new sourceMap.SourceMapConsumer(JSON.parse(readFileSync(file, "utf8"))) : null
      maps.set(url, map)
    }
    if (map === null) return undefined
    const p = map.originalPositionFor({ line: line + 1, column })
    return { source: (p.source ?? "?").replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, ""), line: p.line ?? 0 }
  }
}
