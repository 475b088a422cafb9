import type { IncomingMessage, ServerResponse } from "node:http"
import type { Runtime } from "effect"
import type { Guest } from "../../engine/services/guest/Guest.ts"
import type { Waivers } from "../../engine/services/waivers/Waivers.ts"
import { guestPages } from "./guest.ts"
import { waiverPages } from "./waiver.ts"

/** The guest's pages: /b/{handle}[/action] and /w/{waiver_token}. */
export const PAGES_PATH = /^\/(b|w)\/([^/]+)(?:\/([^/]+))?$/

export const pageRoutes = (runtime: Runtime.Runtime<Guest | Waivers>) => {
  const guest = guestPages(runtime)
  const waiver = waiverPages(runtime)
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const m = PAGES_PATH.exec(url.pathname)!
    let id: string
    try {
      id = decodeURIComponent(m[2])
    } catch {
      id = ""
    }
    if (m[1] === "w") {
      if (m[3] !== undefined)
        return Promise.resolve(void res.writeHead(404, { "content-type": "text/plain" }).end("not found"))
      return waiver(req, res, id, url.searchParams)
    }
    return guest(req, res, id, m[3], url.searchParams)
  }
}
