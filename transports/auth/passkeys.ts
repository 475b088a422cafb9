import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect } from "effect"
import { sessionBody } from "../../engine/services/auth/Auth.ts"
import { Passkeys } from "../../engine/services/auth/Passkeys.ts"
import { CHALLENGE_MINUTES, secret } from "../../engine/services/auth/tokens.ts"
import { clearCookie, readCookie, setCookie } from "./cookies.ts"
import { sameOrigin } from "./csrf.ts"
import { fail, json, readJson } from "./reply.ts"
import type { Shared } from "./routes.ts"

export type PasskeyRuntime = Passkeys

/** Answers and says the path was handled. */
const answered = (_: unknown) => true

const ONE = /^\/auth\/v1\/passkeys\/([0-9a-f-]{36})$/

/** /auth/v1/passkeys (a signed-in person's) and /auth/v1/passkey_sign_in (anyone's); true when the path was theirs. */
export const passkeyRoutes =
  (shared: Shared) =>
  async (req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<boolean> => {
    const { run, names } = shared
    if (path === "/auth/v1/passkeys/options" && method === "POST") {
      const s = await shared.signedIn(req, res)
      if (s !== undefined)
        await run(
          res,
          Effect.flatMap(Passkeys, (p) => p.registrationOptions(s)),
          (o) => json(res, 200, o)
        )
      return true
    }
    if (path === "/auth/v1/passkeys" && (method === "POST" || method === "GET")) {
      const s = await shared.signedIn(req, res)
      if (s === undefined) return true
      if (method === "GET") {
        await run(
          res,
          Effect.flatMap(Passkeys, (p) => p.list(s)),
          (data) => json(res, 200, { data })
        )
        return true
      }
      const read = await readJson(req)
      if (!read.ok) return answered(fail(res, read.status, read.code, read.message))
      const name = read.body.name
      if (name !== undefined && (typeof name !== "string" || name.length > 100))
        return answered(fail(res, 400, "invalid_name", "name: at most 100 characters"))
      await run(
        res,
        Effect.flatMap(Passkeys, (p) => p.register(s, read.body.response, name)),
        (passkey) => json(res, 201, passkey)
      )
      return true
    }
    const one = ONE.exec(path)
    if (one !== null && method === "DELETE") {
      const s = await shared.signedIn(req, res)
      if (s !== undefined)
        await run(
          res,
          Effect.flatMap(Passkeys, (p) => p.remove(s, one[1])),
          () => json(res, 204, undefined)
        )
      return true
    }
    if (!path.startsWith("/auth/v1/passkey_sign_in") || method !== "POST") return false
    if (!sameOrigin(req.headers, shared.publicUrl))
      return answered(fail(res, 403, "csrf_failed", "sign in from this site's own page"))
    const limited = await shared.limits.address(req)
    if (!limited.ok) return answered(shared.tooMany(res, limited.retryAfter))
    if (path === "/auth/v1/passkey_sign_in/options") {
      const holder = secret()
      await run(
        res,
        Effect.flatMap(Passkeys, (p) => p.signInOptions(holder)),
        (o) => json(res, 200, o, { "set-cookie": setCookie(names, names.passkey, holder, CHALLENGE_MINUTES * 60) })
      )
      return true
    }
    if (path !== "/auth/v1/passkey_sign_in") return false
    const holder = readCookie(req, names.passkey)
    if (holder === undefined)
      return answered(fail(res, 400, "passkey_refused", "ask for options first: POST /auth/v1/passkey_sign_in/options"))
    const read = await readJson(req)
    if (!read.ok) return answered(fail(res, read.status, read.code, read.message))
    await run(
      res,
      Effect.gen(function* () {
        const passkeys = yield* Passkeys
        const token = yield* passkeys.signIn(
          holder,
          read.body.response,
          req.headers["user-agent"],
          readCookie(req, names.session)
        )
        return { token, signed: yield* shared.resolve(token) }
      }),
      ({ token, signed }) =>
        json(res, 200, signed && sessionBody(signed), {
          "set-cookie": [shared.sessionCookie(token), clearCookie(names, names.passkey)]
        })
    )
    return true
  }
