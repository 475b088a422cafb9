import { Migrator } from "@effect/sql"
import foundation from "./migrations/0001_foundation.ts"
import calendar from "./migrations/0002_calendar.ts"
import bookings from "./migrations/0003_bookings.ts"
import mail from "./migrations/0004_mail.ts"
import webhooks from "./migrations/0005_webhooks.ts"
import quota from "./migrations/0006_quota.ts"
import capacityGuard from "./migrations/0007_capacity_guard.ts"
import counters from "./migrations/0008_counters.ts"
import mailRender from "./migrations/0009_mail_render.ts"
import payments from "./migrations/0030_payments.ts"
import sandboxProcessor from "./migrations/0031_sandbox_processor.ts"
import apiKeys from "./migrations/0070_api_keys.ts"
import promoCodes from "./migrations/0071_promo_codes.ts"
import giftCards from "./migrations/0072_gift_cards.ts"
import team from "./migrations/0073_team.ts"
import waiverSignatures from "./migrations/0074_waiver_signatures.ts"
import messages from "./migrations/0075_messages.ts"
import rateLimits from "./migrations/0076_rate_limits.ts"
import waitlist from "./migrations/0077_waitlist.ts"
import publishableKeys from "./migrations/0078_publishable_keys.ts"
import guestPage from "./migrations/0079_guest_page.ts"
import demoSite from "./migrations/0080_demo_site.ts"
import octoResellers from "./migrations/0081_octo_resellers.ts"
import orgSlug from "./migrations/0082_org_slug.ts"
import oauth from "./migrations/0083_oauth.ts"
import hostedPages from "./migrations/0084_hosted_pages.ts"
import offeringPhotos from "./migrations/0085_offering_photos.ts"
import giftPurchases from "./migrations/0086_gift_purchases.ts"
import messageDrafts from "./migrations/0087_message_drafts.ts"
import holdCaps from "./migrations/0088_hold_caps.ts"
import sandboxRedelivery from "./migrations/0089_sandbox_redelivery.ts"
import leanBookingInsert from "./migrations/0090_lean_booking_insert.ts"
import placesFastPath from "./migrations/0091_places_fast_path.ts"
import relayQueue from "./migrations/0092_relay_queue.ts"
import mailQueue from "./migrations/0093_mail_queue.ts"
import quotaOnClock from "./migrations/0094_quota_on_clock.ts"
import customerLookup from "./migrations/0095_customer_lookup.ts"
import deployment from "./migrations/0096_deployment.ts"
import machineFromColumns from "./migrations/0097_machine_from_columns.ts"
import giftReserveComplaints from "./migrations/0098_gift_reserve_complaints.ts"
import texts from "./migrations/0110_texts.ts"
import people from "./migrations/0120_people.ts"
import eventBooking from "./migrations/0121_event_booking.ts"
import textReceipts from "./migrations/0130_text_receipts.ts"
import eventActor from "./migrations/0140_event_actor.ts"
import closures from "./migrations/0180_closures.ts"
import reportIndexes from "./migrations/0182_report_indexes.ts"
import exportIndexes from "./migrations/0183_export_indexes.ts"
import calendarFeeds from "./migrations/0186_calendar_feeds.ts"

/** Numbered migrations, by name; the adapter's migrator runs what is new on start, in order, once. */
export const migrationsByName = {
  "0001_foundation": foundation,
  "0002_calendar": calendar,
  "0003_bookings": bookings,
  "0004_mail": mail,
  "0005_webhooks": webhooks,
  "0006_quota": quota,
  "0007_capacity_guard": capacityGuard,
  "0008_counters": counters,
  "0009_mail_render": mailRender,
  "0030_payments": payments,
  "0031_sandbox_processor": sandboxProcessor,
  "0070_api_keys": apiKeys,
  "0071_promo_codes": promoCodes,
  "0072_gift_cards": giftCards,
  "0073_team": team,
  "0074_waiver_signatures": waiverSignatures,
  "0075_messages": messages,
  "0076_rate_limits": rateLimits,
  "0077_waitlist": waitlist,
  "0078_publishable_keys": publishableKeys,
  "0079_guest_page": guestPage,
  "0080_demo_site": demoSite,
  "0081_octo_resellers": octoResellers,
  "0082_org_slug": orgSlug,
  "0083_oauth": oauth,
  "0084_hosted_pages": hostedPages,
  "0085_offering_photos": offeringPhotos,
  "0086_gift_purchases": giftPurchases,
  "0087_message_drafts": messageDrafts,
  "0088_hold_caps": holdCaps,
  "0089_sandbox_redelivery": sandboxRedelivery,
  "0090_lean_booking_insert": leanBookingInsert,
  "0091_places_fast_path": placesFastPath,
  "0092_relay_queue": relayQueue,
  "0093_mail_queue": mailQueue,
  "0094_quota_on_clock": quotaOnClock,
  "0095_customer_lookup": customerLookup,
  "0096_deployment": deployment,
  "0097_machine_from_columns": machineFromColumns,
  "0098_gift_reserve_complaints": giftReserveComplaints,
  "0110_texts": texts,
  "0120_people": people,
  "0121_event_booking": eventBooking,
  "0130_text_receipts": textReceipts,
  "0140_event_actor": eventActor,
  "0180_closures": closures,
  "0182_report_indexes": reportIndexes,
  "0183_export_indexes": exportIndexes,
  "0186_calendar_feeds": calendarFeeds
}

export const migrations = Migrator.fromRecord(migrationsByName)
