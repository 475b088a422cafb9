/**
 * The baseline of bench/http.ts: node:http + a pg Pool (the engine's pool size, 20) serving the bytes the engine serves
 * for GET /api/v1/offerings/{id}, doing only the work no server can skip: the key's hash looked up and the offering read
 * by id and org, both as named prepared statements, on every request; the same row mapping (engine's toOffering).
 * No framework, no schemas, no cache.
 *
 * Run on its own: DATABASE_URL=postgres://... PORT=3200 npx tsx bench/bare-http.ts (over a database the engine
 * migrated; prints `ready <url>`).
 */
import { createHash } from "node:crypto"
import { createServer, type ServerResponse } from "node:http"
import pg from "pg"
import { pgTypes } from "../adapters/db/pgTypes.ts"
import { type OfferingRow, toOffering } from "../engine/services/offerings/row.ts"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, types: pgTypes })
/** The key lookup (the engine's text: a member's key carries the member's role, a removed member's reaches nothing). */
const AUTH = {
  name: "bare_auth",
  text: `select o.id, m.role, k.user_id is not null as member_key, k.kind
    from api_keys k join orgs o on o.id = k.org_id
    left join members m on m.user_id = k.user_id and m.org_id = k.org_id and m.removed_at is null
    where k.hash = $1 and k.revoked_at is null`
}
const OFFERING = {
  name: "bare_offering",
  text: "select * from offerings where id = $1::uuid and org_id = $2 and deleted_at is null"
}
const PREFIX = "/api/v1/offerings/"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const send = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}
const refuse = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, JSON.stringify({ error: { code, message } }))

const server = createServer(async (req, res) => {
  try {
    if (req.url === "/healthz") return send(res, 200, JSON.stringify({ status: "ok" }))
    if (req.method !== "GET" || !req.url?.startsWith(PREFIX)) return refuse(res, 404, "not_found", "no route")
    const id = req.url.slice(PREFIX.length)
    const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? ""
    const hash = createHash("sha256").update(key).digest("hex")
    const org = (await pool.query({ ...AUTH, values: [hash] })).rows[0]
    if (org === undefined || (org.member_key && org.role === null) || org.kind !== "secret")
      return refuse(res, 401, "unauthorized", "the API key is unknown or revoked")
    if (!UUID.test(id)) return refuse(res, 400, "invalid_id", "id must be a uuid")
    const row = (await pool.query<OfferingRow>({ ...OFFERING, values: [id, org.id] })).rows[0]
    if (row === undefined) return refuse(res, 404, "not_found", "offering not found")
    send(res, 200, JSON.stringify(toOffering(row)))
  } catch {
    refuse(res, 500, "internal_error", "something went wrong on our side")
  }
})
server.listen(Number(process.env.PORT ?? 3200), "127.0.0.1", () =>
  console.log(`ready http://127.0.0.1:${process.env.PORT ?? 3200}`)
)
