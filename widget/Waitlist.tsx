import { useState } from "preact/hooks"
import type { Client, Offering, Org, Slot } from "./api.ts"
import { when } from "./format.ts"
import { type Heading, message } from "./shared.ts"

export const Waitlist = (p: {
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
