import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import type { Plan } from "../CurrentOrg.ts"
import { Mail } from "../mail/Mail.ts"
import { Orgs } from "../Orgs.ts"
import { Auth } from "./Auth.ts"
import { orgsWithoutOwner } from "./withoutOwner.ts"

/** How long the welcome mail's sign-in link of a new org's owner works. */
export const WELCOME_DAYS = 7

/**
 * Orgs made by the platform (admin API, CLI, the demo) with their owner: the owner joins the team at once (so owner
 * mails reach them) and gets a welcome mail whose one-time link signs them in to the console.
 */
export class Owners extends Effect.Service<Owners>()("Owners", {
  dependencies: [Auth.Default, Mail.Default, Orgs.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const auth = yield* Auth
    const mail = yield* Mail
    const orgs = yield* Orgs

    /** Adds the owner and mails the welcome; answers the sign-in link (the mail carries it too). */
    const welcome = fn("Owners.welcome")(function* (orgId: string, orgName: string, email: string) {
      const member = yield* orgs.addMember(orgId, { email, role: "owner" })
      const link = yield* auth.ticket(member.email, WELCOME_DAYS * 24)
      yield* mail.enqueue(orgId, {
        to: member.email,
        kind: "auth.owner_welcome",
        subject: `${orgName} is ready: sign in`,
        text:
          `You are the owner of ${orgName}.\n\nSign in to its console: ${link}\n\n` +
          `The link works once, for ${WELCOME_DAYS} days. Later, sign in at the console with your email address.`
      })
      return { member, link }
    })

    const create = fn("Owners.create")(function* (input: {
      name: string
      timezone: string
      currency: string
      plan?: Plan | undefined
      locale?: string | undefined
      owner_email?: string | undefined
    }) {
      const { owner_email, ...org } = input
      return yield* Effect.gen(function* () {
        const created = yield* orgs.create(org)
        if (owner_email !== undefined) yield* welcome(created.org.id, created.org.name, owner_email)
        return created
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    const withoutOwner = Effect.provideService(orgsWithoutOwner, SqlClient.SqlClient, sql)

    return { create, welcome, withoutOwner } as const
  })
}) {}
