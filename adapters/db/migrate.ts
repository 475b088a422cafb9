import { PgMigrator } from "@effect/sql-pg"
import { Layer } from "effect"
import { migrations } from "../../engine/store/Migrations.ts"

export const MigrateLive = PgMigrator.layer({ loader: migrations }).pipe(Layer.orDie)
