import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect } from "effect"
import { sessionBody } from "../../engine/services/auth/Auth.ts"
import { displayName, NAME_MAX, Profile } from "../../engine/services/auth/Profile.ts"
import { readCookie } from "./cookies.ts"
import { fail, json, readJson } from "./reply.ts"
import type { Shared } from "./shared.ts"

/** PATCH /auth/v1/me `{name}`: the signed-in person names themselves; answers the session as GET /auth/v1/session. */
export const meRoute =
  (shared: Shared) =>
  async (req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<boolean> => {
    if (path !== "/auth/v1/me" || method !== "PATCH") return false
    const s = await shared.signedIn(req, res)
    if (s === undefined) return true
    const read = await readJson(req)
    if (!read.ok) return (fail(res, read.status, read.code, read.message), true)
    const name = displayName(read.body.name)
    if (name === undefined)
      return (
        fail(res, 400, "invalid_name", `name: 1 to ${NAME_MAX} characters (spaces at the ends do not count)`), true
      )
    const token = readCookie(req, shared.names.session) ?? ""
    await shared.run(
      res,
      Effect.gen(function* () {
        yield* (yield* Profile).rename(s, name)
        return yield* shared.resolve(token)
      }),
      (after) =>
        after === undefined ? fail(res, 401, "unauthorized", "sign in first") : json(res, 200, sessionBody(after))
    )
    return true
  }
