import type { BusEvent } from "../../engine/ports/Bus.ts"

// The NATS names of the event stream, apart from the adapter so that configuration can check them without loading
// the NATS client (it is loaded only when NATS_URL is set).

export const DEFAULT_STREAM = "EVENTS"
export const DEFAULT_SUBJECT_PREFIX = "events"

/** A JetStream stream name: no whitespace or control characters, none of `.`, `*`, `>`, `/`, `\`; at most 255. */
export const isStreamName = (name: string) => /^[^\s\p{Cc}.*>/\\]{1,255}$/u.test(name)

/** A subject prefix: dot-separated tokens, none empty, without wildcards (`*`, `>`) or whitespace. */
export const isSubjectPrefix = (prefix: string) =>
  prefix.length <= 200 && /^[^\s\p{Cc}.*>]+(\.[^\s\p{Cc}.*>]+)*$/u.test(prefix)

/** `<prefix>.<org_id>.<type>`, e.g. events.4b1e…c9.booking.confirmed. */
export const subjectOf = (e: Pick<BusEvent, "org_id" | "type">, prefix = DEFAULT_SUBJECT_PREFIX) =>
  `${prefix}.${e.org_id}.${e.type}`

/**
 * Nats-Msg-Id: `<deployment>:<event id>`. Event ids are counted per database, so the id alone repeats across
 * deployments sharing a stream; with the deployment it names one event, and a re-publish of it is still a duplicate.
 */
export const messageIdOf = (e: Pick<BusEvent, "deployment" | "id">) => `${e.deployment}:${e.id}`
