import { initialTransition, setup, transition } from "xstate"

export type OfferingState = "active" | "paused" | "removed"
export type OfferingEvent = { type: "pause" } | { type: "resume" } | { type: "remove" }

/** active <-> paused -> removed. Pausing stops guests and agents from booking; removal is final. */
export const offeringMachine = setup({
  types: { events: {} as OfferingEvent }
}).createMachine({
  id: "offering",
  initial: "active",
  states: {
    active: { on: { pause: "paused", remove: "removed" } },
    paused: { on: { resume: "active", remove: "removed" } },
    removed: { type: "final" }
  }
})

export type OfferingDecision =
  | { ok: true; state: OfferingState }
  | { ok: false; code: "offering_removed" | "offering_state" }
export type OfferingAccepted = Extract<OfferingDecision, { ok: true }>

/** A new offering: the machine's first state, paused at once when it is made inactive. */
export const startOffering = (active: boolean): OfferingDecision => {
  const [snapshot] = initialTransition(offeringMachine)
  const state = snapshot.value as OfferingState
  return active ? { ok: true, state } : decideOffering(state, { type: "pause" })
}

export const decideOffering = (state: OfferingState, event: OfferingEvent): OfferingDecision => {
  const snapshot = offeringMachine.resolveState({ value: state, context: {} })
  if (!snapshot.can(event)) return { ok: false, code: state === "removed" ? "offering_removed" : "offering_state" }
  const [next] = transition(offeringMachine, snapshot, event)
  return { ok: true, state: next.value as OfferingState }
}
