/** Guest mails an org may word its own way, and a preview with sample values (as text: nothing is rendered as HTML). */
export const MAIL_KINDS = [
  "confirmed",
  "held",
  "cancelled",
  "nudged",
  "called_off",
  "moved",
  "resend",
  "time_cancelled"
]

export const SAMPLE: Record<string, string> = {
  reference: "BK-7Q2M",
  offering: "Morning yoga",
  when: "Friday 4 December, 09:00",
  page_url: "https://example.com/b/…",
  waiver_url: "https://example.com/w/…",
  pay_url: "https://example.com/pay/…",
  note: "See you there!"
}

/** A template with its placeholders filled in; unknown placeholders are left as they are. */
export const preview = (template: string, values: Record<string, string> = SAMPLE) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) => values[name] ?? all)

/** The placeholders of a template that no mail fills in (a typo such as {{refrence}}), each once. */
export const unknownPlaceholders = (template: string, values: Record<string, string> = SAMPLE) => [
  ...new Set([...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).filter((name) => !(name in values)))
]
