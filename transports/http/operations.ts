import type { HttpApi, HttpApiGroup } from "@effect/platform"
import type { Effect } from "effect"
import type { domainErrors } from "../../engine/errors/index.ts"
import type { Api } from "./Api.ts"
import { adminHandlers } from "./handlers/admin.ts"
import { keysHandlers } from "./handlers/apiKeys.ts"
import { bookingsHandlers } from "./handlers/bookings.ts"
import { availabilityHandlers, seriesHandlers, sessionsHandlers } from "./handlers/calendar.ts"
import { clockHandlers } from "./handlers/clock.ts"
import { closuresHandlers } from "./handlers/closures.ts"
import { customersHandlers } from "./handlers/customers.ts"
import type { Group } from "./handlers/define.ts"
import { exportsHandlers } from "./handlers/exports.ts"
import { feedsHandlers } from "./handlers/feeds.ts"
import { giftCardsHandlers } from "./handlers/giftCards.ts"
import { guestHandlers } from "./handlers/guest.ts"
import { messagesHandlers } from "./handlers/messages.ts"
import { oauthAppsHandlers } from "./handlers/oauthApps.ts"
import { offeringsHandlers } from "./handlers/offerings.ts"
import { eventsHandlers, invitesHandlers, orgHandlers, teamHandlers, waiverHandlers } from "./handlers/org.ts"
import { promoCodesHandlers } from "./handlers/promoCodes.ts"
import { publicHandlers } from "./handlers/public.ts"
import { reportsHandlers } from "./handlers/reports.ts"
import { waitlistHandlers } from "./handlers/waitlist.ts"
import { waiversHandlers } from "./handlers/waivers.ts"
import { webhooksHandlers } from "./handlers/webhooks.ts"
import type { RAISED } from "./raised.ts"

type GroupName =
  typeof Api extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R>
    ? HttpApiGroup.HttpApiGroup.Name<Groups>
    : never

/**
 * Every operation of the contract, by group: the one table the dispatcher builds its routes from (routes.ts), so
 * every MCP tool and OpenAPI operation has its handler. A group left out, or one the contract does not have, does
 * not compile.
 */
export const operations = {
  admin: adminHandlers,
  availability: availabilityHandlers,
  bookings: bookingsHandlers,
  clock: clockHandlers,
  closures: closuresHandlers,
  customers: customersHandlers,
  events: eventsHandlers,
  feeds: feedsHandlers,
  gift_cards: giftCardsHandlers,
  guest: guestHandlers,
  invites: invitesHandlers,
  keys: keysHandlers,
  messages: messagesHandlers,
  oauth_apps: oauthAppsHandlers,
  offerings: offeringsHandlers,
  org: orgHandlers,
  promo_codes: promoCodesHandlers,
  public: publicHandlers,
  reports: reportsHandlers,
  exports: exportsHandlers,
  series: seriesHandlers,
  sessions: sessionsHandlers,
  team: teamHandlers,
  waiver: waiverHandlers,
  waitlist: waitlistHandlers,
  waivers: waiversHandlers,
  webhooks: webhooksHandlers
} satisfies { readonly [G in GroupName]: Group<G, unknown> }

type Operations = typeof operations
type ErrorOf<F> = F extends (...args: never) => Effect.Effect<infer _A, infer E, infer _R> ? E : never

/** What each operation's handler can fail with, as the compiler infers it: scripts/raised.ts writes raised.ts from it. */
export type HandlerErrors = {
  readonly [G in keyof Operations]: Operations[G] extends Group<G, infer H>
    ? { readonly [N in keyof H]: ErrorOf<H[N]> }
    : never
}

type Declared<Raised, Op> = Op extends keyof Raised
  ? Raised[Op] extends ReadonlyArray<infer T extends keyof typeof domainErrors>
    ? InstanceType<(typeof domainErrors)[T]>
    : never
  : never
type TagOf<E> = E extends { readonly _tag: infer T extends string } ? T : never
type OperationId = { [G in keyof HandlerErrors]: `${G}.${keyof HandlerErrors[G] & string}` }[keyof HandlerErrors]

/**
 * Where a table of declared refusals (raised.ts is the one) is not exactly what the handlers can fail with: each
 * operation whose handler raises a class it does not declare, or declares one it never raises, and any entry that is
 * no operation. `never` when it says what they raise.
 */
export type RaisedMismatch<Raised> =
  | {
      readonly [G in keyof HandlerErrors]: {
        readonly [N in keyof HandlerErrors[G] & string]: [Declared<Raised, `${G}.${N}`>] extends [HandlerErrors[G][N]]
          ? [HandlerErrors[G][N]] extends [Declared<Raised, `${G}.${N}`>]
            ? never
            : {
                readonly operation: `${G}.${N}`
                readonly undeclared: TagOf<Exclude<HandlerErrors[G][N], Declared<Raised, `${G}.${N}`>>>
              }
          : {
              readonly operation: `${G}.${N}`
              readonly neverRaised: TagOf<Exclude<Declared<Raised, `${G}.${N}`>, HandlerErrors[G][N]>>
            }
      }[keyof HandlerErrors[G] & string]
    }[keyof HandlerErrors]
  | ([Exclude<keyof Raised, OperationId>] extends [never]
      ? never
      : { readonly notAnOperation: Exclude<keyof Raised, OperationId> })

/**
 * The compiler's check that raised.ts says what the handlers can fail with, no more and no less, for every operation
 * (`npm run raised` rewrites it from the handlers' types): a type error here names the operation and the classes.
 */
export const raisedIsWhatHandlersRaise: [RaisedMismatch<typeof RAISED>] extends [never]
  ? true
  : RaisedMismatch<typeof RAISED> = true
