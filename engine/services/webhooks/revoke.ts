import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { decideWebhookEndpoint } from "../../machines/webhookEndpoint.ts"
import { type EndpointRow, machineRow } from "./row.ts"
import { traced } from "../../tracing.ts"

/**
 * Revoking an API key switches off every endpoint it created, at once (spec "Key revocation"). Run it in the
 * transaction that revokes the key; each endpoint goes through its machine (key_revoked -> off).
 */
export const switchOffForKey = (sql: SqlClient.SqlClient, keyId: string, at: Date) =>
  Effect.gen(function*() {
    const rows = yield* sql<Pick<EndpointRow, "id" | "state" | "context">>`
      select id, state, context from webhook_endpoints where api_key_id = ${keyId} and state <> 'off' order by id for update`
    for (const row of rows) {
      const decision = decideWebhookEndpoint(machineRow(row), { type: "key_revoked", at: at.toISOString() })
      if (!decision.ok) continue
      yield* sql`
        update webhook_endpoints set state = ${decision.state as string}, context = ${JSON.stringify(decision.context)}, retry_at = null
        where id = ${row.id}`
    }
  }).pipe(traced("Webhooks.switchOffForKey"))
