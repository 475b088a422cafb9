import { stringify } from "csv-stringify/sync"

/** What spreadsheets need to read UTF-8 (Excel takes a file without it for the system's code page). */
export const BOM = "\uFEFF"

/** Rows as CSV lines (RFC 4180: CRLF line ends, a field with a comma, quote or line end quoted, quotes doubled). */
export const csvLines = (rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  rows.length === 0
    ? ""
    : stringify(rows as Array<Array<string>>, { record_delimiter: "\r\n", eof: true, quoted_match: /[\r\n]/ })
