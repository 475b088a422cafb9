import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ACCOUNT_SID, AUTH_TOKEN, startTwilioServer } from "../texts/twilioServer.ts"
import { entryPoints, readmeBlocks, runner, tsconfig } from "./consumerFiles.ts"

/**
 * A consumer project as a platform team makes one: the packed tarball (`npm pack`; the run's globalSetup built dist,
 * the types are built here if missing) installed with npm into an empty folder, next to only what the README says to
 * install (@types/node, @types/pg for `booking-engine/layers`, express for its example); `--engine-strict`, so a
 * dependency that asks for another Node than this one fails the install. Then its strict tsc (no skipLibCheck) over
 * every entry point and the README's TypeScript blocks, and a run: createEngine with Twilio and tracing options
 * against a local Twilio stand-in and a local OTLP/HTTP receiver, and the README's typed-client example.
 */
const run = promisify(execFile)
const root = join(import.meta.dirname, "../../..")
const README = readFileSync(join(root, "README.md"), "utf8")
const app = mkdtempSync(join(tmpdir(), "be-consumer-"))
const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>
}
const blocks = readmeBlocks(README)
const clientBlock = blocks.find((b) => b.text.includes('from "booking-engine/client"'))

let twilio: Awaited<ReturnType<typeof startTwilioServer>>
let collector: Server
const spans: Array<string> = []
const services = new Set<string>()

beforeAll(async () => {
  twilio = await startTwilioServer()
  collector = createServer((req, res) => {
    let body = ""
    req.on("data", (c) => (body += c))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        for (const rs of JSON.parse(body).resourceSpans ?? []) {
          for (const a of rs.resource?.attributes ?? []) if (a.key === "service.name") services.add(a.value.stringValue)
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push(s.name)
        }
      }
      const texted = twilio.calls.some((c) => c.form.To === "+31620000101")
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(req.url === "/seen" ? JSON.stringify({ texted, spans }) : "{}")
    })
  })
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r))

  if (!existsSync(join(root, "dist/types/layers.d.ts")))
    await run("npx", ["tsc", "-p", "tsconfig.types.json"], { cwd: root, timeout: 240_000 })
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", app], {
    cwd: root,
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024
  })
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>
  const pin = (name: string) => rootPkg.devDependencies[name]
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: {
        "booking-engine": `file:./${packed.filename}`,
        express: pin("express"),
        "@types/express": pin("@types/express"),
        "@types/node": pin("@types/node"),
        "@types/pg": pin("@types/pg")
      }
    })
  )
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--engine-strict"], {
    cwd: app,
    timeout: 400_000,
    maxBuffer: 64 * 1024 * 1024
  })
  mkdirSync(join(app, "src"))
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify(tsconfig))
  writeFileSync(join(app, "src/entryPoints.ts"), entryPoints)
  for (const b of blocks) writeFileSync(join(app, "src", b.name), b.text)
  if (clientBlock !== undefined) writeFileSync(join(app, "src/run.ts"), runner(clientBlock.name))
}, 600_000)

afterAll(async () => {
  await twilio?.close()
  if (collector) await new Promise((r) => collector.close(r))
  rmSync(app, { recursive: true, force: true })
})

describe("a consumer project on the packed tarball", () => {
  it("installs on this Node with nothing asking for another (engine-strict); npm ls finds no problem", async () => {
    const ls = await run("npm", ["ls", "--all", "--omit=dev"], { cwd: app, maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { stdout: string; stderr: string }) => ({ code: 1, out: `${e.stdout}\n${e.stderr}` })
    )
    expect(ls.code, ls.out).toBe(0)
    expect(ls.out).toContain("booking-engine@")
    expect(existsSync(join(app, "node_modules/@types/emscripten"))).toBe(false)
  })

  it("its strict tsc (skipLibCheck false) passes on every entry point and the README's TypeScript blocks", async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2)
    expect(clientBlock?.text).toContain("e.code")
    const tsc = join(root, "node_modules/typescript/bin/tsc")
    const out = await run(process.execPath, [tsc, "-p", app], { cwd: app, timeout: 300_000 }).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout
    )
    expect(out).toBe("")
  }, 300_000)

  it("createEngine with Twilio and tracing options texts through the stand-in and exports spans; the README's client example runs", async () => {
    const { stdout } = await run(process.execPath, [join(app, "out/run.js")], {
      cwd: app,
      timeout: 240_000,
      env: {
        PATH: process.env.PATH ?? "",
        TWILIO_SID: ACCOUNT_SID,
        TWILIO_TOKEN: AUTH_TOKEN,
        TWILIO_URL: twilio.url,
        OTLP_URL: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
      }
    })
    expect(stdout).toContain(`{"booking":201,"message":201}`)
    const call = twilio.calls.find((c) => c.form.To === "+31620000101")
    expect(call?.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`)
    expect(call?.form).toMatchObject({ From: "+14155552671", Body: "Waves are good today." })
    expect(spans).toContain("Texter.send")
    expect(spans).toContain("bookings.create")
    expect([...services]).toEqual(["consumer-app"])
    // The README's client block prints what its comments say: one booking listed, then the typed NotFound's code.
    expect(stdout).toContain("\n1\nnot_found booking not found\n")
  }, 300_000)
})
