import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import { CurrentOrg } from "../../engine/services/CurrentOrg.ts"
import { UnauthorizedWire } from "./errors.ts"

/**
 * The contract's security schemes (OpenAPI, and which routes take which credential). They are tags only: the one
 * implementation of authentication is transports/shared/credentials.ts, which the dispatcher asks.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: UnauthorizedWire,
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** The public booking surface (/api/v1/public): Bearer with a publishable key (pk_live_…) or a secret one. */
export class PublicAuth extends HttpApiMiddleware.Tag<PublicAuth>()("PublicAuth", {
  failure: UnauthorizedWire,
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Admin API: Bearer ADMIN_TOKEN; every call refused when ADMIN_TOKEN is unset. */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("AdminAuth", {
  failure: UnauthorizedWire,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
