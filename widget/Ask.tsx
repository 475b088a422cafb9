import { useState } from "preact/hooks"
import { ApiError, type Client, type Org } from "./api.ts"

/**
 * A question before booking: name, email and the question, no account. The business answers by email; more than a
 * few questions from one address an hour are refused with the service's message.
 */
export const Ask = (p: {
  api: Client
  org: Org
  heading: (text: string) => preact.JSX.Element
  onBack: () => void
}) => {
  const [name, setName] = useState("")
  const [email, setEmail] = useState("")
  const [question, setQuestion] = useState("")
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState<string>()
  const [error, setError] = useState<string>()
  const submit = (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    p.api
      .ask({ name: name.trim(), email: email.trim(), question: question.trim() })
      .then(
        () => setSent(email.trim()),
        (x) => setError(x instanceof ApiError ? x.message : "The booking service could not be reached. Try again.")
      )
      .finally(() => setBusy(false))
  }
  if (sent !== undefined)
    return (
      <section>
        {p.heading("Question sent")}
        <div class="ok" role="status">
          <p>
            Thank you. {p.org.name} will answer by email at {sent}.
          </p>
        </div>
        <button type="button" onClick={p.onBack}>
          Back to booking
        </button>
      </section>
    )
  return (
    <form onSubmit={submit}>
      {p.heading(`Ask ${p.org.name} a question`)}
      <p class="note">No account needed: the answer comes by email.</p>
      {error && <p role="alert">{error}</p>}
      <label for="be-ask-name">Name</label>
      <input
        id="be-ask-name"
        autocomplete="name"
        required
        maxLength={120}
        value={name}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <label for="be-ask-email">Email</label>
      <input
        id="be-ask-email"
        type="email"
        autocomplete="email"
        required
        value={email}
        onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
      />
      <label for="be-ask-question">Your question</label>
      <textarea
        id="be-ask-question"
        required
        maxLength={2000}
        rows={4}
        value={question}
        onInput={(e) => setQuestion((e.target as HTMLTextAreaElement).value)}
      />
      <button class="primary" type="submit" disabled={busy}>
        Send the question
      </button>
      <button type="button" onClick={p.onBack}>
        Back
      </button>
    </form>
  )
}
