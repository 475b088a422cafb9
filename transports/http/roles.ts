import type { HttpApiMiddleware } from "@effect/platform"
import { Context, Option } from "effect"
import type { Role } from "../../engine/services/CurrentOrg.ts"
import { Authentication } from "./security.ts"

/**
 * The role an operation needs, declared beside it in the contract like its errors: `.annotate(RequiredRole, "owner")`
 * on an endpoint, or on a group for all of its endpoints. An org operation without it is open to staff. The
 * dispatcher refuses a credential of a lesser role (403 forbidden); the OpenAPI document shows it as x-required-role.
 */
export class RequiredRole extends Context.Tag("booking-engine/RequiredRole")<RequiredRole, Role>() {}

type Annotated = { readonly annotations: Context.Context<never> }

/** The role an endpoint of the org API needs; undefined for operations that no team member's credential reaches. */
export const requiredRole = (
  endpoint: Annotated,
  group: Annotated,
  middleware: ReadonlySet<HttpApiMiddleware.TagClassAny>
): Role | undefined => {
  if (!middleware.has(Authentication as unknown as HttpApiMiddleware.TagClassAny)) return undefined
  return Option.getOrElse(
    Option.orElse(Context.getOption(endpoint.annotations, RequiredRole), () =>
      Context.getOption(group.annotations, RequiredRole)
    ),
    (): Role => "staff"
  )
}
