import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { transaction } from "../../../engine/store/transaction.ts"
import { startPinned, type TestApp } from "./helpers.ts"

// The rules of engine/store/transaction.ts, on whichever database the suite runs: what runs again, how often, and
// that a try's writes are gone. Postgres's own deadlocks are staged in deadlocks.pg.test.ts.

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
  await run((sql) => sql`create table tx_probe (try int not null)`)
})
afterAll(() => app?.close())

const run = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  app.runtime.runPromiseExit(Effect.flatMap(SqlClient.SqlClient, f))
const deadlock = new SqlError({
  cause: { code: "40P01", message: "deadlock detected" },
  message: "Failed to execute statement"
})
const unique = new SqlError({
  cause: { code: "23505", message: "duplicate key" },
  message: "Failed to execute statement"
})

/** A body that writes its try's number, then ends as `ending(try)` tells (undefined: succeeds). */
const probe = (sql: SqlClient.SqlClient, ending: (n: number) => "fail" | "die" | "unique" | undefined) => {
  let tries = 0
  const body = Effect.gen(function* () {
    const n = ++tries
    yield* sql`insert into tx_probe (try) values (${n})`
    const end = ending(n)
    if (end === "fail") return yield* Effect.fail(deadlock)
    if (end === "die") return yield* Effect.die(deadlock)
    if (end === "unique") return yield* Effect.die(unique)
    return n
  })
  return { body, tries: () => tries }
}

const kept = () =>
  run((sql) =>
    Effect.flatMap(sql<{ try: number }>`delete from tx_probe returning try`, (rows) =>
      Effect.succeed(rows.map((r) => r.try))
    )
  )

describe("a transaction that Postgres ends to break a deadlock", () => {
  it("runs again when the deadlock is its error or a statement's defect, and keeps only the last try's writes", async () => {
    let tries = 0
    const exit = await run((sql) => {
      const p = probe(sql, (n) => (n === 1 ? "die" : n === 2 ? "fail" : undefined))
      return Effect.ensuring(
        transaction(sql)(p.body),
        Effect.sync(() => (tries = p.tries()))
      )
    })
    expect([Exit.isSuccess(exit) && exit.value, tries]).toEqual([3, 3])
    expect(Exit.getOrElse(await kept(), () => [])).toEqual([3])
  })

  it("gives up after three more tries, with the deadlock, and keeps nothing", async () => {
    let tries = 0
    const exit = await run((sql) => {
      const p = probe(sql, () => "die")
      return Effect.ensuring(
        transaction(sql)(p.body),
        Effect.sync(() => (tries = p.tries()))
      )
    })
    expect(tries).toBe(4)
    expect(Exit.isFailure(exit) ? (Cause.squash(exit.cause) as SqlError).cause : exit.value).toEqual({
      code: "40P01",
      message: "deadlock detected"
    })
    expect(Exit.getOrElse(await kept(), () => [])).toEqual([])
  })

  it("does not run again for any other error", async () => {
    let tries = 0
    const exit = await run((sql) => {
      const p = probe(sql, () => "unique")
      return Effect.ensuring(
        transaction(sql)(p.body),
        Effect.sync(() => (tries = p.tries()))
      )
    })
    expect([Exit.isFailure(exit), tries]).toEqual([true, 1])
    expect(Exit.getOrElse(await kept(), () => [])).toEqual([])
  })

  it("inside another transaction runs once: the outer one runs again, with it", async () => {
    let inner = 0
    let outer = 0
    const exit = await run((sql) => {
      const p = probe(sql, (n) => (n === 1 ? "die" : undefined))
      const body = Effect.gen(function* () {
        outer++
        yield* sql`insert into tx_probe (try) values (${100 + outer})`
        return yield* transaction(sql)(p.body)
      })
      return Effect.ensuring(
        transaction(sql)(body),
        Effect.sync(() => (inner = p.tries()))
      )
    })
    expect([Exit.isSuccess(exit) && exit.value, inner, outer]).toEqual([2, 2, 2])
    expect(Exit.getOrElse(await kept(), () => []).sort((a, b) => a - b)).toEqual([2, 102])
  })
})
