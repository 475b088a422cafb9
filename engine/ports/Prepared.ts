import type { SqlError } from "@effect/sql/SqlError"
import { Context, type Effect } from "effect"

/** A statement the database prepares once per connection and runs by name: for the hottest paths only. */
export interface PreparedStatement {
  readonly name: string
  readonly text: string
}

/**
 * Runs a named prepared statement with positional values ($1, $2...): inside the caller's open transaction when
 * there is one, else on its own (one round trip, its own transaction). Rows come back typed as the pool types them
 * (timestamps as Date, int8 as number, dates as text).
 */
export class Prepared extends Context.Tag("Prepared")<
  Prepared,
  {
    readonly run: <A = Record<string, unknown>>(
      statement: PreparedStatement,
      values: ReadonlyArray<unknown>
    ) => Effect.Effect<ReadonlyArray<A>, SqlError>
  }
>() {}
