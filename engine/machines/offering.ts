import { setup, transition } from "xstate"

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

export const decideOffering = (
  state: OfferingState,
  event: OfferingEvent
): { ok: true; state: OfferingState } | { ok: false; code: string } => {
  const snapshot = offeringMachine.resolveState({ value: state, context: {} })
  if (!snapshot.can(event)) return { ok: false, code: state === "removed" ? "offering_removed" : "offering_state" }
  const [next] = transition(offeringMachine, snapshot, event)
  return { ok: true, state: next.value as OfferingState }
}
