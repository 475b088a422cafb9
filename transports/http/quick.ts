import { Context, Effect, Either, Exit, Runtime } from "effect"
import type { BookingCreate } from "../../engine/schema/booking.ts"
import { Bookings } from "../../engine/services/bookings/Bookings.ts"
import { soldOut } from "../../engine/services/bookings/placement.ts"
import type { CurrentOrg, Surface } from "../../engine/services/CurrentOrg.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { Public } from "../../engine/services/public/Public.ts"
import { admit, bearerFrom } from "../shared/credentials.ts"
import { type Documented, parseBody } from "../shared/json.ts"
import type { Incoming, Reply } from "../shared/reply.ts"
import type { Route } from "./routes.ts"

type Org = CurrentOrg["Type"]
type Judge = (input: { payload: unknown; headers: unknown }) => Effect.Effect<string | undefined, never, CurrentOrg>

/** The time a booking's body names, found before the body is parsed (a guess: the Schema decides). */
const SESSION_ID = /"session_id"\s*:\s*"([^"\\]{1,100})"/

const header = (headers: Incoming["headers"], name: string) => {
  const v = headers[name]
  return typeof v === "string" ? v : v?.[0]
}

/**
 * Whether full times' refusals are answered without a fiber (below; on unless a host turns it off), and a watcher told
 * of each one answered so (the operation's id), for a host's own count.
 */
export class QuickRefusals extends Context.Reference<QuickRefusals>()("QuickRefusals", {
  defaultValue: (): { readonly enabled: boolean; readonly refused?: (operation: string) => void } => ({ enabled: true })
}) {}

/**
 * A crowd's refusals without a fiber per guest: a booking (bookings.create, public.book) of a time this instance has
 * heard is full is answered 409 sold_out from what it already knows, outside the effect runtime up to the gate's
 * answer. It is taken only when everything the dispatcher would do before the gate is known for sure and passes: the
 * key resolved from the key cache (never a session, never a lookup), the body parsed and decoded by the endpoint's own
 * Schemas, no Idempotency-Key (a replay answers what the key stored), no query, tracing off; then the gate's own
 * judgment (the same checks as `create`'s), one shared sync that vouches every earlier commit was heard, and the
 * judgment again (the first one's, when nothing the gate holds of the time changed meanwhile). Anything else, at any
 * step, is `undefined`: the dispatcher's own path serves the request from the start, so the answer is the same.
 */
export const makeQuickRefusals = (
  runtime: Runtime.Runtime<never>,
  requestContext: (parent: Context.Context<never>, surface: Surface, org: Org) => Context.Context<never>,
  errorOf: (e: unknown) => Reply | undefined
) =>
  Effect.gen(function* () {
    const quick = yield* QuickRefusals
    const orgs = yield* Orgs
    const bookings = yield* Bookings
    const pub = yield* Public
    const judges = new Map<string, Judge>([
      ["bookings.create", ({ payload }) => bookings.atOnce.take(payload as BookingCreate)],
      [
        "public.book",
        ({ payload, headers }) =>
          pub.bookAtOnce(payload as BookingCreate, (headers as { readonly origin?: string } | undefined)?.origin)
      ]
    ])
    const runSync = Runtime.runSyncExit(runtime)
    const base = runtime.context
    const refusal = errorOf(soldOut())!

    /** The time's id when the gate refuses the request now; a judgment that cannot finish at once refuses nothing. */
    const judged = (judge: Judge, input: { payload: unknown; headers: unknown }, context: Context.Context<never>) => {
      const exit = runSync(Effect.mapInputContext(judge(input), () => context as Context.Context<CurrentOrg>))
      return Exit.isSuccess(exit) ? exit.value : undefined
    }

    return (route: Route, req: Incoming, search: string, codes: Documented | undefined) => {
      const judge = judges.get(route.operationId)
      if (!quick.enabled || judge === undefined || req.method !== "POST" || search !== "") return undefined
      if (route.decodePath !== undefined || route.decodeQuery !== undefined || route.decodePayload === undefined)
        return undefined
      if (header(req.headers, "idempotency-key") !== undefined) return undefined
      // A booking of a time not heard full costs this look at its body only.
      const text = req.body ?? ""
      const time = SESSION_ID.exec(text)
      if (time === null || !bookings.atOnce.mayRefuse(time[1])) return undefined
      const bearer = bearerFrom(header(req.headers, "authorization"))
      if (bearer === "") return undefined
      const known = orgs.cached(bearer)
      if (known === undefined) return undefined
      const admitted = admit(route.auth === "public" ? "public" : "api", known, false)
      if (!admitted.ok || (route.role === "owner" && admitted.org.role !== "owner")) return undefined
      const parsed = parseBody(text, codes)
      if (!parsed.ok) return undefined
      const payload = route.decodePayload(parsed.value)
      if (Either.isLeft(payload)) return undefined
      const headers = route.decodeHeaders === undefined ? Either.right(undefined) : route.decodeHeaders(req.headers)
      if (Either.isLeft(headers)) return undefined
      const input = { payload: payload.right, headers: headers.right }
      const context = requestContext(base, req.surface, admitted.org)
      const first = judged(judge, input, context)
      if (first === undefined) return undefined
      const seen = bookings.atOnce.look(first)
      return bookings.atOnce.synced().then((ok) => {
        // Judged again after the sync, unless nothing the gate holds of the time changed meanwhile.
        const id = !ok ? undefined : bookings.atOnce.unchanged(seen) ? first : judged(judge, input, context)
        if (id === undefined) return undefined
        bookings.atOnce.refused(id)
        quick.refused?.(route.operationId)
        return { reply: refusal, org: admitted.org.id }
      })
    }
  })
