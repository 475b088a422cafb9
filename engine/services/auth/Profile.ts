import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { lockMembersByEmail, setMember } from "../../store/team.ts"
import { transaction } from "../../store/transaction.ts"
import { userStore } from "../../store/users.ts"
import { fn } from "../../tracing.ts"
import { Events } from "../Events.ts"
import type { Signed } from "./Auth.ts"

/** A display name a person gives themselves: 1 to 80 characters once trimmed. */
export const NAME_MAX = 80

/** The name as kept, or undefined when it is not one (empty once trimmed, or longer than NAME_MAX characters). */
export const displayName = (raw: unknown): string | undefined => {
  if (typeof raw !== "string") return undefined
  const name = raw.trim().replace(/\s+/g, " ")
  return name.length === 0 || [...name].length > NAME_MAX ? undefined : name
}

/**
 * The signed-in person's own details (docs/auth.md): their name, kept on the user and on each team they are on, so
 * the header and every Team list show it. Each team whose row changes gets `member.updated` with the name, as an
 * owner's rename does, made by the person.
 */
export class Profile extends Effect.Service<Profile>()("Profile", {
  dependencies: [Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const events = yield* Events
    const users = userStore(sql)

    const rename = fn("Profile.rename")(function* (s: Signed, name: string) {
      yield* Effect.gen(function* () {
        yield* users.setName(s.user.id, name)
        for (const m of yield* lockMembersByEmail(sql, s.user.email)) {
          if (m.name === name) continue
          yield* setMember(sql, m.user_id, m.role, name)
          yield* events.append(
            m.org_id,
            [{ type: "member.updated", data: { user_id: m.user_id, email: m.email, name } }],
            { type: "person", id: m.user_id }
          )
        }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    return { rename } as const
  })
}) {}
