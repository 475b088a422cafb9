// The console's first load on the demo data: a fresh embedded database seeded by the first `npm start` (the demo org:
// a yoga class with two weeks of times, a paid surf lesson), its owner signed in by a mailed link in Chromium, and
// the time from following the link to Today's agenda drawn (a cold browser cache, then a warm one). Run after
// `npm run build`: `tsx bench/console.ts`.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"

const PORT = 3917
const BASE = `http://localhost:${PORT}`
const TOKEN = "console-bench-admin-token-0123456789"
const dir = mkdtempSync(join(tmpdir(), "console-bench-"))

const start = (env: Record<string, string>) => {
  const p = spawn(process.execPath, ["dist/server.mjs"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dir,
      PUBLIC_URL: BASE,
      DATABASE_URL: "",
      NATS_URL: "",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  return p
}
const ready = async () => {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${BASE}/readyz`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error("the server did not become ready")
}
const stop = (p: ChildProcess) => new Promise<void>((r) => (p.once("exit", () => r()), p.kill("SIGTERM")))

// 1. The first start seeds the demo org (no ADMIN_TOKEN); 2. again with one, to add the owner and read the mail.
let server = start({ ADMIN_TOKEN: "" })
await ready()
await new Promise((r) => setTimeout(r, 2000))
await stop(server)
server = start({ ADMIN_TOKEN: TOKEN })
await ready()
const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${BASE}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  }).then((r) => r.json())
const orgs = await admin("GET", "/orgs")
const org = (orgs.data ?? orgs)[0]
await admin("POST", `/orgs/${org.id}/members`, { email: "owner@demo.example", role: "owner" })

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
})
const results: number[] = []
try {
  // Signed in once by the mailed link; each round is a new browser context (empty cache) holding that session.
  const first = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await first.newPage()
  await page.goto(`${BASE}/dashboard`)
  await page.getByLabel("Email").fill("owner@demo.example")
  await page.getByRole("button", { name: "Email me a sign-in link" }).click()
  await page.getByRole("heading", { name: "Check your mail" }).waitFor()
  const mail = await admin("GET", "/mail?to=owner@demo.example")
  const link = /(http\S+\/auth\/v1\/links\/\S+)/.exec(mail.data[0].text)![1]
  let started = Date.now()
  await page.goto(link)
  await page.locator("ul.agenda li").first().waitFor()
  results.push(Date.now() - started)
  const cookies = await first.cookies(BASE)
  for (let round = 0; round < 5; round++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await ctx.addCookies(cookies)
    const p = await ctx.newPage()
    started = Date.now()
    await p.goto(`${BASE}/dashboard`)
    await p.locator("ul.agenda li").first().waitFor()
    results.push(Date.now() - started)
    await ctx.close()
  }
} finally {
  await browser.close()
  await stop(server)
  rmSync(dir, { recursive: true, force: true })
}
const files = readdirSync("dist/console/assets").map((f) => readFileSync(join("dist/console/assets", f)))
const sorted = [...results].sort((a, b) => a - b)
console.log(
  `console bundle: ${(files.reduce((n, f) => n + f.length, 0) / 1024).toFixed(1)} KiB, ` +
    `${(files.reduce((n, f) => n + gzipSync(f).length, 0) / 1024).toFixed(1)} KiB gzipped (JS + CSS)`
)
console.log(
  `first load to Today's agenda drawn (the first round from the mailed link, then a fresh browser cache each round): ${results.join(", ")} ms; median ${sorted[Math.floor(sorted.length / 2)]} ms`
)
