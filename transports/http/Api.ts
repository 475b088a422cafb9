import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { IdempotencyInProgress, IdempotencyKeyReused } from "../../engine/errors/index.ts"
import { eventSchemas } from "../../engine/schema/eventCatalogue.ts"
import { BadRequestWire, declaringRaised, wireOf } from "./errors.ts"
import { AdminGroup } from "./groups/admin.ts"
import { ApiKeysGroup } from "./groups/apiKeys.ts"
import { BookingsGroup } from "./groups/bookings.ts"
import { AvailabilityGroup, SeriesGroup, SessionsGroup } from "./groups/calendar.ts"
import { ClockGroup } from "./groups/clock.ts"
import { ClosuresGroup } from "./groups/closures.ts"
import { CustomersGroup } from "./groups/customers.ts"
import { EventsGroup } from "./groups/events.ts"
import { ExportsGroup } from "./groups/exports.ts"
import { FeedsGroup } from "./groups/feeds.ts"
import { GiftCardsGroup } from "./groups/giftCards.ts"
import { GuestGroup } from "./groups/guest.ts"
import { MessagesGroup } from "./groups/messages.ts"
import { OAuthAppsGroup } from "./groups/oauthApps.ts"
import { OfferingsGroup } from "./groups/offerings.ts"
import { InvitesGroup, OrgGroup, TeamGroup, WaiverGroup } from "./groups/org.ts"
import { PromoCodesGroup } from "./groups/promoCodes.ts"
import { PublicGroup } from "./groups/public.ts"
import { ReportsGroup } from "./groups/reports.ts"
import { WaitlistGroup } from "./groups/waitlist.ts"
import { WaiversGroup } from "./groups/waivers.ts"
import { WebhooksGroup } from "./groups/webhooks.ts"

/**
 * The one contract. Group = resource, endpoint = verb: group `offerings` + endpoint `list` is the
 * operation `offerings.list`, the OpenAPI operationId, and the MCP tool `offerings_list`. Each endpoint declares the
 * domain errors its handler can fail with (raised.ts, derived from the handlers: operations.ts).
 */
export class Api extends declaringRaised(
  HttpApi.make("booking-engine")
    .add(OfferingsGroup)
    .add(CustomersGroup)
    .add(EventsGroup)
    .add(OrgGroup)
    .add(TeamGroup)
    .add(InvitesGroup)
    .add(WaiverGroup)
    .add(WaiversGroup)
    .add(ApiKeysGroup)
    .add(OAuthAppsGroup)
    .add(AvailabilityGroup)
    .add(SeriesGroup)
    .add(SessionsGroup)
    .add(ClosuresGroup)
    .add(FeedsGroup)
    .add(ReportsGroup)
    .add(ExportsGroup)
    .add(BookingsGroup)
    .add(PromoCodesGroup)
    .add(GiftCardsGroup)
    .add(MessagesGroup)
    .add(WaitlistGroup)
    .add(PublicGroup)
    .add(GuestGroup)
    .add(WebhooksGroup)
    .add(ClockGroup)
    .add(AdminGroup)
    // What the transport answers around any handler: a field that does not decode, an Idempotency-Key in use or reused.
    .addError(BadRequestWire)
    .addError(wireOf(IdempotencyInProgress))
    .addError(wireOf(IdempotencyKeyReused))
    .annotate(HttpApi.AdditionalSchemas, eventSchemas)
    .annotate(OpenApi.Title, "Booking engine API")
    .annotate(OpenApi.Version, "1")
    .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/licenses/MIT" })
    .annotate(OpenApi.Description, "Classes, appointments and rentals. Every operation is also an MCP tool at /mcp.")
) {}
