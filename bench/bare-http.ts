/**
 * The baseline for bench/http.ts: node:http + a pg Pool serving the bytes the engine serves for
 * GET /api/v1/offerings/{id} (the same two statements: the key lookup, then the offering; the same row mapping) and
 * GET /healthz. No framework, no schemas, no cache.
 *
 * Run on its own: DATABASE_URL=postgres://... PORT=3200 npx tsx bench/bare-http.ts (over a database the engine migrated).
 */
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"
import { pgTypes } from "../adapters/db/pgTypes.ts"
import { type OfferingRow, toOffering } from "../engine/services/offerings/row.ts"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, types: pgTypes })
const AUTH = `
        select o.*, k.id as key_id from api_keys k join orgs o on o.id = k.org_id
        where k.hash = $1 and k.revoked_at is null`
const OFFERING = `
          select * from offerings where id = $1::uuid and org_id = $2 and deleted_at is null
          `
const PREFIX = "/api/v1/offerings/"

const send = (res: import("node:http").ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const server = createServer(async (req, res) => {
  try {
    if (req.url === "/healthz") return send(res, 200, JSON.stringify({ status: "ok" }))
    if (req.method !== "GET" || !req.url?.startsWith(PREFIX))
      return send(res, 404, JSON.stringify({ error: { code: "not_found", message: "no route" } }))
    const key = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? ""
    const org = (await pool.query(AUTH, [createHash("sha256").update(key).digest("hex")])).rows[0]
    if (org === undefined)
      return send(
        res,
        401,
        JSON.stringify({ error: { code: "unauthorized", message: "the API key is unknown or revoked" } })
      )
    const row = (await pool.query<OfferingRow>(OFFERING, [req.url.slice(PREFIX.length), org.id])).rows[0]
    if (row === undefined)
      return send(res, 404, JSON.stringify({ error: { code: "not_found", message: "offering not found" } }))
    send(res, 200, JSON.stringify(toOffering(row)))
  } catch {
    send(res, 500, JSON.stringify({ error: { code: "internal_error", message: "something went wrong on our side" } }))
  }
})
server.listen(Number(process.env.PORT ?? 3200), "127.0.0.1", () =>
  console.log(`bare-http listening on ${process.env.PORT ?? 3200}`)
)
