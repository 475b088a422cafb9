import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { waitFor } from "../../support/receiver.ts"
import { browser, mailsTo, teamOrg } from "./helpers.ts"

// Asking for a sign-in link must not tell, by what the engine does before it answers, whether the email is on a
// team. The probe: the engine's own trace of the request (an OTLP/HTTP collector stand-in records the spans), which
// names every statement it sent to the database beneath the service's span.
interface Span {
  name: string
  traceId: string
  spanId: string
  parentSpanId?: string
  attributes?: ReadonlyArray<{ key: string; value: { stringValue?: string } }>
}
const spans: Span[] = []
let collector: Server
let app: TestApp
beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const doc = JSON.parse(body)
        for (const rs of doc.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans)
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r))
  app = await startApp({ otelEndpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}` })
})
afterAll(async () => {
  await app?.close()
  await new Promise((r) => collector.close(r))
})

/** The spans beneath one, depth first, as name and (for a statement) its text. */
const beneath = (root: Span): ReadonlyArray<string> =>
  spans
    .filter((s) => s.parentSpanId === root.spanId && s.traceId === root.traceId)
    .flatMap((s) => {
      const text = s.attributes?.find((a) => a.key === "db.query.text")?.value.stringValue
      return [text === undefined ? s.name : `${s.name}: ${text.replace(/\s+/g, " ")}`, ...beneath(s)]
    })

/** Asks for a link and returns what the service did for it: its span's subtree. */
const work = async (email: string) => {
  const seen = new Set(spans.filter((s) => s.name === "Auth.requestLink").map((s) => s.spanId))
  expect((await browser(app).request("POST", "/auth/v1/links", { email })).status).toBe(202)
  let root: Span | undefined
  await waitFor(
    () => (root = spans.find((s) => s.name === "Auth.requestLink" && !seen.has(s.spanId))) !== undefined,
    30_000,
    "the Auth.requestLink span"
  )
  // Child spans end (and are exported) before their parent: once the root is here, its subtree is.
  return beneath(root!)
}

const links = () => sql(app, (s) => s<{ n: number }>`select count(*)::int as n from sign_in_links`).then((r) => r[0].n)

describe("asking for a sign-in link: the same work for an email on a team and one that is not", () => {
  it("runs the same statements in the same order, and writes one link row either way", async () => {
    const org = await teamOrg(app, "samework")
    // Warm both ways once (a first statement may prepare or plan what later ones reuse).
    await work(org.owner)
    await work("warm-nobody@example.com")
    const before = await links()
    const known = await work(org.staff)
    const afterKnown = await links()
    const unknown = await work("nobody-samework@example.com")
    const afterUnknown = await links()
    expect(known.some((s) => s.includes("insert into sign_in_links"))).toBe(true)
    expect(unknown).toEqual(known)
    expect([afterKnown - before, afterUnknown - afterKnown]).toEqual([1, 1])
    // What differs is inside the database only: the member gets the mail, the stranger none, and no row of the
    // stranger's names them or can be used (expired as it is written).
    expect(await mailsTo(app, org.staff)).toHaveLength(1)
    expect(await mailsTo(app, "nobody-samework@example.com")).toEqual([])
    const stored = await sql(
      app,
      (s) => s<{ n: number }>`select count(*)::int as n from sign_in_links where email like '%nobody%'
        or (email = '' and expires_at > created_at)`
    )
    expect(stored[0].n).toBe(0)
  })
})
