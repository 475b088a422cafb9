import { defineGroup } from "./define.ts"
import { Effect } from "effect"
import { Events } from "../../../engine/services/Events.ts"
import { Orgs } from "../../../engine/services/Orgs.ts"
import { Api } from "../Api.ts"

export const OrgHandlers = defineGroup(Api, "org", (h) =>
  Effect.map(Orgs, (orgs) => h.handle("get", () => orgs.get).handle("update", ({ payload }) => orgs.update(payload))))

export const TeamHandlers = defineGroup(Api, "team", (h) => Effect.map(Orgs, (orgs) => h.handle("list", () => orgs.team)))

export const WaiverHandlers = defineGroup(Api, "waiver", (h) =>
  Effect.map(Orgs, (orgs) => h.handle("get", () => orgs.waiver).handle("set", ({ payload }) => orgs.setWaiver(payload.text))))

export const EventsHandlers = defineGroup(Api, "events", (h) =>
  Effect.map(Events, (events) => h.handle("list", ({ urlParams }) => events.list(urlParams))))
