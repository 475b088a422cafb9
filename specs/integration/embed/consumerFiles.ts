/**
 * The sources of the consumer project consumer.test.ts installs the packed tarball into: its tsconfig (strict, no
 * skipLibCheck), a module that touches every entry point's types, the README's TypeScript blocks as written (the
 * typed client's reads its base URL from BOOKING_URL instead of the literal 127.0.0.1:3000), and a runner that
 * embeds the engine with Twilio and tracing options against the stand-ins the test starts, then runs the README's
 * client block against it.
 */

export const tsconfig = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    skipLibCheck: false,
    outDir: "out",
    rootDir: "src"
  },
  include: ["src"]
}

/** The README's ```ts blocks, in order, as files (the base URL of the client's block made BOOKING_URL). */
export const readmeBlocks = (readme: string) =>
  [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({
    name: `readme${i + 1}.ts`,
    text: `${m[1].replaceAll('"http://127.0.0.1:3000"', '(process.env.BOOKING_URL ?? "http://127.0.0.1:3000")')}\nexport {}\n`
  }))

/** Every entry point's types, as a strict consumer uses them (the layers' for teams on Effect). */
export const entryPoints = `import { createEngine, type EngineOptions, sign, verifySignature } from "booking-engine"
import { createClient, makeClient, NotFound, SoldOut, type Client } from "booking-engine/client"
import { AppLive, EmbeddedLive, EngineLive } from "booking-engine/layers"
import { sign as signToo } from "booking-engine/sdk"

const options: EngineOptions = { env: false, publicUrl: "http://127.0.0.1:3000", maxInflight: 8 }
export const uses = [createEngine, options, sign, signToo, verifySignature, createClient, makeClient, AppLive, EmbeddedLive, EngineLive]
export const codeOf = (e: unknown): string | undefined =>
  e instanceof NotFound || e instanceof SoldOut ? e.code : undefined
export type Offerings = Client["offerings"]
`

/** Embeds the engine with Twilio and tracing options (TWILIO_URL, OTLP_URL), texts a guest, then runs the README's client block. */
export const runner = (clientModule: string) => `import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createEngine } from "booking-engine"

const ADMIN = "consumer-admin-token-0123456789"
const PUBLIC_URL = "http://127.0.0.1/booking"
const engine = await createEngine({
  env: false,
  publicUrl: PUBLIC_URL,
  adminToken: ADMIN,
  clock: "test",
  logLevel: "warn",
  rateLimit: 0,
  twilio: { accountSid: process.env.TWILIO_SID!, authToken: process.env.TWILIO_TOKEN!, from: "+1 415 555 2671", apiUrl: process.env.TWILIO_URL! },
  tracing: { endpoint: process.env.OTLP_URL!, serviceName: "consumer-app" }
})
const host = createServer((req, res) => engine.handler(req, res))
await new Promise<void>((r) => host.listen(0, "127.0.0.1", r))
const base = \`http://127.0.0.1:\${(host.address() as AddressInfo).port}\`

const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> => {
  const res = await fetch(\`\${base}\${path}\`, {
    method,
    headers: { authorization: \`Bearer \${token}\`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

const org = await call("POST", "/admin/v1/orgs", ADMIN, { name: "Consumer", timezone: "UTC", currency: "EUR" })
const key: string = org.body.api_key.key
const offering = await call("POST", "/api/v1/offerings", key, { name: "Surf", kind: "class", capacity: 4 })
const now: string = (await call("GET", "/admin/v1/clock", ADMIN)).body.now
const startsAt = new Date(Date.parse(now) + 3 * 86_400_000).toISOString()
const session = await call("POST", "/api/v1/sessions", key, { offering_id: offering.body.id, starts_at: startsAt })
const booking = await call("POST", "/api/v1/bookings", key, {
  offering_id: offering.body.id,
  session_id: session.body.data[0].id,
  customer: { email: "ana@example.com", name: "Ana", phone: "+31 6 2000 0101" }
})
const message = await call("POST", "/api/v1/messages", key, { booking_id: booking.body.id, body: "Waves are good today.", channel: "text" })
console.log(JSON.stringify({ booking: booking.status, message: message.status }))
// The stand-ins say when the text and its span arrived; the test clock moves the background senders on meanwhile.
for (let i = 0; i < 60; i++) {
  const seen = (await (await fetch(\`\${process.env.OTLP_URL}/seen\`)).json()) as { texted: boolean; spans: Array<string> }
  if (seen.texted && seen.spans.includes("Texter.send")) break
  await call("POST", "/admin/v1/clock", ADMIN, { advance_seconds: 1 })
  await new Promise((r) => setTimeout(r, 250))
}

process.env.API_KEY = key
process.env.BOOKING_URL = base
await import("./${clientModule.replace(/\.ts$/, ".js")}")
await new Promise((r) => host.close(r))
await engine.stop()
process.exit(0)
`
