/**
 * The booking engine as a library: createEngine mounts it in your own server; the webhook signature helpers are
 * for receivers. Teams on Effect can compose the layers in transports/app.ts (AppLive, EmbeddedLive) directly.
 */

export { AppLive, EmbeddedLive, EngineLive } from "./transports/app.ts"
export { createEngine, type Engine, type EngineOptions } from "./transports/embed.ts"
export { sign, type VerifyInput, type VerifyResult, verifySignature } from "./transports/webhooks/signature.ts"
