/**
 * The booking engine as a library: createEngine mounts it in your own server; the webhook signature helpers are
 * for receivers. Teams on Effect can compose the layers in transports/app.ts (AppLive, EmbeddedLive) directly.
 */
export { createEngine, type Engine, type EngineOptions } from "./transports/embed.ts"
export { sign, verifySignature, type VerifyInput, type VerifyResult } from "./transports/webhooks/signature.ts"
export { EmbeddedLive, AppLive, EngineLive } from "./transports/app.ts"
