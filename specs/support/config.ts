import { Option } from "effect"
import type { AppConfig } from "../../app/config.ts"

// The suites' app settings, apart from app.ts so that a bench can use them without loading vitest.

export const ADMIN_TOKEN = "test-admin-token-0123456789"

export const testConfig = (overrides: Partial<AppConfig> = {}): AppConfig => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.none(),
  dataDir: "",
  natsUrl: Option.none(),
  smtpUrl: Option.none(),
  mailFrom: "bookings@localhost",
  adminToken: Option.some(ADMIN_TOKEN),
  publicUrl: "http://127.0.0.1",
  logLevel: "error",
  webhookAllowInsecure: true,
  clock: "test",
  // Suites fire thousands of requests with one key; the rate limit suite turns limits on itself.
  rateLimit: 0,
  rateLimitAnonymous: 0,
  ...overrides
})
