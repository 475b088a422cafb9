import { HttpApiBuilder, type HttpApp, HttpMiddleware, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Runtime } from "effect"
import { RequestSurface } from "../../engine/services/CurrentOrg.ts"
import { Orgs } from "../../engine/services/Orgs.ts"
import { mcpHandler } from "../mcp/server.ts"
import { toolsOf } from "../mcp/tools.ts"
import { Api } from "./Api.ts"
import { withPaymentRoutes } from "../payments/routes.ts"

const errorJson = (status: number, code: string, message: string) =>
  HttpServerResponse.unsafeJson({ error: { code, message } }, { status })

export const HealthRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* router.get("/healthz", HttpServerResponse.unsafeJson({ status: "ok" }))
    yield* router.get(
      "/readyz",
      sql`select 1`.pipe(
        Effect.as(HttpServerResponse.unsafeJson({ status: "ready" })),
        Effect.catchAll(() => Effect.succeed(errorJson(503, "not_ready", "the database does not answer")))
      )
    )
  }))

/** Runs a REST call in-process, as the MCP surface. Defects become the same 500 a REST caller would see. */
const callInProcess = (apiApp: HttpApp.Default, runtime: Runtime.Runtime<never>) =>
  (call: { method: string; url: string; body: string | undefined; idempotencyKey: string | undefined; bearer: string }) => {
    const headers: Record<string, string> = { authorization: `Bearer ${call.bearer}` }
    if (call.body !== undefined) headers["content-type"] = "application/json"
    if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey
    const request = HttpServerRequest.fromWeb(new Request(`http://mcp.internal${call.url}`, { method: call.method, headers, body: call.body }))
    return apiApp.pipe(
      Effect.catchAllCause(() => Effect.succeed(errorJson(500, "internal_error", "something went wrong on our side"))),
      Effect.flatMap((res) => Effect.promise(() => HttpServerResponse.toWeb(res).text()).pipe(Effect.map((body) => ({ status: res.status, body })))),
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.provideService(RequestSurface, "mcp"),
      Effect.scoped,
      Runtime.runPromise(runtime)
    )
  }

/** REST under /api/v1, admin under /admin/v1, MCP at /mcp, health probes; one server. */
export const ServeLive = Layer.unwrapEffect(Effect.gen(function*() {
  const apiApp = yield* HttpApiBuilder.httpApp
  const orgs = yield* Orgs
  const runtime = yield* Effect.runtime<never>()
  const handle = mcpHandler(toolsOf(Api), callInProcess(apiApp as HttpApp.Default, runtime))
  const mcpApp = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const bearer = /^Bearer (.+)$/i.exec(request.headers["authorization"] ?? "")?.[1]
    const org = bearer === undefined ? Option.none() : yield* orgs.authenticate(bearer)
    if (bearer === undefined || Option.isNone(org)) return errorJson(401, "unauthorized", "send Authorization: Bearer <API_KEY>")
    const web = yield* HttpServerRequest.toWeb(request)
    const response = yield* Effect.promise(() => handle(web, bearer))
    return HttpServerResponse.fromWeb(response)
  }).pipe(Effect.catchAll(() => Effect.succeed(errorJson(400, "invalid_request", "the MCP request could not be read"))))
  const root = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* (request.url.split("?")[0] === "/mcp" ? mcpApp : apiApp)
  })
  const payments = yield* withPaymentRoutes
  return HttpServer.serve(payments(root), HttpMiddleware.logger)
}))
