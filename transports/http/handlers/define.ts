import { HttpApiBuilder } from "@effect/platform"

/** How a group's handlers are built: the function given to HttpApiBuilder.group, kept by group name. */
export const groupBuilds = new Map<string, (handlers: never) => unknown>()

/**
 * HttpApiBuilder.group, and the same build function kept for the lean transport (transports/http/routes.ts), which
 * collects the handlers from it without building the platform's router.
 */
export const defineGroup: typeof HttpApiBuilder.group = (api, name, build) => {
  groupBuilds.set(name, build as (handlers: never) => unknown)
  return HttpApiBuilder.group(api, name, build)
}
