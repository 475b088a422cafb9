import { useState } from "preact/hooks"
import { describe } from "../api.ts"
import { mailLink, signInWithPasskey } from "../auth.ts"
import { Alert, Field, value } from "../ui.tsx"

/** Sign in without a password: a link by mail, or a passkey this browser or a phone holds. */
export const SignIn = ({ signedIn }: { signedIn: () => void }) => {
  const [email, setEmail] = useState("")
  const [sent, setSent] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const failed = new URLSearchParams(location.search).get("error")
  const send = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await mailLink(email.trim())
      setSent(true)
    } catch (err) {
      setError(describe(err))
    } finally {
      setBusy(false)
    }
  }
  const passkey = async () => {
    setError(undefined)
    try {
      await signInWithPasskey()
      signedIn()
    } catch (err) {
      setError(describe(err))
    }
  }
  return (
    <main class="signin">
      <h1>Sign in to the console</h1>
      {failed === null ? null : <Alert text="That sign-in link has expired or was used already. Ask for a new one." />}
      {sent ? (
        <div role="status" class="done">
          <h2>Check your mail</h2>
          <p>
            If <strong>{email}</strong> belongs to a team, a sign-in link is on its way. It works once, for 15 minutes,
            in this browser.
          </p>
          <button type="button" class="link" onClick={() => setSent(false)}>
            Use another address
          </button>
        </div>
      ) : (
        <form onSubmit={send}>
          <Field label="Email">
            <input
              type="email"
              required
              autoComplete="email webauthn"
              value={email}
              onInput={(e) => setEmail(value(e))}
            />
          </Field>
          <button type="submit" disabled={busy}>
            Email me a sign-in link
          </button>
        </form>
      )}
      <p class="or">or</p>
      <button type="button" class="secondary" onClick={passkey}>
        Sign in with a passkey
      </button>
      <Alert text={error} />
    </main>
  )
}
