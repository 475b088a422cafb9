import { SqlError } from "@effect/sql/SqlError"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { retryTransient } from "../../../engine/store/refusals.ts"

const sqlError = (code: string) => new SqlError({ cause: { code }, message: code })

/** An effect that fails with `errors` one after another, then succeeds; `runs` counts how often it ran. */
const flaky = (errors: ReadonlyArray<SqlError>) => {
  const state = { runs: 0 }
  const effect = Effect.suspend(() => {
    const e = errors[state.runs++]
    return e === undefined ? Effect.succeed("done") : Effect.fail(e)
  })
  return { state, effect }
}

describe("retryTransient", () => {
  it("runs again after a deadlock or a serialization failure, up to the number of retries given", async () => {
    const f = flaky([sqlError("40P01"), sqlError("40001")])
    expect(await Effect.runPromise(retryTransient(3)(f.effect))).toBe("done")
    expect(f.state.runs).toBe(3)
  })

  it("gives up after that many retries, with the last failure", async () => {
    const f = flaky([sqlError("40P01"), sqlError("40P01"), sqlError("40001"), sqlError("40P01"), sqlError("40P01")])
    const exit = await Effect.runPromiseExit(retryTransient(3)(f.effect))
    expect(f.state.runs).toBe(4)
    expect(exit).toEqual(Exit.fail(sqlError("40P01")))
  })

  it("does not run again after any other failure, nor with no retries", async () => {
    const refused = flaky([sqlError("23514")])
    expect(Exit.isFailure(await Effect.runPromiseExit(retryTransient(3)(refused.effect)))).toBe(true)
    expect(refused.state.runs).toBe(1)
    const nested = flaky([sqlError("40P01")])
    expect(Exit.isFailure(await Effect.runPromiseExit(retryTransient(0)(nested.effect)))).toBe(true)
    expect(nested.state.runs).toBe(1)
  })
})
