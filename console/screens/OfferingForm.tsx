import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { type FieldError, rootOf, screenName } from "../fieldErrors.ts"
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
  description: o?.description ?? "",
  location: o?.location ?? "",
  lat: o?.lat == null ? "" : String(o.lat),
  lon: o?.lon == null ? "" : String(o.lon),
  duration_minutes: String(o?.duration_minutes ?? 60),
  capacity: String(o?.capacity ?? 10),
  max_per_booking: String(o?.max_per_booking ?? 1),
  price: amount(o?.price_cents ?? 0, currency),
  guest_price: o?.guest_price_cents == null ? "" : amount(o.guest_price_cents, currency),
  deposit_kind: o?.deposit_percent != null ? "percent" : o?.deposit_cents != null ? "amount" : "none",
  deposit: o?.deposit_cents == null ? "" : amount(o.deposit_cents, currency),
  deposit_percent: o?.deposit_percent == null ? "" : String(o.deposit_percent),
  slot_interval_minutes: o?.slot_interval_minutes == null ? "" : String(o.slot_interval_minutes),
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
  const optional = (k: string) => (String(d[k]).trim() === "" ? null : Number(d[k]))
  const price = parseMoney(String(d.price), currency)
  const deposit = d.deposit_kind !== "amount" ? null : parseMoney(String(d.deposit), currency)
  const guestPrice = d.guest_price === "" ? null : parseMoney(String(d.guest_price), currency)
  if (price === undefined || deposit === undefined || guestPrice === undefined)
    return { error: "Type prices as amounts, such as 12.50." }
  const lat = optional("lat")
  const lon = optional("lon")
  if ((lat === null) !== (lon === null)) return { error: "Give both the latitude and the longitude, or neither." }
  return {
    body: {
      ...(creating ? { kind } : {}),
      name: String(d.name).trim(),
      description: String(d.description).trim(),
      location: String(d.location).trim(),
      lat,
      lon,
      duration_minutes: n("duration_minutes"),
      capacity: n("capacity"),
      max_per_booking: n("max_per_booking"),
      price_cents: price,
      deposit_cents: deposit,
      deposit_percent: d.deposit_kind === "percent" ? optional("deposit_percent") : null,
      ...(kind === "appointment" ? { guest_price_cents: guestPrice } : {}),
      ...(kind === "class" ? {} : { slot_interval_minutes: optional("slot_interval_minutes") }),
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

/** The API's bounds of each number the form takes (engine/schema/offering.ts), as the inputs' min and max. */
export const LIMITS = {
  duration_minutes: [5, 43200],
  capacity: [1, 10000],
  max_per_booking: [1, 10000],
  buffer_minutes: [0, 1440],
  min_notice_minutes: [0, 43200],
  max_advance_days: [1, 730],
  max_periods: [1, 60],
  slot_interval_minutes: [5, 1440],
  deposit_percent: [1, 99]
} as const
const OPTIONAL = new Set(["slot_interval_minutes", "deposit_percent"])
export const NAME_MAX = 120

/** The fields the form puts an error beside; a refusal of another is said at the bottom, with its path in words. */
const SHOWN = new Set([
  ...Object.keys(LIMITS),
  "name",
  "description",
  "location",
  "lat",
  "lon",
  "price_cents",
  "guest_price_cents",
  "deposit_cents",
  "questions"
])
const elsewhere = (f: FieldError | undefined) =>
  f === undefined || SHOWN.has(rootOf(f.path)) ? undefined : `${screenName(f.path)}: ${f.text}`

/** Creating or editing an offering of any kind, with every field and its questions. */
export const OfferingForm = ({
  offering,
  saved,
  failed
}: {
  offering?: Offering
  saved: (o: Offering) => void
  failed?: () => void
}) => {
  const { currency } = useConsole()
  const [d, setD] = useState<Draft>(() => draftOf(offering, currency))
  const [questions, setQuestions] = useState<Question[]>(offering?.questions ?? [])
  const act = useAction(failed)
  const kind = d.kind as Kind
  const set = (k: string) => (e: Event) => setD({ ...d, [k]: value(e) })
  const tick = (k: string) => (e: Event) => setD({ ...d, [k]: (e.currentTarget as HTMLInputElement).checked })
  const submit = (e: Event) => {
    e.preventDefault()
    const made = offeringBody(d, questions, currency, offering === undefined)
    if ("error" in made) return act.setError(made.error ?? "")
    // A new appointment or rental would be bookable at once on default hours: it starts paused until its times are set.
    const paused = kind === "class" ? {} : { active: false }
    if (offering === undefined)
      return void act.run(() => api.post<Offering>("/offerings", { ...made.body, ...paused }), saved)
    const was = offeringBody(draftOf(offering, currency), offering.questions, currency, false)
    const patch = "error" in was ? made.body : changedFields(was.body, made.body)
    if (Object.keys(patch).length === 0) return saved(offering)
    void act.run(() => api.patch<Offering>(`/offerings/${offering.id}`, patch), saved)
  }
  const num = (k: keyof typeof LIMITS, label: string, hint?: string) => (
    <Field label={label} hint={hint} error={act.at(k)}>
      <input
        type="number"
        min={LIMITS[k][0]}
        max={LIMITS[k][1]}
        required={!OPTIONAL.has(k)}
        value={String(d[k])}
        onInput={set(k)}
      />
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
      <Field label="Name" error={act.at("name")}>
        <input required maxLength={NAME_MAX} value={String(d.name)} onInput={set("name")} />
      </Field>
      <Field label="Description (optional)" error={act.at("description")}>
        <textarea rows={3} maxLength={2000} value={String(d.description)} onInput={set("description")} />
      </Field>
      <Field label="Location (optional)" error={act.at("location")}>
        <input maxLength={500} value={String(d.location)} onInput={set("location")} />
      </Field>
      <div class="grid">
        <Field label="Latitude (optional)" hint="The meeting point on the map, such as 52.37" error={act.at("lat")}>
          <input inputMode="decimal" value={String(d.lat)} onInput={set("lat")} />
        </Field>
        <Field label="Longitude (optional)" hint="Such as 4.89" error={act.at("lon")}>
          <input inputMode="decimal" value={String(d.lon)} onInput={set("lon")} />
        </Field>
      </div>
      <div class="grid">
        {num("duration_minutes", "Length (minutes)")}
        {num("capacity", kind === "class" ? "Places per time" : "How many at once")}
        {num("max_per_booking", "Places per booking, at most")}
        <Field label={`Price (${currency})`} error={act.at("price_cents")}>
          <input inputMode="decimal" required value={String(d.price)} onInput={set("price")} />
        </Field>
        {kind === "appointment" ? (
          <Field
            label={`Each extra guest (${currency}, optional)`}
            hint="Empty: each pays the full price"
            error={act.at("guest_price_cents")}
          >
            <input inputMode="decimal" value={String(d.guest_price)} onInput={set("guest_price")} />
          </Field>
        ) : null}
        <Field label="Deposit paid online">
          <select value={String(d.deposit_kind)} onChange={set("deposit_kind")}>
            <option value="none">None: the whole price</option>
            <option value="amount">An amount</option>
            <option value="percent">A percent of the price</option>
          </select>
        </Field>
        {d.deposit_kind === "amount" ? (
          <Field label={`Deposit (${currency})`} error={act.at("deposit_cents")}>
            <input inputMode="decimal" required value={String(d.deposit)} onInput={set("deposit")} />
          </Field>
        ) : null}
        {d.deposit_kind === "percent" ? num("deposit_percent", "Deposit (percent)") : null}
        {num("buffer_minutes", "Gap after each booking (minutes)")}
        {num("min_notice_minutes", "Notice needed (minutes)")}
        {num("max_advance_days", "Bookable this many days ahead")}
        {kind === "rental" ? num("max_periods", "Periods per booking, at most") : null}
        {kind === "class"
          ? null
          : num("slot_interval_minutes", "Minutes between start times (optional)", "Empty: back to back")}
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
      <Questions list={questions} change={setQuestions} error={act.at} />
      {act.code === "waiver_missing" ? (
        <p role="alert" class="alert">
          Guests cannot sign a waiver yet: write its text in <a href={`${BASE}/settings#waiver`}>Settings</a> first,
          then tick "Guests sign the waiver" again.
        </p>
      ) : (
        <Alert text={act.field === undefined ? act.error : elsewhere(act.field)} />
      )}
      {offering === undefined && kind !== "class" ? (
        <p class="muted">
          It is created paused, so no one books it before you have set its times; open it for booking on its page.
        </p>
      ) : null}
      <button type="submit" disabled={act.busy}>
        {offering === undefined ? "Create offering" : "Save changes"}
      </button>
    </form>
  )
}
