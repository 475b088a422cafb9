import { useEffect, useMemo, useRef, useState } from "preact/hooks"
import { Ask } from "./Ask.tsx"
import { ApiError, type Booked, type Client, type Offering, type Org, type Quote, type Slot } from "./api.ts"
import { addDays, dayLabel, dayLong, localDate, money, time, when } from "./format.ts"

type Step =
  | { name: "offerings" }
  | { name: "times"; offering: Offering }
  | { name: "details"; offering: Offering; slot: Slot }
  | { name: "booked"; offering: Offering; booked: Booked }
  | { name: "waiting"; offering: Offering; slot: Slot }
  | { name: "ask"; back: Step }

const WINDOW_DAYS = 14
const message = (e: unknown) =>
  e instanceof ApiError ? e.message : "The booking service could not be reached. Try again."

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
            <p>Reference {step.booked.reference}. A confirmation is on its way by email.</p>
          </div>
          <p>
            <a href={step.booked.page_url}>See or change your booking</a>
          </p>
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

type Heading = (text: string) => preact.JSX.Element

const Times = (p: {
  api: Client
  org: Org
  offering: Offering
  heading: Heading
  onBack?: (() => void) | undefined
  onPick: (s: Slot) => void
  onWait: (s: Slot) => void
  onError: (e: string) => void
}) => {
  const today = p.org.today
  const [from, setFrom] = useState(today)
  const [slots, setSlots] = useState<Slot[]>()
  const [day, setDay] = useState<string>()
  useEffect(() => {
    setSlots(undefined)
    p.api.times(p.offering.id, from, addDays(from, WINDOW_DAYS - 1)).then(
      (r) => {
        setSlots(r.data)
        const first = r.data.find((s) => s.remaining > 0) ?? r.data[0]
        setDay(first ? localDate(first.starts_at, p.org.timezone) : undefined)
      },
      (e) => p.onError(message(e))
    )
  }, [from])
  const byDay = useMemo(() => {
    const m = new Map<string, Slot[]>()
    for (const s of slots ?? []) {
      const d = localDate(s.starts_at, p.org.timezone)
      m.set(d, [...(m.get(d) ?? []), s])
    }
    return m
  }, [slots])
  const shown = day ? (byDay.get(day) ?? []) : []
  return (
    <section>
      {p.heading(p.offering.name)}
      {p.offering.description && <p class="note">{p.offering.description}</p>}
      <p class="note">Times are in {p.org.timezone} time.</p>
      <div class="nav">
        <button
          type="button"
          onClick={() => setFrom(addDays(from, -WINDOW_DAYS))}
          disabled={from <= today}
          aria-label="Earlier dates"
        >
          ‹ Earlier
        </button>
        <span aria-live="polite">
          {dayLabel(`${from}T12:00:00Z`, "UTC")} to {dayLabel(`${addDays(from, WINDOW_DAYS - 1)}T12:00:00Z`, "UTC")}
        </span>
        <button type="button" onClick={() => setFrom(addDays(from, WINDOW_DAYS))} aria-label="Later dates">
          Later ›
        </button>
      </div>
      {slots === undefined ? (
        <p aria-busy="true">Loading times…</p>
      ) : byDay.size === 0 ? (
        <p>No times in these two weeks.</p>
      ) : (
        <>
          <h3 id="days-label">Day</h3>
          {/* biome-ignore lint/a11y/useSemanticElements: a row of day chips, not a form */}
          <div class="days" role="group" aria-labelledby="days-label">
            {[...byDay].map(([d, list]) => {
              const open = list.filter((s) => s.remaining > 0).length
              return (
                <button type="button" key={d} aria-pressed={day === d} onClick={() => setDay(d)}>
                  {dayLabel(list[0].starts_at, p.org.timezone)}
                  <br />
                  <span class="note">{open === 0 ? "full" : `${open} free`}</span>
                </button>
              )
            })}
          </div>
          {day && (
            <>
              <h3 id="times-label">Times on {dayLong(shown[0]?.starts_at ?? `${day}T12:00:00Z`, p.org.timezone)}</h3>
              {/* biome-ignore lint/a11y/useSemanticElements: a row of time chips, not a form */}
              <div class="times" role="group" aria-labelledby="times-label">
                {shown.map((s) =>
                  s.remaining > 0 ? (
                    <button type="button" key={s.starts_at} onClick={() => p.onPick(s)}>
                      {time(s.starts_at, p.org.timezone)} <span class="note">({s.remaining} left)</span>
                    </button>
                  ) : p.offering.waitlist_enabled ? (
                    <button type="button" key={s.starts_at} onClick={() => p.onWait(s)}>
                      {time(s.starts_at, p.org.timezone)} <span class="note">(full: join the waitlist)</span>
                    </button>
                  ) : (
                    <button type="button" key={s.starts_at} disabled>
                      {time(s.starts_at, p.org.timezone)} <span class="note">(full)</span>
                    </button>
                  )
                )}
              </div>
            </>
          )}
        </>
      )}
      {p.onBack && (
        <button type="button" onClick={p.onBack}>
          ‹ All offerings
        </button>
      )}
    </section>
  )
}

const Details = (p: {
  api: Client
  org: Org
  offering: Offering
  slot: Slot
  heading: Heading
  onBack: () => void
  onBooked: (b: Booked) => void
  onError: (e: string | undefined) => void
}) => {
  const o = p.offering
  // An appointment takes one place whatever the party; seats and items take one each.
  const max = o.kind === "appointment" ? o.max_per_booking : Math.min(o.max_per_booking, p.slot.remaining)
  const [quantity, setQuantity] = useState(1)
  const [periods, setPeriods] = useState(1)
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const [answers, setAnswers] = useState<Record<string, string | boolean>>({})
  const [accept, setAccept] = useState(false)
  const [promo, setPromo] = useState("")
  const [gift, setGift] = useState("")
  const [codes, setCodes] = useState<{ promo?: string; gift?: string }>({})
  const [quote, setQuote] = useState<Quote>()
  const [busy, setBusy] = useState(false)
  const fmt = (c: number) => money(c, p.org.currency, p.org.currency_minor_units)
  const base = { offering_id: o.id, quantity, ...(o.kind === "rental" ? { periods } : {}) }

  useEffect(() => {
    p.api
      .quote({
        ...base,
        ...(codes.promo ? { promo_code: codes.promo } : {}),
        ...(codes.gift ? { gift_card_code: codes.gift } : {})
      })
      .then(
        (q) => (setQuote(q), p.onError(undefined)),
        (e) => p.onError(message(e))
      )
  }, [quantity, periods, codes.promo, codes.gift])

  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    try {
      const booked = await p.api.book({
        ...base,
        ...(p.slot.session_id ? { session_id: p.slot.session_id } : { starts_at: p.slot.starts_at }),
        customer: { name: name.trim(), email: email.trim() },
        ...(Object.keys(answers).length ? { answers } : {}),
        ...(codes.promo ? { promo_code: codes.promo } : {}),
        ...(codes.gift ? { gift_card_code: codes.gift } : {}),
        ...(o.waiver_required ? { waiver: { accept: true, name: name.trim() } } : {})
      })
      p.onBooked(booked)
    } catch (err) {
      p.onError(message(err))
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit}>
      {p.heading("Your details")}
      <p>
        <strong>{o.name}</strong>, {when(p.slot.starts_at, p.org.timezone)}{" "}
        <span class="note">({p.org.timezone} time)</span>
      </p>
      <div class="row">
        <div>
          <label for="be-quantity">{o.kind === "rental" ? "Items" : "People"}</label>
          <input
            id="be-quantity"
            type="number"
            min={1}
            max={max}
            value={quantity}
            required
            onInput={(e) => setQuantity(Math.max(1, Math.min(max, Number((e.target as HTMLInputElement).value) || 1)))}
          />
        </div>
        {o.kind === "rental" && (
          <div>
            <label for="be-periods">Periods of {o.duration_minutes} min</label>
            <input
              id="be-periods"
              type="number"
              min={1}
              max={o.max_periods}
              value={periods}
              required
              onInput={(e) =>
                setPeriods(Math.max(1, Math.min(o.max_periods, Number((e.target as HTMLInputElement).value) || 1)))
              }
            />
          </div>
        )}
      </div>
      <label for="be-name">Name</label>
      <input
        id="be-name"
        autocomplete="name"
        required
        maxLength={120}
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <label for="be-email">Email</label>
      <input
        id="be-email"
        type="email"
        autocomplete="email"
        required
        value={email}
        onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
      />
      {o.questions.map((q) => (
        <div key={q.id}>
          {q.type === "yes_no" ? (
            <label class="check">
              <input
                type="checkbox"
                checked={answers[q.id] === true}
                onChange={(e) => setAnswers({ ...answers, [q.id]: (e.target as HTMLInputElement).checked })}
              />
              {q.label}
            </label>
          ) : q.type === "choice" ? (
            <>
              <label for={`be-q-${q.id}`}>
                {q.label}
                {q.required ? "" : " (optional)"}
              </label>
              <select
                id={`be-q-${q.id}`}
                required={q.required}
                value={String(answers[q.id] ?? "")}
                onChange={(e) => setAnswers({ ...answers, [q.id]: (e.target as HTMLSelectElement).value })}
              >
                <option value="">Choose…</option>
                {(q.options ?? []).map((x) => (
                  <option key={x} value={x}>
                    {x}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <>
              <label for={`be-q-${q.id}`}>
                {q.label}
                {q.required ? "" : " (optional)"}
              </label>
              <input
                id={`be-q-${q.id}`}
                required={q.required}
                maxLength={500}
                value={String(answers[q.id] ?? "")}
                onInput={(e) => setAnswers({ ...answers, [q.id]: (e.target as HTMLInputElement).value })}
              />
            </>
          )}
        </div>
      ))}
      {o.price_cents > 0 && (
        <div class="row">
          <div>
            <label for="be-promo">Promo code (optional)</label>
            <input
              id="be-promo"
              value={promo}
              maxLength={40}
              onInput={(e) => setPromo((e.target as HTMLInputElement).value)}
              onBlur={() => setCodes({ ...codes, promo: promo.trim() || undefined })}
            />
          </div>
          <div>
            <label for="be-gift">Gift card (optional)</label>
            <input
              id="be-gift"
              value={gift}
              maxLength={40}
              onInput={(e) => setGift((e.target as HTMLInputElement).value)}
              onBlur={() => setCodes({ ...codes, gift: gift.trim() || undefined })}
            />
          </div>
        </div>
      )}
      {o.waiver_required && (
        <>
          <h3>Waiver</h3>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling text must be reachable by keyboard (axe scrollable-region-focusable) */}
          <section class="waiver" tabIndex={0} aria-label="Waiver text">
            {p.org.waiver_text ?? ""}
          </section>
          <label class="check">
            <input
              type="checkbox"
              required
              checked={accept}
              onChange={(e) => setAccept((e.target as HTMLInputElement).checked)}
            />
            I have read the waiver and accept it
          </label>
        </>
      )}
      {quote && (
        <div class="price" aria-live="polite">
          <span>Price</span>
          <span>{fmt(quote.price_cents)}</span>
          {quote.discount_cents > 0 && (
            <>
              <span>Promo code</span>
              <span>−{fmt(quote.discount_cents)}</span>
            </>
          )}
          {quote.gift_cents > 0 && (
            <>
              <span>Gift card</span>
              <span>−{fmt(quote.gift_cents)}</span>
            </>
          )}
          <span class="total">To pay</span>
          <span class="total">{quote.due_cents > 0 ? fmt(quote.due_cents) : "Free"}</span>
        </div>
      )}
      <button class="primary" type="submit" disabled={busy}>
        {quote && quote.due_cents > 0 ? `Book and pay ${fmt(quote.due_cents)}` : "Book"}
      </button>
      <button type="button" onClick={p.onBack}>
        ‹ Other times
      </button>
    </form>
  )
}

const Waitlist = (p: {
  api: Client
  org: Org
  offering: Offering
  slot: Slot
  heading: Heading
  onBack: () => void
  onError: (e: string | undefined) => void
}) => {
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const [done, setDone] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    try {
      await p.api.wait({
        offering_id: p.offering.id,
        ...(p.slot.session_id ? { session_id: p.slot.session_id } : { starts_at: p.slot.starts_at }),
        customer: { name: name.trim(), email: email.trim() }
      })
      setDone(true)
      p.onError(undefined)
    } catch (err) {
      p.onError(message(err))
    }
  }
  return done ? (
    <section>
      {p.heading("You are on the waitlist")}
      <p class="ok" role="status">
        We email {email} as soon as a place opens for {when(p.slot.starts_at, p.org.timezone)}.
      </p>
    </section>
  ) : (
    <form onSubmit={submit}>
      {p.heading("Join the waitlist")}
      <p>
        {p.offering.name}, {when(p.slot.starts_at, p.org.timezone)} ({p.org.timezone} time) is full. Leave your details
        and we email you when a place opens.
      </p>
      <label for="be-wname">Name</label>
      <input
        id="be-wname"
        autocomplete="name"
        required
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <label for="be-wemail">Email</label>
      <input
        id="be-wemail"
        type="email"
        autocomplete="email"
        required
        value={email}
        onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
      />
      <button class="primary" type="submit">
        Join the waitlist
      </button>
      <button type="button" onClick={p.onBack}>
        ‹ Other times
      </button>
    </form>
  )
}
