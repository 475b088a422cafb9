import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Events } from "../../../engine/services/Events.ts"
import { Orgs } from "../../../engine/services/Orgs.ts"
import { Api } from "../Api.ts"

export const OrgHandlers = HttpApiBuilder.group(Api, "org", (h) =>
  Effect.map(Orgs, (orgs) => h.handle("get", () => orgs.get).handle("update", ({ payload }) => orgs.update(payload))))

export const TeamHandlers = HttpApiBuilder.group(Api, "team", (h) => Effect.map(Orgs, (orgs) => h.handle("list", () => orgs.team)))

export const WaiverHandlers = HttpApiBuilder.group(Api, "waiver", (h) =>
  Effect.map(Orgs, (orgs) => h.handle("get", () => orgs.waiver).handle("set", ({ payload }) => orgs.setWaiver(payload.text))))

export const EventsHandlers = HttpApiBuilder.group(Api, "events", (h) =>
  Effect.map(Events, (events) => h.handle("list", ({ urlParams }) => events.list(urlParams))))
