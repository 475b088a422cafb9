import { Effect } from "effect"
import { OAuth } from "../../../engine/services/oauth/OAuth.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const oauthAppsHandlers = defineGroup(Api, "oauth_apps", (h) =>
  Effect.map(OAuth, (oauth) =>
    h.handle("list", () => oauth.listApps).handle("revoke", ({ path }) => oauth.revokeApp(path.id))
  )
)
