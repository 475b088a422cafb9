import type { HttpApi, HttpApiBuilder, HttpApiGroup } from "@effect/platform"

/** How a group's handlers are built, kept by group name; the lean transport (routes.ts) collects the handlers. */
export const groupBuilds = new Map<string, (handlers: never) => unknown>()

/**
 * A group's handlers, typed against the contract as HttpApiBuilder.group types them, kept for the dispatcher (no
 * platform router or Layer is built). Importing a handlers module registers it (see handlers/all.ts).
 */
export const defineGroup = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  Return
>(
  _api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  name: Name,
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, ApiR, HttpApiGroup.HttpApiGroup.WithName<Groups, Name>>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): void => {
  groupBuilds.set(name, build as (handlers: never) => unknown)
}
