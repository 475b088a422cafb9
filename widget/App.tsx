import { useEffect, useRef, useState } from "preact/hooks"
import { Ask } from "./Ask.tsx"
import type { Booked, Client, Offering, Org, Slot } from "./api.ts"
import { Details } from "./Details.tsx"
import { money, when } from "./format.ts"
import { message } from "./shared.ts"
import { Times } from "./Times.tsx"
import { Waitlist } from "./Waitlist.tsx"

type Step =
  | { name: "offerings" }
  | { name: "times"; offering: Offering }
  | { name: "details"; offering: Offering; slot: Slot }
  | { name: "booked"; offering: Offering; booked: Booked }
  | { name: "waiting"; offering: Offering; slot: Slot }
  | { name: "ask"; back: Step }

/** The booking widget: offerings, a calendar of times with what remains, the guest's details, then the confirmation or checkout. */
export const App = ({ api, offeringId }: { api: Client; offeringId?: string | undefined }) => {
  const [org, setOrg] = useState<Org>()
  const [offerings, setOfferings] = useState<Offering[]>([])
  const [step, setStep] = useState<Step>({ name: "offerings" })
  const [error, setError] = useState<string>()
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    Promise.all([api.org(), offeringId ? api.offering(offeringId).then((o) => [o]) : api.offerings()]).then(
      ([o, list]) => {
        setOrg(o)
        setOfferings(list)
        if (offeringId && list[0]) setStep({ name: "times", offering: list[0] })
      },
      (e) => setError(message(e))
    )
  }, [])
  // Each step starts at its heading, for keyboards and screen readers.
  useEffect(() => heading.current?.focus(), [step.name])

  if (!org)
    return (
      <div class="card" aria-busy="true">
        {error ? <p role="alert">{error}</p> : <p>Loading…</p>}
      </div>
    )
  const go = (s: Step) => (setError(undefined), setStep(s))
  const h = (text: string) => (
    <h2 tabIndex={-1} ref={heading}>
      {text}
    </h2>
  )

  return (
    <div class="card">
      {error && <p role="alert">{error}</p>}
      {step.name === "offerings" && (
        <section>
          {h(`Book with ${org.name}`)}
          {offerings.length === 0 ? (
            <p>Nothing to book just now.</p>
          ) : (
            <ul class="list">
              {offerings.map((o) => (
                <li key={o.id}>
                  <button type="button" class="offering" onClick={() => go({ name: "times", offering: o })}>
                    <strong>{o.name}</strong>
                    <br />
                    <span class="note">
                      {o.price_cents > 0
                        ? `${money(o.price_cents, org.currency, org.currency_minor_units)} ${o.kind === "rental" ? "per period" : o.kind === "class" ? "per seat" : ""}`
                        : "Free"}{" "}
                      · {o.duration_minutes} min
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {step.name === "times" && (
        <Times
          api={api}
          org={org}
          offering={step.offering}
          heading={h}
          onBack={offeringId ? undefined : () => go({ name: "offerings" })}
          onPick={(slot) => go({ name: "details", offering: step.offering, slot })}
          onWait={(slot) => go({ name: "waiting", offering: step.offering, slot })}
          onError={setError}
        />
      )}
      {step.name === "details" && (
        <Details
          api={api}
          org={org}
          offering={step.offering}
          slot={step.slot}
          heading={h}
          onBack={() => go({ name: "times", offering: step.offering })}
          onBooked={(booked) => {
            if (booked.checkout_url) window.location.assign(booked.checkout_url)
            else go({ name: "booked", offering: step.offering, booked })
          }}
          onError={setError}
        />
      )}
      {step.name === "booked" && (
        <section>
          {h(step.booked.status === "held" ? "Almost done" : "You are booked")}
          <div class="ok" role="status">
            <p>
              <strong>{step.offering.name}</strong>, {when(step.booked.starts_at, org.timezone)} ({org.timezone} time)
            </p>
            <p>Reference {step.booked.reference}.</p>
            <p>We mailed your booking page to {step.booked.mailed_to}: see or change your booking from there.</p>
          </div>
        </section>
      )}
      {step.name === "waiting" && (
        <Waitlist
          api={api}
          org={org}
          offering={step.offering}
          slot={step.slot}
          heading={h}
          onBack={() => go({ name: "times", offering: step.offering })}
          onError={setError}
        />
      )}
      {step.name === "ask" && <Ask api={api} org={org} heading={h} onBack={() => go(step.back)} />}
      {(step.name === "offerings" || step.name === "times") && (
        <p class="note">
          <button type="button" onClick={() => go({ name: "ask", back: step })}>
            Ask a question
          </button>{" "}
          before you book: the answer comes by email.
        </p>
      )}
    </div>
  )
}
