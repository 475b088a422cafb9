import type { SqlClient } from "@effect/sql"
import type { Effect } from "effect"
import type { TestApp } from "./app.ts"

/**
 * Runs an engine effect against the running app's own services (the app's runtime holds every engine
 * service; its type only names the two the harness needs), for operations no HTTP route exposes.
 */
export const runEngine = <A, E, R>(app: TestApp, effect: Effect.Effect<A, E, R>): Promise<A> =>
  app.runtime.runPromise(effect as unknown as Effect.Effect<A, E, SqlClient.SqlClient>)
