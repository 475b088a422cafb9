import type { IncomingMessage, ServerResponse } from "node:http"
import type { Shared } from "./routes.ts"

export type PasskeyRuntime = never

export const passkeyRoutes =
  (_shared: Shared) =>
  async (_req: IncomingMessage, _res: ServerResponse, _path: string, _method: string): Promise<boolean> =>
    false
