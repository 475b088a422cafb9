import type { ComponentChildren } from "preact"
import { useContext, useEffect, useRef, useState } from "preact/hooks"
import { ConsoleContext } from "./state.ts"

/** Small shared pieces: every free text is a child (Preact escapes it), never markup. */

export const Alert = ({ text }: { text: string | undefined }) =>
  text === undefined ? null : (
    <p role="alert" class="alert">
      {text}
    </p>
  )

export const Done = ({ text }: { text: string | undefined }) =>
  text === undefined ? null : (
    <p role="status" class="done">
      {text}
    </p>
  )

export const Loading = ({ error }: { error?: string | undefined }) =>
  error !== undefined ? <Alert text={error} /> : <p class="muted">Loading…</p>

export const Empty = ({ children }: { children: ComponentChildren }) => <div class="empty">{children}</div>

/**
 * A screen's title, focused when the screen opens so a keyboard or screen-reader user starts there; the page's title
 * names the screen and the org ("Bookings · Studio Ada · Console").
 */
export const Title = ({ children, actions }: { children: ComponentChildren; actions?: ComponentChildren }) => {
  const h = useRef<HTMLHeadingElement>(null)
  const org = useContext(ConsoleContext)?.session.org?.name
  useEffect(() => h.current?.focus(), [])
  useEffect(() => {
    const screen = h.current?.textContent?.trim()
    document.title = [screen, org, "Console"].filter((x) => x !== undefined && x !== "").join(" · ")
  })
  return (
    <div class="title">
      <h1 tabIndex={-1} ref={h}>
        {children}
      </h1>
      {actions === undefined ? null : <div class="actions">{actions}</div>}
    </div>
  )
}

export const Field = ({
  label,
  children,
  hint,
  error
}: {
  label: string
  children: ComponentChildren
  hint?: string
  /** What is wrong with the value, said beside it (the API's refusal of this field). */
  error?: string | undefined
}) => (
  // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child
  <label class={error === undefined ? "field" : "field invalid"}>
    <span>{label}</span>
    {children}
    {hint === undefined ? null : <small class="muted">{hint}</small>}
    <FieldError text={error} />
  </label>
)

/** A field's error, beside it: announced when it appears. */
export const FieldError = ({ text }: { text: string | undefined }) =>
  text === undefined ? null : (
    <small class="error" role="alert">
      {text}
    </small>
  )

export const Badge = ({ children, tone }: { children: ComponentChildren; tone?: "good" | "warn" | "bad" }) => (
  <span class={`badge ${tone ?? ""}`}>{children}</span>
)

export const statusTone = (s: string) => (s === "confirmed" ? "good" : s === "held" ? "warn" : "bad")

/** The value of an input from an event. */
export const value = (e: Event) => (e.currentTarget as HTMLInputElement).value

/**
 * Asks once before something that cannot be undone: what will stop, said in `children`, then one button that does it
 * and one that keeps things as they are. Its heading takes focus, so a keyboard user is at the question.
 */
export const Confirm = ({
  title,
  action,
  keep,
  busy,
  confirm,
  cancel,
  children
}: {
  title: string
  action?: string
  keep: string
  busy?: boolean
  confirm?: () => void
  cancel: () => void
  children: ComponentChildren
}) => {
  const h = useRef<HTMLHeadingElement>(null)
  useEffect(() => h.current?.focus(), [])
  return (
    <section class="panel confirm" aria-label={title}>
      <h2 tabIndex={-1} ref={h}>
        {title}
      </h2>
      {children}
      <div class="actions wrap">
        {action === undefined || confirm === undefined ? null : (
          <button type="button" class="danger" disabled={busy} onClick={confirm}>
            {action}
          </button>
        )}
        <button type="button" class="secondary" onClick={cancel}>
          {keep}
        </button>
      </div>
    </section>
  )
}

export interface Asked {
  readonly title: string
  readonly text: ComponentChildren
  readonly action: string
  readonly keep?: string
  readonly run: () => Promise<unknown>
}

/** One question at a time for a screen: `ask` opens it; the panel (placed where the screen wants it) does it or not. */
export const useConfirm = (busy: boolean) => {
  const [q, setQ] = useState<Asked | undefined>(undefined)
  const panel =
    q === undefined ? null : (
      <Confirm
        title={q.title}
        action={q.action}
        keep={q.keep ?? "Keep it"}
        busy={busy}
        confirm={() => void q.run().then(() => setQ(undefined))}
        cancel={() => setQ(undefined)}
      >
        {q.text}
      </Confirm>
    )
  return { panel, ask: setQ }
}
