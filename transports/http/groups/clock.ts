import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Clock, ClockAdvance } from "../../../engine/schema/clock.ts"
import { RequiredRole } from "../roles.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders } from "./common.ts"

/** The engine's clock, read and (only with CLOCK=test) moved by an owner's key: for testing an integration. */
export const ClockGroup = HttpApiGroup.make("clock")
  .annotate(RequiredRole, "owner")
  .annotate(
    OpenApi.Description,
    "The engine's clock, and on a test deployment (CLOCK=test) the test clock that moves only when told; owners only."
  )
  .add(
    HttpApiEndpoint.get("get", "/clock")
      .addSuccess(Clock)
      .annotate(OpenApi.Summary, "The engine's time, and whether it is the test clock; owners only")
      .annotate(
        OpenApi.Description,
        "The engine's time, which every rule and job uses, and test: true when the deployment runs the test clock (CLOCK=test), which stands still until moved with POST /clock. Owners only (403 for a staff member's key). Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("advance", "/clock")
      .setPayload(ClockAdvance)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Clock)
      .annotate(OpenApi.Summary, "Move the test clock forward and run what falls due; CLOCK=test only; owners only")
      .annotate(
        OpenApi.Description,
        "Moves the test clock forward by advance_seconds and runs the background jobs that fall due by then (holds lapsing, reminders, retries). The clock is the deployment's, shared by every org on it: a test deployment's. On the system clock it is refused with 400 clock_not_test. Owners only. Emits nothing itself; the jobs that run emit their own events."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
