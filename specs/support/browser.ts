import { existsSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import axe from "axe-core"
import { type Browser, chromium, type Page } from "playwright-core"
import { expect } from "vitest"

/** Debian's Chromium; `npm test` installs it first when it can (scripts/chromium.mjs). Never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"

export const launch = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run \`apt-get install -y chromium\` (npm test does it when run as root)`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
  })
}

/**
 * axe-core on the page as it stands: no serious or critical violation (each one named when there are). It is
 * evaluated through the DevTools protocol, not added as an inline <script>, which the pages' CSP refuses.
 */
export const expectAccessible = async (page: Page) => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source)
  const result = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] })
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3)
    }))
  })
  expect(result.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([])
}

/**
 * Screenshots of a page at 1280 and 375 px wide: into docs/screenshots when SCREENSHOTS=1 (the README shows them),
 * else a scratch folder, so a test run leaves the working tree as it was.
 */
export const screenshots = async (page: Page, name: string) => {
  const dir =
    process.env.SCREENSHOTS === "1"
      ? join(process.cwd(), "docs", "screenshots")
      : join(tmpdir(), "booking-engine-screenshots")
  mkdirSync(dir, { recursive: true })
  const size = page.viewportSize() ?? { width: 1280, height: 900 }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize(size)
  // Readable at 375 px: nothing wider than the window, once a screen that lays itself out by the width (a media
  // query's listener, as the calendar's one-day view) has drawn again.
  await page.setViewportSize({ width: 320, height: 800 })
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 2_000 })
    .toBeLessThanOrEqual(320)
  await page.setViewportSize(size)
}

/**
 * Every Content-Security-Policy violation the page reports from now on (Chromium logs each to the console and fires
 * securitypolicyviolation): a page the engine serves must run under its own policy with none.
 */
export const cspViolations = (page: Page) => {
  const seen: Array<string> = []
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`)
  })
  return seen
}
