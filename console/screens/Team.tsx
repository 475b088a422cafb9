import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Role } from "../types.ts"
import { Alert, Done, Field, Title, value } from "../ui.tsx"

interface Member {
  user_id: string
  email: string
  name: string | null
  role: Role
}
interface Invite {
  id: string
  email: string
  role: Role
  expires_at: string
}

/** The team: invite by email, change a member's role, remove a member or an invite. */
export const Team = () => {
  const { session } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Member[]; invites: Invite[] }>("/team"), [])
  const [form, setForm] = useState({ email: "", role: "staff" })
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction()
  const invite = (e: Event) => {
    e.preventDefault()
    void act.run(
      () => api.post("/team/invites", { email: form.email.trim(), role: form.role }),
      () => (setDone(`Invited ${form.email}.`), setForm({ ...form, email: "" }), reload())
    )
  }
  return (
    <section>
      <Title>Team</Title>
      <Alert text={act.error} />
      <Done text={done} />
      <ul class="cards">
        {data?.data.map((m) => (
          <li key={m.user_id}>
            <strong>{m.name ?? m.email}</strong> <span class="muted">{m.email}</span>
            <div class="hour">
              <select
                aria-label={`Role of ${m.email}`}
                value={m.role}
                onChange={(e) => act.run(() => api.patch(`/team/${m.user_id}`, { role: value(e) }), reload)}
              >
                <option value="owner">Owner</option>
                <option value="staff">Staff</option>
              </select>
              {m.user_id === session.user.id ? null : (
                <button type="button" class="link" onClick={() => act.run(() => api.del(`/team/${m.user_id}`), reload)}>
                  Remove <span class="visually-hidden">{m.email}</span>
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {data?.invites.length ? <h2>Invited</h2> : null}
      <ul>
        {data?.invites.map((i) => (
          <li key={i.id}>
            {i.email} as {i.role}{" "}
            <button type="button" class="link" onClick={() => act.run(() => api.del(`/team/invites/${i.id}`), reload)}>
              Withdraw <span class="visually-hidden">the invite of {i.email}</span>
            </button>
          </li>
        ))}
      </ul>
      <h2>Invite someone</h2>
      <form class="inline" onSubmit={invite}>
        <Field label="Email">
          <input type="email" required value={form.email} onInput={(e) => setForm({ ...form, email: value(e) })} />
        </Field>
        <Field label="Role">
          <select value={form.role} onChange={(e) => setForm({ ...form, role: value(e) })}>
            <option value="staff">Staff: runs the day</option>
            <option value="owner">Owner: also money, team and settings</option>
          </select>
        </Field>
        <button type="submit" disabled={act.busy}>
          Send invite
        </button>
      </form>
    </section>
  )
}
