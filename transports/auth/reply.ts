import type { IncomingMessage, ServerResponse } from "node:http"
import { Cause, Effect, Exit, Option, Runtime } from "effect"

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

const STATUS: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooMany: 429
}

/** An engine failure as its answer: an expected error with its status and code, anything else a 500 (logged). */
export const failure = <R>(runtime: Runtime.Runtime<R>, res: ServerResponse, cause: Cause.Cause<unknown>) => {
  const expected = Cause.failureOption(cause)
  if (Option.isSome(expected)) {
    const e = expected.value as { _tag?: string; code?: string; message?: string }
    const status = STATUS[e._tag ?? ""]
    if (status !== undefined) return fail(res, status, e.code ?? "error", e.message ?? "")
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
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** A JSON object body of at most 64 KiB; a string saying what is wrong otherwise. */
export const readJson = (req: IncomingMessage) =>
  new Promise<
    { ok: true; body: Record<string, unknown> } | { ok: false; status: number; code: string; message: string }
  >((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size <= MAX_BODY) chunks.push(c)
      else if (!done) {
        done = true
        resolve({
          ok: false,
          status: 413,
          code: "payload_too_large",
          message: `the body is larger than ${MAX_BODY} bytes`
        })
      }
    })
    req.on("error", () => {
      if (!done) resolve({ ok: false, status: 400, code: "invalid_body", message: "the body could not be read" })
      done = true
    })
    req.on("end", () => {
      if (done) return
      done = true
      if (chunks.length === 0) return resolve({ ok: true, body: {} })
      try {
        const parsed: unknown = JSON.parse(utf8.decode(Buffer.concat(chunks)))
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
          return resolve({ ok: true, body: parsed as Record<string, unknown> })
      } catch {
        /* answered below */
      }
      resolve({
        ok: false,
        status: 400,
        code: "invalid_json",
        message: "send a JSON object with Content-Type: application/json"
      })
    })
  })
