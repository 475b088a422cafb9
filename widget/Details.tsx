import { useEffect, useState } from "preact/hooks"
import type { Booked, Client, Offering, Org, Quote, Slot } from "./api.ts"
import { money, when } from "./format.ts"
import { type Heading, message } from "./shared.ts"

export const Details = (p: {
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
          <span class="total">{quote.due_at_start_cents > 0 ? "To pay now" : "To pay"}</span>
          <span class="total">{quote.due_cents > 0 ? fmt(quote.due_cents) : "Free"}</span>
          {quote.due_at_start_cents > 0 && (
            <>
              <span>Due at the start</span>
              <span>{fmt(quote.due_at_start_cents)}</span>
            </>
          )}
        </div>
      )}
      <button class="primary" type="submit" disabled={busy}>
        {quote && quote.due_cents > 0
          ? `Book and pay ${fmt(quote.due_cents)}${quote.due_at_start_cents > 0 ? " now" : ""}`
          : "Book"}
      </button>
      <button type="button" onClick={p.onBack}>
        ‹ Other times
      </button>
    </form>
  )
}
