// Before `npm test`: the browser suites drive Debian's Chromium (/usr/bin/chromium), never a downloaded browser.
// When it is missing and this runs as root with apt-get, it is installed; otherwise one line says how.
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === "function" && process.getuid() === 0
  if (root && existsSync("/usr/bin/apt-get")) {
    process.stderr.write(`${CHROMIUM} is missing: installing Debian's chromium for the browser tests\n`)
    const apt = (args) =>
      execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } })
    try {
      apt(["install", "-y", "-q", "chromium"])
    } catch {
      apt(["update", "-q"])
      apt(["install", "-y", "-q", "chromium"])
    }
  } else {
    process.stderr.write(
      `${CHROMIUM} is missing and the browser tests need it: run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH)\n`
    )
  }
}
