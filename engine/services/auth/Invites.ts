import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { fn } from "../../tracing.ts"
import { Team } from "../team/Team.ts"
import { Auth } from "./Auth.ts"

/**
 * Accepting a team invite from its mailed link signs the person in: the member joins (Team.accept, which keeps the
 * member.* events), the user is made if new, and a session starts in the invite's org.
 */
export class InviteSignIn extends Effect.Service<InviteSignIn>()("InviteSignIn", {
  dependencies: [Auth.Default, Team.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const team = yield* Team
    const auth = yield* Auth

    /** What the invite page shows: the org and the role, while the invite waits; undefined otherwise. */
    const peek = fn("InviteSignIn.peek")(function* (token: string) {
      const hash = createHash("sha256").update(token).digest("hex")
      const [row] = yield* sql<{ email: string; role: string; org_name: string }>`
        select i.email, i.role, o.name as org_name from invites i join orgs o on o.id = i.org_id
        where i.token_hash = ${hash} and i.accepted_at is null and i.ended_at is null and i.expires_at > ${yield* clock.now}`.pipe(
        Effect.orDie
      )
      return row
    })

    /** Joins and signs in; the session's current org is the invite's. */
    const accept = fn("InviteSignIn.accept")(function* (
      token: string,
      name: string | undefined,
      userAgent: string | undefined,
      previous: string | undefined
    ) {
      const member = yield* team.accept(token, { name })
      const [joined] = yield* sql<{
        org_id: string
      }>`select org_id from members where user_id = ${member.user_id}`.pipe(Effect.orDie)
      return yield* auth.start(member.email, userAgent, previous, joined.org_id)
    })

    return { peek, accept } as const
  })
}) {}
