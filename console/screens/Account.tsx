import { useState } from "preact/hooks"
import { request } from "../api.ts"
import { addPasskey } from "../auth.ts"
import { browserName, dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, Title, value } from "../ui.tsx"
import { FeedBox } from "./FeedBox.tsx"

interface SignedIn {
  id: string
  created_at: string
  last_seen_at?: string
  user_agent?: string | null
  current?: boolean
}
interface Passkey {
  id: string
  name: string | null
  created_at: string
  last_used_at?: string | null
}

const ME = { kind: "me" } as const

/**
 * The person's own account: their name, their calendar feed, where they are signed in (sign out everywhere else) and
 * their passkeys.
 */
export const Account = () => {
  const { zone, session, refreshSession } = useConsole()
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        request<{ data: SignedIn[] }>("GET", "/auth/v1/sessions").then((r) => r.data),
        request<{ data: Passkey[] }>("GET", "/auth/v1/passkeys").then((r) => r.data)
      ]),
    []
  )
  const [done, setDone] = useState<string | undefined>(undefined)
  const [name, setName] = useState("")
  const [me, setMe] = useState(session.user.name ?? "")
  const naming = useAction(() => setDone(undefined))
  const rename = (e: Event) => {
    e.preventDefault()
    const trimmed = me.trim()
    if (trimmed === "" || [...trimmed].length > 80) return naming.setError("Enter a name of 1 to 80 characters.")
    void naming.run(
      () => request("PATCH", "/auth/v1/me", { name: trimmed }),
      () => (setDone("Name saved."), void refreshSession())
    )
  }
  const act = useAction()
  const add = (e: Event) => {
    e.preventDefault()
    void act.run(
      () => addPasskey(name.trim()),
      () => (setName(""), setDone("Passkey added."), reload())
    )
  }
  return (
    <section>
      <Title>Your account</Title>
      <p>Signed in as {session.user.email}.</p>
      <Alert text={act.error} />
      <Done text={done} />
      <h2>Your name</h2>
      <form onSubmit={rename} noValidate>
        <Field
          label="Your name"
          hint="Shown at the top of the console and on the Team list of each team you are on."
          error={naming.error}
        >
          <input value={me} maxLength={80} autoComplete="name" onInput={(e) => setMe(value(e))} />
        </Field>
        <button type="submit" disabled={naming.busy}>
          Save name
        </button>
      </form>
      <FeedBox of={ME} title="Your calendar feed" what="the times you teach and the appointments you take" />
      <h2>Where you are signed in</h2>
      <ul>
        {data?.[0].map((s) => (
          <li key={s.id}>
            {browserName(s.user_agent)}, since {dateTime(s.created_at, zone)}
            {s.current ? " (this browser)" : ""}
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="secondary"
        disabled={act.busy}
        onClick={() =>
          act.run(
            () => request("DELETE", "/auth/v1/sessions"),
            () => (setDone("Signed out everywhere else."), reload())
          )
        }
      >
        Sign out everywhere else
      </button>
      <h2>Passkeys</h2>
      {data?.[1].length === 0 ? (
        <p class="muted">No passkeys yet: add one to sign in without waiting for mail.</p>
      ) : null}
      <ul>
        {data?.[1].map((p) => (
          <li key={p.id}>
            {p.name ?? "Passkey"}, added {dateTime(p.created_at, zone)}{" "}
            <button
              type="button"
              class="link"
              onClick={() =>
                act.run(
                  () => request("DELETE", `/auth/v1/passkeys/${p.id}`),
                  () => (setDone("Passkey removed."), reload())
                )
              }
            >
              Remove <span class="visually-hidden">{p.name ?? "passkey"}</span>
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={add}>
        <Field label="Name for the new passkey (optional)">
          <input value={name} onInput={(e) => setName(value(e))} placeholder="Work laptop" />
        </Field>
        <button type="submit" disabled={act.busy}>
          Add a passkey
        </button>
      </form>
    </section>
  )
}
