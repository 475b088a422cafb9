import { useState } from "preact/hooks"
import { all, api, request } from "../api.ts"
import { money } from "../format.ts"
import { refundable } from "../money.ts"
import { BASE, navigate } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking, Offering } from "../types.ts"
import { Alert, Badge, Done, Loading, Title } from "../ui.tsx"
import { Calendar } from "./Calendar.tsx"
import { FeedBox } from "./FeedBox.tsx"
import { Hours } from "./Hours.tsx"
import { OfferingForm } from "./OfferingForm.tsx"

export const NewOffering = () => (
  <section>
    <Title>New offering</Title>
    <OfferingForm saved={(o) => navigate(`${BASE}/offerings/${o.id}?new=1`)} />
  </section>
)

/**
 * An offering: its fields, photo and times; its calendar feed (owners); pause, and delete with what it would cancel and
 * refund shown first.
 */
export const OfferingPage = ({ id, search }: { id: string; search: string }) => {
  const { currency, owner } = useConsole()
  const { data: o, error, reload } = useLoad(() => api.get<Offering>(`/offerings/${id}`), [id])
  const [done, setDone] = useState<string | undefined>(undefined)
  const [impact, setImpact] = useState<{ count: number; refund: number } | undefined>(undefined)
  const act = useAction()
  if (o === undefined) return <Loading error={error} />
  const onCalendar = o.kind === "class" || (o.kind === "appointment" && o.schedule === "calendar")
  const pause = () =>
    act.run(
      () => api.patch(`/offerings/${id}`, { active: !o.active }),
      () => (setDone(o.active ? "Paused." : "Open for booking again."), reload())
    )
  const preview = () =>
    act.run(
      () => all<Booking>("/bookings", { offering_id: id, from: new Date().toISOString() }),
      (list) => {
        const live = list.filter((b) => b.status !== "cancelled")
        setImpact({ count: live.length, refund: live.reduce((s, b) => s + refundable(b), 0) })
      }
    )
  const remove = () =>
    act.run(
      () => api.del(`/offerings/${id}`, { cancel_bookings: "true" }),
      () => navigate(`${BASE}/offerings`)
    )
  const upload = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0]
    if (file === undefined) return
    void act.run(
      () => request("PUT", `/api/v1/offerings/${id}/photo`, file, "image/jpeg"),
      () => (setDone("Photo saved."), reload())
    )
  }
  return (
    <section>
      <Title>{o.name}</Title>
      {o.active ? null : <Badge tone="warn">paused: guests cannot book it</Badge>}
      {new URLSearchParams(search).has("new") ? (
        <Done
          text={
            !o.active
              ? `Created, paused: ${onCalendar ? "give it times" : "set its weekly hours"} below, then open it for booking.`
              : onCalendar
                ? "Created. Now give it times below."
                : "Created. Now set its weekly hours below."
          }
        />
      ) : null}
      <Alert text={act.error} />
      <Done text={done} />
      {onCalendar ? <Calendar offeringId={id} duration={o.duration_minutes} /> : <Hours offeringId={id} />}
      {owner ? (
        <>
          <h2>Details</h2>
          <OfferingForm
            key={o.id}
            offering={o}
            saved={() => (setDone("Saved."), reload())}
            failed={() => setDone(undefined)}
          />
          <h2>Photo</h2>
          {o.photo_url === null ? (
            <p class="muted">No photo yet.</p>
          ) : (
            <img class="photo" src={o.photo_url} alt={o.name} />
          )}
          <label class="field">
            <span>Upload a photo (JPEG)</span>
            <input type="file" accept="image/jpeg" onChange={upload} />
          </label>
          <FeedBox
            of={{ kind: "offering", offeringId: id }}
            title="Calendar feed"
            what={
              o.kind === "class" ? `the times of ${o.name}, with places booked and left` : `the bookings of ${o.name}`
            }
          />
          <h2>Pause or delete</h2>
          <p>
            <button type="button" class="secondary" disabled={act.busy} onClick={pause}>
              {o.active ? "Pause bookings" : "Open for booking"}
            </button>{" "}
            <button type="button" class="danger" disabled={act.busy} onClick={preview}>
              Delete…
            </button>
          </p>
          {impact === undefined ? null : (
            <section class="panel" aria-label="Delete this offering">
              <p>
                Deleting cancels {impact.count} upcoming {impact.count === 1 ? "booking" : "bookings"} and refunds{" "}
                {money(impact.refund, currency)} paid online. Guests are told.
              </p>
              <button type="button" class="danger" disabled={act.busy} onClick={remove}>
                Delete {o.name}
              </button>{" "}
              <button type="button" class="secondary" onClick={() => setImpact(undefined)}>
                Keep it
              </button>
            </section>
          )}
        </>
      ) : (
        <p class="muted">Owners change an offering's details, photo and prices.</p>
      )}
    </section>
  )
}
