import { Context, type Effect } from "effect"

/** What one GET of a photo's URL came to: its bytes, or why there are none. */
export type Fetched =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | {
      /** refused: the URL may not be fetched (scheme, credentials, a private or reserved address); unreachable: no
       * usable answer (no such host, no connection, a time-out, a status that is not 2xx, a redirect); too_large:
       * the body ran past the limit while it was read. */
      readonly ok: false
      readonly reason: "refused" | "unreachable" | "too_large"
      readonly message: string
    }

/**
 * How the engine reads a photo from a URL (offerings.set_photo with url). The transport refuses what a webhook may not
 * reach (https only, no private, loopback or reserved address, checked again at connect time), follows no redirect,
 * stops reading past `limit` bytes and gives up after `timeoutMs`.
 */
export class PhotoFetcher extends Context.Tag("PhotoFetcher")<
  PhotoFetcher,
  {
    readonly get: (
      url: string,
      options: { readonly limit: number; readonly timeoutMs: number }
    ) => Effect.Effect<Fetched>
  }
>() {}
