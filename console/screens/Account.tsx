import { useState } from "preact/hooks"
import { request } from "../api.ts"
import { addPasskey } from "../auth.ts"
import { browserName, dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, Title, value } from "../ui.tsx"

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

/** The person's own account: where they are signed in (sign out everywhere else) and their passkeys. */
export const Account = () => {
  const { zone, session } = useConsole()
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        request<{ data: SignedIn[] }>("GET", "/auth/v1/sessions").then((r) => r.data),
        request<{ data: Passkey[] }>("GET", "/auth/v1/passkeys").then((r) => r.data)
      ]),
    []
  )
  const [name, setName] = useState("")
  const [done, setDone] = useState<string | undefined>(undefined)
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
