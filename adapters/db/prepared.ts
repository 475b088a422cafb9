import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, Option } from "effect"
import pg from "pg"
import { Prepared, type PreparedStatement } from "../../engine/ports/Prepared.ts"
import { PgPool } from "./pool.ts"

type Queryable = Pick<pg.ClientBase, "query">

/** The pg client of the caller's open @effect/sql transaction, if any (sql-pg's connection keeps it as `pg`). */
const transactionClient = Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), (open) =>
  Option.flatMapNullable(open, ([connection]) => (connection as { readonly pg?: Queryable }).pg)
)

const run = <A>(client: Queryable, statement: PreparedStatement, values: ReadonlyArray<unknown>, named = true) =>
  new Promise<ReadonlyArray<A>>((resolve, reject) => {
    client.query(
      // Unnamed (DB_PREPARED_STATEMENTS=false): parsed and planned on each run, as a transaction pooler needs.
      { ...(named ? { name: statement.name } : {}), text: statement.text, values: values as Array<unknown> },
      (err: Error | undefined, res: pg.QueryResult) => (err ? reject(err) : resolve(res.rows as ReadonlyArray<A>))
    )
  })

/** PGlite serves one session to every connection: a statement prepared by an earlier connection is still there. */
const alreadyPrepared = (err: unknown) => err instanceof pg.DatabaseError && err.code === "42P05"

/**
 * Named statements on a pooled connection (or the open transaction's), bypassing the statement compiler. An error
 * the server reports (a refusal, a constraint) leaves the connection in the pool; only a broken one is dropped
 * (pool.query would drop the connection on any error, and with it every statement prepared on it).
 */
export const PreparedLive = Layer.effect(
  Prepared,
  Effect.map(PgPool, ({ pool, named }) => {
    const onPool = async <A>(statement: PreparedStatement, values: ReadonlyArray<unknown>) => {
      const client = await pool.connect()
      try {
        const rows = await run<A>(client, statement, values, named).catch(async (err: unknown) => {
          if (!alreadyPrepared(err)) throw err
          await client.query(`deallocate ${pg.escapeIdentifier(statement.name)}`)
          return run<A>(client, statement, values, named)
        })
        client.release()
        return rows
      } catch (err) {
        client.release(
          err instanceof pg.DatabaseError ? undefined : err instanceof Error ? err : new Error(String(err))
        )
        throw err
      }
    }
    return {
      run: <A>(statement: PreparedStatement, values: ReadonlyArray<unknown>) =>
        Effect.flatMap(transactionClient, (client) =>
          Effect.tryPromise({
            try: () =>
              Option.match(client, {
                onNone: () => onPool<A>(statement, values),
                onSome: (c) => run<A>(c, statement, values, named)
              }),
            catch: (cause) =>
              new SqlError({
                cause,
                message: `${statement.name}: ${cause instanceof Error ? cause.message : String(cause)}`
              })
          })
        )
    }
  })
)
