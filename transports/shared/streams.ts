import { Context } from "effect"

/**
 * Long-lived streams (the event stream, MCP sessions' GET streams) have a budget of their own, outside MAX_INFLIGHT:
 * `max` open on the instance, and at most `perKey` for one credential and `perOrg` for one org, so one org's streams
 * can neither fill the request budget nor take every stream from the others.
 */
export class StreamLimits extends Context.Reference<StreamLimits>()("StreamLimits", {
  defaultValue: (): { readonly max: number; readonly perKey: number; readonly perOrg: number } => ({
    max: 1000,
    perKey: 20,
    perOrg: 100
  })
}) {}

/** Seconds a client refused a stream should wait before it tries again. */
export const STREAM_RETRY_SECONDS = 10

export const makeStreamBudget = (limits: { readonly perKey: number; readonly perOrg: number }) => {
  const byKey = new Map<string, number>()
  const byOrg = new Map<string, number>()
  const down = (m: Map<string, number>, k: string) => {
    const n = (m.get(k) ?? 1) - 1
    if (n <= 0) m.delete(k)
    else m.set(k, n)
  }
  /** A place for one stream of this org and credential, with its release (safe to call twice); none when full. */
  const enter = (org: string, key: string): (() => void) | undefined => {
    if ((byKey.get(key) ?? 0) >= limits.perKey || (byOrg.get(org) ?? 0) >= limits.perOrg) return undefined
    byKey.set(key, (byKey.get(key) ?? 0) + 1)
    byOrg.set(org, (byOrg.get(org) ?? 0) + 1)
    let open = true
    return () => {
      if (!open) return
      open = false
      down(byKey, key)
      down(byOrg, org)
    }
  }
  return { enter, open: (org: string) => byOrg.get(org) ?? 0 }
}
export type StreamBudget = ReturnType<typeof makeStreamBudget>
