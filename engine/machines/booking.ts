import { assertEvent, assign, emit, setup } from "xstate"
import type { BookingContext, BookingEvent, BookingEventName, BookingInput } from "./bookingTypes.ts"
import { type Decision, decide, type Refusals, type Row, start } from "./decide.ts"

export type { BookingContext, BookingEvent, BookingEventName, BookingInput, Times } from "./bookingTypes.ts"

// Booking lifecycle (spec "States and transitions", Booking `status`).
// Choices the spec leaves open: a lapsed hold may still be confirmed or paid (the service re-checks capacity first);
// a keeping hold may move (it keeps its hold); a lapsed hold may not; held and reseller bookings are never called off
// (the service cancels them instead); `lapse` needs now >= expires_at; attendance marks may be repeated;
// a payment landing for a booking confirmed by hand and not paid yet pays it (booking.paid), any other is refused
// (already_paid; the service refunds it); mark_unpaid takes back only the hand payment: paid_at goes back to the online
// payment's (paid_online_at), or null.

const ms = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso))

const guards = {
  hold: ({ context }: { context: BookingContext }) => context.confirmed_at === null,
  holdExpired: ({ context, event }: { context: BookingContext; event: BookingEvent }) =>
    ms(event.at) >= ms(context.expires_at),
  beforeExpiry: ({ context, event }: { context: BookingContext; event: BookingEvent }) =>
    ms(event.at) < ms(context.expires_at),
  notNudged: ({ context }: { context: BookingContext }) => context.nudged_at === null,
  beforeChooseBy: ({ context, event }: { context: BookingContext; event: BookingEvent }) =>
    ms(event.at) < ms(context.choose_by),
  chooseByPassed: ({ context, event }: { context: BookingContext; event: BookingEvent }) =>
    ms(event.at) >= ms(context.choose_by),
  notReseller: ({ context }: { context: BookingContext }) => !context.is_reseller,
  isCourse: ({ context }: { context: BookingContext }) => context.series_id !== null,
  notPaidByHand: ({ context }: { context: BookingContext }) => !context.paid_by_hand,
  unpaid: ({ context }: { context: BookingContext }) => context.paid_at === null,
  paidByHand: ({ context }: { context: BookingContext }) => context.paid_by_hand,
  started: ({ context, event }: { context: BookingContext; event: BookingEvent }) =>
    ms(event.at) >= ms(context.starts_at)
}

/** A new booking's context: confirmed at once, or held until expires_at. */
const initialContext = (input: BookingInput): BookingContext => ({
  starts_at: input.starts_at,
  ends_at: input.ends_at,
  session_id: input.session_id,
  series_id: input.series_id,
  is_reseller: input.is_reseller,
  expires_at: input.hold ? input.expires_at : null,
  confirmed_at: input.hold ? null : input.at,
  cancelled_at: null,
  nudged_at: null,
  choose_by: null,
  paid_at: input.paid === true || input.paid_by_hand === true ? input.at : null,
  paid_online_at: input.paid === true ? input.at : null,
  paid_by_hand: input.paid_by_hand === true && input.paid !== true,
  checked_in_at: null,
  no_show_at: null,
  previous: null
})

const out = (event: BookingEventName) => ({ type: "outbox", params: { event } }) as const

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
    emitted: {} as { type: BookingEventName }
  },
  actions: {
    outbox: emit((_, params: { event: BookingEventName }) => ({ type: params.event })),
    recordConfirmed: assign({ confirmed_at: ({ event }) => event.at, expires_at: null }),
    recordPayment: assign({
      paid_at: ({ event }) => event.at,
      paid_online_at: ({ event }) => event.at,
      paid_by_hand: false
    }),
    recordNudge: assign({ nudged_at: ({ event }) => event.at }),
    recordCancel: assign({ cancelled_at: ({ event }) => event.at, choose_by: null }),
    recordMove: assign(({ context, event }) => {
      assertEvent(event, "move")
      const { starts_at, ends_at, session_id } = event
      return {
        previous: { starts_at: context.starts_at, ends_at: context.ends_at, session_id: context.session_id },
        starts_at,
        ends_at,
        session_id,
        choose_by: null
      }
    }),
    recordCallOff: assign(({ event }) => {
      assertEvent(event, "call_off")
      return { choose_by: event.choose_by }
    }),
    recordTimeLost: assign(({ event }) => {
      assertEvent(event, "time_cancelled")
      return { starts_at: event.starts_at, session_id: event.session_id }
    }),
    recordPaidByHand: assign({ paid_at: ({ event }) => event.at, paid_by_hand: true }),
    recordUnpaid: assign({ paid_at: ({ context }) => context.paid_online_at ?? null, paid_by_hand: false }),
    recordCheckIn: assign({ checked_in_at: ({ event }) => event.at, no_show_at: null }),
    recordNoShow: assign({ no_show_at: ({ event }) => event.at, checked_in_at: null }),
    clearAttendance: assign({ checked_in_at: null, no_show_at: null }),
    recordExtension: assign(({ event }) => {
      assertEvent(event, "extend_hold")
      return { expires_at: event.expires_at }
    }),
    /** A fact the machine allows but does not keep (a checkout's address, a signature): the store writes it. */
    recordFact: () => undefined
  },
  guards
}).createMachine({
  id: "booking",
  context: ({ input }) => initialContext(input),
  initial: "new",
  states: {
    new: {
      always: [
        { guard: "hold", target: "held", actions: out("booking.held") },
        { target: "confirmed", actions: out("booking.confirmed") }
      ]
    },
    held: {
      initial: "keeping",
      on: {
        confirm: { target: "confirmed", actions: ["recordConfirmed", out("booking.confirmed")] },
        pay: { target: "confirmed", actions: ["recordConfirmed", "recordPayment", out("booking.confirmed")] },
        cancel: { target: "cancelled", actions: ["recordCancel", out("booking.cancelled")] },
        checkout_opened: { actions: "recordFact" }
      },
      states: {
        keeping: {
          on: {
            lapse: { guard: "holdExpired", target: "lapsed" },
            extend_hold: { guard: "beforeExpiry", actions: "recordExtension" },
            sign_waiver: { actions: "recordFact" },
            move: { target: "keeping", actions: ["recordMove", out("booking.moved")] },
            time_cancelled: {
              guard: "isCourse",
              target: "keeping",
              actions: ["recordTimeLost", out("booking.session_cancelled")]
            }
          }
        },
        lapsed: {
          on: { nudge: { guard: "notNudged", target: "lapsed", actions: ["recordNudge", out("booking.nudged")] } }
        }
      }
    },
    confirmed: {
      initial: "plain",
      on: {
        cancel: { target: "cancelled", actions: ["recordCancel", out("booking.cancelled")] },
        time_cancelled: { guard: "isCourse", actions: ["recordTimeLost", out("booking.session_cancelled")] },
        pay: { guard: "unpaid", actions: ["recordPayment", out("booking.paid")] },
        mark_paid: { guard: "notPaidByHand", actions: ["recordPaidByHand", out("booking.paid")] },
        mark_unpaid: { guard: "paidByHand", actions: ["recordUnpaid", out("booking.unpaid")] },
        check_in: { actions: ["recordCheckIn", out("booking.checked_in")] },
        no_show: { guard: "started", actions: ["recordNoShow", out("booking.no_show")] },
        clear_attendance: { actions: ["clearAttendance", out("booking.attendance_cleared")] },
        sign_waiver: { actions: "recordFact" }
      },
      states: {
        plain: {
          on: {
            move: { target: "plain", actions: ["recordMove", out("booking.moved")] },
            call_off: {
              guard: "notReseller",
              target: "choosing",
              actions: ["recordCallOff", out("booking.called_off")]
            }
          }
        },
        choosing: {
          on: {
            move: { guard: "beforeChooseBy", target: "plain", actions: ["recordMove", out("booking.moved")] },
            choose_expired: {
              guard: "chooseByPassed",
              target: "#booking.cancelled",
              actions: ["recordCancel", out("booking.cancelled")]
            }
          }
        }
      }
    },
    cancelled: { type: "final" }
  }
})

export const bookingMessages = {
  booking_cancelled: "The booking is cancelled",
  booking_not_held: "The booking is not held",
  booking_not_confirmed: "The booking is not confirmed",
  hold_lapsed: "The hold has lapsed",
  hold_not_lapsed: "The hold still keeps its place",
  hold_not_expired: "The hold has not reached expires_at",
  already_nudged: "The guest was already nudged",
  not_choosing: "The booking is not choosing another time",
  already_called_off: "The booking was already called off",
  reseller_booking: "A reseller's booking is cancelled, not called off",
  choose_by_passed: "choose_by has passed",
  choose_by_not_passed: "choose_by has not passed",
  not_a_course: "The booking is not a course booking",
  already_paid: "The booking is already paid",
  not_paid_by_hand: "The booking was not marked paid by hand",
  not_started: "The booking's time has not started"
} as const

export type BookingCode = keyof typeof bookingMessages
export const bookingCodes = Object.keys(bookingMessages) as ReadonlyArray<BookingCode>

export const bookingRefusals: Refusals<BookingCode, BookingEvent["type"]> = {
  messages: bookingMessages,
  guards: {
    holdExpired: "hold_not_expired",
    beforeExpiry: "hold_lapsed",
    notNudged: "already_nudged",
    beforeChooseBy: "choose_by_passed",
    chooseByPassed: "choose_by_not_passed",
    notReseller: "reseller_booking",
    isCourse: "not_a_course",
    notPaidByHand: "already_paid",
    unpaid: "already_paid",
    paidByHand: "not_paid_by_hand",
    started: "not_started"
  } satisfies Record<Exclude<keyof typeof guards, "hold">, BookingCode>,
  states: {
    "held.keeping": { nudge: "hold_not_lapsed" },
    "held.lapsed": {
      lapse: "hold_lapsed",
      move: "hold_lapsed",
      extend_hold: "hold_lapsed",
      sign_waiver: "hold_lapsed"
    },
    held: { "*": "booking_not_confirmed" },
    "confirmed.plain": { choose_expired: "not_choosing" },
    "confirmed.choosing": { call_off: "already_called_off" },
    confirmed: { "*": "booking_not_held" },
    cancelled: { "*": "booking_cancelled" }
  },
  otherwise: "booking_not_confirmed"
}

export type BookingRow = Row<typeof bookingMachine>
export type BookingState = BookingRow["value"]
export type BookingDecision = Decision<typeof bookingMachine, BookingCode>

/** The machine's own evaluation of a new booking (what startBooking must always equal). */
export const startBookingByMachine = (input: BookingInput) => start(bookingMachine, input)

/**
 * Where a new booking starts (state, emits, tasks) depends on `hold` alone: the one guard of the initial transition
 * reads confirmed_at, which the context sets from `hold`. So the machine is evaluated once per value of `hold` (it
 * was about 0.3 ms of CPU per booking) and each booking gets its own context. specs/property/bookings/start.property.test.ts
 * holds this equal to startBookingByMachine for any input.
 */
const startsByHold = new Map<boolean, ReturnType<typeof startBookingByMachine>>()
export const startBooking = (input: BookingInput): ReturnType<typeof startBookingByMachine> => {
  let started = startsByHold.get(input.hold)
  if (started === undefined) {
    started = startBookingByMachine(input)
    startsByHold.set(input.hold, started)
  }
  return { ...started, context: initialContext(input) }
}
export const decideBooking = (row: BookingRow, event: BookingEvent): BookingDecision =>
  decide(bookingMachine, bookingRefusals, row, event)

export const bookingStatus = (state: BookingState): "held" | "confirmed" | "cancelled" =>
  typeof state === "string"
    ? state === "cancelled"
      ? "cancelled"
      : "confirmed"
    : "held" in state
      ? "held"
      : "confirmed"
