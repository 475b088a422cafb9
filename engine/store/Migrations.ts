import { Migrator } from "@effect/sql"
import foundation from "./migrations/0001_foundation.ts"

/** Numbered migrations; the adapter's migrator runs what is new on start, in order, once. */
export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation
})
