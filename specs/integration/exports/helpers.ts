import { parse } from "csv-parse/sync"
import { expect } from "vitest"
import type { TestApp } from "../../support/app.ts"

export const BOM = [0xef, 0xbb, 0xbf]

/** GET an export as a client downloads it: the status, headers, the raw bytes and, for a 200, its rows parsed. */
export const download = async (app: TestApp, key: string, path: string) => {
  const res = await fetch(`${app.url}/api/v1/exports/${path}`, { headers: { authorization: `Bearer ${key}` } })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)
  if (res.status !== 200) return { status: res.status, headers: res.headers, bytes, text, json: JSON.parse(text) }
  const records: Array<Array<string>> = parse(text, { bom: true, relax_column_count: false })
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    text,
    json: undefined,
    header: records[0],
    rows: records.slice(1).map((r) => Object.fromEntries(records[0].map((k, i) => [k, r[i]])))
  }
}

/** An owner's download that must succeed: UTF-8 with its BOM, CRLF, text/csv, an attachment. */
export const csv = async (app: TestApp, key: string, path: string) => {
  const got = await download(app, key, path)
  expect(got.status, got.text.slice(0, 300)).toBe(200)
  expect(got.headers.get("content-type")).toBe("text/csv; charset=utf-8")
  expect(got.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.csv"$/)
  expect([...got.bytes.slice(0, 3)]).toEqual(BOM)
  expect(got.text.endsWith("\r\n")).toBe(true)
  return got as typeof got & { header: Array<string>; rows: Array<Record<string, string>> }
}

/** A staff member's own key in the org (owners only may export). */
export const staffKey = async (app: TestApp, org: { id: string; key: string }, email: string) => {
  expect((await app.admin("POST", `/orgs/${org.id}/members`, { email, role: "staff" })).status).toBe(201)
  const team = (await app.call(org.key, "GET", "/api/v1/team")).body.data as Array<{ email: string; user_id: string }>
  const userId = team.find((m) => m.email === email)!.user_id
  return (await app.call(org.key, "POST", "/api/v1/api_keys", { user_id: userId })).body.key as string
}
