import type { IncomingMessage, ServerResponse } from "node:http"
import type { Effect } from "effect"
import type { Auth, Signed } from "../../engine/services/auth/Auth.ts"
import type { InviteSignIn } from "../../engine/services/auth/Invites.ts"
import type { Passkeys } from "../../engine/services/auth/Passkeys.ts"
import type { Profile } from "../../engine/services/auth/Profile.ts"
import type { CookieNames } from "./cookies.ts"
import type { runner } from "./reply.ts"

/** The services /auth/v1 runs on. */
export type AuthRuntime = Auth | InviteSignIn | Passkeys | Profile

export type Limit = (
  key: string
) => Promise<{ readonly ok: true } | { readonly ok: false; readonly retryAfter: number }>

export interface AuthLimits {
  /** Sign-in attempts from one client address. */
  readonly address: (req: IncomingMessage) => ReturnType<Limit>
  /** Sign-in links asked for one email. */
  readonly email: Limit
}

/**
 * The engine's HTML pages, handed in by the server (transports/pages): the same layout, headers and form reader as
 * every other page, without this folder importing that one.
 */
export interface Html {
  readonly page: (title: string, body: string) => string
  readonly send: (
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers?: Record<string, string>
  ) => void
  readonly escapeHtml: (s: string) => string
  readonly readForm: (
    req: IncomingMessage
  ) => Promise<
    | { readonly ok: true; readonly form: URLSearchParams }
    | { readonly ok: false; readonly status: number; readonly message: string }
  >
  readonly type: string
}

/** What the parts of /auth/v1 share: cookies, the runner, the session of a request, limits and pages. */
export interface Shared {
  readonly names: CookieNames
  readonly run: ReturnType<typeof runner<AuthRuntime>>
  readonly signedIn: (req: IncomingMessage, res: ServerResponse) => Promise<Signed | undefined>
  readonly sessionCookie: (token: string) => string
  readonly tooMany: (res: ServerResponse, retryAfter: number) => void
  readonly limits: AuthLimits
  readonly publicUrl: string
  readonly resolve: (token: string) => Effect.Effect<Signed | undefined, never, Auth>
  readonly html: Html
}

/** Sign-in attempts (links asked, passkey sign-ins) per client address, and links per email, in a window. */
export const SIGN_IN_PER_ADDRESS = 30
export const SIGN_IN_PER_EMAIL = 5
export const SIGN_IN_WINDOW_SECONDS = 900
