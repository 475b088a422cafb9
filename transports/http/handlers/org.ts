import { Effect } from "effect"
import { Events } from "../../../engine/services/Events.ts"
import { Orgs } from "../../../engine/services/Orgs.ts"
import { Team } from "../../../engine/services/team/Team.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const orgHandlers = defineGroup(Api, "org", (h) =>
  Effect.map(Orgs, (orgs) => h.handle("get", () => orgs.get).handle("update", ({ payload }) => orgs.update(payload)))
)

export const teamHandlers = defineGroup(Api, "team", (h) =>
  Effect.map(Team, (team) =>
    h
      .handle("list", () => team.list)
      .handle("invite", ({ payload }) => team.invite(payload))
      .handle("revoke_invite", ({ path }) => team.revokeInvite(path.id))
      .handle("update", ({ path, payload }) => team.update(path.user_id, payload))
      .handle("remove", ({ path }) => team.remove(path.user_id))
  )
)

export const invitesHandlers = defineGroup(Api, "invites", (h) =>
  Effect.map(Team, (team) =>
    h
      .handle("accept", ({ path, payload }) => team.accept(path.token, payload))
      .handle("decline", ({ path }) => team.decline(path.token))
  )
)

export const waiverHandlers = defineGroup(Api, "waiver", (h) =>
  Effect.map(Orgs, (orgs) =>
    h.handle("get", () => orgs.waiver).handle("set", ({ payload }) => orgs.setWaiver(payload.text))
  )
)

export const eventsHandlers = defineGroup(Api, "events", (h) =>
  Effect.map(Events, (events) => h.handle("list", ({ urlParams }) => events.list(urlParams)))
)
