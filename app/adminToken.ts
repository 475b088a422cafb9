import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Option } from "effect"
import { ADMIN_TOKEN_MIN } from "./adminTokenRule.ts"
import type { AppConfig } from "./config.ts"

/**
 * The embedded default's admin token, so that a newcomer has the admin API the README uses (its mail box, reseller
 * keys): without DATABASE_URL and ADMIN_TOKEN, the first start on a new data dir makes one and keeps it in
 * DATA_DIR/admin-token (0600), and every later start reads it from there. `made` is the token made by this start.
 */
export const embeddedAdminToken = (config: AppConfig): { config: AppConfig; made?: string } => {
  if (Option.isSome(config.databaseUrl) || Option.isSome(config.adminToken) || config.dataDir === "") return { config }
  const file = join(config.dataDir, "admin-token")
  const withToken = (token: string) => ({ ...config, adminToken: Option.some(token) })
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim()
    if (token.length < ADMIN_TOKEN_MIN)
      throw new Error(`${file} must hold an admin token of at least ${ADMIN_TOKEN_MIN} characters`)
    return { config: withToken(token) }
  }
  if (existsSync(join(config.dataDir, "PG_VERSION"))) return { config }
  mkdirSync(config.dataDir, { recursive: true })
  const made = `adm_${randomBytes(24).toString("base64url")}`
  writeFileSync(file, `${made}\n`, { mode: 0o600, flag: "wx" })
  return { config: withToken(made), made }
}
