import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { amount, parseMoney } from "../format.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole } from "../state.ts"
import type { Kind, Offering, Question } from "../types.ts"
import { Alert, Field, value } from "../ui.tsx"
import { Questions, questionsBody } from "./Questions.tsx"

type Draft = Record<string, string | boolean>

const draftOf = (o: Offering | undefined, currency: string): Draft => ({
  kind: o?.kind ?? "class",
  name: o?.name ?? "",
  location: o?.location ?? "",
  duration_minutes: String(o?.duration_minutes ?? 60),
  capacity: String(o?.capacity ?? 10),
  max_per_booking: String(o?.max_per_booking ?? 1),
  price: amount(o?.price_cents ?? 0, currency),
  deposit: o?.deposit_cents == null ? "" : amount(o.deposit_cents, currency),
  buffer_minutes: String(o?.buffer_minutes ?? 0),
  min_notice_minutes: String(o?.min_notice_minutes ?? 0),
  max_advance_days: String(o?.max_advance_days ?? 90),
  max_periods: String(o?.max_periods ?? 1),
  schedule: o?.schedule ?? "hours",
  waiver_required: o?.waiver_required ?? false,
  waitlist_enabled: o?.waitlist_enabled ?? false,
  course: o?.course ?? false
})

/** The body for offerings.create or .update from the form: numbers from what was typed, only the fields that apply. */
export const offeringBody = (d: Draft, questions: Question[], currency: string, creating: boolean) => {
  const kind = d.kind as Kind
  const n = (k: string) => Number(d[k])
  const price = parseMoney(String(d.price), currency)
  const deposit = d.deposit === "" ? null : parseMoney(String(d.deposit), currency)
  if (price === undefined || deposit === undefined) return { error: "Type prices as amounts, such as 12.50." }
  return {
    body: {
      ...(creating ? { kind } : {}),
      name: String(d.name).trim(),
      location: String(d.location).trim(),
      duration_minutes: n("duration_minutes"),
      capacity: n("capacity"),
      max_per_booking: n("max_per_booking"),
      price_cents: price,
      deposit_cents: deposit,
      buffer_minutes: n("buffer_minutes"),
      min_notice_minutes: n("min_notice_minutes"),
      max_advance_days: n("max_advance_days"),
      ...(kind === "rental" ? { max_periods: n("max_periods") } : {}),
      ...(kind === "appointment" ? { schedule: d.schedule } : {}),
      ...(kind === "class" ? { course: d.course === true } : {}),
      waiver_required: d.waiver_required === true,
      waitlist_enabled: d.waitlist_enabled === true,
      questions: questionsBody(questions)
    }
  }
}

/**
 * What an edit changed: the fields of `after` whose value differs from `before` (both bodies made from the form, so a
 * field the form shows as it was is not sent). offerings.update reads a field sent as a change: a `location` sent again
 * would clear the offering's map point (lat, lon, place_id), which the form does not show.
 */
export const changedFields = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])))

/** Creating or editing an offering of any kind, with every field and its questions. */
export const OfferingForm = ({ offering, saved }: { offering?: Offering; saved: (o: Offering) => void }) => {
  const { currency } = useConsole()
  const [d, setD] = useState<Draft>(() => draftOf(offering, currency))
  const [questions, setQuestions] = useState<Question[]>(offering?.questions ?? [])
  const act = useAction()
  const kind = d.kind as Kind
  const set = (k: string) => (e: Event) => setD({ ...d, [k]: value(e) })
  const tick = (k: string) => (e: Event) => setD({ ...d, [k]: (e.currentTarget as HTMLInputElement).checked })
  const submit = (e: Event) => {
    e.preventDefault()
    const made = offeringBody(d, questions, currency, offering === undefined)
    if ("error" in made) return act.setError(made.error)
    if (offering === undefined) return void act.run(() => api.post<Offering>("/offerings", made.body), saved)
    const was = offeringBody(draftOf(offering, currency), offering.questions, currency, false)
    const patch = "error" in was ? made.body : changedFields(was.body, made.body)
    if (Object.keys(patch).length === 0) return saved(offering)
    void act.run(() => api.patch<Offering>(`/offerings/${offering.id}`, patch), saved)
  }
  const num = (k: string, label: string, hint?: string) => (
    <Field label={label} hint={hint}>
      <input type="number" min={0} required value={String(d[k])} onInput={set(k)} />
    </Field>
  )
  return (
    <form onSubmit={submit} class="stack">
      {offering === undefined ? (
        <fieldset>
          <legend>Kind</legend>
          {(["class", "appointment", "rental"] as const).map((k) => (
            <label class="choice" key={k}>
              <input type="radio" name="kind" checked={kind === k} onChange={() => setD({ ...d, kind: k })} />{" "}
              {k === "class"
                ? "Class: a group at set times"
                : k === "appointment"
                  ? "Appointment: one guest at a time"
                  : "Rental: something lent by the hour or day"}
            </label>
          ))}
        </fieldset>
      ) : null}
      <Field label="Name">
        <input required maxLength={200} value={String(d.name)} onInput={set("name")} />
      </Field>
      <Field label="Location (optional)">
        <input value={String(d.location)} onInput={set("location")} />
      </Field>
      <div class="grid">
        {num("duration_minutes", "Length (minutes)")}
        {num("capacity", kind === "class" ? "Places per time" : "How many at once")}
        {num("max_per_booking", "Places per booking, at most")}
        <Field label={`Price (${currency})`}>
          <input inputMode="decimal" required value={String(d.price)} onInput={set("price")} />
        </Field>
        <Field label={`Deposit (${currency}, optional)`}>
          <input inputMode="decimal" value={String(d.deposit)} onInput={set("deposit")} />
        </Field>
        {num("buffer_minutes", "Gap after each booking (minutes)")}
        {num("min_notice_minutes", "Notice needed (minutes)")}
        {num("max_advance_days", "Bookable this many days ahead")}
        {kind === "rental" ? num("max_periods", "Periods per booking, at most") : null}
      </div>
      {kind === "appointment" ? (
        <Field label="Times come from">
          <select value={String(d.schedule)} onChange={set("schedule")}>
            <option value="hours">Weekly opening hours</option>
            <option value="calendar">Times put on a calendar</option>
          </select>
        </Field>
      ) : null}
      <label class="choice">
        <input type="checkbox" checked={d.waiver_required === true} onChange={tick("waiver_required")} /> Guests sign
        the waiver
      </label>
      <label class="choice">
        <input type="checkbox" checked={d.waitlist_enabled === true} onChange={tick("waitlist_enabled")} /> A waitlist
        when full
      </label>
      {kind === "class" ? (
        <label class="choice">
          <input type="checkbox" checked={d.course === true} onChange={tick("course")} /> A course: one booking holds
          every time
        </label>
      ) : null}
      <Questions list={questions} change={setQuestions} />
      {act.code === "waiver_missing" ? (
        <p role="alert" class="alert">
          Guests cannot sign a waiver yet: write its text in <a href={`${BASE}/settings#waiver`}>Settings</a> first,
          then tick "Guests sign the waiver" again.
        </p>
      ) : (
        <Alert text={act.error} />
      )}
      <button type="submit" disabled={act.busy}>
        {offering === undefined ? "Create offering" : "Save changes"}
      </button>
    </form>
  )
}
