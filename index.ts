/**
 * The booking engine as a library: createEngine mounts it in your own server; the webhook signature helpers are
 * for receivers. Teams on Effect compose the layers (AppLive, EmbeddedLive) from `booking-engine/layers`: this
 * entry point's types stay within what a consumer has (no database client's types).
 */

export { createEngine, type Engine, type EngineOptions } from "./app/embed.ts"
export { sign, type VerifyInput, type VerifyResult, verifySignature } from "./transports/webhooks/signature.ts"
