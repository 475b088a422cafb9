import { Effect, Runtime } from "effect"
import { EXPORT_PAGE_ROWS, MCP_EXPORT_ROWS } from "../../engine/schema/export.ts"
import type { Surface } from "../../engine/services/CurrentOrg.ts"
import type { CsvExport, RowsPage } from "../../engine/services/exports/plan.ts"
import { BOM, csvLines } from "../shared/csv.ts"
import { JSON_CONTENT, type Reply } from "../shared/reply.ts"

export const CSV_CONTENT = "text/csv; charset=utf-8"

/** What the dispatcher answers for an export: its status, type and body, or the body as it comes, with its headers. */
export interface ExportAnswer {
  readonly status: number
  readonly contentType: string
  readonly body: string
  readonly headers?: Record<string, string>
  readonly stream?: AsyncIterable<string>
  readonly store: boolean
}

/**
 * The rows after `after`, a page at a time until `limit` rows or the last page, each page asked for only when the
 * one before was taken (a generator pulled by its reader), from the export's first page, already read.
 */
export async function* pages(
  plan: CsvExport,
  read: (after: string, size: number) => Promise<RowsPage>
): AsyncGenerator<string> {
  let page = plan.first
  let left = plan.limit === undefined ? Number.POSITIVE_INFINITY : plan.limit - page.rows.length
  yield `${BOM}${csvLines([plan.columns, ...page.rows])}`
  while (page.next !== undefined && left > 0) {
    page = await read(page.next, Math.min(EXPORT_PAGE_ROWS, left))
    left -= page.rows.length
    if (page.rows.length > 0) yield csvLines(page.rows)
  }
}

/**
 * REST: the file, streamed (text/csv, UTF-8 with a BOM, CRLF, one header line, an attachment named for the org and
 * its dates); its first page was read before the answer starts, so a refusal is still a JSON error. MCP: one answer
 * of at most MCP_EXPORT_ROWS rows as JSON { csv, rows, next }.
 */
export const exportAnswer = (plan: CsvExport, surface: Surface) =>
  Effect.gen(function* () {
    if (surface === "mcp") {
      const want = Math.min(plan.limit ?? MCP_EXPORT_ROWS, MCP_EXPORT_ROWS)
      const rows: Array<ReadonlyArray<string>> = [...plan.first.rows]
      let next = plan.first.next
      while (next !== undefined && rows.length < want) {
        const page = yield* plan.page(next, Math.min(EXPORT_PAGE_ROWS, want - rows.length))
        rows.push(...page.rows)
        next = page.next
      }
      const body = { csv: csvLines([plan.columns, ...rows]), rows: rows.length, next: next ?? null }
      return { status: 200, contentType: JSON_CONTENT, body: JSON.stringify(body), store: false } as ExportAnswer
    }
    const run = Runtime.runPromise(yield* Effect.runtime<never>())
    const stream = pages(plan, (after, size) =>
      run(plan.page(after, size).pipe(Effect.tapErrorCause((cause) => Effect.logError("export cut short", cause))))
    )
    return {
      status: 200,
      contentType: CSV_CONTENT,
      body: "",
      headers: {
        "content-disposition": `attachment; filename="${plan.filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff"
      },
      stream,
      store: false
    } as ExportAnswer
  })

/** An operation's answer as the reply written: a replay of an Idempotency-Key says so; an export keeps its stream. */
export const toReply = (r: Omit<ExportAnswer, "store">, replayed: boolean): Reply => ({
  status: r.status,
  headers: replayed
    ? { "content-type": r.contentType, "idempotent-replayed": "true" }
    : { ...r.headers, "content-type": r.contentType },
  body: r.body,
  ...(r.stream === undefined ? {} : { stream: r.stream })
})
