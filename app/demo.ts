import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Console, Effect, Option } from "effect"
import { Auth } from "../engine/services/auth/Auth.ts"
import { Owners } from "../engine/services/auth/Owners.ts"
import { Orgs } from "../engine/services/Orgs.ts"
import { demoOwnerEmail, rememberDemo } from "../engine/store/demoSite.ts"
import type { AppConfig } from "./config.ts"

/** A newcomer's first start: an empty embedded database and no ADMIN_TOKEN set get a demo org and its key. */
export const demoOrg = (config: AppConfig, adminTokenMade: string | undefined) =>
  Effect.gen(function* () {
    if (Option.isSome(config.databaseUrl) || Option.isSome(config.adminToken)) return
    const sql = yield* SqlClient.SqlClient
    const [{ n }] = yield* sql<{ n: number }>`select count(*)::int as n from orgs`
    if (n > 0) return yield* demoSignIn()
    const orgs = yield* Orgs
    const { org, api_key } = yield* orgs.create({
      name: "Demo",
      timezone: "Europe/Amsterdam",
      currency: "EUR",
      plan: "free"
    })
    const publishable = yield* orgs.createKey(org.id, { kind: "publishable", name: "demo page" })
    yield* rememberDemo(sql, org.id, publishable.key)
    yield* (yield* Owners).welcome(org.id, org.name, DEMO_OWNER)
    yield* Effect.promise(() => seedDemo(`http://${config.host}:${config.port}`, api_key.key)).pipe(
      Effect.catchAllDefect((e) => Effect.logWarning(`the demo offerings could not be made: ${String(e)}`))
    )
    yield* Console.log(
      `\nDemo org ${org.id} created. Its API key (shown once):\n\n  ${api_key.key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${api_key.key}" ${config.publicUrl}/api/v1/offerings\n` +
        `Or book as a guest: open ${config.publicUrl}/demo\n` +
        (adminTokenMade === undefined
          ? ""
          : `\nThe admin API's token (kept in ${join(config.dataDir, "admin-token")}):\n\n  ${adminTokenMade}\n\n` +
            `Read the demo's mail: curl -H "Authorization: Bearer ${adminTokenMade}" "${config.publicUrl}/admin/v1/mail?to=you@example.com"\n`)
    )
    yield* demoSignIn()
  }).pipe(Effect.orDie)

/** The demo org's owner (docs/auth.md): `npm start` prints a one-time link that signs them in to the console. */
const DEMO_OWNER = "owner@demo.example"

/** At every start of the embedded demo: a sign-in link for the demo owner, working once, for a day. */
const demoSignIn = () =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const owner = yield* demoOwnerEmail(sql)
    if (owner === undefined) return
    const link = yield* (yield* Auth).ticket(owner, 24)
    yield* Console.log(`Sign in to the console as the demo owner (${owner}), once, within a day:\n\n  ${link}\n`)
  })

/** The demo org's offerings, made through its own API: a free class with a week of sessions and a paid appointment. */
const seedDemo = async (base: string, key: string) => {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<{ id: string }>
  }
  await call("PUT", "/waiver", { text: "I take part at my own risk and follow the instructor's directions." })
  const yoga = await call("POST", "/offerings", {
    name: "Morning yoga",
    kind: "class",
    capacity: 8,
    duration_minutes: 60,
    location: "Studio 1, Prinsengracht 100, Amsterdam",
    lat: 52.3731,
    lon: 4.8838,
    waitlist_enabled: true,
    description: "A gentle hour to start the day. Mats provided."
  })
  const today = new Date().toISOString().slice(0, 10)
  const end = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10)
  await call("POST", "/series", {
    offering_id: yoga.id,
    starts_on: today,
    ends_on: end,
    start_time: "09:00",
    end_time: "10:00",
    repeat: "daily"
  })
  const surf = await call("POST", "/offerings", {
    name: "Surf lesson",
    kind: "appointment",
    price_cents: 4500,
    duration_minutes: 90,
    capacity: 1,
    max_per_booking: 4,
    guest_price_cents: 3000,
    location: "Zandvoort beach",
    lat: 52.3738,
    lon: 4.5273,
    waiver_required: true,
    min_notice_minutes: 120,
    questions: [
      { label: "Have you surfed before?", type: "yes_no" },
      { label: "Wetsuit size", type: "choice", options: ["S", "M", "L", "XL"], required: true }
    ]
  })
  // Open daily 9:00 to 17:00 (org time), the default hours.
  await call("PATCH", `/offerings/${surf.id}`, { schedule: "hours" })
}
