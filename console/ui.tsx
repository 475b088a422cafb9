import type { ComponentChildren } from "preact"
import { useEffect, useRef } from "preact/hooks"

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

/** A screen's title, focused when the screen opens so a keyboard or screen-reader user starts there. */
export const Title = ({ children, actions }: { children: ComponentChildren; actions?: ComponentChildren }) => {
  const h = useRef<HTMLHeadingElement>(null)
  useEffect(() => h.current?.focus(), [])
  return (
    <div class="title">
      <h1 tabIndex={-1} ref={h}>
        {children}
      </h1>
      {actions === undefined ? null : <div class="actions">{actions}</div>}
    </div>
  )
}

export const Field = ({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) => (
  // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child
  <label class="field">
    <span>{label}</span>
    {children}
    {hint === undefined ? null : <small class="muted">{hint}</small>}
  </label>
)

export const Badge = ({ children, tone }: { children: ComponentChildren; tone?: "good" | "warn" | "bad" }) => (
  <span class={`badge ${tone ?? ""}`}>{children}</span>
)

export const statusTone = (s: string) => (s === "confirmed" ? "good" : s === "held" ? "warn" : "bad")

/** The value of an input from an event. */
export const value = (e: Event) => (e.currentTarget as HTMLInputElement).value
