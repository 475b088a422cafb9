/**
 * The engine's Effect layers, for teams on Effect who compose it themselves (`booking-engine/layers`). Their types
 * name the database clients' own types: a TypeScript consumer of this entry point also needs `@types/pg`.
 */

export { AppLive, EmbeddedLive, EngineLive } from "./app/layers.ts"
