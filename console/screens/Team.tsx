import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { switchOrg } from "../auth.ts"
import { BASE, navigate } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Role } from "../types.ts"
import { Alert, Confirm, Done, Field, Title, value } from "../ui.tsx"

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
interface Key {
  user_id: string | null
  revoked_at: string | null
}

/** The signed-in person's own row: members are matched to people by email (a member's id is not the person's). */
export const isSelf = (m: { email: string }, email: string) => m.email.toLowerCase() === email.toLowerCase()

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The team: invite by email, change a member's role, remove a member (asked first), leave it yourself. */
export const Team = () => {
  const { session, refreshSession } = useConsole()
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Member[]; invites: Invite[] }>("/team"),
        api.get<{ data: Key[] }>("/api_keys").then((r) => r.data)
      ]),
    []
  )
  const [form, setForm] = useState({ email: "", role: "staff" })
  const [done, setDone] = useState<string | undefined>(undefined)
  const [removing, setRemoving] = useState<Member | undefined>(undefined)
  const act = useAction()
  const [team, keys] = data ?? [undefined, []]
  const owners = team?.data.filter((m) => m.role === "owner").length ?? 0
  const org = session.org?.name ?? "this organisation"
  const invite = (e: Event) => {
    e.preventDefault()
    void act.run(
      () => api.post("/team/invites", { email: form.email.trim(), role: form.role }),
      () => (setDone(`Invited ${form.email}.`), setForm({ ...form, email: "" }), reload())
    )
  }
  const remove = (m: Member) => {
    const self = isSelf(m, session.user.email)
    void act.run(
      async () => {
        await api.del(`/team/${m.user_id}`)
        if (!self) return
        // Gone from this team: on to another of the person's teams, or the screen that says they are on none.
        const other = session.memberships.find((x) => x.org_id !== session.org?.id)
        if (other !== undefined) await switchOrg(other.org_id)
        navigate(BASE)
        await refreshSession()
      },
      () => (self ? undefined : (setRemoving(undefined), setDone(`Removed ${m.email}.`), reload()))
    )
  }
  const changeRole = (m: Member, role: string) =>
    act.run(
      () => api.patch(`/team/${m.user_id}`, { role }),
      () => (isSelf(m, session.user.email) ? void refreshSession() : reload())
    )
  const liveKeys = (m: Member) => keys.filter((k) => k.user_id === m.user_id && k.revoked_at === null).length
  return (
    <section>
      <Title>Team</Title>
      <Alert text={act.error} />
      <Done text={done} />
      <ul class="cards">
        {team?.data.map((m) => {
          const self = isSelf(m, session.user.email)
          return (
            <li key={m.user_id}>
              <strong>{m.name ?? m.email}</strong> <span class="muted">{m.email}</span>
              {self ? <span class="muted"> (you)</span> : null}
              <div class="hour">
                <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => changeRole(m, value(e))}>
                  <option value="owner">Owner</option>
                  <option value="staff">Staff</option>
                </select>
                <button type="button" class="link" onClick={() => setRemoving(m)}>
                  {self ? "Leave the team…" : "Remove…"} {self ? null : <span class="visually-hidden">{m.email}</span>}
                </button>
              </div>
            </li>
          )
        })}
      </ul>
      {removing === undefined ? null : isSelf(removing, session.user.email) ? (
        removing.role === "owner" && owners === 1 ? (
          <Confirm title={`Leave ${org}?`} keep="Stay" cancel={() => setRemoving(undefined)}>
            <p>You are its only owner, so you cannot leave it: make someone else an owner first.</p>
          </Confirm>
        ) : (
          <Confirm
            title={`Leave ${org}?`}
            action={`Leave ${org}`}
            keep="Stay on the team"
            busy={act.busy}
            confirm={() => remove(removing)}
            cancel={() => setRemoving(undefined)}
          >
            <p>
              You lose this console of {org} at once
              {liveKeys(removing) > 0
                ? `, and your ${plural(liveKeys(removing), "API key is", "API keys are")} revoked (with the webhooks they made)`
                : ""}
              . An owner can invite you again.
            </p>
          </Confirm>
        )
      ) : (
        <Confirm
          title={`Remove ${removing.email}?`}
          action={`Remove ${removing.email}`}
          keep="Keep them"
          busy={act.busy}
          confirm={() => remove(removing)}
          cancel={() => setRemoving(undefined)}
        >
          <p>
            They can no longer sign in to {org}
            {liveKeys(removing) > 0
              ? `; their ${plural(liveKeys(removing), "API key stops", "API keys stop")} working and the webhooks those keys made switch off`
              : ""}
            ; the times they teach keep no teacher.
          </p>
        </Confirm>
      )}
      {team?.invites.length ? <h2>Invited</h2> : null}
      <ul>
        {team?.invites.map((i) => (
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
