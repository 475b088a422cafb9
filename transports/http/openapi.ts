import { HttpApi, type HttpApiGroup, OpenApi } from "@effect/platform"
import { Context, Option } from "effect"
import { domainErrors } from "../../engine/errors/index.ts"
import { EVENT_TYPES } from "../../engine/schema/webhook.ts"
import { domainStatus } from "../shared/status.ts"
import { Api } from "./Api.ts"
import { Raises } from "./errors.ts"
import { requiredRole } from "./roles.ts"
import { streamOperation } from "./streamDoc.ts"

type Json = Record<string, any>

const REASON: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  402: "Payment required (plan limit)",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable",
  429: "Too many requests"
}

const BODY_METHODS = new Set(["post", "put", "patch", "delete"])

/** The operations' own codes, by operation id: those of the domain errors each endpoint declares; an owner's operation may answer 403 forbidden. */
const declared = (api: HttpApi.HttpApi.Any) => {
  const out = new Map<string, Record<number, Array<string>>>()
  const roles = new Map<string, string>()
  HttpApi.reflect(api as typeof Api, {
    onGroup() {},
    onEndpoint({ endpoint, group, middleware }) {
      const id = `${group.identifier}.${endpoint.name}`
      const codes: Record<number, Array<string>> = {}
      for (const cls of Option.getOrElse(Context.getOption(endpoint.annotations, Raises), () => []))
        (codes[domainStatus[cls._tag]] ??= []).push(cls.code)
      const role = requiredRole(endpoint, group as never, middleware as never)
      if (role !== undefined) roles.set(id, role)
      out.set(id, role === "owner" ? { ...codes, 403: [...new Set([...(codes[403] ?? []), "forbidden"])] } : codes)
    }
  })
  return { codes: out, roles }
}

const resolve = (doc: Json, schema: Json | undefined): Json | undefined =>
  typeof schema?.$ref === "string" ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema

/**
 * The codes every operation of this shape can answer, whatever its rules: a field that does not decode
 * (invalid_<field>, named by the top-level field), a body that is not JSON, a key the server does not know, an
 * Idempotency-Key that is malformed, reused or still running, a body too large or not JSON, the rate limit.
 */
const generic = (doc: Json, method: string, op: Json): Record<number, Set<string>> => {
  const codes: Record<number, Set<string>> = {}
  const add = (status: number, ...cs: ReadonlyArray<string>) => cs.forEach((c) => (codes[status] ??= new Set()).add(c))
  const params: ReadonlyArray<Json> = op.parameters ?? []
  // A parameter that can fail to decode, or whose MCP argument can be missing, not a string or not text.
  for (const p of params) {
    if (p.in === "path") {
      add(400, `invalid_${p.name}`)
      add(404, "not_found") // a path parameter longer than any id is answered 404 before decoding
    }
    if (p.in === "query") add(400, `invalid_${p.name}`)
  }
  // A query parameter the operation does not take that is not text; an argument or body field it does not know.
  add(400, "invalid_query", "unknown_field")
  if (BODY_METHODS.has(method)) {
    add(400, "invalid_json")
    add(413, "payload_too_large")
    add(415, "unsupported_media_type")
  }
  const body = resolve(doc, op.requestBody?.content?.["application/json"]?.schema)
  if (body !== undefined) {
    add(400, "invalid_body")
    for (const [field, schema] of Object.entries<Json>(body.properties ?? {})) {
      add(400, `invalid_${field}`)
      // A guest's phone inside a field (customer.phone) is answered with its own code (decodeErrors.ts).
      if (resolve(doc, schema)?.properties?.phone !== undefined) add(400, "invalid_phone")
    }
  }
  if (method === "post") add(400, "invalid_idempotency_key")
  if ((op.security ?? []).length > 0) {
    add(401, "unauthorized")
    if (method === "post") {
      add(409, "idempotency_in_progress")
      add(422, "idempotency_key_reused")
    }
  }
  add(429, "rate_limited")
  return codes
}

/** error.param, on a 400 about one field (transports/shared/errorParam.ts). */
const PARAM = {
  type: "string",
  description:
    "On a 400 about one field: its path in the request, as in duration_minutes, hours[1].start_time or customer.email"
}

const errorResponse = (status: number, codes: ReadonlyArray<string>) => ({
  description: `${REASON[status] ?? "Error"}: ${codes.map((c) => `\`${c}\``).join(", ")}`,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: {
              code: { type: "string", enum: codes },
              message: { type: "string" },
              ...(status === 400 ? { param: PARAM } : {})
            },
            additionalProperties: false
          }
        },
        additionalProperties: false
      }
    }
  }
})

const COMMON =
  '\n\nEvery error is `{ "error": { "code", "message" } }`; a 400 about one field also carries `param`, the field\'s path (`hours[1].start_time`). Each operation lists the codes it can answer, by status ' +
  "(also as `x-error-codes`). Any operation may also answer `503 unavailable`, `overloaded` or `shutting_down` (with Retry-After), `500 internal_error`, " +
  "`408 request_timeout` for a body slower than the instance's body time-out, `404 not_found` or `405 method_not_allowed` for a path or method that is not an operation, `414 uri_too_long`; " +
  "a code names only the operation's own fields: a body key it does not know is `400 unknown_field` and a query " +
  "parameter it does not take that is not valid Unicode `400 invalid_query`, whatever they are called.\n\n" +
  "Money is in the currency's minor units (fields ending `_cents`). Instants (`*_at`) are ISO 8601 UTC; local dates and times " +
  "(`YYYY-MM-DD`, `HH:MM:SS`) are wall-clock in the org's time zone. Every POST takes an `Idempotency-Key` header. " +
  "The event catalogue (the webhooks, and components `…Event`) gives each event type's `data`, as events.list, webhooks and the bus carry it."

/**
 * The event catalogue as OpenAPI 3.1 webhooks: one per event type, the signed POST an endpoint subscribed to it
 * receives, its body the type's component (`BookingHeldEvent`, …), the same envelope events.list and the bus carry.
 */
const eventWebhooks = (doc: Json): Json => {
  const byType = new Map<string, string>()
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) {
    const type = schema.properties?.type?.enum
    if (name.endsWith("Event") && Array.isArray(type) && type.length === 1) byType.set(type[0], name)
  }
  const out: Json = {}
  for (const type of EVENT_TYPES) {
    const name = byType.get(type)
    if (name === undefined) throw new Error(`the event catalogue has no schema for ${type}`)
    out[type] = {
      post: {
        operationId: `event.${type}`,
        tags: ["events"],
        summary: type,
        description:
          `${doc.components.schemas[name].description}.\n\nPOSTed to each webhook endpoint subscribed to \`${type}\`, signed with ` +
          '`Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the endpoint\'s secret; ' +
          "also in events.list and on the bus as `events.<org_id>." +
          type +
          "`.",
        security: [],
        parameters: [
          {
            name: "service-signature",
            in: "header",
            required: true,
            description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; refuse a t more than 300 s away',
            schema: { type: "string" }
          }
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } }
        },
        responses: {
          "200": {
            description:
              "Any 2xx moves the endpoint's cursor past the event; anything else (or no answer in 5 s) stops delivery there until a retry"
          },
          "410": { description: "Switches the endpoint off (active false)" }
        }
      }
    }
  }
  return out
}

/**
 * The served OpenAPI document: the contract's, with the server to call (PUBLIC_URL, else this instance's address),
 * and each operation's error responses replaced by the codes it can answer, as an enum per status. `served`: with the
 * event catalogue (webhooks) and the event stream, which is served outside the contract (streamDoc.ts).
 */
export const openApiDocument = (publicUrl: string, api: HttpApi.HttpApi.Any = Api, served = true): Json => {
  const doc: Json = structuredClone(OpenApi.fromApi(api as typeof Api))
  const { codes: own, roles } = declared(api)
  doc.servers = [{ url: publicUrl, description: "This instance (PUBLIC_URL, else http://HOST:PORT)" }]
  doc.info.description = `${doc.info.description ?? ""}${COMMON}`
  for (const item of Object.values<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const mine = own.get(op.operationId)
      const codes = generic(doc, method, op)
      for (const [status, cs] of Object.entries(mine ?? {}))
        for (const c of cs ?? []) (codes[Number(status)] ??= new Set()).add(c)
      const responses: Json = {}
      for (const [status, response] of Object.entries<Json>(op.responses))
        if (Number(status) < 400) responses[status] = response
      const table: Record<string, Array<string>> = {}
      for (const status of Object.keys(codes)
        .map(Number)
        .sort((a, b) => a - b)) {
        const list = [...codes[status]].sort()
        table[status] = list
        responses[status] = errorResponse(status, list)
      }
      op.responses = responses
      op["x-error-codes"] = table
      const role = roles.get(op.operationId)
      if (role !== undefined) op["x-required-role"] = role
    }
  }
  if (served) {
    doc.webhooks = eventWebhooks(doc)
    const stream = streamOperation()
    const op = stream.item.get
    op["x-error-codes"] = stream.codes
    for (const [status, codes] of Object.entries<Array<string>>(stream.codes))
      op.responses[status] = errorResponse(Number(status), codes)
    doc.paths[stream.path] = stream.item
  }
  // The error classes' own components are replaced by the per-operation enums above; the platform's decode error
  // is never sent (a decode failure is a 400 in the error shape).
  for (const name of [
    "HttpApiDecodeError",
    "Issue",
    "PropertyKey",
    "Unauthorized",
    "BadRequest",
    ...Object.keys(domainErrors)
  ]) {
    delete doc.components.schemas[name]
  }
  return doc
}

/**
 * The admin API's operations as a document of their own (the served one leaves them out): what the dispatcher reads
 * their documented codes from, as it does every other operation's.
 */
export const adminDocument = (): Json =>
  openApiDocument(
    "",
    HttpApi.make("admin").add(
      (Api.groups.admin as unknown as HttpApiGroup.HttpApiGroup.AnyWithProps).annotate(OpenApi.Exclude, false)
    ),
    false
  )
