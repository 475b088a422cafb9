/**
 * RFC 4180 CSV: comma separated, CRLF or LF line ends, fields in double quotes may hold commas, line
 * breaks and "" for a quote. A leading byte order mark is dropped; blank lines are not records.
 */
export const parseCsv = (text: string): { rows: Array<Array<string>> } | { error: string } => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  let wasQuoted = false
  const endRecord = () => {
    row.push(field)
    if (row.length > 1 || row[0] !== "" || wasQuoted) rows.push(row)
    row = []
    field = ""
    wasQuoted = false
  }
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (quoted) {
      if (c !== '"') {
        field += c
      } else if (s[i + 1] === '"') {
        field += '"'
        i++
      } else quoted = false
    } else if (c === '"') {
      if (field !== "") return { error: `a quote in the middle of an unquoted field (record ${rows.length + 1})` }
      quoted = true
      wasQuoted = true
    } else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++
      endRecord()
    } else field += c
  }
  if (quoted) return { error: "a quoted field is not closed" }
  if (field !== "" || row.length > 0 || wasQuoted) endRecord()
  return { rows }
}

export interface ImportRow {
  readonly email: string
  readonly name: string
  readonly phone: string
}

/** Reads the header (email required; name and phone optional; any order and case; other columns ignored). */
export const importRows = (text: string): { rows: ReadonlyArray<ImportRow> } | { error: string } => {
  const parsed = parseCsv(text)
  if ("error" in parsed) return parsed
  const [header, ...records] = parsed.rows
  if (header === undefined) return { error: "the CSV is empty; a header row naming an email column is required" }
  const names = header.map((h) => h.trim().toLowerCase())
  const col = (n: string) => names.indexOf(n)
  const [email, name, phone] = [col("email"), col("name"), col("phone")]
  if (email < 0) return { error: "the header row must name an email column" }
  const at = (r: ReadonlyArray<string>, i: number) => (i < 0 ? "" : (r[i] ?? "").trim())
  return { rows: records.map((r) => ({ email: at(r, email), name: at(r, name), phone: at(r, phone) })) }
}
