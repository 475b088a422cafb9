import type { IncomingMessage, ServerResponse } from "node:http"
import { Cause, Effect, Exit, Option, Runtime } from "effect"
import { readText } from "../shared/body.ts"
import { expectedError } from "../shared/errors.ts"

/** Answers of /auth/v1: JSON, never cached; errors in the spec's shape. */
export const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {}
) => {
  const text = body === undefined ? "" : JSON.stringify(body)
  res.writeHead(status, {
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers
  })
  res.end(text)
}

export const fail = (
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string | string[]> = {}
) => json(res, status, { error: { code, message } }, headers)

/** An engine failure as its answer: an expected error with its status and code, anything else a 500 (logged). */
export const failure = <R>(runtime: Runtime.Runtime<R>, res: ServerResponse, cause: Cause.Cause<unknown>) => {
  const expected = Cause.failureOption(cause)
  if (Option.isSome(expected)) {
    const known = expectedError(expected.value)
    if (known !== undefined) return fail(res, known.status, known.code, known.message)
  }
  Runtime.runFork(runtime)(Effect.logError("auth request failed", cause))
  fail(res, 500, "internal_error", "something went wrong on our side")
}

/** Runs an engine effect; its success goes to `ok`, its failure is answered. */
export const runner =
  <R>(runtime: Runtime.Runtime<R>) =>
  async <A, E>(res: ServerResponse, effect: Effect.Effect<A, E, R>, ok: (a: A) => void) => {
    const exit = await Runtime.runPromiseExit(runtime)(effect)
    if (Exit.isSuccess(exit)) return ok(exit.value)
    failure(runtime, res, exit.cause)
  }

const MAX_BODY = 64 * 1024

/** A JSON object body of at most 64 KiB (read through the one body reader, transports/shared/body.ts), else the refusal. */
export const readJson = (req: IncomingMessage) =>
  readText(req, { limit: MAX_BODY, what: "the body" }).then(
    (
      read
    ): { ok: true; body: Record<string, unknown> } | { ok: false; status: number; code: string; message: string } => {
      if (!read.ok) return { ok: false, ...read.refusal }
      if (read.value === undefined || read.value === "") return { ok: true, body: {} }
      try {
        const parsed: unknown = JSON.parse(read.value)
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
          return { ok: true, body: parsed as Record<string, unknown> }
      } catch {
        /* answered below */
      }
      return { ok: false, status: 400, code: "invalid_json", message: "the body must be a JSON object" }
    }
  )
