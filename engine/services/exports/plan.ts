import { Effect } from "effect"
import type { InvalidAfter } from "../../errors/index.ts"
import { EXPORT_PAGE_ROWS } from "../../schema/export.ts"

/** One page of an export's rows, each as its cells' text, and the cursor after its last row (none: the last page). */
export interface RowsPage {
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly next: string | undefined
}

export type PageRead = (after: string | undefined, size: number) => Effect.Effect<RowsPage, InvalidAfter>

/**
 * An export ready to be written: its columns and file name, its first page (read, so that a bad cursor is refused
 * before anything is written), and how to read the pages after it (a keyset read after a cursor, bound to the org it
 * was made for), which a transport asks for one at a time as it writes.
 */
export class CsvExport {
  constructor(
    readonly filename: string,
    readonly columns: ReadonlyArray<string>,
    readonly limit: number | undefined,
    readonly first: RowsPage,
    readonly page: PageRead
  ) {}
}

/** The first page of an export: EXPORT_PAGE_ROWS rows, or fewer when the limit is fewer. */
export const firstPage = (
  filename: string,
  columns: ReadonlyArray<string>,
  query: { readonly after?: string | undefined; readonly limit?: number | undefined },
  page: PageRead
) =>
  Effect.map(
    page(query.after, Math.min(EXPORT_PAGE_ROWS, query.limit ?? EXPORT_PAGE_ROWS)),
    (first) => new CsvExport(filename, columns, query.limit, first, page)
  )
