import { BASE } from "../router.ts"
import { useConsole } from "../state.ts"

/** A new org's first screen: what to do first, in order. */
export const FirstSteps = () => {
  const { owner } = useConsole()
  return (
    <div class="empty first">
      <h2>Welcome! Two steps to your first booking</h2>
      <ol>
        <li>
          <strong>Create an offering</strong>: a class with weekly times, an appointment with opening hours, or a
          rental.{" "}
          {owner ? <a href={`${BASE}/offerings/new`}>Create your first offering</a> : "Ask an owner to create one."}
        </li>
        <li>
          <strong>Book a guest</strong>: take a booking over the phone, or put the widget on your site (Settings shows
          the code). <a href={`${BASE}/bookings/new`}>Book your first guest</a>
        </li>
      </ol>
    </div>
  )
}
