import { PgClient } from "@effect/sql-pg"
import { Redacted } from "effect"
import { pgTypes } from "./pgTypes.ts"

export const PostgresLive = (url: string, maxConnections = 20) =>
  PgClient.layer({ url: Redacted.make(url), maxConnections, types: pgTypes, applicationName: "booking-engine" })
